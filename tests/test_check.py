"""The check stage and ``spb check``: the base model against the card facts, all errors
at once without follow-ons, include handling, the command line and dump determinism."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from spbc.source.diagnostics import RulesError
from spbc.lang.dump import dump_ast, dump_model
from spbc.frontends.cli import app
from spbc.lang.load import load_model, load_program
from spbc.mechanics.buy_points.effect import BuyPoints
from spbc.mechanics.discount.effect import Discount
from spbc.mechanics.draw_action.effect import DrawAction
from spbc.mechanics.hand_limit.effect import HandLimit
from spbc.mechanics.income_per_card.effect import IncomePerCard

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "tests" / "catalogue"
FACTS = ROOT / "tests" / "data" / "card_facts.json"
BASE_FILES = ("base.spb", "base/workers.spb", "base/buildings.spb", "base/aristocrats.spb", "base/trading.spb")
SUMMARY = "ok, 49 cards (116 copies), 4 decks, 4 phases"


@pytest.fixture(autouse=True)
def _run_at_repository_top(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="module")
def base():
    return load_model(ROOT / "rules" / "base.spb")


def write_rules(folder: Path, text: str) -> Path:
    """A main.spb in ``folder`` with the catalogue's valid tiny world beside it."""
    for prelude in ("_game.spb", "_world.spb"):
        shutil.copy(CATALOGUE / prelude, folder / prelude)
    path = folder / "main.spb"
    path.write_text(text, encoding="utf-8")
    return path


def diagnostics_of(path: Path) -> list[tuple[str, str, int, int]]:
    with pytest.raises(RulesError) as caught:
        load_model(path)
    return [(d.code, Path(d.span.path).name, d.span.line, d.span.column) for d in caught.value.diagnostics]


PRELUDE = 'include "_game.spb"\ninclude "_world.spb"\n'


# --- the base game -----------------------------------------------------------------------


def test_base_has_the_decks_of_the_box(base) -> None:
    assert len(base.cards) == 49
    assert sum(card.copies for card in base.cards) == 116
    per_deck = {deck.id: sum(c.copies for c in base.cards if c.deck == deck.id) for deck in base.decks}
    assert per_deck == {"worker": 31, "building": 28, "aristocrat": 27, "trading": 30}
    assert [phase.id for phase in base.phases] == ["worker", "building", "aristocrat", "trading"]


def test_every_card_matches_the_facts(base) -> None:
    facts = json.loads(FACTS.read_text(encoding="utf-8"))["cards"]
    cards = {card.id: card for card in base.cards}
    assert sorted(cards) == sorted(fact["id"] for fact in facts)
    for fact in facts:
        card, income = cards[fact["id"]], fact["income"]
        assert (card.name, card.deck, card.colour) == (fact["name_en"], fact["deck"], fact["color"]), card.id
        assert (card.cost, card.copies) == (fact["cost"], fact["copies"]), card.id
        assert (card.rubles, card.points, card.pays_in) == (
            income["rubles"], income["points"], income["pays_in_phase"]), card.id
        assert card.symbol == fact["worker_symbol"], card.id
        assert card.displace_value == fact["displace_value"], card.id
        assert card.trading == (fact["deck"] == "trading"), card.id
        # the facts also list later editions' names, marked as such; the rules leave them out
        assert card.aliases == tuple(a for a in fact["aliases_en"] if "edition" not in a), card.id


def test_abilities_are_typed_effects(base) -> None:
    assert base.card("observatory").abilities == (
        DrawAction(verb="observe", phase="building", decks=("worker", "building", "aristocrat", "trading"),
                   forbid_last_card=True, used_scores=False, used_displaceable=False),
    )
    assert base.card("pub").abilities == (
        BuyPoints(verb="pub", after="building", rubles_per_point=2, max_points=5, per="card"),
    )
    assert base.card("warehouse").abilities == (HandLimit(limit=4),)
    assert base.card("gold_smelter").abilities == (Discount(colour="orange", amount=1),)
    assert base.card("tax_man").abilities == (IncomePerCard(colour="green", phase="aristocrat", rubles=1),)
    assert base.card("pub").abilities[0].span.line == 101


def test_game_parameters(base) -> None:
    game = base.game
    assert (game.min_players, game.max_players, game.opening_deck, game.opening_per_player) == (2, 4, "worker", 2)
    assert game.noble_bonus == (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55)
    assert game.symbols == ("wood", "gold", "wool", "fur", "ship")
    assert (game.tie_break, game.first_phase_must_buy, game.open_rubles) == ("rubles", False, False)


def test_files_and_digest_follow_read_order(base) -> None:
    assert base.files == BASE_FILES
    digest = hashlib.sha256()
    for name in BASE_FILES:
        digest.update(f"{name}\n{(ROOT / 'rules' / name).read_text(encoding='utf-8')}".encode())
    assert base.digest == digest.hexdigest()


