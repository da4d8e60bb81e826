"""No state the engine accepts crashes it or plays forever, and no Move value plays but a legal one.

Issue 7: Engine.load took a state with 100 Pubs (the game has 2), whose buy-points
offer then wrote 501 moves into a buffer of 264 (a segfault of the compiled engine);
a saved game with every deck empty and no last round called never ended; Game.play
read a Move with a field of the wrong type as another move or raised KeyError; the
Pub skipped an owner short of 2 rubles, which told the others so. The compiled
engine runs in a subprocess wherever a state could crash it, so a crash fails a
test instead of ending the run.
"""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
import types

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from scenario import PASS, Scenario, end_phase, points

from spbc.contract.abi import VALUE_MAX
from spbc.engine.emit import emit_engine_ir
from spbc.play.game import GameTooLongError
from spbc.play.save import GameFileError
from spbc.engine.lower import lower
from spbc.play.moves import IllegalMoveError, Move, MoveKind

# --- positions ---------------------------------------------------------------------------


def reach(ruleset, stage: str, seed: int = 0, players: int = 2):
    """A game at a turn of stage ("actions" past round 1, "drawn" or "points"), reached by play.

    The players buy Pubs and Observatories and use them whenever they can, so every
    stage comes up within a few seeds.
    """
    for attempt in range(seed, seed + 300):
        game = ruleset.new_game(players, seed=attempt)
        rng = random.Random(attempt)
        while not game.is_over:
            if game.stage == stage and (stage != "actions" or game.round > 1):
                return game
            moves = game.legal_moves()
            wanted = [m for m in moves if m.card in ("pub", "observatory") and m.kind in (MoveKind.BUY, MoveKind.USE)]
            game.play(wanted[0] if wanted else rng.choice(moves))
    raise AssertionError(f"no game reached the stage {stage}")


def offsets(ruleset) -> dict[str, int]:
    return {name: offset for name, offset, _size in ruleset.engine.FIELDS}


def card(ruleset, card_id: str) -> int:
    return ruleset.engine.CARD_IDS.index(card_id)


# --- the compiled engine, in a process of its own ----------------------------------------

_LOAD_AND_PLAY = """
import json, sys
import spbc
engine = spbc.load_rules("base", backend="compiled").engine
for line in sys.stdin:
    values, seed = json.loads(line)
    e = engine.Engine()
    try:
        e.load(values)
    except ValueError:
        print(json.dumps(None), flush=True)
        continue
    counts = [len(e.legal_moves())]
    made = e.playout(seed)
    print(json.dumps([counts[0], made, e.state()]), flush=True)
"""


