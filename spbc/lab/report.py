"""A lab run's report: its summaries (and the comparison of two rulesets), written as text, HTML and JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spbc.lab import text
from spbc.lab.run import Outcome
from spbc.lab.summary import Difference, Summary, compare, pairs_of, summarize
from spbc.play.game import Ruleset
from spbc.source.files import write_text_atomic


@dataclass(frozen=True)
class Report:
    summaries: list[Summary]
    differences: list[Difference] | None  # with two rulesets
    outcomes: list[Outcome]

    def text(self) -> str:
        """The statistics as text (the same for a seed however many workers played the games)."""
        return text.render(self.summaries, self.differences)

    def speed(self, where: str) -> str:
        games = sum(o.tally.games for o in self.outcomes)
        seconds = max((o.seconds for o in self.outcomes), default=0.0)
        rate = f"{games / seconds:,.0f} games per second" if seconds > 0 else "no time measured"
        return f"{games} games in {seconds:.2f} s on {where}: {rate}"

    def page(self, where: str) -> str:
        """The HTML page with its figures. Matplotlib is imported here, for the page alone: a run without it
        (spb balance --no-html) neither imports nor draws."""
        from spbc.lab import page

        return page.render(self.summaries, self.differences, self.speed(where))

    def data(self) -> dict[str, Any]:
        """The raw counts of each run, from which every figure is computed."""
        return {"runs": [{"ruleset": s.ruleset, "source": o.plan.source, "seats": list(o.plan.seats),
                          "seed": o.plan.seed, "games_planned": o.plan.games, "tally": o.tally.to_json()}
                         for s, o in zip(self.summaries, self.outcomes)]}


def make_report(rulesets: list[Ruleset], outcomes: list[Outcome]) -> Report:
    summaries = [summarize(r, o) for r, o in zip(rulesets, outcomes)]
    differences = None
    if len(summaries) == 2:
        first, second = (o.plan for o in outcomes)
        same_games = (first.seed, first.seats) == (second.seed, second.seats)  # game i dealt alike in both
        pairs = pairs_of(outcomes[0].tally, outcomes[1].tally) if same_games else None
        differences = compare(summaries[0], summaries[1], pairs)
    return Report(summaries, differences, outcomes)


def write_report(report: Report, folder: Path, where: str, page: bool = True) -> list[Path]:
    """report.html (unless not page), report.txt and report.json in folder (made when missing); the paths
    written. OSError (spbc.source.files.FileWriteError) when one cannot be written."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {"report.html": report.page(where)} if page else {}
    files |= {"report.txt": report.text(), "report.json": json.dumps(report.data(), indent=1) + "\n"}
    for name, content in files.items():
        write_text_atomic(folder / name, content)
    return [folder / name for name in files]
