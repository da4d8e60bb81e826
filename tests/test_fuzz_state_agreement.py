"""The loader and the engine agree on what a state may hold (issue 20, finding 18): every state a game
reaches from a state the loader accepts is one the loader accepts again, on both engines and every
shipped ruleset. Before, a game loaded at round 10,000 ran on into round 10,001, and one loaded with
every player passed in a row in the actions stage ended its phase into a state with more passes than
players; both saves were accepted, and the game they became was refused."""

from __future__ import annotations

import json
import random

import pytest
from fuzzing import fuzz_settings, random_position
from hypothesis import assume, given
from hypothesis import strategies as st

import spbc
from spbc.contract.abi import ROUND_MAX
from spbc.lang.load import shipped_names
from spbc.play.save import GameFileError

BACKENDS = ("python", "compiled")
RULESETS = tuple(shipped_names())


def rules(name: str, backend: str) -> spbc.Ruleset:
    loaded = spbc.load_rules(name, backend=backend)
    if loaded.backend != backend:
        pytest.skip(f"the {backend} engine is not in use here")
    return loaded


def play_out_reloading(game: spbc.Game, rng: random.Random) -> spbc.Game:
    """Play random moves to the end, saving and loading the game after each: the game at its end. A
    state the loader refuses fails the test with the move that led to it."""
    ruleset = game.ruleset
    moves = 0
    while not game.is_over:
        assert moves <= ruleset.move_limit, "the game outlasts its bound"
        codes = game.legal_codes()
        move = codes[rng.randrange(len(codes))]
        game.play_code(move)
        moves += 1
        try:
            game = ruleset.game_from_json(game.to_json())
        except GameFileError as error:
            raise AssertionError(f"after move {moves} ({ruleset.decode(move)}): {error}") from None
    return game


# Edits of a reachable state that keep every card in its place: the values a state may lie about.
_edit = st.one_of(
    st.tuples(st.just("round"), st.sampled_from([1, 2, ROUND_MAX - 1, ROUND_MAX, ROUND_MAX + 1])),
    st.tuples(st.just("passes"), st.integers(-1, 5)),
    st.tuples(st.just("last_round"), st.integers(0, 1)),
    st.tuples(st.just("current"), st.integers(0, 4)),
    st.tuples(st.just("phase"), st.integers(0, 4)),
    st.tuples(st.just("stage"), st.integers(0, 3)),
)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", [name if name == "base" else pytest.param(name, marks=pytest.mark.slow)
                                  for name in RULESETS])  # the variants' games in the slow tier
@fuzz_settings(default=4, most=200)
@given(seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 400), edits=st.lists(_edit, max_size=3))
def test_every_state_reached_from_an_accepted_state_is_accepted(name, backend, seed, moves, edits):
    """issue finding 18: a random game saved at a random point (its fields edited, or not); if the
    loader accepts it, it plays to its end with every state on the way accepted by the loader."""
    ruleset = rules(name, backend)
    players = ruleset.model.game.min_players + seed % (ruleset.model.game.max_players
                                                       - ruleset.model.game.min_players + 1)
    saved = json.loads(random_position(ruleset, players, seed, moves).to_json())
    for field, value in edits:
        saved["state"][field][0] = value
    try:
        game = ruleset.game_from_json(json.dumps(saved))
    except GameFileError:
        assume(bool(edits))  # only an edited state may be refused
        return
    play_out_reloading(game, random.Random(seed))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_game_loaded_at_the_last_round_ends_after_it(backend):
    """issue finding 18: round ROUND_MAX is the last a state may hold: the engine ends the game there."""
    ruleset = rules("base", backend)
    saved = json.loads(random_position(ruleset, 2, 11, 3).to_json())
    saved["state"]["round"] = [ROUND_MAX]
    ended = play_out_reloading(ruleset.game_from_json(json.dumps(saved)), random.Random(3))
    assert ended.is_over and ended.round == ROUND_MAX
    saved["state"]["round"] = [ROUND_MAX + 1]
    with pytest.raises(GameFileError, match=f"round is {ROUND_MAX + 1}, outside 1..{ROUND_MAX}"):
        ruleset.game_from_json(json.dumps(saved))
    values = ruleset.game_from_json(json.dumps(dict(saved, state=dict(saved["state"], round=[1])))).state_values()
    values[dict((n, o) for n, o, _ in ruleset.engine.FIELDS)["round"]] = ROUND_MAX + 1
    with pytest.raises(ValueError):
        ruleset.engine.Engine().load(values)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_turn_after_every_player_passed_is_refused_by_the_loader_and_the_engine(backend):
    """issue finding 18: in the actions stage fewer players than all have passed in a row."""
    ruleset = rules("base", backend)
    game = random_position(ruleset, 3, 5, 10)
    assert game.stage == "actions"
    saved = json.loads(game.to_json())
    saved["state"]["passes"] = [3]
    with pytest.raises(GameFileError, match="passes is 3, outside 0..2"):
        ruleset.game_from_json(json.dumps(saved))
    values = game.state_values()
    values[dict((n, o) for n, o, _ in ruleset.engine.FIELDS)["passes"]] = 3
    with pytest.raises(ValueError):
        ruleset.engine.Engine().load(values)
