"""The catalogue of syntax errors: bad snippets and the messages they stand for.

:mod:`spbc.lang.parse` matches a real parse error against the errors of these snippets
(same parser state, same accepted tokens) and words the diagnostic with the
matching case. The tests parse every snippet and check it yields its own case.
This module does not import Lark: it sees tokens as strings with ``type``,
``line``, ``column`` and ``start_pos`` attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard


class TokenLike(Protocol):
    """What this module reads of a parser token."""

    type: str
    line: int
    column: int
    start_pos: int


def is_token(item: Any, *types: str) -> TypeGuard[TokenLike]:
    """Whether a parser stack item is a token of one of ``types``."""
    return isinstance(item, str) and getattr(item, "type", None) in types


VALUE_WORDS = "a number, a name, a string, yes/no, a range like 2..4 or a list [a, b]"

# How messages name what the parser expected, by terminal; never a terminal's own name.
TERMINAL_WORDS: dict[str, str] = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "YES": "yes",
    "NO": "no",
    "INCLUDE": "include",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LSQB": "'['",
    "RSQB": "']'",
    "EQUAL": "'='",
    "COMMA": "','",
    "SEMICOLON": "';'",
    "DOTS": "'..'",
    "$END": "the end of the file",
}


@dataclass(frozen=True)
class Context:
    """What a message may mention about the place of a syntax error."""

    token: TokenLike  # the token the parser could not take
    stack: Sequence[Any]  # the parser's value stack: tokens and subtrees before the error

    def last(self, *types: str) -> TokenLike | None:
        """The last token of one of ``types`` on the stack."""
        for item in reversed(self.stack):
            if is_token(item, *types):
                return item
        return None

    def setting(self) -> str:
        """The name of the setting being read: the name before the last '='."""
        equal = self.last("EQUAL")
        names = [item for item in self.stack if is_token(item, "NAME")]
        if equal is not None:
            names = [name for name in names if name.start_pos < equal.start_pos]
        return str(names[-1]) if names else "?"

    def header(self) -> str:
        """The words of the block header just read: ``card lumberjack``."""
        brace = self.last("LBRACE")
        start = brace.start_pos if brace is not None else -1
        words = [str(item) for item in self.stack if is_token(item, "NAME") and item.start_pos > start]
        return " ".join(words)

    def found(self) -> str:
        """The token found, in words."""
        return describe_token(self.token)


def describe_token(token: TokenLike) -> str:
    """A token as the author would name it: ``'}'``, ``the number 4``, ``the name 'cost'``."""
    if token.type == "$END":
        return "the end of the file"
    if token.type == "INT":
        return f"the number {token}"
    if token.type == "STRING":
        return f"the string {token}"
    if token.type == "NAME":
        return f"the name '{token}'"
    return f"'{token}'"


def expected_words(accepts: Iterable[str]) -> str:
    """What the parser would have taken, in words: ``',' or ']'``."""
    words = sorted({TERMINAL_WORDS.get(name, "something else") for name in accepts})
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


@dataclass(frozen=True)
class SyntaxCase:
    """One kind of syntax error: its code, bad snippets that show it, and its message."""

    code: str
    examples: tuple[str, ...]
    message: Callable[[Context], str]
    at: Callable[[Context], TokenLike | None] | None = None  # the caret; default: the token found


# A parser state depends on what came just before the error, so examples come in
# every context: at the top of a file, after each shape of block or an include, and
# inside a block after each kind of entry.
_TOP = ("", "a { } ", "a { k = 1 } ", "a b { } ", "a b { k = 1 } ", 'include "f" ')
_INSIDE = ("", "a = 1; ", "a = 1, ", "k { } ", "k { a = 1 } ", "k j { } ", "k j { a = 1 } ")

#: The catalogue of syntax errors, by label. The first case with an example that
#: stops in the same state at the same kind of token wins.
SYNTAX_CASES: dict[str, SyntaxCase] = {
    "missing_equals": SyntaxCase(
        "SPB103",
        ("card x { cost 3 }", 'card x { name "a" }', "card x { cost = 3 copies 4 }",
         "card x { cost [a] }", "game { players 2..4 }", "card x { cost }",
         "card x { ability discount { amount 1 } }", "card x { cost = 3 copies }",
         "card x { cost = 3; copies }", "card x { ability a { } copies }",
         'card x { cost = 3 name "a" }', "card x { cost = 3 copies [a] }",
         "card x { cost = 3 copies ..", "card x { cost ..", "card x { a = 1 b }"),
        lambda c: f"expected '=' after setting name '{c.setting()}'",
    ),
    "name_value_without_equals": SyntaxCase(
        "SPB103",
        ("card x { deck worker }", "card x { deck worker cost = 3 }", "card x { open yes }",
         "card x { cost = 3 deck worker }", "card x { deck worker 3 }",
         "card x { cost = 3 deck worker copies = 1 }", "card x { deck worker =",
         'card x { deck worker "a" }', "card x { deck worker [a] }", "card x { deck worker",
         "card x { cost = 3 deck worker", "card x { deck worker ..", "card x { deck worker ]"),
        lambda c: f"expected '=' after setting name '{c.header().split()[0]}'",
        lambda c: c.last("NAME"),
    ),
    "missing_value": SyntaxCase(
        "SPB104",
        ("card x { cost = }", "card x { cost = = 3 }", "card x { cost = ; }",
         "card x { cost = {", "card x { cost = ]", "card x { cost = ..", "card x { cost = ,",
         "card x { cost =")
        + tuple(f"card x {{ d = [{items}{bad}" for items in ("", "a, ", "a, b, ", "a, b, c, ")
                for bad in ("=", ",", "{", "..", ";", "}")),
        lambda c: f"expected a value: {VALUE_WORDS}",
    ),
    "value_is_next_setting": SyntaxCase(
        "SPB104",
        ("card x { cost =\n copies = 3 }", "card x { cost = copies = 3 }"),
        lambda c: (f"expected a value after '{c.setting()} =': the next setting "
                   f"'{c.last('NAME')}' was read as its value"),
        lambda c: c.last("NAME"),
    ),
    "block_without_brace": SyntaxCase(
        "SPB107",
        ("card x cost = 3", "card x y", "card x 3", "card x }", 'card x "y"',
         "card x", "game", "card 3", 'card "x" {', "card x =", "card [",
         "card ..", "card }", "card ]", "card ;", "card x [", "card x ..", "card x ]",
         "card x ;", "card x ,"),
        lambda c: f"expected '{{' to open the block '{c.header()}', found {c.found()}",
    ),
    "bad_list": SyntaxCase(
        "SPB108",
        tuple(
            f"card x {{ d = [{items} {bad}"
            for items in ("a", "a, b", "a, b, c", "1", "1, 2", '"s"', '"s", "t"', "yes", "a, no",
                          "[a]", "a, [b]")
            for bad in ("b", "3", '"t"', "=", "{", "}", ";", "..", "[c]", "yes")
            if not (bad == ".." and items[-1].isdigit())  # that starts a range
        )
        + ("card x { d = [a", "card x { d = [a, b", "card x { d = [1..2 3]",
           "card x { d = [a, 1..2 3]"),
        lambda c: f"expected ',' or ']' after a list item, found {c.found()}",
    ),
    "bad_range": SyntaxCase(
        "SPB109",
        ("game { players = 2.. }", "game { players = 2..a }", "game { players = 2..",
         "game { players = 2..[4] }", 'game { players = 2.."4"', "game { players = 2..=",
         "game { players = 2..{", "game { players = 2....", "game { players = 2..;",
         "game { players = 2..]", "game { players = 2..,", "game { p = [2..]"),
        lambda c: f"expected a number after '..' to end the range, like 2..4; found {c.found()}",
    ),
    "bad_include": SyntaxCase(
        "SPB110",
        ("include base", "include 3", "include", "include {", "include =", "include [a]",
         "include }", "include ..", "include ;", "include ]", "include include"),
        lambda c: ("expected a file name in quotes after 'include', like "
                   f"include \"base/workers.spb\"; found {c.found()}"),
    ),
    "setting_outside_block": SyntaxCase(
        "SPB111",
        tuple(f"{before}cost = 3" for before in _TOP),
        lambda c: (f"a setting outside any block: '{c.setting()} = ...' belongs inside "
                   "a block like card ID { ... }"),
        lambda c: c.last("NAME"),
    ),
    "top_level_junk": SyntaxCase(
        "SPB111",
        tuple(f"{before}{bad}" for before in _TOP
              for bad in ("3", '"x"', "[a]", "= 3", "..", "{ }", ";", ",", "]")),
        lambda c: f"expected a block like card ID {{ ... }} or an include, found {c.found()}",
    ),
    "two_values": SyntaxCase(
        "SPB112",
        tuple(
            f"card x {{ a = {value} {bad}"
            for value in ("1", '"s"', "n", "yes", "no", "1..2", "[b]", "[]", "[b,]", "[b, c]",
                          "[b, c,]")
            for bad in ("3", '"t"', "[c]", "{", "]", "..", "=")
            # 'n =' and 'n {' are other cases; '1 ..' starts a range
            if not (value == "n" and bad in ("=", "{")) and not (value == "1" and bad == "..")
        ),
        lambda c: (f"expected a new setting or '}}' after the value of '{c.setting()}', "
                   f"found {c.found()}; a setting holds one value (write a list [a, b] for several)"),
    ),
    "junk_in_block": SyntaxCase(
        "SPB114",
        tuple(f"{block} {{ {before}{bad}" for block in ("card x", "game") for before in _INSIDE
              for bad in ("= 3", "3", '"s"', "[a]", "..", "{", ";", ",", "]")),
        lambda c: f"expected a setting name or '}}', found {c.found()}",
    ),
}


def refine_two_names(ctx: Context) -> str:
    """The label for ``NAME NAME`` not followed by '{'.

    ``card x }``, ``deck worker }`` and ``ability discount }`` stop in one parser
    state. At the top of a file or after ``ability`` it is a block header missing its
    '{'; anywhere else inside a block, a setting missing its '=' (``deck worker``).
    """
    nested = ctx.last("LBRACE") is not None
    if nested and not ctx.header().startswith("ability "):
        return "name_value_without_equals"
    return "block_without_brace"