def on_compiled(states: list[tuple[list[int], int]]) -> list:
    """For each (state, seed): None if the compiled engine refuses the state, else
    [legal moves at once, moves of a random playout from seed, the final state]."""
    lines = "".join(json.dumps([values, seed]) + "\n" for values, seed in states)
    done = subprocess.run([sys.executable, "-c", _LOAD_AND_PLAY], input=lines, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, f"the compiled engine died (exit {done.returncode}): {done.stderr[-2000:]}"
    return [json.loads(line) for line in done.stdout.splitlines()]


def on_twin(twin, states: list[tuple[list[int], int]]) -> list:
    """What on_compiled gives, from the twin in this process."""
    results = []
    for values, seed in states:
        e = twin.engine.Engine()
        try:
            e.load(values)
        except ValueError:
            results.append(None)
            continue
        count = len(e.legal_moves())
        made = e.playout(seed)
        results.append([count, made, e.state()])
    return results


# --- 1. the engine's own check covers every bound its code relies on ---------------------


def _mutations(ruleset):
    """States the engine's old check let through, each breaking a bound the engine relies on."""
    game = reach(ruleset, "points")
    o, pub, seat = offsets(ruleset), card(ruleset, "pub"), game.current_player
    ncards, ncolours = len(ruleset.engine.CARD_IDS), len(ruleset.engine.COLOUR_IDS)

    def changed(*edits: tuple[int, int]) -> list[int]:
        values = game.state_values()
        for offset, value in edits:
            values[offset] = value
        return values

    owned_pub = o["owned"] + seat * ncards + pub
    return {
        "100 Pubs and a billion rubles": changed((owned_pub, 100), (o["rubles"] + seat, 10**9)),
        "3 Pubs of 2": changed((owned_pub, 3)),
        "a card counted twice": changed((o["hand_size"] + seat, 1), (o["hand"] + seat * 4, pub)),
        "a colour count of a billion": changed((o["colour_count"] + seat * ncolours, 10**9)),
        "a discount of minus a billion": changed((o["discount"] + seat * ncolours, -10**9)),
        "an owned mask of a card not owned": changed((o["owned_mask"] + seat * ruleset.engine.MASK_WORDS,
                                                      game.state_values()[o["owned_mask"]] ^ 1 << pub)),
        "more used than owned": changed((o["used"] + seat * ncards + pub, 2)),
        "16 cards on a board of 8": changed((o["upper_size"], 8), (o["lower_size"], 8)),
        "negative points": changed((o["points"] + seat, -5)),
        "seat 3 of 2 owns cards": changed((o["owned"] + 3 * ncards + pub, 1)),
    }


@pytest.mark.slow  # every bound of every field on both engines
def test_the_engines_refuse_a_state_beyond_the_bounds_their_code_relies_on(compiled, twin):
    mutations = _mutations(twin)
    for name, values in mutations.items():
        engine = twin.engine.Engine.new(2, 1)
        with pytest.raises(ValueError, match="outside what the engine can play safely"):
            engine.load(values)
        assert engine.state() == twin.engine.Engine.new(2, 1).state(), name
    results = on_compiled([(values, 1) for values in mutations.values()])  # a segfault before
    assert results == [None] * len(mutations), dict(zip(mutations, results))


def test_the_engine_says_which_bound_a_state_breaks(twin):
    values = _mutations(twin)["100 Pubs and a billion rubles"]
    with pytest.raises(ValueError) as caught:
        twin.engine.Engine().load(values)
    assert str(caught.value) == ("this state is outside what the engine can play safely: "
                                 "a card is in more places than it has copies")


def test_a_buy_points_offer_has_no_more_moves_than_the_buffer(ruleset):
    # 2 Pubs, the game's every copy: 0 to 10 points, the largest offer of the base game
    game = Scenario(ruleset).give(0, "pub", 2).rubles(0, VALUE_MAX).markers(0).phase("building").build()
    end_phase(game)
    assert len(game.legal_moves()) == 11 <= ruleset.engine.MAX_MOVES_


BUILDINGS = ["market", "customs_house", "firehouse", "hospital", "library", "theater", "academy",
             "potjomkins_village", "pub", "warehouse", "observatory"]
ARISTOCRATS = ["author", "administrator", "warehouse_manager", "secretary", "controller", "judge",
               "mistress_of_ceremonies"]
BLUE_TRADING = ["mariinskij_theater", "bank", "peterhof", "st_isaacs_cathedral", "church_of_the_resurrection",
                "harbor", "catherine_the_great_palace", "smolny_cathedral", "hermitage", "winter_palace"]


def test_the_richest_turn_of_the_base_game_fits_the_buffer(ruleset):
    scenario = Scenario(ruleset).rubles(0, VALUE_MAX).markers(0).phase("building")
    for card_id in BUILDINGS + ARISTOCRATS:  # every card a blue or orange trading card may displace
        scenario.give(0, card_id)
    game = scenario.upper(BLUE_TRADING[:8]).lower([]).hand(0, BLUE_TRADING[8:] + ["pope"]).build()
    # pass; 8 board cards, each taken or bought over one of 11 buildings; 2 x 11 + 7 plays; 4 decks to draw from
    assert len(game.legal_moves()) == 1 + 8 * (1 + 11) + 2 * 11 + 7 + 4 <= ruleset.engine.MAX_MOVES_


def test_max_moves_is_the_largest_move_list_of_any_stage():
    from spbc.lang.load import load_model

    ir = lower(load_model("base"))
    rows = {m.kind: m.rows for m in ir.mechanics}
    purchases = max(len(c.targets) if c.trading else 1 for c in ir.cards)
    actions = (1 + ir.board_size * (1 + purchases) + ir.hand_max * purchases
               + sum(len(x.decks) for x in rows["draw_action"]))
    drawn = purchases + 2
    offer = 1 + max(bp.max_points * (ir.cards[bp.card].copies if bp.per_card else 1) for bp in rows["buy_points"])
    assert ir.max_moves == max(actions, drawn, offer) == actions
    shares = {(m.kind, stage): share for m in ir.mechanics for stage, share in m.moves}
    assert shares == {("draw_action", "actions"): 4, ("draw_action", "drawn"): drawn,
                      ("buy_points", "points"): offer}


def test_a_move_buffer_too_small_for_a_state_is_caught_by_the_twin(twin):
    """The twin's move buffers are lists of exactly MAX_MOVES: a count beyond it raises there,
    where the compiled engine would write past its buffer."""
    from spbc.lang.load import load_model

    small = dataclasses.replace(lower(load_model("base")), max_moves=10)
    module = types.ModuleType("small_twin")
    exec(compile(emit_engine_ir(small)["twin.py"], "small_twin.py", "exec"), module.__dict__)
    game = Scenario(twin).give(0, "pub", 2).rubles(0, 100).markers(0).phase("building").build()
    end_phase(game)
    engine = module.Engine()
    engine.load(game.state_values())
    with pytest.raises(IndexError):
        engine.legal_moves()


# --- 2. every accepted state ends, within a bound derived from the rules ------------------


def _all_decks_empty(ruleset) -> dict:
    """A saved game in mid-round with every deck emptied onto the discard pile and no last round."""
    data = json.loads(reach(ruleset, "actions").to_json())
    state = data["state"]
    deck_max = len(state["decks"]) // len(state["deck_size"])
    for d, size in enumerate(state["deck_size"]):
        for code in state["decks"][d * deck_max: d * deck_max + size]:
            state["discard"][code] += 1
        state["deck_size"][d] = 0
    state["last_round"] = [0]
    return data


def test_a_save_with_empty_decks_and_no_last_round_is_refused(ruleset):
    # it loaded, and with computer seats spb play --load never ended
    data = _all_decks_empty(ruleset)
    with pytest.raises(GameFileError) as caught:
        ruleset.game_from_json(json.dumps(data))
    assert str(caught.value) == ("inconsistent game state: deck 'worker' is empty "
                                 "but the last round has not been called")
    data["state"]["last_round"] = [1]
    game = ruleset.game_from_json(json.dumps(data))
    while not game.is_over:
        game.play(game.legal_moves()[0])


def test_the_end_of_the_game_does_not_rest_on_the_last_round_flag(twin):
    """With every deck empty the round is the last, whatever the flag says (set here past every check)."""
    data = _all_decks_empty(twin)
    values = [v for name, _offset, _size in twin.engine.FIELDS for v in data["state"][name]]
    with pytest.raises(ValueError, match="a deck is empty but the last round has not been called"):
        twin.engine.Engine().load(values)
    engine = twin.engine.Engine()
    engine.s = list(values)  # the twin's state is a list: past the check
    start = engine.get(offsets(twin)["round"])
    made = engine.playout(5)
    assert engine.legal_moves() == [] and 0 < made < twin.move_limit
    assert engine.get(offsets(twin)["round"]) == start  # it ended with the round it was in


def test_the_move_bound_is_derived_from_the_rules(ruleset):
    # 3 moves per card (draw, take, play), passes around each and every phase, offers; 2 rounds per card
    copies, players, phases = 116, 4, 4
    rounds = 2 * copies + 3
    assert ruleset.move_limit == 3 * copies + players * (3 * copies + rounds * phases) + rounds * players * 1


positions_st = st.tuples(st.sampled_from([2, 3, 4]), st.integers(0, 2**32), st.integers(0, 400))


def _position(ruleset, players: int, seed: int, moves: int):
    game = ruleset.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        codes = game.legal_codes()
        game.play_code(codes[rng.randrange(len(codes))])
    return game


@settings(max_examples=40, deadline=None)
@given(position=positions_st)
def test_a_reachable_state_saved_and_loaded_ends_within_the_bound_on_both_engines(compiled, twin, position):
    text = _position(twin, *position).to_json()
    fast, slow = compiled.game_from_json(text), twin.game_from_json(text)
    rng = random.Random(position[1])
    for made in range(twin.move_limit + 1):
        if slow.is_over:
            break
        codes = slow.legal_codes()
        assert fast.legal_codes() == codes and len(codes) <= twin.engine.MAX_MOVES_
        code = codes[rng.randrange(len(codes))]
        fast.play_code(code)
        slow.play_code(code)
    assert slow.is_over and fast.is_over and made <= twin.move_limit
    assert fast.state_values() == slow.state_values()


def _mutated(ruleset, rng: random.Random) -> list[int]:
    """A reachable state with one value changed, one card moved, or decks emptied."""
    game = _position(ruleset, rng.choice([2, 3, 4]), rng.randrange(2**32), rng.randrange(400))
    values = game.state_values()
    fields = {name: (offset, size) for name, offset, size in ruleset.engine.FIELDS}
    kind = rng.randrange(3)
    if kind == 0:
        offset, size = fields[rng.choice(list(fields))]
        values[offset + rng.randrange(size)] = rng.choice([-1, 0, 1, 2, 3, 4, 7, 8, 30, 100, 10**9])
    elif kind == 1:  # a card from one deck or row slot into another slot
        places = ["hand", "upper", "lower", "decks"]
        src, dst = fields[rng.choice(places)], fields[rng.choice(places)]
        values[dst[0] + rng.randrange(dst[1])] = values[src[0] + rng.randrange(src[1])]
    else:  # decks emptied onto the discard pile, the last round maybe called
        deck_max = fields["decks"][1] // fields["deck_size"][1]
        every = rng.random() < 0.5
        for d in range(fields["deck_size"][1]):
            if every or rng.random() < 0.5:
                size = values[fields["deck_size"][0] + d]
                for i in range(size):
                    values[fields["discard"][0] + values[fields["decks"][0] + d * deck_max + i]] += 1
                values[fields["deck_size"][0] + d] = 0
        values[fields["last_round"][0]] = rng.randrange(2)
    return values


@pytest.mark.slow  # many mutated games
def test_mutated_states_either_are_refused_or_play_out_alike_on_both_engines(compiled, twin):
    rng = random.Random(7)
    states = [(_mutated(twin, rng), rng.randrange(2**32)) for _ in range(150)]
    slow = on_twin(twin, states)
    fast = on_compiled(states)
    assert fast == slow
    accepted = [result for result in slow if result is not None]
    assert len(accepted) > 20  # the test plays states, it does not only see them refused
    for count, made, final in accepted:
        assert count <= twin.engine.MAX_MOVES_ and made <= twin.move_limit
        assert final[offsets(twin)["stage"]] == 3  # over


def test_a_game_that_outlasts_the_bound_is_an_error_not_a_hang(twin, monkeypatch):
    """The loops that drive games stop at the bound (lowered here to 5 moves to reach it)."""
    from spbc.table.seats import parse_seats
    from spbc.table.session import Session
    from spbc.ai.sim import play_game

    monkeypatch.setattr(type(twin), "move_limit", property(lambda self: 5))
    with pytest.raises(GameTooLongError, match="did not end within 5 moves"):
        play_game(twin, ["random", "random"], seed=1)
    seats = parse_seats("ai:random,ai:random")
    session = Session(twin.new_game([seat.name for seat in seats], seed=1), seats, agent_seed=1)
    events: list = []
    with pytest.raises(GameTooLongError, match="did not end within 5 moves"):
        session.run(read=lambda prompt: None, emit=events.append)
    assert len(events) == 1 + 5  # the start and the 5 moves: no more


def test_the_engines_playout_stops_at_the_bound(twin):
    engine = twin.engine.Engine.new(2, 1)
    assert engine.playout(3, limit=10**9) < twin.move_limit and engine.legal_moves() == []
    engine = twin.engine.Engine.new(2, 1)
    assert engine.playout(3, limit=7) == 7


# --- 3. Game.play plays exactly a legal move, or says why not -----------------------------

_garbage = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=4),
                     st.binary(max_size=2), st.lists(st.integers(), max_size=2), st.just(()), st.just(object()))
