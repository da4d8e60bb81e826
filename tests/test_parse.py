"""The parse stage: syntax nodes and spans, and syntax errors worded from the catalogue."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spbc.lang import syntax
from spbc.source.diagnostics import CODES, RulesError
from spbc.lang.model import Span
from spbc.lang.parse import _parser, find_includes, parse_text
from spbc.lang.syntax_errors import SYNTAX_CASES

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted((ROOT / "rules").rglob("*.spb"))


def syntax_error(text: str):
    """The one diagnostic of a text that does not parse."""
    with pytest.raises(RulesError) as caught:
        parse_text(text, "t.spb")
    (diagnostic,) = caught.value.diagnostics
    return diagnostic


# --- nodes and spans ---------------------------------------------------------------------


def test_values_become_typed_nodes_with_exact_spans() -> None:
    text = 'card x {\n  a = 3\n  b = "q\\"uote"; c = worker, d = yes\n  e = no f = 2..4 g = [a, 1, "s",]\n}\n'
    (block,) = parse_text(text, "t.spb").items
    values = {s.key.value: s.value for s in block.settings}
    assert values["a"] == syntax.Int(3, Span("t.spb", 2, 7, 2, 8))
    assert values["b"] == syntax.Str('q"uote', Span("t.spb", 3, 7, 3, 16))
    assert values["c"] == syntax.Name("worker", Span("t.spb", 3, 22, 3, 28))
    assert values["d"] == syntax.Bool(True, Span("t.spb", 3, 34, 3, 37))
    assert values["e"] == syntax.Bool(False, Span("t.spb", 4, 7, 4, 9))
    assert values["f"] == syntax.Range(
        syntax.Int(2, Span("t.spb", 4, 14, 4, 15)), syntax.Int(4, Span("t.spb", 4, 17, 4, 18)),
        Span("t.spb", 4, 14, 4, 18),
    )
    assert [type(item).__name__ for item in values["g"].items] == ["Name", "Int", "Str"]
    assert block.span == Span("t.spb", 1, 1, 5, 2)
    assert block.id == syntax.Name("x", Span("t.spb", 1, 6, 1, 7))


def test_nested_blocks_and_includes_keep_source_order() -> None:
    text = 'include "a.spb"\ncard x { cost = 1 ability discount { colour = blue } copies = 2 }\ngame { }\n'
    items = parse_text(text, "t.spb").items
    assert [type(item).__name__ for item in items] == ["Include", "Block", "Block"]
    assert items[0].path.value == "a.spb"
    card = items[1]
    assert [type(e).__name__ for e in card.entries] == ["Setting", "Block", "Setting"]
    assert card.blocks[0].kind.value == "ability" and card.blocks[0].id.value == "discount"
    assert items[2].id is None and items[2].entries == ()


def test_names_containing_keywords_stay_names() -> None:
    (block,) = parse_text("card yesterday { nothing = included }", "t.spb").items
    assert block.id.value == "yesterday"
    assert block.settings[0].key.value == "nothing"
    assert block.settings[0].value == syntax.Name("included", Span("t.spb", 1, 28, 1, 36))


def _walk(node: object):
    yield node
    if isinstance(node, tuple):
        for item in node:
            yield from _walk(item)
    elif dataclasses.is_dataclass(node) and not isinstance(node, Span):
        for f in dataclasses.fields(node):
            yield from _walk(getattr(node, f.name))


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.name)
def test_shipped_rules_parse_into_plain_nodes(path: Path) -> None:
    file = parse_text(path.read_text(encoding="utf-8"), "f.spb")
    nodes = list(_walk(file.items))
    assert nodes, "empty tree"
    for node in nodes:
        assert not type(node).__module__.startswith("lark"), f"lark object leaked: {node!r}"
        if dataclasses.is_dataclass(node) and not isinstance(node, Span):
            assert isinstance(node.span, Span) and node.span.line >= 1


def test_dump_ast_is_the_golden_text() -> None:
    file = parse_text('card x {\n  a = [1, b]  # c\n  ability k { d = "e" }\n}\ninclude "f.spb"\n', "t.spb", "t.spb")
    dump = syntax.dump_ast(syntax.Program((file,), (), ""))
    assert dump == (
        "file t.spb\n"
        "  block card x @1:1\n"
        "    setting a = [1, b] @2:3\n"
        "    block ability k @3:3\n"
        '      setting d = "e" @3:15\n'
        '  include "f.spb" @5:1\n'
    )


# --- syntax errors -----------------------------------------------------------------------

CASE_EXAMPLES = [(label, example) for label, case in SYNTAX_CASES.items() for example in case.examples]
TERMINAL_NAMES = {terminal.name for terminal in _parser().terminals} | {"$END"}


@pytest.mark.parametrize(("label", "example"), CASE_EXAMPLES)
def test_every_catalogue_example_yields_its_own_case(label: str, example: str) -> None:
    diagnostic = syntax_error(example)
    assert diagnostic.code == SYNTAX_CASES[label].code, diagnostic.message


def test_catalogue_covers_every_syntax_code() -> None:
    used = {case.code for case in SYNTAX_CASES.values()}
    assert used == {"SPB103", "SPB104", "SPB107", "SPB108", "SPB109", "SPB110", "SPB111", "SPB112", "SPB114"}


@pytest.mark.parametrize(
    ("text", "code", "where", "message"),
    [
        ("card x {\n  cost 3\n}", "SPB103", (2, 8), "expected '=' after setting name 'cost'"),
        ("card x {\n  deck worker\n}", "SPB103", (2, 8), "expected '=' after setting name 'deck'"),
        ("card x { cost = }", "SPB104", (1, 17),
         "expected a value: a number, a name, a string, yes/no, a range like 2..4 or a list [a, b]"),
        ("\n\ncard x {\n    cost = 1\n", "SPB105", (3, 8), "unclosed block: '{' at 3:8 has no matching '}'"),
        ("card x { }\n}", "SPB106", (2, 1), "unmatched '}': no block is open here"),
        ("card x\n  cost = 1", "SPB107", (2, 3), "expected '{' to open the block 'card x', found the name 'cost'"),
        ("card x { ability discount colour = blue }", "SPB107", (1, 27),
         "expected '{' to open the block 'ability discount'"),
        ("game { symbols = [wood gold] }", "SPB108", (1, 24), "expected ',' or ']' after a list item"),
        ("game { players = 2.. }", "SPB109", (1, 22), "expected a number after '..'"),
        ("include base.spb", "SPB110", (1, 9), "expected a file name in quotes after 'include'"),
        ("x = 1", "SPB111", (1, 1), "a setting outside any block: 'x = ...'"),
        ('card x { name = "a" "b" }', "SPB112", (1, 21), "after the value of 'name', found the string \"b\""),
        ("card x { = 1 }", "SPB114", (1, 10), "expected a setting name or '}', found '='"),
        ("card x { cost = 3 % }", "SPB101", (1, 19), "unexpected character '%'"),
        ('card x { name = "abc }', "SPB102", (1, 17), "unterminated string"),
    ],
)
def test_syntax_error_code_place_and_words(text: str, code: str, where: tuple[int, int], message: str) -> None:
    diagnostic = syntax_error(text)
    assert (diagnostic.code, (diagnostic.span.line, diagnostic.span.column)) == (code, where)
    assert message in diagnostic.message


def test_unclosed_block_points_at_the_innermost_open_brace() -> None:
    text = 'card a {\n  name = "x"\n  ability discount {\n    colour = blue\n'
    diagnostic = syntax_error(text)
    assert diagnostic.code == "SPB105"
    assert (diagnostic.span.line, diagnostic.span.column) == (3, 20)
    assert diagnostic.hint == "add '}' where the block 'ability discount' ends"


def test_include_inside_a_block_is_an_unclosed_block() -> None:
    diagnostic = syntax_error('card a {\n  name = "x"\ninclude "b.spb"\n')
    assert diagnostic.code == "SPB105"
    assert "only allowed outside blocks" in (diagnostic.hint or "")


def test_find_includes_recovers_top_level_includes_of_a_broken_file() -> None:
    text = 'include "a.spb"\ncard x { include "no.spb" cost 3 }\ninclude "b.spb"\n$ include "c.spb"'
    assert [include.path.value for include in find_includes(text, "t.spb")] == ["a.spb", "b.spb"]


# Random damage to a real rules file: one token removed or one inserted. Whatever the
# damage, the error is a documented code in the author's words, never a crash.
_BASE_TEXT = (ROOT / "rules" / "base" / "buildings.spb").read_text(encoding="utf-8")
_BASE_TOKENS = list(_parser().lex(_BASE_TEXT))
_INSERTS = ["=", "{", "}", "[", "]", ",", ";", "..", "3", '"s"', "nm", "yes", "include", "$"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(_BASE_TOKENS) - 1), st.sampled_from([None, *_INSERTS]))
def test_damaged_rules_give_documented_errors_in_plain_words(index: int, insert: str | None) -> None:
    token = _BASE_TOKENS[index]
    if insert is None:
        text = _BASE_TEXT[: token.start_pos] + _BASE_TEXT[token.end_pos :]
    else:
        text = _BASE_TEXT[: token.start_pos] + insert + " " + _BASE_TEXT[token.start_pos :]
    try:
        parse_text(text, "t.spb")
    except RulesError as error:
        (diagnostic,) = error.diagnostics
        assert diagnostic.code in CODES and diagnostic.code != "SPB113", diagnostic.message
        words = set(re.findall(r"[A-Z_$][A-Z_0-9]+", diagnostic.message))
        assert not words & TERMINAL_NAMES, diagnostic.message
        assert "__ANON" not in diagnostic.message
