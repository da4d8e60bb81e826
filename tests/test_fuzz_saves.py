"""Fuzz: mutated saved games. Every file is refused with a reason, or loads and then plays to its end
within a bound, identically on the twin (here) and the compiled engine (in a worker process, so that a
crash fails the example instead of ending the run)."""

from __future__ import annotations

import json
import random

import pytest
from fuzz_worker import MOVE_BOUND, run_engine_state, run_save
from fuzzing import (
    EDGE_INTS, HOSTILE_TEXT, CompiledWorker, edge_int, fuzz_settings, hostile_text, mutate_text, random_position,
)
from hypothesis import given
from hypothesis import strategies as st
from spbc.play.save import owned_mask


@pytest.fixture(scope="module")
def worker(compiled):
    process = CompiledWorker()
    yield process
    process.close()


def reachable_save(ruleset, players: int, seed: int, moves: int, stop_at: str | None = None) -> str:
    """The save of :func:`fuzzing.random_position`."""
    return random_position(ruleset, players, seed, moves, stop_at).to_json()


# One mutation of the saved JSON: (what, where, value) applied by _apply.
_field_edit = st.tuples(st.just("value"), st.integers(0, 10_000), st.integers(0, 10_000), edge_int())
_structure_edit = st.tuples(
    st.sampled_from(["drop_field", "grow_field", "shrink_field", "swap", "players", "seed", "top"]),
    st.integers(0, 10_000), st.integers(0, 10_000),
    st.one_of(edge_int(), hostile_text(), st.none(), st.booleans(), st.floats(allow_nan=True),
              st.lists(edge_int(), max_size=3)),
)


def _apply(saved: dict, edit: tuple) -> None:
    what, a, b, value = edit
    state = saved["state"]
    names = sorted(state)
    field = names[a % len(names)]
    values = state[field]
    if what == "value" and values:
        values[b % len(values)] = value
    elif what == "drop_field":
        del state[field]
    elif what == "grow_field":
        values.append(value if isinstance(value, int) else 0)
    elif what == "shrink_field" and values:
        values.pop()
    elif what == "swap" and values:
        other = state[names[b % len(names)]]
        if other:
            i, j = a % len(values), b % len(other)
            values[i], other[j] = other[j], values[i]
    elif what == "players":
        players = saved["players"]
        players[b % len(players)] = value
    elif what == "seed":
        saved["seed"] = value
    elif what == "top":
        key = sorted(saved)[b % len(saved)]
        saved[key] = value


def _mutated(base: str, edits: list[tuple], text_edits: int, rng_seed: int) -> str:
    saved = json.loads(base)
    for edit in edits:
        try:
            _apply(saved, edit)
        except (KeyError, IndexError, TypeError, AttributeError, ZeroDivisionError):
            pass  # an earlier edit changed the shape this one expected: the file stays as it is
    text = json.dumps(saved, indent=1, ensure_ascii=bool(rng_seed % 2))
    if text_edits:
        inserts = list(HOSTILE_TEXT[:30]) + [str(n) for n in EDGE_INTS] + ["[", "]", ",", '"', "{", "}"]
        text = mutate_text(text, random.Random(rng_seed), inserts, text_edits)
    return text


def _same_outcome(twin_answer: dict, compiled_answer: dict) -> None:
    assert ("refused" in twin_answer) == ("refused" in compiled_answer), (twin_answer, compiled_answer)
    if "refused" in twin_answer:
        return
    assert not twin_answer.get("stuck"), f"no legal move in a game that is not over: {twin_answer}"
    assert twin_answer["over"], f"not over after {MOVE_BOUND} moves: {twin_answer}"
    assert twin_answer == compiled_answer


