"""Command: balance (the balance lab: many games of a ruleset, or of two side by side, with statistics and plots)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from spbc.frontends.common import fail, load_ruleset, progress_bar
from spbc.frontends.options import complete_rules, integers, number

if TYPE_CHECKING:  # spbc itself is imported by the command that runs, for a fast start of the others
    from spbc.frontends.common import Bar
    from spbc.lab.precision import Sizer, Stop
    from spbc.lab.run import Outcome, Plan
    from spbc.play.game import Ruleset

#: What the lab extra installs (pyproject.toml): spb balance says so when one is missing.
LAB_MODULES = ("matplotlib", "dask", "distributed")
#: The most games a ruleset plays with --precision and no --games.
PRECISION_CAP = 1_000_000


def balance(
    rules: Annotated[Path, typer.Argument(metavar="RULES", autocompletion=complete_rules, help="Shipped ruleset name (base) or rules file.")],
    against: Annotated[Optional[str], typer.Option(
        metavar="RULES", autocompletion=complete_rules, help="A second ruleset, played with the same seats and seeds and compared figure by figure.")] = None,
    seats: Annotated[str, typer.Option(
        metavar="LEVELS", help="Comma list of computer seats, rotated from game to game; all random: the C loop.")] = "random,random",
    games: Annotated[Optional[int], typer.Option(**integers(1), metavar="INTEGER", help=(
        "Games per ruleset (default 1000); with --precision, the most to play (default 1000000)."))] = None,
    precision: Annotated[Optional[float], typer.Option(parser=number(0.0), metavar="FLOAT", help=(
        "Play rounds of games until every headline 95% interval (win share by seat in percentage points, "
        "final points by seat, with --against the paired differences) has at most this half-width."))] = None,
    seed: Annotated[int, typer.Option(**integers(0, 2**62), metavar="INTEGER",
                                      help="Seed of the first game; game i uses seed + i.")] = 1,
    jobs: Annotated[Optional[int], typer.Option(
        **integers(1), metavar="INTEGER", help="Local processes (default: every core); the results do not depend on it.")] = None,
    cluster: Annotated[Optional[str], typer.Option(
        metavar="ADDRESS", help="Play on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786).")] = None,
    out: Annotated[Path, typer.Option(metavar="DIR", help="Folder for report.html, report.txt, report.json.")] = Path("balance"),
    html: Annotated[bool, typer.Option("--html/--no-html", help="Write report.html with its figures (drawn with matplotlib; --no-html: the text and JSON only, and a faster start).")] = True,
) -> None:
    """Play games between computer seats (rotated) and report their balance: win share by seat, length,
    points, cards; with --against, two rulesets side by side and their differences, paired game by game.
    Needs the lab extra: pip install 'spbc[lab]'."""
    _need_lab_extra(html)
    from spbc.lab.report import make_report, write_report
    from spbc.lab.run import check_seats

    levels = tuple(s.strip() for s in seats.split(","))
    if not all(levels):
        fail(f"bad seat list {seats!r}: give computer levels separated by commas, e.g. random,random", code=2)
    try:
        check_seats(levels)
    except ValueError as error:
        fail(str(error), code=2)
    if precision is not None and precision <= 0:
        fail(f"--precision {precision:g}: give a half-width above 0, e.g. --precision 0.5", code=2)
    rulesets = _rulesets([str(rules)] + ([against] if against is not None else []), len(levels))
    cap = games or (1000 if precision is None else PRECISION_CAP)
    plans = _plans(rulesets, levels, cap, seed)
    workers = jobs or os.cpu_count() or 1
    where = f"the Dask cluster at {cluster}" if cluster else f"{workers} local process{'es' if workers > 1 else ''}"
    outcomes, stopped = _play(rulesets, plans, workers, cluster, precision, where)
    report = make_report(rulesets, outcomes, stopped)
    typer.echo(report.text(), nl=False)
    typer.echo(report.speed(where))
    try:
        written = write_report(report, out, where, page=html)
    except OSError as error:
        fail(f"cannot write the report into {out}: {error.strerror or error}")
    typer.echo(f"report: {written[0]}")
    if any(not o.complete for o in outcomes):
        typer.echo("interrupted: the report holds the games that finished", err=True)
        raise typer.Exit(130)


def _play(rulesets: list[Ruleset], plans: list[Plan], workers: int, cluster: str | None,
          precision: float | None, where: str) -> tuple[list[Outcome], Stop | None]:
    """The plans played (in rounds until the precision, when given), with a progress bar; exit 130 when
    interrupted before a batch of each finished, 1 when the cluster or a worker fails."""
    from spbc.lab.run import ClusterError, run_plans
    from spbc.lang.sent import SentRulesError

    total = sum(plan.games for plan in plans)
    asked = f"{total} games" if precision is None else \
        f"up to {total} games, until every headline 95% interval is within {precision:g},"
    typer.echo(f"playing {asked} on {where} (Ctrl-C stops and reports what finished)", err=True)
    try:
        with _terminate_as_interrupt(), progress_bar(f"{total} games", total) as bar:
            sizer = None if precision is None else _sizer(rulesets, precision, bar)
            outcomes = run_plans(plans, workers, cluster, progress=lambda done, of: bar(done, of), rounds=sizer)
    except (ClusterError, SentRulesError) as error:  # a worker refuses texts that do not give their digest
        fail(str(error))
    if any(o.tally.games == 0 for o in outcomes):
        typer.echo("interrupted before a batch of games of each ruleset finished: no report", err=True)
        raise typer.Exit(130)
    return outcomes, sizer.stop if sizer is not None and all(o.complete for o in outcomes) else None


def _sizer(rulesets: list[Ruleset], precision: float, bar: Bar) -> Sizer:
    """The rounds of a run sized by precision, the progress bar saying the widest interval after each."""
    from spbc.lab.precision import Sizer

    def shown(stop: Stop) -> None:
        bar.describe(f"widest half-width {stop.half:.3f} of {precision:g} at {stop.games} games")

    return Sizer(rulesets, precision, shown)


def _need_lab_extra(html: bool) -> None:
    """Exit saying how to install the lab extra when a module of it that this run needs is missing (matplotlib
    only for the HTML page), before any game is played."""
    try:
        import spbc.lab.run  # noqa: F401
        if html:
            import spbc.lab.page  # noqa: F401
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] not in LAB_MODULES:
            raise
        fail(f"spb balance needs {error.name}, which comes with the lab extra: pip install 'spbc[lab]'")


def _rulesets(names: list[str], players: int) -> list[Ruleset]:
    """The rulesets to play, each loaded (exit 1 with the rules' errors); exit 2 unless each is for that
    many players."""
    rulesets = [load_ruleset(name) for name in names]
    for ruleset in rulesets:
        model = ruleset.model.game
        if not model.min_players <= players <= model.max_players:
            fail(f"{ruleset.name} is for {model.min_players} to {model.max_players} players, not {players}",
                 code=2)
    return rulesets


def _plans(rulesets: list[Ruleset], levels: tuple[str, ...], games: int, seed: int) -> list[Plan]:
    """A plan of each ruleset, carrying its rules' texts for the workers (Plan.rules); exit 1 when a file
    changed after it was checked, so that the games would not be of the rules the report names."""
    from spbc.lab.run import Plan

    plans = [Plan(_source(str(r.source)), r.backend, levels, games, seed) for r in rulesets]
    for ruleset, plan in zip(rulesets, plans):
        if plan.rules is None or plan.rules.digest != ruleset.model.digest:
            fail(f"the rules of {ruleset.name} changed while spb balance read them: run it again")
    return plans


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a batch system's or a cluster job's stop) stops the run as Ctrl-C does, keeping what finished."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _source(source: str) -> str:
    """A rules file as an absolute path (what the report names; the workers get the rules' texts, Plan.rules,
    and read no file), a shipped name as it is."""
    path = Path(source)
    return str(path.resolve()) if path.is_file() else source


def register(app: typer.Typer) -> None:
    """Add this module's commands to the spb app."""
    app.command()(balance)
