"""Fuzz: mutated game records. Every record replays, or is refused with a line and a reason; no other
exception, no hang; lenient mode keeps every good move; both engines replay it to the same state."""

from __future__ import annotations

import random
import time

from fuzzing import EDGE_INTS, HOSTILE_TEXT, fuzz_settings, mutate_lines
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spbc.play.record import RecordError, read_record, write_record


def _record(ruleset, players: int, seed: int, moves: int) -> str:
    names = ["Anna", "Boris", "Clara: C", "Dora Lena"][:players]
    game = ruleset.new_game(names, seed=seed)
    rng, played = random.Random(seed), []
    for _ in range(moves):
        if game.is_over:
            break
        move = rng.choice(game.legal_moves())
        game.play(move)
        played.append(move)
    return write_record(ruleset, names, seed, played)


def _inserts(ruleset) -> list[str]:
    """Pieces a mutated record is made of: hostile text, numbers, real words and headers."""
    cards = [card.name for card in ruleset.model.cards]
    words = ["Anna:", "Boris:", "buy", "take", "play", "pass", "use", "discard", "pub", "upper", "lower",
             "over", "# round 99, Worker phase", '[Seed "1"]', '[Ruleset "base"]', '[Ruleset "/dev/zero"]',
             '[Ruleset "../rules/base.spb"]', '[Result "1-0"]', '[Player3 "Eve"]', '[RulesDigest "0"]', '[',
             '"']
    return list(HOSTILE_TEXT) + [str(n) for n in EDGE_INTS] + cards + words


@pytest.mark.slow  # fuzzing
@fuzz_settings(default=120)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 250),
       steps=st.integers(1, 6), rng_seed=st.integers(0, 2**32), lenient=st.booleans())
def test_a_mutated_record_replays_or_is_refused_with_a_place(compiled, twin, players, seed, moves, steps,
                                                           rng_seed, lenient):
    text = mutate_lines(_record(twin, players, seed, moves), random.Random(rng_seed), _inserts(twin), steps)
    outcomes = []
    for ruleset in (twin, compiled):
        started = time.monotonic()
        try:
            replay = read_record(text, ruleset, lenient=lenient)
        except RecordError as error:
            assert error.line >= 1 and error.reason, error
            outcomes.append(("refused", error.line, error.column, error.reason))
        else:
            outcomes.append(("replayed", tuple(replay.game.state_values()), tuple(replay.moves),
                             tuple(replay.problems)))
            assert lenient or not replay.problems
        assert time.monotonic() - started < 30, "a record took more than 30 s to read"
    assert outcomes[0] == outcomes[1], "the twin and the compiled engine read the record differently"


@pytest.mark.slow  # a rules file checked per example
@fuzz_settings(default=40)
@given(seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 250), steps=st.integers(1, 4),
       rng_seed=st.integers(0, 2**32))
def test_a_record_naming_its_own_rules_is_refused_or_replayed(twin, seed, moves, steps, rng_seed):
    """Without rules given, the record's Ruleset header decides what is loaded: a name, a path, garbage."""
    text = mutate_lines(_record(twin, 2, seed, moves), random.Random(rng_seed), _inserts(twin), steps)
    try:
        read_record(text, None, lenient=True)
    except RecordError as error:
        assert error.reason


@pytest.mark.slow  # fuzzing
@fuzz_settings(default=60)
@given(seed=st.integers(0, 2**64 - 1), moves=st.integers(1, 250), drop=st.integers(0, 10_000))
def test_lenient_reading_keeps_every_move_before_a_broken_line(twin, seed, moves, drop):
    text = _record(twin, 3, seed, moves)
    lines = text.split("\n")
    move_lines = [i for i, line in enumerate(lines) if line and not line.startswith(("[", "#"))]
    broken = move_lines[drop % len(move_lines)]
    lines[broken] = lines[broken].split(":")[0] + ": frobnicate the samovar"
    replay = read_record("\n".join(lines), twin, lenient=True)
    assert replay.problems and replay.problems[0].line == broken + 1
    assert len(replay.moves) >= move_lines.index(broken)