@pytest.mark.slow  # fuzzing
@fuzz_settings(default=150)
@given(
    players=st.integers(2, 4), seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 260),
    edits=st.lists(st.one_of(_field_edit, _structure_edit), min_size=1, max_size=4),
    text_edits=st.sampled_from([0, 0, 0, 1, 3]), choices=st.integers(0, 2**32),
)
def test_a_mutated_save_is_refused_or_plays_to_the_end_alike_on_both_engines(
        twin, worker, players, seed, moves, edits, text_edits, choices):
    text = _mutated(reachable_save(twin, players, seed, moves), edits, text_edits, choices)
    twin_answer = run_save(twin, text, choices)
    compiled_answer = worker.ask({"op": "save", "text": text, "choices": choices})
    _same_outcome(twin_answer, compiled_answer)


@fuzz_settings(default=40)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 300),
       choices=st.integers(0, 2**32))
def test_an_unmutated_save_loads_and_plays_alike_on_both_engines(twin, worker, players, seed, moves, choices):
    text = reachable_save(twin, players, seed, moves)
    twin_answer = run_save(twin, text, choices)
    assert "refused" not in twin_answer, twin_answer
    _same_outcome(twin_answer, worker.ask({"op": "save", "text": text, "choices": choices}))


# --- edits that keep every card in exactly one place ------------------------------------------------
#
# A blind edit of one number is almost always refused by the card count, so these edits move cards
# between places and keep the caches right: the states they make pass the card checks and test what
# lies behind them (the flags and counters a state can lie about: last round, stage, offers).

class _State:
    """A saved state's fields, with moves of cards between places that keep every count right."""

    def __init__(self, ruleset, state: dict[str, list[int]]) -> None:
        self.model = ruleset.model
        self.f = state
        self.ncards = len(self.model.cards)
        self.hand_max = len(state["hand"]) // self.model.game.max_players
        self.deck_max = len(state["decks"]) // len(self.model.decks)
        self.board = self.model.game.board_size

    def places(self) -> list[tuple[str, int]]:
        players = self.f["players"][0]
        return ([("deck", d) for d in range(len(self.model.decks))] + [("upper", 0), ("lower", 0)]
                + [("hand", p) for p in range(players)] + [("owned", p) for p in range(players)]
                + [("discard", 0)])

    def take(self, place: tuple[str, int], rng: random.Random) -> int | None:
        kind, i = place
        f = self.f
        if kind == "deck" and f["deck_size"][i]:
            f["deck_size"][i] -= 1
            return f["decks"][i * self.deck_max + f["deck_size"][i]]
        if kind in ("upper", "lower") and f[f"{kind}_size"][0]:
            f[f"{kind}_size"][0] -= 1
            return f[kind][f[f"{kind}_size"][0]]
        if kind == "hand" and f["hand_size"][i]:
            f["hand_size"][i] -= 1
            return f["hand"][i * self.hand_max + f["hand_size"][i]]
        held = [c for c in range(self.ncards) if (f["owned"][i * self.ncards + c] if kind == "owned"
                                                  else f["discard"][c] if kind == "discard" else 0)]
        if not held:
            return None
        card = rng.choice(held)
        if kind == "owned":
            f["owned"][i * self.ncards + card] -= 1
            f["used"][i * self.ncards + card] = min(f["used"][i * self.ncards + card],
                                                    f["owned"][i * self.ncards + card])
        else:
            f["discard"][card] -= 1
        return card

    def put(self, place: tuple[str, int], card: int) -> bool:
        kind, i = place
        f = self.f
        if kind == "deck" and f["deck_size"][i] < self.deck_max:
            f["decks"][i * self.deck_max + f["deck_size"][i]] = card
            f["deck_size"][i] += 1
        elif kind in ("upper", "lower") and f["upper_size"][0] + f["lower_size"][0] < self.board:
            f[kind][f[f"{kind}_size"][0]] = card
            f[f"{kind}_size"][0] += 1
        elif kind == "hand" and f["hand_size"][i] < self.hand_max:
            f["hand"][i * self.hand_max + f["hand_size"][i]] = card
            f["hand_size"][i] += 1
        elif kind == "owned":
            f["owned"][i * self.ncards + card] += 1
        elif kind == "discard":
            f["discard"][card] += 1
        else:
            return False
        return True

    def move(self, source: tuple[str, int], target: tuple[str, int], rng: random.Random) -> None:
        card = self.take(source, rng)
        if card is not None and not self.put(target, card):
            self.put(("discard", 0), card)

    def refresh_caches(self) -> None:
        """The per-colour counts, discounts and owned masks recomputed from the play areas."""
        colours = [colour.id for colour in self.model.colours]
        self.f["owned_mask"] = owned_mask(self.f["owned"], self.model, len(self.f["owned_mask"]))
        for seat in range(self.f["players"][0]):
            area = self.f["owned"][seat * self.ncards:(seat + 1) * self.ncards]
            for c, colour in enumerate(colours):
                self.f["colour_count"][seat * len(colours) + c] = sum(
                    n for n, card in zip(area, self.model.cards) if card.colour == colour)
                self.f["discount"][seat * len(colours) + c] = sum(
                    n * getattr(effect, "amount", 0) for n, card in zip(area, self.model.cards)
                    for effect in card.abilities
                    if effect.kind == "discount" and getattr(effect, "colour", None) == colour)


