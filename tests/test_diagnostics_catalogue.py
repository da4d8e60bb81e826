"""The catalogue of broken rules: every file in tests/catalogue/ yields exactly its diagnostic.

Each catalogue file starts with one line::

    # expect SPB204 at 4:38: unknown deck 'wroker'
    # expect SPB121 in _cycle.spb at 2:1: include cycle: ...

the code, the place (in this file unless ``in`` names another; ``0:0`` for a whole
file) and a piece of the message. Files whose name starts with ``_`` are shared
preludes that others include; ``_valid.spb`` includes them all and must load cleanly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spbc.source.diagnostics import CODES, RulesError
from spbc.lang.load import load_model

CATALOGUE = Path(__file__).resolve().parent / "catalogue"
ENTRIES = sorted(path for path in CATALOGUE.glob("*.spb") if not path.name.startswith("_"))
EXPECT = re.compile(r"^# expect (SPB\d{3})(?: in (\S+))? at (\d+):(\d+): (.+)$")


def _relative(path: Path) -> str:
    return path.relative_to(Path.cwd()).as_posix()


@pytest.fixture(autouse=True)
def _run_at_repository_top(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CATALOGUE.parent.parent)


def test_catalogue_is_large_and_covers_every_code_group() -> None:
    assert len(ENTRIES) >= 30
    codes = {EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0]).group(1) for path in ENTRIES}
    assert {code[:4] for code in codes} == {"SPB1", "SPB2", "SPB3", "SPB4"}
    # every documented code is caught by an entry, apart from those that need a broken disk
    # (SPB100 is tested through the command line) and the generic fallback SPB113
    assert set(CODES) - codes == {"SPB100", "SPB113"}


def test_the_preludes_alone_are_valid() -> None:
    model = load_model(CATALOGUE / "_valid.spb")
    assert [card.id for card in model.cards] == ["lumberjack", "market", "workshop"]


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: p.stem)
def test_entry_yields_exactly_its_diagnostic(path: Path) -> None:
    header = path.read_text(encoding="utf-8").splitlines()[0]
    match = EXPECT.match(header)
    assert match, f"{path.name}: first line must be '# expect SPBnnn at L:C: message'"
    code, other, line, column, message = match.groups()
    with pytest.raises(RulesError) as caught:
        load_model(path)
    found = [(d.code, d.span.path, d.span.line, d.span.column, d.message) for d in caught.value.diagnostics]
    assert len(found) == 1, f"expected one diagnostic, got {found}"
    where = _relative(CATALOGUE / other) if other else _relative(path)
    assert found[0][:4] == (code, where, int(line), int(column)), found[0]
    assert message in found[0][4]
    assert found[0][0] in CODES


def test_rendered_unknown_deck_is_the_golden_text() -> None:
    with pytest.raises(RulesError) as caught:
        load_model(CATALOGUE / "n_unknown_deck.spb")
    assert str(caught.value) == (
        "tests/catalogue/n_unknown_deck.spb:4:38: error[SPB204]: unknown deck 'wroker'\n"
        "  |\n"
        '4 | card miner { name = "Miner"   deck = wroker   cost = 4   copies = 1 }\n'
        "  |                                      ^^^^^^\n"
        "  = hint: did you mean 'worker'?"
    )


def test_rendered_duplicate_points_at_the_first_definition() -> None:
    with pytest.raises(RulesError) as caught:
        load_model(CATALOGUE / "n_duplicate_card.spb")
    assert str(caught.value) == (
        "tests/catalogue/n_duplicate_card.spb:4:6: error[SPB208]: duplicate card 'market'\n"
        "  |\n"
        '4 | card market { name = "Big Market" deck = building cost = 9 copies = 1 }\n'
        "  |      ^^^^^^\n"
        "tests/catalogue/_world.spb:16:6: note: first defined here\n"
        "   |\n"
        '16 | card market     { name = "Market" deck = building cost = 5 copies = 2 points = 1 }\n'
        "   |      ^^^^^^"
    )


def test_every_code_has_a_one_line_summary() -> None:
    for code, summary in CODES.items():
        assert re.fullmatch(r"SPB[1-4]\d\d", code)
        assert summary and "\n" not in summary and not summary.endswith(".")
