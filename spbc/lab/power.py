"""What a run's games could detect: the smallest difference found at the 5% level (two-sided) with 80% power.

A normal approximation from the observed spread: a difference whose per-game values have standard deviation
sd, over n games, is detected with 80% power when it is at least (z_0.975 + z_0.8) * sd / sqrt(n), z the
standard normal's quantiles. For one ruleset the differences are between two seats of the same games (one
seat's final points less another's, one seat's win less another's); for two rulesets on the same seeds, each
headline figure's paired difference. The level is that of one test, before Holm's correction over many.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from spbc.lab.stats import Z95
from spbc.lab.summary import pairs_of
from spbc.lab.tally import Tally

#: The standard normal's 80% quantile: a test at z_0.975 has 80% power against a shift of Z95 + Z80 errors.
Z80 = 0.8416212335729143
NOTE = ("normal approximation from the observed standard deviations, 5% level two-sided before Holm's "
        "correction, 80% power")


def detectable(n: int, deviation: float) -> float:
    """The smallest mean difference that n values of that standard deviation detect with 80% power."""
    return (Z95 + Z80) * deviation / math.sqrt(n) if n > 1 else math.nan


def deviation(values: Iterable[int]) -> tuple[int, float]:
    """How many values, and their standard deviation (n - 1 in the denominator), from whole-number sums."""
    n = total = squares = 0
    for value in values:
        n, total, squares = n + 1, total + value, squares + value * value
    return n, math.sqrt(max(0.0, (squares - total * total / n) / (n - 1))) if n > 1 else math.nan


def _widest(rows: Sequence[tuple[int, ...]], measures: Iterable[Callable[[tuple[int, ...]], int]]) -> float:
    return max((detectable(*deviation(measure(row) for row in rows)) for measure in measures), default=math.nan)


def _points_less(i: int, j: int) -> Callable[[tuple[int, ...]], int]:
    """A game row's (spbc.lab.tally.Tally.rows) final points of seat i less seat j's."""
    return lambda row: row[4 + i] - row[4 + j]


def _win_less(i: int, j: int) -> Callable[[tuple[int, ...]], int]:
    """A game row's win of seat i (1 or 0) less seat j's."""
    return lambda row: (row[3] >> i & 1) - (row[3] >> j & 1)


def seat_lines(tally: Tally) -> str:
    """The seat advantage a run's games detect: the largest over every two seats, in points and win share."""
    rows = [tally.rows[g] for g in sorted(tally.rows)]
    seats = [(i, j) for i in range(tally.players) for j in range(i + 1, tally.players)]
    points = _widest(rows, [_points_less(i, j) for i, j in seats])
    wins = _widest(rows, [_win_less(i, j) for i, j in seats])
    return (f"with {len(rows)} games, a seat advantage of {points:.2f} final points, or of {100 * wins:.1f} "
            "percentage points of win share, over another seat")


def paired_line(first: Tally, second: Tally) -> str:
    """The paired differences two runs on the same seeds detect, figure by figure (the largest over seats)."""
    pairs = pairs_of(first, second)
    players = first.players

    def of(value: Callable[[tuple[int, ...]], int], scale: int = 1) -> float:
        return detectable(*deviation(value(b) - value(a) for a, b in pairs)) / scale

    def most(make: Callable[[int], Callable[[tuple[int, ...]], int]]) -> float:
        return max(of(make(p)) for p in range(players))

    found = [("win share of a seat", 100 * most(lambda p: lambda row: row[3] >> p & 1), " pp"),
             ("rounds per game", of(lambda row: row[1]), ""), ("moves per game", of(lambda row: row[0]), ""),
             ("winner's margin", of(lambda row: row[2]), ""),
             ("final points", of(lambda row: sum(row[4:]), players), ""),
             ("final points of a seat", most(lambda p: lambda row: row[4 + p]), "")]
    return (f"with {len(pairs)} pairs of games, a paired difference of " +
            ", ".join(f"{value:.3g}{unit} in {what}" for what, value, unit in found))


def lines(names: Sequence[str], tallies: Sequence[Tally], paired: bool) -> list[str]:
    """The report's power lines: each run's seat advantage, and for two runs on the same seeds the paired
    differences; nothing when a run has fewer than two games kept game by game."""
    if any(len(t.rows) < 2 for t in tallies):
        return []
    found = [f"Power ({NOTE}):"]
    found += [f"  {name}: {seat_lines(tally)}" for name, tally in zip(names, tallies)] if len(tallies) > 1 else \
        [f"  {seat_lines(tallies[0])}"]
    if paired and len(tallies) == 2:
        found.append(f"  {paired_line(*tallies)}")
    return ["\n".join(found)]