_SCALARS = ("round", "phase", "current", "passes", "last_round", "stage", "drawn", "offer", "offer_turn")
_consistent_edit = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 99), st.integers(0, 99), st.integers(1, 40)),
    st.tuples(st.just("empty_decks"), st.integers(0, 15), st.just(0), st.just(0)),
    st.tuples(st.just("scalar"), st.integers(0, len(_SCALARS) - 1), st.integers(-2, 12), st.just(0)),
    st.tuples(st.just("money"), st.integers(0, 3), st.sampled_from([0, 1, 2, 9, 10, 1000, 10**9]),
              st.booleans()),
)


def _consistent(ruleset, base: str, edits: list[tuple], rng_seed: int) -> str:
    saved = json.loads(base)
    state = _State(ruleset, saved["state"])
    rng = random.Random(rng_seed)
    for what, a, b, c in edits:
        places = state.places()
        if what == "move":
            for _ in range(c):
                state.move(places[a % len(places)], places[b % len(places)], rng)
        elif what == "empty_decks":  # the decks of the bits of a, emptied into the discard pile
            for d in range(len(ruleset.model.decks)):
                if a >> d & 1:
                    for _ in range(state.deck_max):
                        state.move(("deck", d), ("discard", 0), rng)
        elif what == "scalar":
            saved["state"][_SCALARS[a]][0] = b
        else:
            saved["state"]["points" if c else "rubles"][a % saved["state"]["players"][0]] = b
    state.refresh_caches()
    return json.dumps(saved)


@pytest.mark.slow  # fuzzing
@fuzz_settings(default=150)
@given(
    players=st.integers(2, 4), seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 260),
    edits=st.lists(_consistent_edit, min_size=1, max_size=5), choices=st.integers(0, 2**32),
)
def test_a_save_edited_consistently_is_refused_or_plays_to_the_end_alike_on_both_engines(
        twin, worker, players, seed, moves, edits, choices):
    text = _consistent(twin, reachable_save(twin, players, seed, moves), edits, choices)
    twin_answer = run_save(twin, text, choices)
    compiled_answer = worker.ask({"op": "save", "text": text, "choices": choices})
    _same_outcome(twin_answer, compiled_answer)


# --- the engine's own guard, without the loader's checks in front of it -------------------------------

# The fields whose values bound the engine's loops and arrays, the counts of cards weighted up.
_BOUNDS = ("owned", "owned", "owned", "used", "discard", "hand_size", "upper_size", "lower_size", "deck_size",
           "offer", "offer_turn", "drawn", "passes", "current", "markers", "points")
_bound_edit = st.tuples(st.sampled_from(_BOUNDS), st.integers(0, 10_000), st.booleans(),
                        edge_int())


