"""Headless simulations: the same results on one process or several, records included."""

from __future__ import annotations

import json

import pytest

from typer.testing import CliRunner

from spbc.frontends.cli import app
from spbc.ai.sim import simulate

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
    assert {n for game in games for n in game["iterations"][game["levels"].index("hard@60it")]} == {60}
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
