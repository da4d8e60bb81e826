"""The compiled engine and its pure-Python twin agree move for move.

Both engines' raw ``Engine`` classes are driven side by side with the same
uniformly random choices (from a seeded generator): after every move the legal
move lists and the whole state arrays must be equal.
"""

from __future__ import annotations

import json
import random

import pytest

GAMES = 1000  # per player count, in the slow tier
FEW_GAMES = 30  # per player count, in the default run
MOVE_LIMIT = 3000


def play_both(fast_cls, slow_cls, players: int, seed: int) -> int:
    """One seeded game on both engines; the number of moves. AssertionError at the first difference."""
    fast = fast_cls.new(players, seed)
    slow = slow_cls.new(players, seed)
    assert fast.state() == slow.state(), f"seed {seed}: the setups differ"
    rng = random.Random(seed * 7919 + players)
    for step in range(MOVE_LIMIT):
        moves = fast.legal_moves()
        assert moves == slow.legal_moves(), f"{players} players, seed {seed}, move {step}: legal moves differ"
        if not moves:
            return step
        move = moves[rng.randrange(len(moves))]
        fast.play(move)
        slow.play(move)
        assert fast.state() == slow.state(), f"{players} players, seed {seed}, move {step}: states differ"
    raise AssertionError(f"{players} players, seed {seed}: no end within {MOVE_LIMIT} moves")


def play_many(compiled, twin, players: int, games: int) -> None:
    """Games of seeds 0..games-1 on both engines, which must agree at every move."""
    assert compiled.engine.FIELDS == twin.engine.FIELDS
    assert compiled.engine.CARD_IDS == twin.engine.CARD_IDS
    total = sum(
        play_both(compiled.engine.Engine, twin.engine.Engine, players, seed) for seed in range(games)
    )
    assert total > games * 50  # whole games were played, not a few moves each


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engines_agree_move_for_move_in_a_few_games(compiled, twin, players):
    play_many(compiled, twin, players, FEW_GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_engines_agree_move_for_move(compiled, twin, players):
    play_many(compiled, twin, players, GAMES)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_engines_own_playout_loops_agree(compiled, twin, players):
    assert compiled.engine.random_games(players, 30, 5) == twin.engine.random_games(players, 30, 5)
    fast = compiled.engine.Engine.new(players, 12)
    slow = twin.engine.Engine.new(players, 12)
    assert fast.playout(99) == slow.playout(99)
    assert fast.state() == slow.state()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_costs_scores_and_forecasts_agree(compiled, twin, players):
    """The read-only engine functions, at every position of a few games."""
    for seed in range(3):
        fast = compiled.engine.Engine.new(players, seed)
        slow = twin.engine.Engine.new(players, seed)
        rng = random.Random(seed)
        ncards = len(compiled.engine.CARD_IDS)
        while fast.legal_moves():
            for p in range(players):
                assert fast.final_score(p) == slow.final_score(p)
                assert fast.tie_break(p) == slow.tie_break(p)
                assert fast.hand_limit(p) == slow.hand_limit(p)
                for phase in range(len(compiled.engine.PHASE_IDS)):
                    assert fast.forecast(p, phase) == slow.forecast(p, phase)
                card, row = rng.randrange(ncards), rng.randrange(4)
                target = rng.choice([-1, rng.randrange(ncards)])
                assert fast.cost(p, card, row, target) == slow.cost(p, card, row, target)
            move = rng.choice(fast.legal_moves())
            fast.play(move)
            slow.play(move)


def test_illegal_codes_are_refused_by_both(compiled, twin):
    fast = compiled.engine.Engine.new(2, 1)
    slow = twin.engine.Engine.new(2, 1)
    bad = max(fast.legal_moves()) + (1 << 18)
    for engine in (fast, slow):
        with pytest.raises(ValueError, match=f"move code {bad} is not legal now"):
            engine.play(bad)
    assert fast.state() == slow.state()


@pytest.mark.slow  # a tournament on each engine
def test_sim_gives_the_same_results_on_both_backends():
    from typer.testing import CliRunner

    from spbc.frontends.cli import app

    runner = CliRunner()
    outputs = {}
    for backend in ("compiled", "python"):
        result = runner.invoke(app, [
            "sim", "--seats", "random,random,random", "--games", "200", "--seed", "7",
            "--json", "--backend", backend,
        ])
        assert result.exit_code == 0, result.output
        outputs[backend] = json.loads(result.stdout)
    compiled, python = outputs["compiled"], outputs["python"]
    assert (compiled["backend"], python["backend"]) == ("compiled", "python")
    assert [game["seed"] for game in compiled["games"]] == list(range(7, 207))
    assert compiled["games"] == python["games"]
    assert {len(game["scores"]) for game in compiled["games"]} == {3}
