"""Headless simulations: the same results on one process or several, records included."""

from __future__ import annotations

import json

import pytest

from typer.testing import CliRunner

from spbc.frontends.cli import app
import math
import statistics

from spbc.ai import sim
from spbc.ai.sim import GameResult, play_games, simulate, summarize

runner = CliRunner()


@pytest.mark.slow  # a pool of processes
def test_several_processes_give_the_same_results_in_seed_order(compiled, tmp_path):
    alone = simulate(compiled, ["random", "random", "random"], 30, 11)
    shared = simulate(compiled, ["random", "random", "random"], 30, 11, jobs=2, records=tmp_path)
    assert shared == alone
    assert [r.seed for r in shared] == list(range(11, 41))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"game-{s}.spbr" for s in range(11, 41))


def test_spb_sim_jobs_prints_the_same_json(tmp_path):
    args = ["sim", "--seats", "random,random", "--games", "12", "--seed", "3", "--json"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.stdout)["games"] == json.loads(two.stdout)["games"]


@pytest.mark.slow  # a pool of processes
def test_a_tournament_of_search_levels_is_the_same_on_any_number_of_processes():
    """In fixed-iterations mode every decision is reproducible, so the whole tournament is."""
    args = ["sim", "--seats", "hard@60it,medium@20it,easy", "--games", "6", "--seed", "5", "--json"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0
    games = json.loads(one.stdout)["games"]
    assert games == json.loads(two.stdout)["games"]
    assert [game["levels"] for game in games[:3]] == [
        ["hard@60it", "medium@20it", "easy"], ["medium@20it", "easy", "hard@60it"],
        ["easy", "hard@60it", "medium@20it"]]
    for game in games:  # every decision of hard@60it searched 60 iterations
        hard = game["levels"].index("hard@60it")
        assert game["iterations"][hard] == 60 * game["searched"][hard] == 60 * game["decisions"][hard] > 0
    levels = json.loads(one.stdout)["levels"]
    assert [level["level"] for level in levels] == ["hard@60it", "medium@20it", "easy"]
    assert sum(level["win_share"] for level in levels) == pytest.approx(1.0)
    assert all(level["low"] <= level["win_share"] <= level["high"] for level in levels)


def test_spb_sim_prints_each_levels_figures():
    result = runner.invoke(app, ["sim", "--seats", "easy,random", "--games", "4"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "the levels rotated over the seats" in lines[0]
    assert lines[1].split()[:4] == ["level", "seats", "wins", "95%"]
    assert [line.split()[0] for line in lines[2:4]] == ["easy", "random"]


def test_spb_sim_refuses_bad_seats_before_playing():
    result = runner.invoke(app, ["sim", "--seats", "random", "--games", "3"])
    assert result.exit_code == 2 and "--seats random is one seat: a game of base needs 2 to 4" in result.output
    result = runner.invoke(app, ["sim", "--seats", "random,random,random,random,random", "--games", "3"])
    assert result.exit_code == 2 and "is 5 seats: base is for 2 to 4 players" in result.output
    result = runner.invoke(app, ["sim", "--seats", "random,genius", "--games", "3"])
    assert result.exit_code == 2 and "unknown computer level 'genius'" in result.output
    result = runner.invoke(app, ["sim", "--seats", "random,hard@fast", "--games", "3"])
    assert result.exit_code == 2 and "written @2s, @500ms or @5000it" in result.output


def test_a_run_is_summarized_as_it_comes_without_keeping_its_games(compiled):
    """issue 23 item 2: each result kept every decision's time and iterations, and the run every result, so
    memory grew with the games. Now a run is a stream: its first game comes before the next is played (a
    run of 10**12 games starts at once), and summarize reads the stream once."""
    first = next(play_games(compiled, ["random", "easy"], 10**12, 5))
    assert first == simulate(compiled, ["random", "easy"], 1, 5)[0]
    assert all(isinstance(value, int) for value in (*first.decisions, *first.searched, *first.iterations))
    results = simulate(compiled, ["random", "easy", "random"], 60, 9)
    assert summarize(iter(results)) == summarize(results)


def _exact(results: list[GameResult], level: str) -> tuple[float, float, float, float]:
    """What summarize gave when it kept every game's share and every seat's points: mean share, the games,
    mean points, mean margin."""
    shares, points, margins = [], [], []
    for result in results:
        mine = [seat for seat, name in enumerate(result.levels) if name == level]
        shares.append(sum(1 / result.ranks.count(1) for seat in mine if result.ranks[seat] == 1))
        points += [result.scores[seat] for seat in mine]
        margins += [result.scores[seat] - max(s for o, s in enumerate(result.scores) if o != seat) for seat in mine]
    return sum(shares) / len(shares), len(shares), statistics.fmean(points), statistics.fmean(margins)


def test_the_running_tallies_give_the_figures_the_kept_lists_gave(compiled):
    results = simulate(compiled, ["random", "easy", "random"], 90, 3)
    for summary in summarize(results):
        share, n, points, margin = _exact(results, summary.level)
        assert (summary.win_share, summary.mean_points, summary.mean_margin) == (share, points, margin)
        z = 1.959963984540054  # Wilson's score interval, written out
        centre = (share + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        assert (summary.low, summary.high) == pytest.approx((centre - half, centre + half), abs=1e-12)
        assert summary.decisions == sum(r.decisions[s] for r in results for s, n in enumerate(r.levels)
                                        if n == summary.level)


def test_the_win_share_interval_is_wilsons_and_stays_off_the_boundary():
    """991 wins of 1,000: the normal approximation gave [98.5, 99.7]; near 100% at smaller n it ran to the
    boundary (99.1% [98.2, 100.0] in a report); Wilson's interval does not (at 0 of n its top is z^2 / (n + z^2))."""
    share, low, high = sim._interval(991, 1000)
    assert share == 0.991 and (low, high) == pytest.approx((0.98298, 0.99526), abs=5e-6)
    share, low, high = sim._interval(109, 110)
    assert high < 1.0 and low == pytest.approx(0.95029, abs=5e-5)
    assert sim._interval(0, 20)[1:] == pytest.approx((0.0, 0.16113), abs=5e-6)
