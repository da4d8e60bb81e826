"""Headless simulations: the same results on one process or several, records included."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from spbc.frontends.cli import app
from spbc.ai.sim import simulate

runner = CliRunner()


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
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_spb_sim_refuses_bad_seats_before_playing():
    result = runner.invoke(app, ["sim", "--seats", "random", "--games", "3"])
    assert result.exit_code == 2 and "for 2 to 4 players, not 1" in result.output
    result = runner.invoke(app, ["sim", "--seats", "random,genius", "--games", "3"])
    assert result.exit_code == 2 and "unknown computer level 'genius'" in result.output