def test_spans_are_relative_to_the_working_directory_when_possible(monkeypatch, tmp_path, base) -> None:
    assert base.card("pub").span.path == "rules/base/buildings.spb"
    monkeypatch.chdir(tmp_path)
    elsewhere = load_model(ROOT / "rules" / "base.spb")
    assert elsewhere.card("pub").span.path == (ROOT / "rules" / "base" / "buildings.spb").as_posix()
    assert (elsewhere.files, elsewhere.digest) == (base.files, base.digest)


def test_a_shipped_ruleset_loads_by_name(base) -> None:
    assert load_model("base") == base


# --- defaults and optional settings ------------------------------------------------------


def test_defaults_and_derived_values(tmp_path) -> None:
    text = PRELUDE + 'card miner { name = "Miner" deck = worker cost = 4 copies = 1 symbol = any }\n'
    model = load_model(write_rules(tmp_path, text))
    miner = model.card("miner")
    assert (miner.rubles, miner.points, miner.displace_value, miner.pays_in) == (0, 0, 4, "worker")
    assert (miner.colour, miner.symbol, miner.names.texts, miner.aliases) == ("green", "any", (("en", "Miner"),), ())
    assert model.languages == ("en",) and miner.names.translated == ()
    workshop = model.card("workshop")
    assert (workshop.colour, workshop.displaces, workshop.displace_value) == ("green", "green", None)
    assert model.game.first_phase_must_buy is False and model.edition == ""


def test_first_phase_must_buy_can_be_set(tmp_path) -> None:
    game = (CATALOGUE / "_game.spb").read_text(encoding="utf-8").replace("symbols =", "first_phase_must_buy = yes\n    symbols =")
    write_rules(tmp_path, 'include "_game.spb"\ninclude "_world.spb"\n')
    (tmp_path / "_game.spb").write_text(game, encoding="utf-8")
    assert load_model(tmp_path / "main.spb").game.first_phase_must_buy is True


# --- every error at once, without follow-ons ---------------------------------------------


def test_three_independent_errors_are_all_reported(tmp_path) -> None:
    text = PRELUDE + (
        'card miner { name = "Miner" deck = wroker cost = 4 copies = 1 }\n'
        'card smith { name = "Smith" deck = worker cost = -2 copies = 1 }\n'
        'card baker { name = "Baker" deck = worker cost = 3 copies = 1 colr = green }\n'
    )
    assert diagnostics_of(write_rules(tmp_path, text)) == [
        ("SPB204", "main.spb", 3, 36), ("SPB301", "main.spb", 4, 50), ("SPB205", "main.spb", 5, 63),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the only card of a deck names a misspelt deck: no "deck has no cards", no colour error
        ('deck tools { name = "Tools" colour = green }\n'
         'card hammer { name = "Hammer" deck = tols cost = 1 copies = 1 }\n', [("SPB204", 4, 38)]),
        # a deck's colour misspelt: its cards get no "must name its colour"
        ('deck tools { name = "Tools" colour = gren }\n'
         'card hammer { name = "Hammer" deck = tools cost = 1 copies = 1 }\n', [("SPB204", 3, 38)]),
        # a misspelt game block: no "no game block" as well
        ("gmae { }\n", [("SPB200", 3, 1)]),
        # a card with an unknown ability kind and a wrong cost: both, nothing else
        ('card hammer { name = "Hammer" deck = worker cost = x copies = 1\n  ability discont { } }\n',
         [("SPB300", 3, 52), ("SPB211", 4, 11)]),
    ],
)
def test_one_fault_gives_one_diagnostic(tmp_path, text: str, expected) -> None:
    found = diagnostics_of(write_rules(tmp_path, PRELUDE + text))
    assert [(code, line, column) for code, _, line, column in found] == expected


def test_broken_symbols_do_not_make_every_symbol_unknown(tmp_path) -> None:
    game = (CATALOGUE / "_game.spb").read_text(encoding="utf-8").replace("[wood, gold]", "[wood, wood]")
    write_rules(tmp_path, PRELUDE)
    (tmp_path / "_game.spb").write_text(game, encoding="utf-8")
    assert [code for code, *_ in diagnostics_of(tmp_path / "main.spb")] == ["SPB306"]


def test_an_empty_opening_deck_is_one_error(tmp_path) -> None:
    game = (CATALOGUE / "_game.spb").read_text(encoding="utf-8").replace("opening_deck = worker", "opening_deck = nobles")
    write_rules(tmp_path, PRELUDE + 'deck nobles { name = "Nobles" colour = blue }\n')
    (tmp_path / "_game.spb").write_text(game, encoding="utf-8")
    assert diagnostics_of(tmp_path / "main.spb") == [("SPB405", "main.spb", 3, 6)]


def test_a_syntax_error_in_each_file_is_reported(tmp_path) -> None:
    (tmp_path / "main.spb").write_text('include "a.spb"\ncard x { cost 3 }\ninclude "b.spb"\n', encoding="utf-8")
    (tmp_path / "a.spb").write_text("colour green { name = }\n", encoding="utf-8")
    (tmp_path / "b.spb").write_text('deck d {\n  name = "D"\n', encoding="utf-8")
    assert diagnostics_of(tmp_path / "main.spb") == [
        ("SPB103", "main.spb", 2, 15), ("SPB104", "a.spb", 1, 23), ("SPB105", "b.spb", 1, 8),
    ]