def _edit_bounds(ruleset, state: dict[str, list[int]], edits: list[tuple], rich: bool) -> list[int]:
    """The flat state after edits of single values; ``of_mover`` edits a card the player to move owns."""
    ncards = len(ruleset.engine.CARD_IDS)
    mover = state["current"][0] % 4
    if rich:
        state["rubles"][mover] = 10**9
    for name, index, of_mover, value in edits:
        size = len(state[name])
        if of_mover and size > ncards and size % ncards == 0:
            owned = [c for c in range(ncards) if state["owned"][mover * ncards + c]] or list(range(ncards))
            index = mover * ncards + owned[index % len(owned)]
        state[name][index % size] = value
    return [v for name, _, _ in ruleset.engine.FIELDS for v in state[name]]


@pytest.mark.slow  # fuzzing
@fuzz_settings(default=200)
@given(
    players=st.integers(2, 4), seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 260),
    stop_at=st.sampled_from([None, "points", "drawn"]), rich=st.booleans(),
    consistent=st.lists(_consistent_edit, max_size=3),
    edits=st.lists(_bound_edit, min_size=1, max_size=4), choices=st.integers(0, 2**32),
)
def test_a_state_the_engine_accepts_never_crashes_it_and_runs_alike_on_both(
        twin, worker, players, seed, moves, stop_at, rich, consistent, edits, choices):
    save = reachable_save(twin, players, seed, moves, stop_at)
    state = json.loads(_consistent(twin, save, consistent, choices))["state"]
    flat = _edit_bounds(twin, state, edits, rich)
    twin_answer = run_engine_state(twin, flat, choices)
    compiled_answer = worker.ask({"op": "state", "values": flat, "choices": choices})
    assert "twin_error" not in twin_answer, f"the engine took a state it cannot run: {twin_answer}"
    assert twin_answer == compiled_answer


# --- every bound, one at a time ---------------------------------------------------------------------

def _sweep_states(ruleset) -> list[dict[str, list[int]]]:
    """Reachable states at each kind of decision: a normal turn, a drawn card, a buy-points offer."""
    states = []
    for stop_at in ("actions", "drawn", "points"):
        for seed in range(200):
            game = json.loads(reachable_save(ruleset, 2 + seed % 3, seed, 40, stop_at))
            if ruleset.engine.FIELDS and game["state"]["stage"][0] == ["actions", "drawn", "points"].index(stop_at):
                states.append(game["state"])
                break
    return states


def _sweep(ruleset) -> list[list[int]]:
    """Each sweep state with one value pushed to an edge, the player to move holding 10^9 rubles."""
    ncards = len(ruleset.engine.CARD_IDS)
    cases = []
    for state in _sweep_states(ruleset):
        mover = state["current"][0]
        owned = [c for c in range(ncards) if state["owned"][mover * ncards + c]]
        for name, _offset, size in ruleset.engine.FIELDS:
            indices = ([mover * ncards + c for c in owned] if size > ncards and size % ncards == 0
                       else range(min(size, 8)))
            for index in indices:
                for value in (-1, state[name][index] + 1, 63, 100, 10**9):
                    edited = {field: list(values) for field, values in state.items()}
                    edited["rubles"][mover] = 10**9
                    edited[name][index] = value
                    cases.append([v for field, _, _ in ruleset.engine.FIELDS for v in edited[field]])
    return cases


@pytest.mark.slow  # every value at every edge
def test_no_single_value_at_an_edge_makes_an_accepted_state_overrun_the_engine(twin, worker):
    cases = _sweep(twin)
    assert len(cases) > 300
    twin_answers = [run_engine_state(twin, values, i, limit=30) for i, values in enumerate(cases)]
    overruns = [answer for answer in twin_answers if "twin_error" in answer]
    assert not overruns, f"{len(overruns)} accepted states overran the twin, e.g. {overruns[0]}"
    compiled_answers = worker.ask({"op": "states", "cases": cases, "limit": 30})["answers"]
    assert compiled_answers == twin_answers
