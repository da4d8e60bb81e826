"""Runs sized by the precision asked (spb balance --precision): rounds of games until every headline 95%
interval is that narrow, or the games asked for (the cap) are played.

The headline intervals are each seat's win share (its half-width in percentage points) and mean final points,
of each ruleset, and with two rulesets played on the same seeds every paired difference of the headline
figures (win shares in percentage points, rounds, moves, margin, points). After each round the widest of them
sets the next: the games it would need if its half-width shrinks as one over the square root of the games
(a tenth more, at most four times the games so far, in whole batches). A round's games all finish before the
next is sized, so the games played depend on the seeds and on this rule alone: the same report on any number
of workers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spbc.lab.run import Outcome
from spbc.lab.summary import Difference, Summary, figures
from spbc.play.game import Ruleset

#: The games of the first round (rounded up to whole batches): enough for a first look at the spread.
FIRST_ROUND = 200
#: A round plays this much more than the games the widest interval seems to need, and at most this many times
#: the games so far (the spread of a small first round is itself uncertain).
MARGIN, GROWTH = 1.1, 4


@dataclass(frozen=True)
class Stop:
    """Where a run sized by precision stands: the games of each ruleset played, and the widest headline
    interval's half-width with what it is of."""

    precision: float
    cap: int
    games: int
    half: float
    what: str

    @property
    def reached(self) -> bool:
        return self.half <= self.precision

    def text(self) -> str:
        widest = f"the widest, {self.what}, is {self.half:.3f}"
        if self.reached:
            return (f"Precision: stopped after {self.games} games, precision reached: every headline "
                    f"95% interval has a half-width of at most {self.precision:g} ({widest}; cap {self.cap})")
        return (f"Precision: stopped at the cap of {self.cap} games (--games) before the precision asked, "
                f"{self.precision:g}: {widest}")

    def to_json(self) -> dict[str, Any]:
        return {"precision": self.precision, "cap": self.cap, "games": self.games, "widest_half_width": self.half,
                "widest": self.what, "reached": self.reached}


def half_widths(summaries: list[Summary], differences: list[Difference] | None) -> list[tuple[float, str]]:
    """Every headline interval's half-width (percentage points for a share; inf when it has none yet) and
    what it is of."""
    found: list[tuple[float, str]] = []
    named = len(summaries) > 1
    for s in summaries:
        of = f"{s.ruleset}'s " if named else ""
        for p, share in enumerate(s.positions):
            low, high = share.interval
            found.append((50 * (high - low), f"{of}win share of seat {p + 1} (percentage points)"))
        for p, mean in enumerate(s.scores):
            low, high = mean.interval
            found.append(((high - low) / 2, f"{of}final points of seat {p + 1}"))
    for d in differences or ():
        if d.paired:
            unit = " (percentage points)" if d.share else ""
            found.append(((100 if d.share else 1) * (d.high - d.low) / 2, f"the paired difference in {d.what}{unit}"))
    return [(math.inf if math.isnan(half) else half, what) for half, what in found]


class Sizer:
    """The rounds of a run sized by precision (spbc.lab.run.Rounds): called with the outcomes so far, the
    games each ruleset is to have played after the next round, or None when the run is done. ``stop`` says
    where the run stands after the last round; ``on_round`` is told it after each."""

    def __init__(self, rulesets: list[Ruleset], precision: float,
                 on_round: Callable[[Stop], None] | None = None) -> None:
        if not precision > 0:
            raise ValueError(f"a precision is a half-width above 0, not {precision}")
        self.rulesets, self.precision, self.on_round = rulesets, precision, on_round
        self.stop: Stop | None = None

    def __call__(self, outcomes: list[Outcome]) -> int | None:
        games = min(o.tally.games for o in outcomes)
        cap = min(o.plan.games for o in outcomes)
        batch = max(o.plan.batch for o in outcomes)
        if games == 0:
            target = float(FIRST_ROUND)
        else:
            half, what = max(half_widths(*figures(self.rulesets, outcomes)), key=lambda found: found[0])
            self.stop = Stop(self.precision, cap, games, half, what)
            if self.on_round is not None:
                self.on_round(self.stop)
            if half <= self.precision or games >= cap:
                return None
            needed = games * (half / self.precision) ** 2 * MARGIN if math.isfinite(half) else math.inf
            target = max(games + 1.0, min(needed, GROWTH * games))
        return min(cap, math.ceil(target / batch) * batch)
