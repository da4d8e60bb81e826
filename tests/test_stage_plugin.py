"""A mechanic with a stage of its own is a folder too: the contract numbers the stages a ruleset's mechanics
declare when its engine is built, so a new decision stage needs no edit outside the mechanic's folder.

tests/fixtures/mechanics/keep_one/ ("an action: turn up the top two cards of a deck, then keep one in the
hand", with the stage ``keep`` in which the owner chooses) is registered for this module only and used by a
rules file: both engines number its stage and agree move for move, its moves read and print in the notation,
a save made while the stage waits loads, a loaded state is checked, the reference describes it and the
screen says what the stage waits for. Nothing outside its folder names it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import spbc
from spbc.contract import mechanics
from spbc.contract.abi import Stage, stage_names
from spbc.engine.lower import LowerPart, lower
from spbc.lang.load import load_model
from spbc.play.moves import AmbiguousMoveError, IllegalMoveError, Move, MoveKind
from spbc.play.notation import format_move, parse_move
from spbc.reference.docs import describe_effect, emit_reference, notation_section
from spbc.source import locate
from spbc.table.screen import build_screen, describe_card

from scenario import Scenario

PACKAGE = "fixtures.mechanics.keep_one"
SCOUT = Move(MoveKind.USE, card="scout_post")

# A building that turns up two worker cards and keeps one, in the building phase, added to the base rules.
CARD = """
card scout_post {
    name    = "Scout Post"
    deck    = building
    cost    = 3
    copies  = 2
    ability keep_one {
        verb  = "scout"
        phase = building
        deck  = worker
    }
}
"""


def _rules(folder: Path) -> Path:
    """A copy of the shipped rules, renamed lookout, with the Scout Post among the buildings."""
    shutil.copytree(locate.rules_dir(), folder, dirs_exist_ok=True)
    text = (folder / "base.spb").read_text(encoding="utf-8").replace("ruleset base {", "ruleset lookout {")
    text = text.replace("languages  = [en, de, zh]", "languages  = [en]")  # the fixture's prose is English
    (folder / "base.spb").unlink()
    (folder / "lookout.spb").write_text(text, encoding="utf-8")
    buildings = folder / "base" / "buildings.spb"
    buildings.write_text(buildings.read_text(encoding="utf-8") + CARD, encoding="utf-8")
    return folder / "lookout.spb"


@pytest.fixture(scope="module")
def lookout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[spbc.Ruleset, spbc.Ruleset]]:
    """The lookout rules on the compiled engine (a Cython build, cached in this module) and on the twin."""
    folder = tmp_path_factory.mktemp("lookout")
    path = _rules(folder / "rules")
    with pytest.MonkeyPatch.context() as patch, mechanics.registered(PACKAGE):
        patch.setenv("SPBC_CACHE_DIR", str(folder / "cache"))
        patch.delenv("SPBC_BACKEND", raising=False)
        yield spbc.load_rules(path, backend="compiled"), spbc.load_rules(path, backend="python")


@pytest.fixture(scope="module")
def twin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[spbc.Ruleset]:
    """The lookout rules on the twin alone, for what does not depend on the engine."""
    folder = tmp_path_factory.mktemp("lookout-twin")
    with mechanics.registered(PACKAGE):
        yield spbc.load_rules(_rules(folder / "rules"), backend="python")


def _scouting(ruleset: spbc.Ruleset) -> spbc.Game:
    """A game in which seat 0 owns a Scout Post and has used it: Lumberjack and Gold Miner turned up, to keep one."""
    game = (Scenario(ruleset, players=2, seed=3).give(0, "scout_post").markers(0).phase("building")
            .deck("worker", ["lumberjack", "gold_miner"]).build())
    game.play(SCOUT)
    return game


def test_its_stage_is_numbered_among_the_ruleset_s_stages(twin):
    assert twin.model.stages == ("actions", "drawn", "points", "keep", "over") == twin.stages
    engine = twin.engine
    assert (engine.STAGE_ACTIONS, engine.STAGE_DRAWN, engine.STAGE_POINTS, engine.STAGE_KEEP,
            engine.STAGE_OVER) == (0, 1, 2, 3, 4)
    names = [name for name, _, _ in engine.FIELDS]
    # its state comes after O_STAGE, in stage order: after the drawn card and the offer
    assert names[names.index("stage"):names.index("markers")] == [
        "stage", "drawn", "offer", "offer_turn", "keeper", "shown"]


def test_the_contract_numbers_declared_stages_by_order_between_its_own():
    assert stage_names([Stage(30, "keep"), Stage(10, "drawn"), Stage(30, "keep")]) == ("actions", "drawn", "keep", "over")
    assert stage_names([]) == ("actions", "over")
    with pytest.raises(ValueError, match="the stage 'keep' is declared with two orders"):
        stage_names([Stage(30, "keep"), Stage(31, "keep")])
    for name in ("actions", "over", "Keep", "keep-one", ""):
        with pytest.raises(ValueError, match="a mechanic's stage is a lowercase name"):
            Stage(1, name)


def test_lowering_refuses_a_stage_of_another_mechanic_or_one_not_declared(tmp_path, monkeypatch):
    with mechanics.registered(PACKAGE) as mechanic:
        model = load_model(_rules(tmp_path / "rules"))
        effect, part = mechanic.effect, mechanic.part("lower", LowerPart)
        assert part is not None
        monkeypatch.setattr(effect, "stages", (Stage(10, "drawn"),))  # draw_action's
        with pytest.raises(TypeError, match="mechanic 'keep_one' declares the stage 'drawn' of another mechanic"):
            lower(model)
        monkeypatch.setattr(effect, "stages", (Stage(30, "keep"),))
        made = part.lower
        monkeypatch.setattr(part, "lower", lambda lowering: dataclasses.replace(made(lowering), stages=("look",)))
        with pytest.raises(TypeError, match=r"names the stages \('look',\) in its lowering; its effect declares"):
            lower(model)


@pytest.mark.parametrize("side", [pytest.param(0, marks=pytest.mark.slow), 1], ids=["compiled", "twin"])
def test_a_use_opens_the_stage_and_the_card_kept_goes_to_the_hand(request, side):
    ruleset = request.getfixturevalue("lookout")[0] if side == 0 else request.getfixturevalue("twin")
    game = _scouting(ruleset)
    assert game.stage == "keep" and game.current_player == 0 and game.used(0) == {"scout_post": 1}
    assert game.legal_moves() == [Move(MoveKind.USE, card="scout_post", target="lumberjack"),
                                  Move(MoveKind.USE, card="scout_post", target="gold_miner")]
    before = game.discard().get("gold_miner", 0)
    game.play(Move(MoveKind.USE, card="scout_post", target="lumberjack"))
    assert game.hand(0) == ["lumberjack"] and game.discard()["gold_miner"] == before + 1
    assert game.stage == "actions" and game.current_player == 1


@pytest.mark.slow  # a Cython build of the fixture's rules
def test_both_engines_play_the_stage_and_agree_move_for_move(lookout):
    compiled, twin = lookout
    assert compiled.engine.FIELDS == twin.engine.FIELDS and dict(compiled.engine.LIMITS) == dict(twin.engine.LIMITS)
    kept = 0
    for seed in range(60):
        players = 2 + seed % 3
        fast, slow = compiled.engine.Engine.new(players, seed), twin.engine.Engine.new(players, seed)
        rng = random.Random(seed)
        for _ in range(compiled.move_limit):
            moves = fast.legal_moves()
            assert moves == slow.legal_moves(), f"seed {seed}: legal moves differ"
            if not moves:
                break
            move = rng.choice(moves)
            decoded = compiled.decode(move)
            kept += decoded.card == "scout_post" and decoded.target is not None
            fast.play(move)
            slow.play(move)
            assert fast.state() == slow.state(), f"seed {seed}: states differ"
        assert not fast.legal_moves()
    assert kept > 10  # the stage was reached and decided, not only compiled
    game = _scouting(compiled)
    assert game.stage == "keep" and len(game.legal_moves()) == 2


def test_its_moves_read_and_print_in_the_notation(twin):
    game = _scouting(twin)
    keep = parse_move("scout lumber", game)
    assert keep == Move(MoveKind.USE, card="scout_post", target="lumberjack")
    assert format_move(keep, twin) == "scout Lumberjack" and parse_move("sc gold", game).target == "gold_miner"
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move("scout", game)  # which of the two
    assert caught.value.candidates == ["scout Lumberjack", "scout Gold Miner"]
    assert format_move(SCOUT, twin) == "scout"
    twice = (Scenario(twin, players=2, seed=3).give(0, "scout_post").markers(0).phase("building")
             .deck("worker", ["lumberjack", "lumberjack"]).build())
    twice.play(SCOUT)  # two copies of one card: one move keeps either, and the verb alone says it
    assert twice.legal_moves() == [Move(MoveKind.USE, card="scout_post", target="lumberjack")]
    assert parse_move("scout", twice) == twice.legal_moves()[0]
    seen = 0
    for seed in range(12):  # every legal move of a few games, the keep stage's too, reads back as itself
        game = twin.new_game(2 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seen += game.stage == "keep"
            for legal in game.legal_moves():
                assert parse_move(format_move(legal, twin), game) == legal
            game.play(rng.choice(game.legal_moves()))
    assert seen > 0


def test_while_the_stage_waits_other_moves_are_refused_with_the_reason(twin):
    game = _scouting(twin)
    with pytest.raises(IllegalMoveError, match="first keep one of the cards your Scout Post turned up: Lumberjack or Gold Miner"):
        parse_move("pass", game)
    with pytest.raises(IllegalMoveError, match="you may keep only a card turned up: Lumberjack or Gold Miner"):
        game.play(Move(MoveKind.USE, card="scout_post", target="shepherd"))
    fresh = _scouting(twin)
    fresh.play(Move(MoveKind.USE, card="scout_post", target="gold_miner"))
    fresh.play(Move(MoveKind.PASS))
    with pytest.raises(IllegalMoveError, match="your Scout Post was already used this round"):
        parse_move("scout", fresh)
    with pytest.raises(IllegalMoveError, match="there are no cards turned up to keep"):
        fresh.play(Move(MoveKind.USE, card="scout_post", target="lumberjack"))
    full = (Scenario(twin, players=2, seed=3).give(0, "scout_post").markers(0).phase("building")
            .hand(0, ["shepherd", "fur_trapper", "ship_builder"]).build())
    with pytest.raises(IllegalMoveError, match="your hand is full: Scout Post has nowhere to put the card you keep"):
        parse_move("scout", full)


@pytest.mark.parametrize("side", [pytest.param(0, marks=pytest.mark.slow), 1], ids=["compiled", "twin"])
def test_a_save_made_while_the_stage_waits_loads_and_plays_on(request, side):
    ruleset = request.getfixturevalue("lookout")[0] if side == 0 else request.getfixturevalue("twin")
    game = _scouting(ruleset)
    text = game.to_json()
    saved = json.loads(text)
    assert saved["version"] == 2 and saved["state"]["stage"] == [3]  # its engine's number of "keep"
    restored = ruleset.game_from_json(text)
    assert restored.state_values() == game.state_values() and restored.stage == "keep"
    assert restored.legal_moves() == game.legal_moves()
    restored.play(Move(MoveKind.USE, card="scout_post", target="gold_miner"))
    assert restored.hand(0) == ["gold_miner"]


def test_a_loaded_state_of_the_stage_is_checked(twin):
    saved = json.loads(_scouting(twin).to_json())

    def refusal(**state: list[int]) -> str:
        with pytest.raises(ValueError) as caught:
            twin.game_from_json(json.dumps(dict(saved, state=dict(saved["state"], **state))))
        return str(caught.value)

    assert "two cards turned up must wait exactly while the stage is 'keep'" in refusal(stage=[0])
    assert "two cards turned up must wait exactly while the stage is 'keep'" in refusal(shown=[-1, -1])
    lumberjack = [card.id for card in twin.model.cards].index("lumberjack")
    assert "Lumberjack turns up no cards to keep" in refusal(keeper=[lumberjack])
    assert "it has not used" in refusal(used=[0] * len(saved["state"]["used"]))
    assert "appears" in refusal(shown=[lumberjack, lumberjack])  # a card in two places


def test_the_reference_describes_it(twin):
    model = twin.model
    card = model.card("scout_post")
    prose = describe_effect(model, card, card.abilities[0])
    assert prose.startswith("In the Building phase, instead of another action, the owner may use Scout Post once "
                            "per round") and "the other goes to the discard pile" in prose
    text = emit_reference(model, notation=notation_section(model))["reference.md"]
    assert prose in text
    assert ('Scout Post (the "scout" move): turn up two cards and keep one instead of another action in the '
            'Building phase.') in text
    assert "| scout | use your Scout Post: turn up two cards | scout | – |" in text
    assert "| scout CARD | keep this one of the two cards turned up | scout Lumberjack | – |" in text


def test_the_screen_says_what_the_stage_waits_for(twin):
    assert describe_card(twin.model, twin.model.card("scout_post")) == "keeps one of two worker cards (scout)"
    game = _scouting(twin)
    for seat in (0, 1):  # everyone sees the two cards turned up
        screen = build_screen(game, seat, (("scout Lumberjack", None), ("scout Gold Miner", None)))
        assert screen.prompt == ("Player 1 turned up Lumberjack and Gold Miner with the Scout Post: keep one "
                                 "('scout CARD'); the other goes to the discard pile")
    assert build_screen(twin.new_game(2, seed=1), 0, ()).prompt is None


def test_nothing_outside_its_folder_names_it():
    for root in (Path(spbc.__file__).parent,):
        for path in root.rglob("*"):
            if path.suffix in (".py", ".j2", ".lark", ".pyx") and "generated" not in path.parts:
                text = path.read_text(encoding="utf-8")
                assert all(name not in text for name in ("keep_one", "scout_post", "STAGE_KEEP", "keep_moves")), path