_RULE_FILES = sorted((ROOT / "rules").rglob("*.spb"))
_VALUES = ["0", "-1", "99", '"x"', '""', "worker", "green", "nosuch", "any", "yes", "2..4", "5..1",
           "[]", "[worker]", "[1, 0]", "[wood, wood]", "trading", "orange"]


@pytest.mark.slow  # 60 damaged rules files
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_RULE_FILES), st.integers(0, 10_000), st.sampled_from([None, *_VALUES]))
def test_damaged_values_never_crash_the_checker(path: Path, line: int, value: str | None) -> None:
    """A setting given another value, or a line removed: a RulesError or a model, nothing else."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "rules"
        shutil.copytree(ROOT / "rules", copy)
        target = copy / path.relative_to(ROOT / "rules")
        lines = target.read_text(encoding="utf-8").splitlines()
        index = line % len(lines)
        if value is None:
            del lines[index]
        elif "=" in lines[index]:
            lines[index] = lines[index].partition("=")[0] + "= " + value
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            load_model(copy / "base.spb")
        except RulesError as error:
            assert error.diagnostics and str(error)


# --- the command line --------------------------------------------------------------------

runner = CliRunner()


def test_cli_check_base_is_ok() -> None:
    result = runner.invoke(app, ["check", "rules/base.spb"])
    assert (result.exit_code, result.stdout, result.stderr) == (0, f"rules/base.spb: {SUMMARY}\n", "")


def test_cli_check_defaults_to_the_rules_folder_here() -> None:
    result = runner.invoke(app, ["check"])
    assert (result.exit_code, result.stdout) == (0, f"rules/base.spb: {SUMMARY}\n")


def test_cli_check_defaults_to_the_shipped_base_elsewhere(monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 0 and result.stdout.endswith(f"base.spb: {SUMMARY}\n")


def test_cli_check_reports_errors_on_stderr_with_exit_1() -> None:
    result = runner.invoke(app, ["check", "tests/catalogue/n_unknown_deck.spb"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("tests/catalogue/n_unknown_deck.spb:4:38: error[SPB204]: unknown deck 'wroker'\n")
    assert "= hint: did you mean 'worker'?" in result.stderr
    assert result.stderr.endswith("tests/catalogue/n_unknown_deck.spb: 1 error\n")


def test_cli_check_missing_file_is_exit_1_with_its_path() -> None:
    result = runner.invoke(app, ["check", "no/such.spb"])
    assert result.exit_code == 1
    assert result.stderr.startswith("no/such.spb: error[SPB100]: cannot read rules file 'no/such.spb': no such file\n")


@pytest.mark.parametrize("args", [["check", "--dump", "ir2"], ["check", "--no-such-option"]])
def test_cli_check_usage_errors_are_exit_2(args: list[str]) -> None:
    assert runner.invoke(app, args).exit_code == 2


def test_cli_check_dumps(base) -> None:
    model_dump = runner.invoke(app, ["check", "--dump", "model", "rules/base.spb"])
    assert (model_dump.exit_code, model_dump.stdout) == (0, dump_model(base))
    ast_dump = runner.invoke(app, ["check", "--dump", "ast", "rules/base.spb"])
    assert (ast_dump.exit_code, ast_dump.stdout) == (0, dump_ast(load_program("rules/base.spb")))
    assert ast_dump.stdout.startswith("file base.spb\n  block ruleset base @7:1\n")


def test_cli_dump_ast_still_reports_semantic_errors() -> None:
    result = runner.invoke(app, ["check", "--dump", "ast", "tests/catalogue/n_unknown_deck.spb"])
    assert result.exit_code == 1
    assert result.stdout.startswith("file n_unknown_deck.spb\n  include \"_game.spb\" @2:1\n")
    assert "error[SPB204]" in result.stderr


def _spb(*args: str, seed: str = "0") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    command = [sys.executable, "-P", "-c", "from spbc.frontends.cli import main; main()", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_real_spb_check_process() -> None:
    spb = shutil.which("spb")
    command = [spb] if spb else [sys.executable, "-P", "-m", "spbc.frontends.cli"]
    command += ["check", "rules/base.spb"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, f"rules/base.spb: {SUMMARY}\n")


@pytest.mark.slow  # several real processes
def test_dumps_are_identical_across_processes_and_hash_seeds(base) -> None:
    first = _spb("check", "--dump", "model", seed="1")
    second = _spb("check", "--dump", "model", seed="4242")
    assert first.returncode == 0 and first.stdout == second.stdout == dump_model(base)
    ast_runs = {_spb("check", "--dump", "ast", seed=seed).stdout for seed in ("2", "77")}
    assert ast_runs == {dump_ast(load_program("rules/base.spb"))}
