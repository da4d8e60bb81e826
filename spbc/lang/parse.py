"""Parse one rules file into a :class:`spbc.lang.syntax.File`.

Lark stays inside this module: the grammar is ``grammar.lark`` (LALR), a Transformer
builds syntax nodes and nothing else, and every Lark error is translated into a
:class:`~spbc.source.diagnostics.Diagnostic` in the author's words. The translation picks a
case from :data:`SYNTAX_CASES`, a catalogue of bad snippets, with :func:`match_case`
(Lark's ``match_examples`` idea, keyed on the LALR state); the same catalogue drives a test.

>>> parse_text('colour green { name = "green" }', "x.spb").items[0].id.value
'green'
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from lark import (
    Lark,
    Token,
    Transformer,
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
    v_args,
)
from lark.tree import Meta, Tree

from spbc.lang import syntax
from spbc.source.diagnostics import Diagnostic, RulesError
from spbc.source.span import Span
from spbc.lang.syntax_errors import SYNTAX_CASES, Context, expected_words, refine_two_names


@functools.cache
def _parser() -> Lark:
    return Lark.open(
        str(Path(__file__).with_name("grammar.lark")),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
    )


# --- building nodes ----------------------------------------------------------------------


def _between(path: str, first: Token, last: Token) -> Span:
    """From the start of ``first`` to the end of ``last``."""
    # every token the lexer makes has its place; Lark types them as optional for tokens made by hand
    assert first.line is not None and first.column is not None, first
    assert last.end_line is not None and last.end_column is not None, last
    return Span(path, first.line, first.column, last.end_line, last.end_column)


def _token_span(path: str, token: Token) -> Span:
    return _between(path, token, token)


def _unescape(quoted: str) -> str:
    out: list[str] = []
    chars = iter(quoted[1:-1])
    for char in chars:
        if char == "\\":
            escaped = next(chars)
            out.append({"n": "\n", "t": "\t"}.get(escaped, escaped))
        else:
            out.append(char)
    return "".join(out)


@v_args(meta=True)
class _Builder(Transformer[Token, tuple[syntax.Item, ...]]):
    """Turns Lark's tree into syntax nodes; checks nothing."""

    def __init__(self, path: str) -> None:
        super().__init__(visit_tokens=False)
        self._path = path

    def _span(self, meta: Meta) -> Span:
        return Span(self._path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _name(self, token: Token) -> syntax.Name:
        return syntax.Name(str(token), _token_span(self._path, token))

    def start(self, meta: Meta, children: list[syntax.Item]) -> tuple[syntax.Item, ...]:
        return tuple(children)

    def include(self, meta: Meta, children: list[Token]) -> syntax.Include:
        (token,) = children
        path = syntax.Str(_unescape(token), _token_span(self._path, token))
        return syntax.Include(path, self._span(meta))

    def extends(self, meta: Meta, children: list[Token]) -> syntax.Extends:
        (token,) = children
        path = syntax.Str(_unescape(token), _token_span(self._path, token))
        return syntax.Extends(path, self._span(meta))

    def remove(self, meta: Meta, children: list[Token]) -> syntax.Remove:
        kind, ident = children
        return syntax.Remove(self._name(kind), self._name(ident), self._span(meta))

    def block(self, meta: Meta, children: list[Any]) -> syntax.Block:  # override, kind, id or None, entries
        override, kind, ident, *entries = children
        name = self._name(ident) if ident is not None else None
        word = self._name(override) if override is not None else None
        return syntax.Block(self._name(kind), name, tuple(entries), self._span(meta), word)

    def setting(self, meta: Meta, children: list[Any]) -> syntax.Setting:  # key, value
        key, value = children
        return syntax.Setting(self._name(key), value, self._span(meta))

    def int(self, meta: Meta, children: list[Token]) -> syntax.Int:
        return syntax.Int(int(children[0]), self._span(meta))

    def string(self, meta: Meta, children: list[Token]) -> syntax.Str:
        return syntax.Str(_unescape(children[0]), self._span(meta))

    def name(self, meta: Meta, children: list[Token]) -> syntax.Name:
        return syntax.Name(str(children[0]), self._span(meta))

    def yes(self, meta: Meta, children: list[Token]) -> syntax.Bool:
        return syntax.Bool(True, self._span(meta))

    def no(self, meta: Meta, children: list[Token]) -> syntax.Bool:
        return syntax.Bool(False, self._span(meta))

    def range(self, meta: Meta, children: list[Token]) -> syntax.Range:
        low, _, high = children
        low_node = syntax.Int(int(low), _token_span(self._path, low))
        high_node = syntax.Int(int(high), _token_span(self._path, high))
        return syntax.Range(low_node, high_node, self._span(meta))

    def list(self, meta: Meta, children: list[syntax.Value]) -> syntax.List:
        return syntax.List(tuple(children), self._span(meta))


# --- translating syntax errors -----------------------------------------------------------


@functools.cache
def _catalogue_errors() -> tuple[tuple[str, int, frozenset[str], str], ...]:
    """Every catalogue example's error: (label, parser state, accepted terminals, token type)."""
    found = []
    for label, case in SYNTAX_CASES.items():
        for example in case.examples:
            try:
                _parser().parse(example)
            except UnexpectedToken as error:
                found.append((label, error.state.position, frozenset(error.accepts), error.token.type))
            else:
                raise AssertionError(f"catalogue example parses: {example!r}")
    return tuple(found)


def match_case(error: UnexpectedToken) -> str | None:
    """The label of the catalogue case whose example stops where ``error`` stops.

    Like Lark's ``match_examples``, but a state is the parser's current LALR state
    (not its depth), so one example covers every nesting level; an example that also
    stopped at the same kind of token wins over one that only shares the state.
    """
    candidate: str | None = None
    accepts = frozenset(error.accepts)
    for label, state, example_accepts, token_type in _catalogue_errors():
        if state != error.state.position or example_accepts != accepts:
            continue
        if token_type == error.token.type:
            return label
        candidate = candidate or label
    return candidate


def _unclosed(path: str, ctx: Context, include: bool) -> Diagnostic:
    """The innermost open '{' has no '}': at the end of the file, or an include inside it."""
    brace = ctx.last("LBRACE")
    assert isinstance(brace, Token), "a block is open"
    index = next(i for i, item in enumerate(ctx.stack) if item is brace)  # tokens compare as text
    words: list[str] = []
    for item in reversed(ctx.stack[:index]):
        if not (isinstance(item, Token) and item.type == "NAME"):
            break
        words.insert(0, str(item))
    return Diagnostic(
        "SPB105",
        f"unclosed block: '{{' at {brace.line}:{brace.column} has no matching '}}'",
        _token_span(path, brace),
        hint=f"add '}}' where the block '{' '.join(words)}' ends"
        + ("; 'include' is only allowed outside blocks" if include else ""),
    )


def _translate_token(error: UnexpectedToken, path: str) -> Diagnostic:
    ctx = Context(error.token, tuple(error.state.value_stack))
    at_end = error.token.type == "$END" and "RBRACE" in error.accepts
    previous = ctx.stack[-1] if ctx.stack else None
    # where a name may stand, the contextual lexer reads 'include' as a name
    include = error.token.type == "INCLUDE" or (
        error.token.type == "STRING" and isinstance(previous, Token) and previous == "include"
    )
    if (at_end or include) and ctx.last("LBRACE"):
        return _unclosed(path, ctx, include)
    at_item_start = not ctx.stack or not isinstance(ctx.stack[-1], Token)
    if error.token.type == "RBRACE" and ctx.last("LBRACE") is None and at_item_start:
        return Diagnostic(
            "SPB106", "unmatched '}': no block is open here", _token_span(path, error.token)
        )
    label = match_case(error)
    if label is None:
        message = f"unexpected {ctx.found()}; expected {expected_words(set(error.accepts))}"
        return Diagnostic("SPB113", message, _token_span(path, error.token))
    if label in ("name_value_without_equals", "block_without_brace"):
        label = refine_two_names(ctx)
    case = SYNTAX_CASES[label]
    at = case.at(ctx) if case.at is not None else None
    caret = at if isinstance(at, Token) else error.token  # where the case puts no caret: the token found
    return Diagnostic(case.code, case.message(ctx), _token_span(path, caret))


def _translate_characters(error: UnexpectedCharacters, text: str, path: str) -> Diagnostic:
    line_text = text.split("\n")[error.line - 1].removesuffix("\r")  # lines as Lark counts them
    char = error.char
    if char == '"':
        end = len(line_text) + 1
        span = Span(path, error.line, error.column, error.line, end)
        return Diagnostic(
            "SPB102",
            "unterminated string: the closing '\"' is missing on this line",
            span,
            hint='strings end on the line they start; write a line break as \\n',
        )
    span = Span(path, error.line, error.column, error.line, error.column + 1)
    return Diagnostic("SPB101", f"unexpected character {char!r}", span)


def _glued_number(error: UnexpectedToken, text: str, path: str) -> Diagnostic | None:
    """A number with letters stuck to it (``25x``, ``1e5``, ``0x10``, ``1_000``) before the error.

    The grammar reads the letters as the name of a next setting and fails a token later,
    often on the next line; the fault is the number, so that is where the caret goes.
    """
    previous: Token | None = None
    try:
        for token in _parser().lex(text):
            if token.start_pos > error.token.start_pos:
                break
            if previous is not None and previous.type == "INT" and token.type == "NAME" \
                    and token.start_pos == previous.end_pos:
                written = f"{previous}{token}"
                hint = None
                if written.lstrip("-").replace("_", "").isdigit():
                    hint = f"write it without '_': {written.replace('_', '')}"
                elif token[0] in "eE" and token[1:].isdigit() and len(token) < 6:
                    hint = f"write it in full: {int(previous) * 10 ** int(token[1:])}"
                elif previous in ("0", "-0") and token[0] in "xX":
                    try:
                        hint = f"write it in decimal: {int(written, 16)}"
                    except ValueError:
                        hint = None
                span = _between(path, previous, token)
                return Diagnostic("SPB113", f"'{written}' is not a number: numbers are written in digits only",
                                  span, hint=hint)
            previous = token
    except UnexpectedInput:
        return None
    return None


def translate_error(error: UnexpectedInput, text: str, path: str) -> Diagnostic:
    """The diagnostic for a Lark parse error of ``text`` (the file at ``path``)."""
    if isinstance(error, UnexpectedCharacters):
        return _translate_characters(error, text, path)
    if isinstance(error, UnexpectedToken):
        return _glued_number(error, text, path) or _translate_token(error, path)
    raise error  # UnexpectedEOF does not occur with LALR: a bug if it does


# --- limits ------------------------------------------------------------------------------

#: Blocks and lists nest at most this deep (the language itself needs 2); a number has at
#: most this many digits (no setting takes more than a few). Beyond them a file is refused
#: before syntax nodes are built, which recurses once per level and converts every number.
MAX_NESTING = 32
MAX_DIGITS = 30


def _beyond_limits(tree: Tree[Token], path: str) -> list[Diagnostic]:
    """Every number with too many digits, and the first block or list nested too deep."""
    found: list[Diagnostic] = []
    deep: list[Tree[Token]] = []
    stack: list[tuple[Tree[Token] | Token | None, int]] = [(tree, 0)]  # None: an absent optional part
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            digits = node.lstrip("-")
            if node.type == "INT" and len(digits) > MAX_DIGITS:
                shown = f"{node[:12]}...{node[-4:]} ({len(digits)} digits)"
                found.append(Diagnostic("SPB301", f"the number {shown} is far too large for any setting",
                                        _token_span(path, node)))
            continue
        if node is None:
            continue
        if node.data in ("block", "list"):
            depth += 1
            if depth > MAX_NESTING:
                deep.append(node)
                continue
        stack.extend((child, depth) for child in node.children)
    if deep:
        first = min(deep, key=lambda node: (node.meta.line, node.meta.column))
        span = Span(path, first.meta.line, first.meta.column, first.meta.line, first.meta.column + 1)
        found.append(Diagnostic("SPB113", f"blocks and lists nest more than {MAX_NESTING} deep here", span))
    return sorted(found, key=lambda d: (d.span.line, d.span.column))


# --- public entry points -----------------------------------------------------------------


def parse_text(text: str, path: str, name: str | None = None) -> syntax.File:
    """Parse the text of one rules file.

    ``path`` names the file in spans (relative to the working directory when possible);
    ``name`` is its path relative to the main rules file (defaults to ``path``).
    Includes are not followed here (see :mod:`spbc.lang.load`).

    Raises :class:`RulesError` with one SPB1xx diagnostic at the first syntax error.
    """
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise RulesError([translate_error(error, text, path)], {path: text}) from None
    beyond = _beyond_limits(tree, path)
    if beyond:
        raise RulesError(beyond, {path: text})
    items = _Builder(path).transform(tree)
    lines = text.splitlines() or [""]
    span = Span(path, 1, 1, len(lines), len(lines[-1]) + 1)
    return syntax.File(path, name if name is not None else path, items, span, text)


def find_includes(text: str, path: str) -> tuple[syntax.Include, ...]:
    """The includes of a file that does not parse, found by scanning its tokens.

    Only ``include "..."`` pairs outside any braces count, up to the first character
    that cannot be read. Lets the loader keep checking the other files.
    """
    found: list[syntax.Include] = []
    depth = 0
    previous: Token | None = None
    try:
        for token in _parser().lex(text):
            if token.type == "LBRACE":
                depth += 1
            elif token.type == "RBRACE":
                depth = max(0, depth - 1)
            elif token.type == "STRING" and depth == 0 and previous is not None \
                    and previous.type == "INCLUDE":
                span = _between(path, previous, token)
                found.append(syntax.Include(syntax.Str(_unescape(token), _token_span(path, token)), span))
            previous = token
    except UnexpectedInput:
        pass
    return tuple(found)