_ids = ("pub", "observatory", "market", "lumberjack", "carpenter_workshop", "wharf", "bank", "czar_and_carpenter",
        "nonsense")
_card = st.one_of(st.none(), st.sampled_from(_ids), _garbage)
moves_st = st.builds(
    Move,
    kind=st.one_of(st.sampled_from(list(MoveKind)), st.sampled_from([k.value for k in MoveKind]), _garbage),
    card=_card,
    row=st.one_of(st.none(), st.sampled_from(["upper", "lower", "drawn", "hand"]), _garbage),
    target=_card,
    deck=st.one_of(st.none(), st.sampled_from(["worker", "building", "trading", "nope"]), _garbage),
    amount=st.one_of(st.none(), st.integers(-2, 12), st.integers(), _garbage),
)


@pytest.fixture(scope="module")
def positions(compiled, twin) -> dict:
    """A game at each stage, on each engine."""
    return {(r.backend, stage): reach(r, stage, seed=3).to_json()
            for r in (compiled, twin) for stage in ("actions", "drawn", "points")}


_values = {  # per field: the values legal moves hold there, and some they never do
    "kind": st.one_of(st.sampled_from(list(MoveKind)), st.sampled_from([k.value for k in MoveKind]), _garbage),
    "card": _card, "target": _card,
    "row": st.one_of(st.none(), st.sampled_from(["upper", "lower", "drawn", "hand"]), _garbage),
    "deck": st.one_of(st.none(), st.sampled_from(["worker", "building", "trading", "nope"]), _garbage),
    "amount": st.one_of(st.none(), st.integers(-2, 12), st.integers(), _garbage),
}


