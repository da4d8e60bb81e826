"""Moves of one position weighed side by side for ``spb analyze``: every candidate on the same deals and the
same playouts (common random numbers), a fixed number of them, so that the played move's figures never rest
on the few visits a search happened to give it, and the difference between two moves is measured with
its own noise.

The search (spbc.ai.search) names the candidates; this module weighs them with spbc.ai.playouts'
move_playouts: repeat r deals what the seat cannot see anew, plays the move and plays the game out at
random, from seeds that are the same for every candidate. Each candidate gets the mean share of the win
and the mean margin of points (the seat's final points less the best other seat's) over the repeats; a
loss against the best is the mean of the per-repeat differences, and its standard error comes from their
spread (the shared deals cancel most of the noise each move would have alone).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from spbc.ai import playouts
from spbc.play.observe import Observation

#: Deals and playouts a candidate is weighed on (the same ones for every candidate of a position).
REPEATS = 1000
#: How many of the search's moves, most visited first, are weighed besides the move played.
CANDIDATES = 5
#: Every legal move is weighed (the search's first) in a position of at most so many.
EVERY_MOVE = 12
#: A loss counts only when it is this many standard errors above nothing (its own noise).
NOISE_FACTOR = 2.5
#: A candidate's worth, for choosing the best one: its win share, and this much of its margin squashed
#: into -1..1 as m / (|m| + MARGIN_SCALE) (so that a decided game still tells its moves apart).
MARGIN_WEIGHT = 0.3
MARGIN_SCALE = 40.0


@dataclass(frozen=True)
class Weighed:
    """The best candidate of a position against the played one, on common deals and playouts: both win
    chances and expected margins, and the standard error of each difference."""

    best: int  # the code of the best candidate (the played move's when it is the best)
    played_win: float
    best_win: float
    played_points: float
    best_points: float
    win_error: float  # the standard error of best_win - played_win
    points_error: float


def _mean_error(values: list[float]) -> tuple[float, float]:
    """The mean of values and its standard error."""
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, 0.0
    spread = sum((value - mean) ** 2 for value in values) / (count - 1)
    return mean, math.sqrt(spread / count)


def _worth(wins: list[float], margins: list[float]) -> float:
    score = sum((1 - MARGIN_WEIGHT) * win + MARGIN_WEIGHT * 0.5 * (1 + margin / (abs(margin) + MARGIN_SCALE))
                for win, margin in zip(wins, margins))
    return score / len(wins)


def weigh(observation: Observation, played: int, candidates: list[int], seed: int,
          repeats: int = REPEATS) -> Weighed:
    """The played move (an engine code, legal in observation) against the best of candidates and itself,
    each on the same ``repeats`` deals of what the seat cannot see and the same playouts (from ``seed``)."""
    codes = [played, *(code for code in dict.fromkeys(candidates) if code != played)]
    capsule = observation.ruleset.engine.c_api()
    wins, margins = playouts.move_playouts(capsule, list(observation.state), observation.seat, codes, repeats,
                                           seed)
    rows = [(wins[i * repeats:(i + 1) * repeats], margins[i * repeats:(i + 1) * repeats]) for i in range(len(codes))]
    best = max(range(len(codes)), key=lambda i: (_worth(*rows[i]), -i))
    win_loss, win_error = _mean_error([b - p for b, p in zip(rows[best][0], rows[0][0])])
    points_loss, points_error = _mean_error([b - p for b, p in zip(rows[best][1], rows[0][1])])
    played_win, played_points = sum(rows[0][0]) / repeats, sum(rows[0][1]) / repeats
    return Weighed(codes[best], played_win, played_win + win_loss, played_points, played_points + points_loss,
                   win_error, points_error)
