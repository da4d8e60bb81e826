"""benchmarks/ladder.py: the Elo fit of the levels' matches, and a small ladder played through spb sim's runner."""

from __future__ import annotations

import math
from types import ModuleType

import bench_script
import pytest


@pytest.fixture(scope="module")
def ladder() -> ModuleType:
    return bench_script.load("ladder")


def test_two_levels_are_rated_by_their_share_with_one_virtual_tie(ladder):
    # 149.5 of 199 games plus the virtual tie: 150 of 200, odds 3 to 1
    ratings = ladder.fit(2, {(0, 1): (49.5, 199)})
    assert ratings[0] == 0 and ratings[1] == pytest.approx(400 * math.log10(3), abs=1e-6)


def test_a_chain_adds_up_and_a_round_robin_is_consistent(ladder):
    chain = ladder.fit(3, {(0, 1): (24.5, 99), (1, 2): (24.5, 99)})
    assert chain[2] == pytest.approx(2 * chain[1], abs=1e-6)
    # the three pairs of a true 0 / 191 / 382 ladder at their expected shares agree with it
    expected = {(0, 1): 0.25, (1, 2): 0.25, (0, 2): 0.1}
    games = 10_000
    pairs = {key: (share * (games + 1) - 0.5, games) for key, share in expected.items()}
    ratings = ladder.fit(3, pairs)
    assert ratings[1] == pytest.approx(190.8, abs=3) and ratings[2] == pytest.approx(381.7, abs=3)


def test_a_pair_won_every_game_still_has_a_finite_rating_and_an_interval(ladder):
    ratings = ladder.fit(2, {(0, 1): (0.0, 50)})
    low, high = ladder.intervals(2, {(0, 1): (0.0, 50)}, 50, 1)[1][1]
    assert math.isfinite(ratings[1]) and ratings[1] == pytest.approx(400 * math.log10(101)) and low == high == pytest.approx(ratings[1])


def test_the_script_plays_its_pairs_and_prints_the_table(ladder, capsys):
    assert ladder.main(["--levels", "random,easy,medium@5it", "--games", "6", "--resamples", "20",
                        "--known", "easy,medium@5it,3.5,6"]) == 0
    out = capsys.readouterr().out
    assert "easy vs random" in out and "given by --known" in out
    assert [line.split()[0] for line in out.splitlines()[-3:]] == ["random", "easy", "medium@5it"]
