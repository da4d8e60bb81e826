"""spb balance --precision: rounds of games until every headline 95% interval is that narrow, or the cap;
the games played depend on the seeds and the stopping rule alone, so the report is the same on any number of
workers, and the same as a run of that many games asked for."""

from __future__ import annotations

import dataclasses
import math

import pytest
from typer.testing import CliRunner

import spbc
from spbc.frontends.cli import app
from spbc.lab import paired, power, stats
from spbc.lab.precision import Sizer, half_widths
from spbc.lab.report import make_report, rate_text
from spbc.lab.run import Plan, run_plans
from spbc.lab.summary import figures
from spbc.lab.tally import Tally

SEATS = ("random", "random")


def _sized(rulesets, plans, precision, **where):
    seen = []
    sizer = Sizer(rulesets, precision, seen.append)
    outcomes = run_plans(plans, rounds=sizer, **where)
    return outcomes, sizer.stop, seen


def test_a_run_stops_once_every_headline_interval_is_that_narrow(compiled):
    plan = Plan("base", "compiled", SEATS, 20000, 3, batch_size=100)
    outcomes, stop, seen = _sized([compiled], [plan], 3.0)
    assert stop is not None and stop.reached and stop is seen[-1]
    games = outcomes[0].tally.games
    assert stop.games == games < 20000 and outcomes[0].complete and outcomes[0].plan.games == games
    assert games % 100 == 0 and len(seen) >= 2  # whole batches, and more than the first round
    widths = half_widths(*figures([compiled], outcomes))
    assert max(w for w, _ in widths) == stop.half <= 3.0
    assert all(s.half > 3.0 for s in seen[:-1])  # no round stopped before it was narrow enough
    assert [s.games for s in seen] == sorted({s.games for s in seen})
    text = make_report([compiled], outcomes, stop).text()
    assert f"Precision: stopped after {games} games, precision reached" in text
    # the same games as a run asked for that many: the same report, but for the line saying why it stopped
    fixed = run_plans([dataclasses.replace(plan, games=games)])
    assert text.replace(f"\n{stop.text()}\n", "") == make_report([compiled], fixed).text()


def test_a_run_that_cannot_reach_the_precision_stops_at_the_cap(compiled):
    plan = Plan("base", "compiled", SEATS, 450, 3, batch_size=100)
    outcomes, stop, seen = _sized([compiled], [plan], 0.1)
    assert outcomes[0].tally.games == 450 == stop.games and not stop.reached and stop.half > 0.1
    assert [s.games for s in seen] == [200, 450]  # 200 first, then the cap (not four times 200)
    text = make_report([compiled], outcomes, stop).text()
    assert "Precision: stopped at the cap of 450 games (--games) before the precision asked, 0.1: the widest," in text
    assert make_report([compiled], outcomes, stop).data()["precision"]["reached"] is False


def test_two_rulesets_sized_by_their_paired_differences_give_one_report_on_1_and_2_processes(compiled):
    pub = spbc.load_rules("pub-per-player", "compiled")
    plans = [Plan(name, "compiled", SEATS, 50000, 9, batch_size=200) for name in ("base", "pub-per-player")]
    texts = []
    for jobs in (1, 2):
        outcomes, stop, seen = _sized([compiled, pub], plans, 2.0, jobs=jobs)
        assert stop.reached and outcomes[0].tally.games == outcomes[1].tally.games == stop.games
        texts.append(make_report([compiled, pub], outcomes, stop).text())
    assert texts[0] == texts[1]
    assert "paired game by game on the same seeds" in texts[0] and "precision reached" in texts[0]
    widths = dict((what, half) for half, what in half_widths(*figures([compiled, pub], outcomes)))
    assert "the paired difference in moves per game" in widths and "pub_per_player's final points of seat 2" in widths