def _any_move(data, legal: list[Move]):
    """A legal move with 0 to 2 fields changed to anything, or a Move of arbitrary values."""
    if not legal or data.draw(st.integers(0, 3)) == 0:
        return data.draw(moves_st)
    move = data.draw(st.sampled_from(legal))
    for name in data.draw(st.lists(st.sampled_from(sorted(_values)), max_size=2, unique=True)):
        move = dataclasses.replace(move, **{name: data.draw(_values[name])})
    return move


@pytest.mark.slow  # every move value of many states
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), where=st.sampled_from(["actions", "drawn", "points"]),
       backend=st.sampled_from(["compiled", "python"]), seat=st.one_of(st.none(), st.integers(-1, 4), _garbage))
def test_play_of_any_move_value_plays_a_legal_move_or_says_why(compiled, twin, positions, data, where, backend, seat):
    ruleset = compiled if backend == "compiled" else twin
    game = ruleset.game_from_json(positions[(backend, where)])
    legal = game.legal_moves()
    move = _any_move(data, legal)
    before = game.state_values()
    try:
        price = game.cost(move, seat)
    except ValueError:
        pass
    else:
        assert price is None or isinstance(price, int)
    try:
        game.play(move)
    except IllegalMoveError as error:
        assert error.reason and game.state_values() == before
        return
    assert type(move.kind) is MoveKind and move in legal
    again = ruleset.game_from_json(positions[(backend, where)])
    again.play_code(again.legal_codes()[legal.index(move)])
    assert game.state_values() == again.state_values()


