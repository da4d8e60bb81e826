"""The lab's paired comparison of two rulesets played on the same seeds: the tests' arithmetic against closed
forms and textbook tables, the rows both engines keep, and a planted rule change that the paired tests find
at a number of games where the unpaired tests do not."""

from __future__ import annotations

import math

import pytest

import spbc
from spbc.lab import paired
from spbc.lab.paired import Paired
from spbc.lab.report import make_report
from spbc.lab.run import Plan, run_plans
from spbc.lab.summary import compare


def _t_closed_form(t: float, df: int) -> float:
    """P(|T| >= t) for Student's t with 1, 2 or 3 degrees of freedom, written out."""
    if df == 1:
        return 1 - 2 / math.pi * math.atan(t)
    if df == 2:
        return 1 - t / math.sqrt(2 + t * t)
    u = t / math.sqrt(3)
    return 1 - 2 / math.pi * (u / (1 + u * u) + math.atan(u))


@pytest.mark.parametrize("df", [1, 2, 3])
@pytest.mark.parametrize("t", [0.1, 0.5, 1.0, 2.61, 7.5])
def test_the_t_distribution_matches_its_closed_forms(t, df):
    assert paired.t_two_sided(t, df) == pytest.approx(_t_closed_form(t, df), rel=1e-9)
    assert paired.t_two_sided(-t, df) == paired.t_two_sided(t, df)


def test_the_t_quantiles_are_the_tables():
    for q, df, table in ((0.975, 3, 3.182446305), (0.975, 5, 2.570581836), (0.975, 10, 2.228138852),
                         (0.95, 3, 2.353363435), (0.995, 3, 5.840909310), (0.975, 1000, 1.962339)):
        assert paired.t_quantile(q, df) == pytest.approx(table, abs=1e-6 if df < 1000 else 1e-5)
        assert paired.t_two_sided(table, df) == pytest.approx(2 * (1 - q), abs=1e-8)


def test_mcnemars_exact_test_is_the_binomial_sum():
    assert paired.mcnemar_exact(1, 9) == 22 / 1024  # 2 * (C(10, 0) + C(10, 1)) / 2^10
    assert paired.mcnemar_exact(9, 1) == paired.mcnemar_exact(1, 9)
    assert paired.mcnemar_exact(0, 0) == 1.0 and paired.mcnemar_exact(7, 7) == 1.0
    for b, c in ((3, 11), (40, 62), (230, 281)):
        m = b + c
        tail = sum(math.comb(m, k) for k in range(min(b, c) + 1)) / 2 ** m
        assert paired.mcnemar_exact(b, c) == pytest.approx(2 * tail, rel=1e-9)
    b, c = 1190, 1290  # past the whole-number sum: the incomplete beta function gives the same tail
    assert b + c > paired.EXACT_SUM
    tail = sum(math.comb(b + c, k) for k in range(b + 1)) / 2 ** (b + c)
    assert paired.mcnemar_exact(b, c) == pytest.approx(2 * tail, rel=1e-9)


def test_a_paired_difference_by_hand():
    """Firsts 3, 5, 4, 6 against 4, 7, 4, 8: differences 1, 2, 0, 2, mean 1.25, variance (9 - 6.25) / 3, so
    t = 1.25 / sqrt(0.91667 / 4) = 2.6112 on 3 degrees of freedom, and the interval 1.25 +- 3.182446 * 0.478714."""
    d = Paired(4, 18, 5, 9)
    se = math.sqrt((9 - 25 / 4) / 3 / 4)
    assert d.estimate == 1.25 and d.relative == 5 / 18
    assert d.p == pytest.approx(_t_closed_form(1.25 / se, 3), rel=1e-9)
    assert d.interval == pytest.approx((1.25 - 3.182446305 * se, 1.25 + 3.182446305 * se), abs=1e-8)
    share = Paired(100, 40, 6, 10, discordant=(2, 8))  # 8 games only the second won, 2 only the first
    assert share.estimate == 0.06 and share.p == paired.mcnemar_exact(2, 8)
    assert Paired(10, 20, 0, 0).p == 1.0 and Paired(10, 20, 10, 10).p == 0.0  # no spread: all alike, all apart


@pytest.fixture(scope="module")
def cheap_theater(tmp_path_factory):
    """A planted difference: the Theater costs 12 rubles instead of 20."""
    path = tmp_path_factory.mktemp("cheap") / "cheap_theater.spb"
    path.write_text('extends "base"\nruleset cheap_theater { title = "Cheap Theater" }\n'
                    "override card theater { cost = 12 }\n", encoding="utf-8")
    return path


@pytest.mark.slow  # the variant's engine is compiled (about 12 s); its 4,000 games take about a second
def test_a_planted_difference_is_found_paired_and_missed_unpaired(compiled, cheap_theater):
    """2,000 random-seat games of each: a cheaper Theater adds about 2 final points a seat. Paired game by game
    the difference is significant after Holm's correction over every figure (p = 0.0002 after it); the same
    counts tested as independent samples are not (p = 0.0024 before the correction, 0.60 after)."""
    cheap = spbc.load_rules(cheap_theater, "compiled")
    plans = [Plan(src, "compiled", ("random", "random"), 2000, 1) for src in ("base", str(cheap_theater))]
    report = make_report([compiled, cheap], run_plans(plans))
    found = {d.what: d for d in report.differences}
    points = found["final points"]
    assert points.paired and points.significant and points.low > 0 and points.relative > 0
    unpaired = {d.what: d for d in compare(*report.summaries)}["final points"]
    assert not unpaired.paired and not unpaired.significant and unpaired.p > points.p
    assert unpaired.estimate == pytest.approx(points.estimate)  # the same difference, a wider interval
    assert unpaired.high - unpaired.low > 1.5 * (points.high - points.low)
    text = report.text()
    assert "paired game by game on the same seeds (2000 pairs)" in text
    assert "final points" in text.split("Significant differences")[1]


def test_a_difference_reads_with_its_interval_and_relative_change():
    from spbc.lab.summary import Difference
    from spbc.lab.text import change_text, test_name

    share = Difference("win share of seat 1", "49.4%", "49.0%", 0.11, 1.0, -0.003, -0.0061, 0.0001, -0.006, True, True)
    assert change_text(share) == "-0.30 pp [-0.61, +0.01] (-0.6%)" and test_name(share) == "paired, exact McNemar"
    mean = Difference("final points", "52.99", "55.97", 1e-6, 1e-4, 2.9765, 1.739, 4.214, 0.0562, True)
    assert change_text(mean) == "+3.0 [+1.7, +4.2] (+5.6%)" and test_name(mean) == "paired t"
    assert test_name(Difference("x", "1", "2", 0.5, 0.5)) == "unpaired"
