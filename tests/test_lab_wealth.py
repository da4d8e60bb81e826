"""Per-card effects adjusted for wealth (spbc.lab.wealth): the stratified difference on constructed seats where
owning a card does nothing once wealth is held (the raw difference large, the adjusted one near zero) and where
it does something; and the C loop's counts hold together."""

from __future__ import annotations

import math
import random

import pytest

from spbc.lab import wealth
from spbc.lab.run import Plan, play_batch
from spbc.lab.wealth import Group, GameStrata, adjusted, card_effect


def _seats(effect: float, seats: int = 6000, seed: int = 5) -> wealth.CardEffect:
    """Seat-games of one turn each in round 1: rich (40 rubles) or poor (4), three in four rich among the seats
    that own the card and one in four among the others; final points 60 for the rich and 40 for the poor, plus
    ``effect`` for an owner, plus noise; a seat wins when its points beat 55 (a rich seat mostly)."""
    rng = random.Random(seed)
    counts = [0] * wealth.size(1)
    total = Group(0, 0, 0, 0)
    for _ in range(seats):
        owns = rng.random() < 0.5
        rich = rng.random() < (0.75 if owns else 0.25)
        points = (60 if rich else 40) + round(effect * owns) + rng.randint(-8, 8)
        won = points > 55
        strata = GameStrata(1, 1)
        strata.to_move(0, 1, 40 if rich else 4)
        if owns:
            strata.owns(0, 0)
        strata.add_to(counts, [points], [won])
        total = Group(total.n + 1, total.points + points, total.squares + points * points, total.wins + won)
    return card_effect(counts, 0, total)


def test_owning_a_card_that_does_nothing_once_wealth_is_held_shows_a_raw_difference_and_no_adjusted_one():
    found = _seats(effect=0)
    assert found.owners == found.matched > 2800
    assert found.points.raw > 8  # the owners are mostly the rich: about 0.5 * 20 points raw
    assert found.wins.raw > 0.3
    assert found.points.low < 0 < found.points.high and abs(found.points.estimate) < 0.6
    assert found.wins.low < 0 < found.wins.high and abs(found.wins.estimate) < 0.03
    assert not found.points.significant and not found.wins.significant


def test_a_card_worth_five_points_shows_five_points_adjusted():
    found = _seats(effect=5)
    assert found.points.raw > 13
    assert found.points.low < 5 < found.points.high and found.points.significant
    assert found.points.high - found.points.low < 1.5
    assert found.wins.estimate > 0.1 and found.wins.significant


def test_the_stratified_difference_is_the_owners_weighted_mean_of_the_cells():
    """Two cells by hand: owners 2 and 3 (points 10, 12 and 20, 20, 23), non-owners 4 and 2 of their own."""
    def group(points: list[int], wins: int = 0) -> Group:
        return Group(len(points), sum(points), sum(p * p for p in points), wins)

    cells = [(group([10, 12]), group([8, 9, 10, 13])), (group([20, 20, 23]), group([18, 22]))]
    estimate, low, high = adjusted(cells, wins=False)
    assert estimate == pytest.approx((2 * (11 - 10) + 3 * (21 - 20)) / 5)
    pooled = ((10 - 11) ** 2 + (12 - 11) ** 2 + 2 * (20 - 21) ** 2 + (23 - 21) ** 2) / ((2 - 1) + (3 - 1))
    control = [sum((p - 10) ** 2 for p in (8, 9, 10, 13)) / 3, sum((p - 20) ** 2 for p in (18, 22)) / 1]
    variance = (4 * (pooled / 2 + control[0] / 4) + 9 * (pooled / 3 + control[1] / 2)) / 25
    assert high - estimate == pytest.approx(estimate - low) == pytest.approx(1.959963984540054 * math.sqrt(variance))
    assert all(math.isnan(v) for v in adjusted([(group([10]), group([9]))], wins=False))  # no cell of 2 others


@pytest.mark.parametrize("seats", [("random", "random"), ("random", "easy", "easy")])
def test_the_c_loop_counts_every_turn_and_every_owner_once(compiled, seats):
    """Every move is its mover's turn: the seat-turns counted are the moves played; each seat-game that owned a
    card sits in one cell, so the owners counted are the tally's owners; the Game API counts the same."""
    tally = play_batch(Plan("base", "compiled", seats, 30, 9), 0, 30)
    every = tally.wealth[tally.cards * wealth.CELLS * wealth.STATS:]
    assert sum(every[0::4]) == sum(moves * games for moves, games in tally.moves.items())
    owners = [sum(tally.wealth[c * wealth.CELLS * wealth.STATS:(c + 1) * wealth.CELLS * wealth.STATS:wealth.STATS])
              for c in range(tally.cards)]
    assert owners == [sum(tally.owners[c * len(seats):(c + 1) * len(seats)]) for c in range(tally.cards)]
    assert tally.wealth == play_batch(Plan("base", "compiled", seats, 30, 9, fast=False), 0, 30).wealth