@pytest.mark.parametrize("move", [
    Move(MoveKind.POINTS, card="pub", amount=True),  # True == 1, but it is no number of points
    Move(MoveKind.POINTS, card="pub", amount=1.0),
    Move("points", card="pub", amount=1),  # the kind as text, not a MoveKind
    Move(MoveKind.POINTS, card=["pub"], amount=1),  # a list: no card id, and no hash for a lookup
    Move(MoveKind.POINTS, card="pub", amount=2**70),
], ids=["bool", "float", "kind as text", "list", "huge"])
def test_a_move_of_the_wrong_types_is_refused_as_such(ruleset, move):
    game = Scenario(ruleset).give(0, "pub").rubles(0, 9).markers(0).phase("building").build()
    end_phase(game)
    before = game.state_values()
    with pytest.raises(IllegalMoveError) as caught:
        game.play(move)
    assert game.state_values() == before
    assert caught.value.reason.startswith(("not a whole move", "you can buy at most"))


# --- 4. bought points stop where scoring stops ---------------------------------------------


def test_points_bought_stop_at_the_cap_scoring_applies(ruleset):
    game = (Scenario(ruleset).give(0, "pub").rubles(0, 25).points(0, VALUE_MAX - 2).markers(0)
            .phase("building").build())
    end_phase(game)
    game.play(points("pub", 5))
    assert (game.points(0), game.rubles(0)) == (VALUE_MAX, 15)
    assert ruleset.game_from_json(game.to_json()).points(0) == VALUE_MAX  # its own loader takes it back


# --- 5. the Pub asks every owner, so the others learn nothing of secret rubles ------------


@pytest.mark.parametrize("rubles", [0, 1, 2, 3, 25])
def test_a_pub_owner_decides_whatever_their_rubles(ruleset, rubles):
    game = Scenario(ruleset, players=3).give(0, "pub").rubles(0, rubles).markers(0).phase("building").build()
    end_phase(game)
    assert (game.stage, game.current_player) == ("points", 0)
    assert [m.amount for m in game.legal_moves()] == list(range(min(rubles // 2, 5) + 1))


@settings(max_examples=25, deadline=None)
@example(seed=1, rubles=[1, 25], owner=0)
@given(seed=st.integers(0, 2**32), rubles=st.lists(st.integers(0, 30), min_size=2, max_size=2, unique=True),
       owner=st.integers(0, 2))
def test_others_see_the_same_game_whatever_a_pub_owners_secret_rubles(compiled, seed, rubles, owner):
    games = [Scenario(compiled, players=3, seed=seed).give(owner, "pub").rubles(owner, r).markers(0)
             .phase("building").build() for r in rubles]
    others = [seat for seat in range(3) if seat != owner]
    for _ in range(5):  # the same public moves in both: everyone passes, the owner buys no points
        assert all(games[0].view(seat) == games[1].view(seat) for seat in others)
        for game in games:
            game.play(PASS if game.stage == "actions" else points("pub", 0))
    assert [game.phase for game in games] == ["aristocrat"] * 2
    assert all(games[0].view(seat) == games[1].view(seat) for seat in others)
