"""A mechanic is a folder: a sixth ability kind added from outside spbc works at every layer.

tests/fixtures/mechanics/take_rubles/ ("an action in one phase, once per copy and round: take N
rubles", with a verb of its own) is registered for this module only and used by a rules file: the
checker reads it (and refuses a bad setting with a clean diagnostic), both engines play it and agree
move for move, the reference describes it, the notation reads and writes its verb, a refused use is
explained, and the screen shows its line. Nothing outside its folder names it.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import spbc
from spbc.contract import mechanics
from spbc.frontends.screen import describe_income
from spbc.lang.load import load_model
from spbc.lang.schema import ABILITIES
from spbc.play.moves import IllegalMoveError, Move, MoveKind
from spbc.play.notation import format_move, parse_move
from spbc.reference.docs import describe_effect, emit_reference, notation_section
from spbc.source import locate
from spbc.source.diagnostics import RulesError
from spbc.table.screen import build_screen, describe_card

from scenario import Scenario

PACKAGE = "fixtures.mechanics.take_rubles"
FOLDER = Path(__file__).parent / "fixtures" / "mechanics" / "take_rubles"

# A building that takes 3 rubles in the aristocrat phase, added to a copy of the base rules.
CARD = """
card tax_office {
    name    = "Tax Office"
    deck    = building
    cost    = 3
    copies  = 2
    ability take_rubles {
        verb   = "loot"
        phase  = aristocrat
        rubles = %s
    }
}
"""


def _rules(folder: Path, rubles: str = "3") -> Path:
    """A copy of the shipped rules, renamed plunder, with the Tax Office among the buildings."""
    shutil.copytree(locate.rules_dir(), folder, dirs_exist_ok=True)
    main = folder / "base.spb"
    text = main.read_text(encoding="utf-8").replace("ruleset base {", "ruleset plunder {")
    # the fixture mechanic has English prose only, so the copy speaks English only
    text = text.replace("languages  = [en, de, zh]", "languages  = [en]")
    main.rename(folder / "plunder.spb")
    (folder / "plunder.spb").write_text(text, encoding="utf-8")
    buildings = folder / "base" / "buildings.spb"
    buildings.write_text(buildings.read_text(encoding="utf-8") + CARD % rubles, encoding="utf-8")
    return folder / "plunder.spb"


@pytest.fixture(scope="module")
def plunder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[spbc.Ruleset, spbc.Ruleset]]:
    """The plunder rules on the compiled engine (built once, into a cache of this module: a Cython build,
    so only the slow tier asks for it) and on the twin."""
    folder = tmp_path_factory.mktemp("plunder")
    path = _rules(folder / "rules")
    with pytest.MonkeyPatch.context() as patch, mechanics.registered(PACKAGE):
        patch.setenv("SPBC_CACHE_DIR", str(folder / "cache"))
        patch.delenv("SPBC_BACKEND", raising=False)
        yield spbc.load_rules(path, backend="compiled"), spbc.load_rules(path, backend="python")


@pytest.fixture(scope="module")
def plunder_twin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[spbc.Ruleset]:
    """The plunder rules on the twin alone: what the checker, the notation, the reference and the screen make
    of the plug-in is the same whichever engine plays it."""
    folder = tmp_path_factory.mktemp("plunder-twin")
    with mechanics.registered(PACKAGE):
        yield spbc.load_rules(_rules(folder / "rules"), backend="python")


def _owner_in_aristocrat_phase(ruleset: spbc.Ruleset) -> spbc.Game:
    """A game in which seat 0 owns a Tax Office and starts the aristocrat phase."""
    return Scenario(ruleset, players=2, seed=3).give(0, "tax_office").markers(0).phase("aristocrat").build()


def test_the_registry_finds_the_shipped_mechanics_in_order_and_one_more_only_while_registered():
    kinds = [m.kind for m in mechanics.mechanics()]
    assert kinds == ["discount", "hand_limit", "income_per_card", "income_per_symbol", "buy_points",
                     "draw_action", "take_discard", "windfall", "extra_actions", "discard_from_hand", "feast",
                     "upkeep"]
    with mechanics.registered(PACKAGE) as mechanic:
        found = [m.kind for m in mechanics.mechanics()]  # in hook order: take_rubles by its order
        assert [kind for kind in found if kind != "take_rubles"] == kinds and found.count("take_rubles") == 1
        assert mechanic.folder == FOLDER and "take_rubles" in ABILITIES
    assert "take_rubles" not in ABILITIES


def test_without_its_mechanic_the_ability_is_an_unknown_kind(tmp_path):
    with pytest.raises(RulesError) as caught:
        load_model(_rules(tmp_path / "rules"))
    [problem] = caught.value.diagnostics
    assert problem.code == "SPB211" and "unknown ability kind 'take_rubles'" in problem.message


def test_the_checker_reads_the_ability_and_refuses_a_bad_setting_cleanly(plunder_twin, tmp_path):
    compiled = plunder_twin
    card = compiled.model.card("tax_office")
    assert [(e.kind, e.verb, e.phase, e.rubles) for e in card.abilities] == [("take_rubles", "loot", "aristocrat", 3)]
    with pytest.raises(RulesError) as caught:
        load_model(_rules(tmp_path / "bad", rubles="0"))
    [problem] = caught.value.diagnostics
    assert (problem.code, problem.message) == ("SPB301", "'rubles' must be at least 1, not 0")
    assert problem.span.path.endswith("buildings.spb")


@pytest.mark.slow  # a Cython build of the plug-in's rules
def test_both_engines_have_its_moves_and_agree_move_for_move(plunder):
    compiled, twin = plunder
    assert compiled.backend == "compiled" and twin.backend == "python"
    assert compiled.engine.FIELDS == twin.engine.FIELDS
    assert dict(compiled.engine.LIMITS) == dict(twin.engine.LIMITS)
    loots = 0
    for seed in range(40):
        players = 2 + seed % 3
        fast, slow = compiled.engine.Engine.new(players, seed), twin.engine.Engine.new(players, seed)
        rng = random.Random(seed)
        for _ in range(compiled.move_limit):
            moves = fast.legal_moves()
            assert moves == slow.legal_moves(), f"seed {seed}: legal moves differ"
            if not moves:
                break
            move = rng.choice(moves)
            loots += compiled.decode(move) == Move(MoveKind.USE, card="tax_office")
            fast.play(move)
            slow.play(move)
            assert fast.state() == slow.state(), f"seed {seed}: states differ"
        assert not fast.legal_moves()
    assert loots > 5  # the ability was used, not only compiled


@pytest.mark.parametrize("side", [pytest.param(0, marks=pytest.mark.slow), 1], ids=["compiled", "twin"])
def test_a_use_pays_its_rubles_marks_the_copy_used_and_passes_the_turn(request, side):
    ruleset = request.getfixturevalue("plunder")[0] if side == 0 else request.getfixturevalue("plunder_twin")
    game = _owner_in_aristocrat_phase(ruleset)
    before = game.rubles(0)
    loot = Move(MoveKind.USE, card="tax_office")
    assert loot in game.legal_moves()
    game.play(loot)
    assert game.rubles(0) == before + 3 and game.used(0) == {"tax_office": 1} and game.current_player == 1
    restored = ruleset.game_from_json(game.to_json())
    assert restored.state_values() == game.state_values()


def test_the_notation_reads_and_writes_its_verb(plunder_twin):
    compiled = plunder_twin
    game = _owner_in_aristocrat_phase(compiled)
    move = parse_move("loot", game)
    assert move == Move(MoveKind.USE, card="tax_office")
    assert format_move(move, compiled) == "loot"
    assert parse_move(format_move(move, compiled), game) == move
    assert parse_move("lo", game) == move  # a prefix of the verb
    for seed in range(5):  # every legal move of a few games reads back as itself
        game = compiled.new_game(3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            for legal in game.legal_moves():
                assert parse_move(format_move(legal, compiled), game) == legal
            game.play(rng.choice(game.legal_moves()))


def test_a_refused_use_is_explained(plunder_twin):
    compiled = plunder_twin
    fresh = compiled.new_game(["Anna", "Boris"], seed=3)
    with pytest.raises(IllegalMoveError, match="you have no Tax Office"):
        parse_move("loot", fresh)
    game = _owner_in_aristocrat_phase(compiled)
    game.play(Move(MoveKind.USE, card="tax_office"))
    game.play(Move(MoveKind.PASS))  # Boris passes: Anna's turn again, her only copy used
    with pytest.raises(IllegalMoveError, match="your Tax Office was already used this round"):
        parse_move("loot", game)
    with pytest.raises(IllegalMoveError, match="not a whole move: a use move of Tax Office has no deck"):
        game.play(Move(MoveKind.USE, card="tax_office", deck="worker"))


def test_the_reference_describes_it(plunder_twin):
    compiled = plunder_twin
    model = compiled.model
    card = model.card("tax_office")
    prose = describe_effect(model, card, card.abilities[0])
    assert prose == ('In the Aristocrat phase, instead of another action, the owner may use Tax Office once per '
                     'round (each copy on its own; the move is "loot") to take 3 rubles from the bank. It becomes '
                     'usable again when the round ends.')
    text = emit_reference(model, notation=notation_section(model))["reference.md"]
    assert prose in text
    assert 'Tax Office (the "loot" move): take rubles instead of another action in the Aristocrat phase.' in text
    assert "| loot | use your Tax Office: take 3 rubles | loot | – |" in text  # its notation form


def test_the_screen_shows_its_line(plunder_twin):
    compiled = plunder_twin
    card = compiled.model.card("tax_office")
    assert describe_card(compiled.model, card) == describe_income(compiled.model, card) == "takes 3 rubles (loot)"
    game = _owner_in_aristocrat_phase(compiled)
    screen = build_screen(game, 0, (("loot", None),))
    assert screen.prompt is None and screen.me.play_area == {"tax_office": 1}


def test_nothing_outside_its_folder_names_it():
    roots = [Path(spbc.__file__).parent, Path(spbc.__file__).parent.parent / "frontends"]
    for root in roots:
        for path in root.rglob("*"):
            if path.suffix in (".py", ".j2", ".lark") and "generated" not in path.parts:
                text = path.read_text(encoding="utf-8")
                assert "take_rubles" not in text and "tax_office" not in text, path

