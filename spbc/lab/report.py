"""A lab run's report: its summaries (and the comparison of two rulesets), written as text, HTML and JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spbc.lab import power, text
from spbc.lab.run import Outcome
from spbc.lab.precision import Stop
from spbc.lab.summary import Difference, Summary, figures
from spbc.play.game import Ruleset
from spbc.source.files import write_text_atomic


@dataclass(frozen=True)
class Report:
    summaries: list[Summary]
    differences: list[Difference] | None  # with two rulesets
    outcomes: list[Outcome]
    stop: Stop | None = None  # why a run sized by precision stopped

    def text(self) -> str:
        """The statistics as text (the same for a seed however many workers played the games)."""
        return text.render(self.summaries, self.differences) + "".join(f"\n{note}\n" for note in self.notes())

    def notes(self) -> list[str]:
        """What the report says after its figures: why a run sized by precision stopped, and what its games
        could detect (spbc.lab.power)."""
        paired = self.differences is not None and any(d.paired for d in self.differences)
        found = power.lines([s.ruleset for s in self.summaries], [o.tally for o in self.outcomes], paired)
        return ([] if self.stop is None else [self.stop.text()]) + found

    def speed(self, where: str) -> str:
        """How many games, how long, and how fast ("2.35 games per second", "1,143 games per second")."""
        games = sum(o.tally.games for o in self.outcomes)
        seconds = max((o.seconds for o in self.outcomes), default=0.0)
        rate = rate_text(games / seconds) if seconds > 0 else "no time measured"
        return f"{games} games in {seconds:.2f} s on {where}: {rate}"

    def page(self, where: str) -> str:
        """The HTML page with its figures. Matplotlib is imported here, for the page alone: a run without it
        (spb balance --no-html) neither imports nor draws."""
        from spbc.lab import page

        return page.render(self.summaries, self.differences, self.speed(where), self.notes())

    def data(self) -> dict[str, Any]:
        """The raw counts of each run, from which every figure is computed."""
        return {"runs": [{"ruleset": s.ruleset, "source": o.plan.source, "seats": list(o.plan.seats),
                          "seed": o.plan.seed, "games_planned": o.plan.games, "tally": o.tally.to_json()}
                         for s, o in zip(self.summaries, self.outcomes)],
                "precision": None if self.stop is None else self.stop.to_json()}


def make_report(rulesets: list[Ruleset], outcomes: list[Outcome], stop: Stop | None = None) -> Report:
    summaries, differences = figures(rulesets, outcomes)
    return Report(summaries, differences, outcomes, stop)


def write_report(report: Report, folder: Path, where: str, page: bool = True) -> list[Path]:
    """report.html (unless not page), report.txt and report.json in folder (made when missing); the paths
    written. OSError (spbc.source.files.FileWriteError) when one cannot be written."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {"report.html": report.page(where)} if page else {}
    files |= {"report.txt": report.text(), "report.json": json.dumps(report.data(), indent=1) + "\n"}
    for name, content in files.items():
        write_text_atomic(folder / name, content)
    return [folder / name for name in files]


def rate_text(rate: float) -> str:
    """Games per second, to two decimals below 10 and one below 100 ("2.35", "1.00", never "1 games")."""
    if rate >= 100:
        return f"{rate:,.0f} games per second"
    return f"{rate:.{2 if rate < 10 else 1}f} games per second"
