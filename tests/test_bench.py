"""The engine's C interface for Cython code compiled once (spbc.ai.playouts on c_api()), and spb bench."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import spbc.ai.playouts as c_playouts
from spbc.ai.bench import Rates, mid_game_states, reference_rates
from spbc.frontends.cli import app


def test_the_twin_has_no_c_interface_and_the_compiled_engine_one_capsule(compiled, twin):
    assert twin.engine.c_api() is None
    assert type(compiled.engine.c_api()).__name__ == "PyCapsule"
    with pytest.raises(TypeError, match="not the C functions of a compiled engine"):
        c_playouts.determinized_playouts(object(), [0], 1, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_in_c_equal_the_game_apis(compiled, players):
    """Determinize for the player to move, play out to the end, read every score: the same numbers
    through the C loops as through Game.determinized(...).playout(...), seed for seed."""
    games = mid_game_states(compiled, players, count=30, seed=players)
    flat = [value for game in games for value in game.state_values()]
    scores = c_playouts.determinized_playouts(compiled.engine.c_api(), flat, 2, 500)
    width = compiled.model.game.max_players
    for k, game in enumerate(games):
        for r in range(2):
            seed = 500 + k * 2 + r
            standings = sorted(game.determinized(game.current_player, seed).playout(seed), key=lambda s: s.seat)
            got = scores[(k * 2 + r) * width:(k * 2 + r + 1) * width]
            assert got == [s.final for s in standings] + [0] * (width - players)


def test_playouts_refuse_a_broken_state_list(compiled):
    with pytest.raises(ValueError, match="not a whole number of states"):
        c_playouts.determinized_playouts(compiled.engine.c_api(), [1, 2, 3], 1, 1)


def test_ratios_are_taken_pair_by_pair():
    rates = Rates([10.0, 20.0, 40.0], [5.0, 20.0, 10.0])
    assert (rates.first_median, rates.second_median, rates.ratio_median) == (20.0, 10.0, 2.0)


@pytest.fixture
def fake_reference(tmp_path):
    """A program in the reference engine's shape: PLAYERS GAMES SEED in, games_per_s=N out."""
    program = tmp_path / "fast_engine"
    program.write_text('#!/bin/sh\necho "players=$1 games=$2 seed=$3 games_per_s=1000 mean_actions=160"\n')
    program.chmod(0o755)
    return program


def test_the_reference_engine_runs_beside_the_compiled_one(compiled, fake_reference):
    rates = reference_rates(compiled, fake_reference, 2, seconds=0.02, repeats=2)
    assert rates.second == [1000.0, 1000.0]
    assert rates.ratio_median == pytest.approx(rates.first_median / 1000.0, rel=0.5)


@pytest.mark.slow  # a whole benchmark
def test_spb_bench_prints_every_figure_as_json(compiled, fake_reference):
    result = CliRunner().invoke(app, ["bench", "--seconds", "0.02", "--repeats", "1", "--states", "60",
                                      "--reference", str(fake_reference), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    # every figure is there and is a rate; which is faster is the benchmark's output, not a test's
    # assertion (a loaded machine may preempt any one sample)
    assert figures["compiled_games_per_s"] > 0 and figures["python_games_per_s"] > 0
    assert figures["reference_games_per_s"] == 1000.0
    assert figures["api_playouts_per_s"] > 0 and figures["c_playouts_per_s"] > 0


def test_spb_bench_refuses_a_reference_that_is_no_program(tmp_path):
    result = CliRunner().invoke(app, ["bench", "--reference", str(tmp_path / "none")])
    assert result.exit_code == 2 and "no such program" in result.output


@pytest.mark.slow  # two runs of Python under valgrind
def test_callgrind_counts_the_instructions_of_the_games_alone():
    import shutil

    from spbc.ai.bench import instructions_per_game

    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed")
    counted = instructions_per_game("base", 2, games=40)
    assert 150 * 40 < counted.moves < 200 * 40  # about 160 moves a random two-player game
    assert 100 < counted.per_move < 5_000  # the engine's moves, not Python's start (tens of millions)


@pytest.mark.slow  # a run of Python under valgrind
def test_callgrind_counts_nothing_of_pythons_start():
    # the run of no games was Python's start and the rules' loading, which differ from run to run by more than
    # 1,000,000 instructions (a module compiled on the first run): a base engine counted 481 or 516 a move
    import shutil

    from spbc.ai.bench import _callgrind

    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed")
    instructions, moves = _callgrind("base", 2, 0)
    assert moves == 0 and instructions < 10_000