def test_spb_balance_precision_says_how_many_games_and_why_it_stopped(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["balance", "base", "--precision", "4", "--games", "5000", "--jobs", "1",
                                 "--no-html", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "playing up to 5000 games, until every headline 95% interval is within 4, on 1 local process" in result.stderr
    assert "precision reached" in result.stdout and "base: 2000 games, seats random,random" in result.stdout
    assert (tmp_path / "report.txt").read_text(encoding="utf-8") in result.stdout
    result = runner.invoke(app, ["balance", "base", "--precision", "0", "--no-html", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "give a half-width above 0" in result.output


@pytest.mark.parametrize("bad", [-1.0, 0.0, float("nan")])
def test_a_precision_is_above_zero(compiled, bad):
    with pytest.raises(ValueError, match="above 0"):
        Sizer([compiled], bad)


@pytest.mark.slow  # a local Dask cluster
def test_a_run_sized_by_precision_on_a_dask_cluster_is_the_run_on_one_process(compiled):
    from distributed import Client, LocalCluster

    pub = spbc.load_rules("pub-per-player", "compiled")
    plans = [Plan(name, "compiled", ("random", "easy"), 3000, 4, batch_size=100) for name in ("base", "pub-per-player")]
    here, stop, _ = _sized([compiled, pub], plans, 3.0)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster):
        there, stop_there, _ = _sized([compiled, pub], plans, 3.0, cluster=cluster.scheduler_address)
    assert stop == stop_there and [o.tally for o in here] == [o.tally for o in there]
    assert make_report([compiled, pub], here, stop).text() == make_report([compiled, pub], there, stop_there).text()


def test_the_power_formula_by_hand():
    """No scipy here: the normal quantile and the power checked with math.erfc, the rest by hand."""
    def phi(z):
        return 0.5 * math.erfc(-z / math.sqrt(2))

    assert phi(power.Z80) == pytest.approx(0.8, abs=1e-12) and phi(stats.Z95) == pytest.approx(0.975, abs=1e-12)
    assert power.detectable(100, 10.0) == pytest.approx(1.959964 + 0.841621, abs=1e-6)  # (z + z') * 10 / sqrt(100)
    for n, sd in ((30, 1.0), (1000, 23.5)):
        shift = power.detectable(n, sd) / (sd / math.sqrt(n))  # in standard errors
        assert phi(shift - stats.Z95) + phi(-shift - stats.Z95) == pytest.approx(0.8, abs=1e-6)
    assert power.deviation([1, 2, 3, 4]) == (4, pytest.approx(math.sqrt(5 / 3)))
    assert math.isnan(power.detectable(1, 1.0)) and math.isnan(power.deviation([7])[1])


def test_the_power_lines_of_a_run_and_of_two_runs_on_the_same_seeds(compiled):
    tally = Tally(2, 1)  # four games by hand: seat 1's points less seat 2's 2, -2, 4, 0 (variance 20 / 3)
    for number, (a, b, winners) in enumerate(((10, 8, 1), (5, 7, 2), (9, 5, 1), (6, 6, 3))):
        tally.rows[number] = (100, 7, abs(a - b), winners, a, b)
    points = (stats.Z95 + power.Z80) * math.sqrt((24 - 16 / 4) / 3) / 2
    wins = (stats.Z95 + power.Z80) * math.sqrt((3 - 1 / 4) / 3) / 2  # wins less: 1, -1, 1, 0
    assert power.seat_lines(tally) == (f"with 4 games, a seat advantage of {points:.2f} final points, or of "
                                       f"{100 * wins:.1f} percentage points of win share, over another seat")
    pub = spbc.load_rules("pub-per-player", "compiled")
    plans = [Plan(name, "compiled", SEATS, 3000, 2) for name in ("base", "pub-per-player")]
    report = make_report([compiled, pub], run_plans(plans))
    text = report.text()
    assert "Power (normal approximation from the observed standard deviations, 5% level" in text
    assert "with 3000 pairs of games, a paired difference of " in text
    # the paired t interval's half-width is t * sd / sqrt(n): the same spread gives the detectable difference
    moves = {d.what: d for d in report.differences}["moves per game"]
    t = paired.t_quantile(0.975, 2999)
    assert f"{(moves.high - moves.low) / 2 / t * (stats.Z95 + power.Z80):.3g} in moves per game" in text


def test_the_page_of_a_comparison_plots_its_differences_instead_of_overlaid_histograms(compiled):
    pub = spbc.load_rules("pub-per-player", "compiled")
    plans = [Plan(name, "compiled", SEATS, 300, 2) for name in ("base", "pub-per-player")]
    outcomes = run_plans(plans)
    page = make_report([compiled, pub], outcomes).page("here")
    # seat positions, differences, card events, and each ruleset's per-card effects adjusted for wealth
    assert page.count("<img ") == 5 and "alt='differences'" in page and "alt='distributions'" not in page
    assert page.count("alt='per-card effects adjusted for wealth'") == 2 and "an association, not a cause" in page
    assert "must-buy" not in page
    assert "<p>Power (normal approximation" in page
    alone = make_report([compiled], outcomes[:1]).page("here")
    assert "alt='distributions'" in alone and "alt='differences'" not in alone


@pytest.mark.parametrize(("rate", "text"), [(1.0, "1.00 games per second"), (2.346, "2.35 games per second"),
                                            (12.34, "12.3 games per second"), (1143.2, "1,143 games per second")])
def test_a_slow_run_says_its_rate_with_decimals(rate, text):
    """A run of medium seats plays a few games a second: its rate keeps its decimals."""
    assert rate_text(rate) == text
