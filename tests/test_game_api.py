"""The public game API: loading rulesets, games, errors, copies, results and saved games."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys

import pytest

import spbc
from scenario import PASS, Scenario, ScenarioError, buy, discard, play, points, take, use
from spbc.contract.rng import rng_below
from spbc.play.game import GameTooLongError, Standing
from spbc.play.save import GameFileError
from spbc.play.moves import IllegalMoveError, Move, MoveKind

# --- loading -------------------------------------------------------------------------------


def test_base_loads_the_compiled_engine_by_default(monkeypatch):
    monkeypatch.delenv("SPBC_BACKEND", raising=False)
    ruleset = spbc.load_rules("base")
    assert ruleset.backend == "compiled"
    assert ruleset.name == "base" and len(ruleset.cards) == 49
    assert repr(ruleset) == "<Ruleset 'base' backend='compiled'>"


def test_spbc_backend_python_forces_the_twin():
    env = dict(os.environ, SPBC_BACKEND="python")
    code = "import spbc; r = spbc.load_rules('base', backend='compiled'); print(r.backend, r.engine.__name__)"
    done = subprocess.run([sys.executable, "-P", "-c", code], env=env, capture_output=True, text=True, check=True)
    backend, module = done.stdout.split()
    assert backend == "python" and module.endswith(".twin")


def test_an_unknown_backend_is_refused():
    with pytest.raises(ValueError, match="backend must be one of auto, compiled, python, not 'cuda'"):
        spbc.load_rules("base", backend="cuda")


@pytest.mark.parametrize("players", [0, 1, 5, ["Anna"], ["A", "B", "C", "D", "E"]])
def test_player_count_outside_2_to_4_is_refused(ruleset, players):
    count = players if isinstance(players, int) else len(players)
    with pytest.raises(ValueError) as error:
        ruleset.new_game(players, seed=1)
    assert str(error.value) == f"base is for 2 to 4 players, not {count}"


def test_players_by_name_or_by_number(ruleset):
    assert ruleset.new_game(3, seed=1).players == ("Player 1", "Player 2", "Player 3")
    game = ruleset.new_game(["Anna", "Boris"], seed=4)
    assert game.players == ("Anna", "Boris") and game.seed == 4
    assert game.context() == f"{game.players[game.current_player]}, round 1, Worker phase"


# --- illegal moves -------------------------------------------------------------------------


def named_game(ruleset, **changes):
    scenario = Scenario(ruleset).upper(["lumberjack", "gold_miner"]).lower(["shepherd"]).markers(0)
    for name, args in changes.items():
        getattr(scenario, name)(*args)
    saved = json.loads(scenario.to_json())
    saved["players"] = ["Anna", "Boris"]
    return ruleset.game_from_json(json.dumps(saved))


@pytest.mark.parametrize("move, reason", [
    (buy("market"), "there is no Market on the board"),
    (buy("shepherd"), "there is no Shepherd in the upper row, only in the lower row"),
    (take("gold_miner", "lower"), "there is no Gold Miner in the lower row, only in the upper row"),
    (play("market"), "you have no Market in your hand"),
    (use("observatory", "worker"), "you have no Observatory"),
    (points("pub", 2), "there is no offer to buy points now"),
    (discard("market"), "there is no drawn card to decide on"),
    (Move(MoveKind.BUY, card="nonsense", row="upper"), "there is no card 'nonsense' in the rules of base"),
    (buy("lumberjack", "upper", "gold_miner"), "Lumberjack is not a trading card; it displaces nothing"),
])
def test_illegal_moves_say_why(ruleset, move, reason):
    game = named_game(ruleset)
    before = game.state_values()
    with pytest.raises(IllegalMoveError) as error:
        game.play(move)
    assert error.value.reason == reason
    assert error.value.context == "Anna, round 1, Worker phase"
    assert str(error.value) == f"{reason} (Anna, round 1, Worker phase)"
    assert game.state_values() == before


def test_illegal_trading_moves_say_why(ruleset):
    game = named_game(ruleset, give=(0, "lumberjack"), upper=(["wharf", "carpenter_workshop", "bank"],),
                      rubles=(0, 2))
    cases = {
        buy("bank"): "Bank must displace a blue card; you have none",
        buy("carpenter_workshop"): "Carpenter Workshop must name the card it displaces: Lumberjack",
        buy("wharf", "upper", "lumberjack"): "Wharf cannot displace Lumberjack; it displaces a Ship Builder "
                                             "or Czar and Carpenter",
        buy("carpenter_workshop", "upper", "czar_and_carpenter"): "you have no Czar and Carpenter to displace",
    }
    for move, reason in cases.items():
        with pytest.raises(IllegalMoveError) as error:
            game.play(move)
        assert error.value.reason == reason


def test_decisions_come_first(ruleset):
    game = named_game(ruleset, give=(0, "observatory"), phase=("building",),
                      deck=("building", ["market"]))
    game.play(use("observatory", "building"))
    with pytest.raises(IllegalMoveError) as error:
        game.play(PASS)
    assert error.value.reason == "first decide on the Market you drew: buy it, take it into your hand or discard it"
    assert str(error.value).endswith("(Anna, round 1, Building phase)")
    pub = named_game(ruleset, give=(1, "pub"), rubles=(1, 5), phase=("building",))
    pub.play(PASS)
    pub.play(PASS)
    with pytest.raises(IllegalMoveError) as error:
        pub.play(PASS)
    assert error.value.reason == "first decide how many points to buy with your Pub: 0 to 2"
    assert error.value.context == "Boris, round 1, Building phase"  # the offer follows the building scoring
    with pytest.raises(IllegalMoveError) as error:
        pub.play(points("pub", 3))
    assert error.value.reason == "you can buy at most 2 points now: each costs 2 rubles and you have 5 rubles"


def test_cost_is_none_for_moves_that_pay_nothing(ruleset):
    game = named_game(ruleset, rubles=(0, 9))
    assert game.cost(PASS) is None
    assert game.cost(take("lumberjack")) is None
    assert game.cost(buy("shepherd", "lower")) == 4
    assert game.cost(buy("shepherd", "lower"), seat=1) == 4


# --- copies and results --------------------------------------------------------------------


def test_a_clone_is_independent(ruleset):
    game = ruleset.new_game(3, seed=21)
    copy = game.clone()
    assert copy.state_values() == game.state_values() and copy.players == game.players
    before = game.state_values()
    copy.play(copy.legal_moves()[-1])
    assert game.state_values() == before
    assert copy.state_values() != before
    game.play(PASS)
    game.play(PASS)
    assert copy.current_player != game.current_player or copy.state_values() != game.state_values()
    again = game.clone()
    again.play(PASS)
    assert game.phase == "worker" and again.phase == "building"


def test_standings_shape_and_ranks(ruleset):
    game = (Scenario(ruleset, players=3).points(0, 4).rubles(0, 35).points(1, 9).rubles(1, 2)
            .points(2, 4).rubles(2, 30).hand(2, ["market"]).give(1, "author").build())
    standings = game.standings()
    assert all(isinstance(s, Standing) for s in standings)
    assert [dataclasses.astuple(s) for s in standings] == [
        # seat, name, final, tie_break, rank, points, rubles, hand_size
        (1, "Player 2", 10, 2, 1, 9, 2, 0),
        (0, "Player 1", 7, 5, 2, 4, 35, 0),
        (2, "Player 3", 2, 0, 3, 4, 30, 1),
    ]


def test_view_of_a_seat_that_does_not_exist(ruleset):
    game = ruleset.new_game(2, seed=1)
    with pytest.raises(ValueError, match="there is no seat 2 in a game of 2"):
        game.view(2)


def _play_randomly(game, seed: int, moves: int | None = None) -> None:
    """What a playout does, through the public API: a move drawn by the engine's generator,
    no draw when there is one move; to the end or for moves moves."""
    rng = [seed]  # the state of the engine's generator
    made = 0
    while not game.is_over and (moves is None or made < moves):
        codes = game.legal_codes()
        game.play_code(codes[0] if len(codes) == 1 else codes[rng_below(rng, len(codes))])
        made += 1


def test_a_playout_plays_a_copy_to_the_end_and_leaves_the_game_as_it_was(ruleset):
    game = ruleset.new_game(["Anna", "Boris", "Clara"], seed=4)
    _play_randomly(game, 1, 25)
    before = game.state_values()
    standings = game.playout(9)
    assert game.state_values() == before
    copy = game.clone()
    _play_randomly(copy, 9)
    assert copy.is_over and standings == copy.standings()
    assert game.playout(9) == standings
    assert len({tuple(s.final for s in game.playout(seed)) for seed in range(10)}) > 5
    assert game.state_values() == before


def test_a_playout_stops_at_its_limit_and_refuses_a_limit_that_is_no_number_of_moves(ruleset):
    game = ruleset.new_game(2, seed=4)
    copy = game.clone()
    _play_randomly(copy, 3, 40)
    assert not copy.is_over and game.playout(3, limit=40) == copy.standings()
    assert game.playout(3, limit=0) == game.standings()
    assert game.playout(3, limit=10**30) == game.playout(3)
    for limit in (-1, 2.5, True, "40"):
        with pytest.raises(ValueError, match="limit is a number of moves"):
            game.playout(3, limit=limit)


def test_a_playout_of_a_finished_game_is_its_standings(ruleset):
    game = ruleset.new_game(2, seed=8)
    _play_randomly(game, 8)
    assert game.is_over and game.playout(1) == game.standings()


def test_both_engines_play_the_same_playouts(compiled, twin):
    for seed in range(4):
        players = 2 + seed % 3
        assert compiled.new_game(players, seed).playout(seed) == twin.new_game(players, seed).playout(seed)


def test_a_playout_that_outlasts_the_rules_is_a_game_too_long_error(twin, monkeypatch):
    game = twin.new_game(2, seed=1)

    def endless(self, seed, limit):
        raise RuntimeError("the game did not end within MAX_GAME_MOVES")

    monkeypatch.setattr(twin.engine.Engine, "playout", endless)
    with pytest.raises(GameTooLongError, match="did not end"):
        game.playout(1)


# --- saved games ---------------------------------------------------------------------------


def saved(ruleset) -> dict:
    game = ruleset.new_game(2, seed=3)
    game.play(game.legal_moves()[1])
    return json.loads(game.to_json())


def refusal(ruleset, text: str) -> str:
    with pytest.raises(GameFileError) as error:
        ruleset.game_from_json(text)
    return str(error.value)


def test_a_saved_game_loads_back(ruleset):
    game = ruleset.new_game(["Anna", "Boris", "Clara"], seed=5)
    game.play(game.legal_moves()[2])
    text = game.to_json()
    restored = ruleset.game_from_json(text)
    assert restored.players == ("Anna", "Boris", "Clara") and restored.seed == 5
    assert restored.state_values() == game.state_values()
    assert restored.to_json() == text
    assert json.loads(text)["state"]["players"] == [3]


def test_garbled_json_is_refused(ruleset):
    assert refusal(ruleset, "{") == "not JSON: Expecting property name enclosed in double quotes at line 1, column 2"
    text = ruleset.new_game(2, seed=3).to_json()
    assert refusal(ruleset, text[:-40]).startswith("not JSON: ")
    assert refusal(ruleset, "[]") == (
        "not a saved game: the top level: Input should be a valid dictionary or instance of SavedGame"
    )


def test_missing_and_unknown_parts_are_refused(ruleset):
    data = saved(ruleset)
    del data["seed"]
    assert refusal(ruleset, json.dumps(data)) == "not a saved game: seed: Field required"
    data = saved(ruleset)
    data["state"]["colour"] = [1]
    assert refusal(ruleset, json.dumps(data)) == "unknown state field 'colour'"
    data = saved(ruleset)
    del data["state"]["discard"]
    assert refusal(ruleset, json.dumps(data)) == "state field 'discard' is missing"
    data = saved(ruleset)
    data["state"]["markers"] = [0, 1, 0]
    assert refusal(ruleset, json.dumps(data)) == "state field 'markers' has 3 values, not 4"


def test_other_format_or_rules_are_refused(ruleset):
    data = saved(ruleset)
    data["version"] = 3
    assert refusal(ruleset, json.dumps(data)) == "not a saved game of this version: format 'spbc-game' 3"
    data = saved(ruleset)
    digest = data["digest"]
    data["digest"] = "0" * 64
    assert refusal(ruleset, json.dumps(data)) == (
        f"this game was saved with other rules (base, digest 000000000000); these are base, digest {digest[:12]}"
    )


def test_a_card_counted_twice_is_refused(ruleset):
    data = saved(ruleset)
    state = data["state"]
    state["owned"][0 * 49 + 6] += 1  # a sixth Market
    state["colour_count"][0 * 3 + 1] += 1
    assert refusal(ruleset, json.dumps(data)) == "inconsistent game state: Market appears 6 times; the game has 5"
    data = saved(ruleset)
    data["state"]["discard"][12] = 1  # the one Academy, still in its deck
    assert refusal(ruleset, json.dumps(data)) == "inconsistent game state: Academy appears 2 times; the game has 1"
    data = saved(ruleset)
    state = data["state"]
    state["hand_size"][1], state["hand"][4] = 1, state["upper"][0]  # a card both in a row and in a hand
    card = ruleset.model.cards[state["upper"][0]]
    assert refusal(ruleset, json.dumps(data)) == (
        f"inconsistent game state: {card.name} appears {card.copies + 1} times; the game has {card.copies}"
    )


def test_a_game_saved_before_the_owned_mask_loads_with_it_recomputed(ruleset):
    game = ruleset.new_game(2, seed=3)
    for _ in range(40):  # far enough for cards in the play areas
        game.play(game.legal_moves()[-1])
    data = json.loads(game.to_json())
    assert any(data["state"]["owned_mask"]) and any(data["state"]["owned"])
    del data["state"]["owned_mask"]
    assert ruleset.game_from_json(json.dumps(data)).state_values() == game.state_values()


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_new_society_game_saved_with_an_owned_mask_by_card_index_loads_with_it_recomputed(backend):
    # the New Society's owned mask was 3 words a seat (card c at bit c); now 1 (each card displaced by rank)
    rules = spbc.load_rules("new_society", backend=backend)
    game = rules.new_game(5, seed=3)
    while not any(game.state_values()[offset] for name, offset, size in rules.engine.FIELDS if name == "owned"):
        game.play(game.legal_moves()[-1])
    for _ in range(200):
        game.play(game.legal_moves()[-1])
    data = json.loads(game.to_json())
    assert len(data["state"]["owned_mask"]) == 5 and any(data["state"]["owned_mask"])
    data["state"]["owned_mask"] = [0] * 15  # the length of the old layout
    assert rules.game_from_json(json.dumps(data)).state_values() == game.state_values()


def test_an_owned_mask_that_does_not_match_the_cards_is_refused(ruleset):
    data = saved(ruleset)
    data["state"]["owned_mask"][0] ^= 1
    assert refusal(ruleset, json.dumps(data)) == (
        "inconsistent game state: the owned mask of a seat does not match its cards"
    )


def test_caches_that_do_not_match_the_cards_are_refused(ruleset):
    data = saved(ruleset)
    data["state"]["discount"][1] = 1
    assert refusal(ruleset, json.dumps(data)) == (
        "inconsistent game state: the blue discount of seat 1 does not match its cards"
    )
    data = saved(ruleset)
    data["state"]["colour_count"][3] = 2
    assert refusal(ruleset, json.dumps(data)) == (
        "inconsistent game state: the green count of seat 2 does not match its cards"
    )


@pytest.mark.parametrize("field, index, value, message", [
    ("rubles", 0, -1, "rubles is -1, outside 0..1000000000"),
    ("players", 0, 3, "players is 3, outside 2..2"),
    ("phase", 0, 4, "phase is 4, outside 0..3"),
    ("current", 0, 2, "current is 2, outside 0..1"),
    ("markers", 2, 5, "markers is 5, outside 0..1"),
    ("hand_size", 1, 5, "hand_size is 5, outside 0..4"),
    ("stage", 0, 7, "stage is 7, outside 0..3"),
    ("upper_size", 0, 9, "upper_size is 9, outside 0..8"),
    ("drawn", 0, 3, "a drawn card must be pending exactly while the stage is 'drawn'"),
])
def test_out_of_range_values_are_refused(ruleset, field, index, value, message):
    data = saved(ruleset)
    data["state"][field][index] = value
    assert refusal(ruleset, json.dumps(data)) == f"inconsistent game state: {message}"


def test_scenarios_move_cards_and_never_make_new_ones(ruleset):
    game = Scenario(ruleset).give(0, "market", 3).upper(["market", "market"]).build()
    assert game.play_area(0) == {"market": 3} and game.row("upper") == ["market", "market"]
    assert game.deck_sizes()["building"] == 28 - 5
    with pytest.raises(ScenarioError, match="no copy of 'market' is left to place"):
        Scenario(ruleset).give(0, "market", 3).upper(["market", "market"]).hand(1, ["market"])


def test_the_prices_kept_as_cards_come_and_go_are_those_computed_from_the_play_areas(ruleset):
    # O_PRICE is kept by place(); Engine.load computes it anew, so a state loaded into a fresh engine is
    # the same state exactly when every kept price is right (through discount cards bought too)
    engine_type, rng, checked = ruleset.engine.Engine, random.Random(5), 0
    reductions = 0
    for game in range(12 if ruleset.backend == "compiled" else 3):
        engine = engine_type.new(2 + game % 3, game)
        while engine.legal_moves():
            engine.play(rng.choice(engine.legal_moves()))
            fresh = engine_type()
            fresh.load(engine.state())
            assert fresh.state() == engine.state()
            checked += 1
        reductions += any(engine.state()[o] for o in _offsets(ruleset, "discount"))
    assert checked > 400 and reductions > 0


def _offsets(ruleset, name):
    (offset, size), = [(offset, size) for field, offset, size in ruleset.engine.FIELDS if field == name]
    return range(offset, offset + size)


def test_a_game_saved_before_the_prices_loads_with_them_computed(ruleset):
    game = ruleset.new_game(2, seed=3)
    for _ in range(40):  # far enough for cards in the play areas
        game.play(game.legal_moves()[-1])
    data = json.loads(game.to_json())
    costs = [card.cost for card in ruleset.model.cards]
    assert data["state"]["price"][:2 * len(costs)] != costs * 2  # cards bought change prices
    del data["state"]["price"]
    assert ruleset.game_from_json(json.dumps(data)).state_values() == game.state_values()


def test_the_prices_a_save_holds_are_never_trusted(ruleset):
    game = ruleset.new_game(3, seed=4)
    for _ in range(30):
        game.play(game.legal_moves()[0])
    data = json.loads(game.to_json())
    data["state"]["price"] = [-1] * len(data["state"]["price"])  # everything for nothing
    loaded = ruleset.game_from_json(json.dumps(data))
    assert loaded.state_values() == game.state_values() and loaded.legal_moves() == game.legal_moves()


def test_a_game_saved_before_the_colours_income_loads_with_it_computed(ruleset):
    game = ruleset.new_game(2, seed=3)
    for _ in range(40):  # far enough for cards in the play areas
        game.play(game.legal_moves()[-1])
    data = json.loads(game.to_json())
    assert any(data["state"]["colour_rubles"]) or any(data["state"]["colour_points"])  # cards bought pay
    del data["state"]["colour_rubles"], data["state"]["colour_points"]
    assert ruleset.game_from_json(json.dumps(data)).state_values() == game.state_values()


def test_the_colours_income_a_save_holds_is_never_trusted(ruleset):
    game = ruleset.new_game(3, seed=4)
    for _ in range(30):
        game.play(game.legal_moves()[0])
    data = json.loads(game.to_json())
    data["state"]["colour_rubles"] = [1000] * len(data["state"]["colour_rubles"])  # a fortune at every scoring
    data["state"]["colour_points"] = [-1] * len(data["state"]["colour_points"])
    loaded = ruleset.game_from_json(json.dumps(data))
    assert loaded.state_values() == game.state_values()
    while not game.is_over:  # and every scoring pays the same as in the game it was saved from
        move = game.legal_moves()[-1]
        game.play(move)
        loaded.play(move)
    assert loaded.state_values() == game.state_values()
