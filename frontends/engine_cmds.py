"""Commands: sim (headless games between computer players) and bench (compiled engine against its twin)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from spbc.ai.budget import LEVELS
from spbc.frontends.common import fail, load_ruleset, progress_bar
from spbc.frontends.options import complete_rules, integer, integers, number

if TYPE_CHECKING:  # spbc's game is imported by the command that runs, for a fast start of the others
    from spbc.ai.sim import GameResult


def sim(
    seats: Annotated[str, typer.Option(metavar="LEVELS", help=(
        f"Comma list of computer levels ({', '.join(LEVELS)}; a budget such as hard@5000it, "
        "or hard@2s of CPU time), rotated over the seats game by game."))] = "random,random",
    games: Annotated[int, typer.Option(**integers(1), metavar="INTEGER", help="How many games.")] = 10,
    seed: Annotated[int, typer.Option(parser=integer(), metavar="INTEGER", help="Seed of the first game; game i uses seed + i.")] = 1,
    rules: Annotated[str, typer.Option(metavar="RULES", autocompletion=complete_rules,
                                       help="Shipped ruleset name or rules file.")] = "base",
    backend: Annotated[str, typer.Option(metavar="[auto|compiled|python]", help="auto, compiled or python.")] = "auto",
    records: Annotated[Optional[Path], typer.Option(metavar="DIR", help="Write a game record of each game into this folder.")] = None,
    jobs: Annotated[int, typer.Option(**integers(1), metavar="INTEGER", help="Processes to play on; the results do not depend on it.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print every game's seed and scores as JSON.")] = False,
) -> None:
    """Play games between computer players and print the results (on --jobs processes; the results do not
    depend on them).

    Seats all random or easy play on the compiled engine's C loop; other levels, the Python engine and --records
    on the Game API (the same games, slower). A seat's time per decision: its choice's (observation included) by
    the monotonic clock, in C or through the Game API."""
    from spbc.ai.budget import Level
    from spbc.ai.sim import c_loop, play_games, summarize

    ruleset = load_ruleset(rules, backend)
    levels = [s.strip() for s in seats.split(",")]
    if not all(levels):
        fail(f"bad seat list {seats!r}: give computer levels separated by commas, e.g. random,random", code=2)
    try:
        for level in levels:
            Level.parse(level)
    except ValueError as error:
        fail(f"--seats {seats}: {error}", code=2)
    model = ruleset.model.game
    if len(levels) < 2:
        fail(f"--seats {seats} is one seat: a game of {ruleset.name} needs {model.min_players} to "
             f"{model.max_players}, one level each, e.g. --seats {levels[0]},random", code=2)
    if not model.min_players <= len(levels) <= model.max_players:
        fail(f"--seats {seats} is {len(levels)} seats: {ruleset.name} is for {model.min_players} to "
             f"{model.max_players} players", code=2)
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            fail(f"cannot write records into {records}: {error.strerror or error}")
    loop = "C loop" if c_loop(ruleset, levels, records, range(seed, seed + games)) else "Game API"
    kept: list[dict[str, Any]] = []  # each game's entry, for --json only: the summaries are running tallies
    try:
        with progress_bar(f"{games} games", games) as advance:
            results = play_games(ruleset, levels, games, seed, jobs, records, progress=advance)
            summaries = summarize(_kept(results, kept) if as_json else results)
    except OSError as error:  # a record that cannot be written
        fail(f"cannot write the record {error.filename or ''} into {records}: {error.strerror or error}")
    if as_json:
        typer.echo(json.dumps({"ruleset": ruleset.name, "backend": ruleset.backend, "loop": loop, "seats": levels,
                               "games": kept, "levels": [dataclasses.asdict(summary) for summary in summaries]},
                              indent=1))
        return
    typer.echo(f"{games} games of {ruleset.name} ({ruleset.backend} engine) on the {loop}, seeds {seed}..{seed + games - 1}, "
               "the levels rotated over the seats")
    for line in sim_table(summaries):
        typer.echo(line)


def _kept(results: Iterator[GameResult], kept: list[dict[str, Any]]) -> Iterator[GameResult]:
    """The results as they come, each game's JSON entry kept on the way (the times are the machine's)."""
    for result in results:
        kept.append({key: value for key, value in dataclasses.asdict(result).items() if key not in ("seconds", "slowest")})
        yield result


def sim_table(summaries: list[Any]) -> list[str]:
    """The results of spb sim as lines of at most 100 columns (with level names of up to 12 characters)."""
    width = max(len("level"), *(len(summary.level) for summary in summaries))
    lines = [f"  {'level':<{width}}  seats    wins  {'95% interval':^16}  even  points  margin    mean s   max s"
             "  iterations"]
    for s in summaries:
        lines.append(f"  {s.level:<{width}}  {s.seats:>5}  {s.win_share:>6.1%}  [{s.low:>6.1%},{s.high:>7.1%}]"
                     f"  {s.even_share:>4.0%}  {s.mean_points:>6.1f}  {s.mean_margin:>+6.1f}  {s.mean_seconds:>8.4f}"
                     f"  {s.max_seconds:>6.3f}  {s.mean_iterations:>10,.0f}")
    lines.append("  wins: ties shared; points, margin (over the best other seat): means per game;")
    lines.append("  mean s, max s (the longest), iterations (the mean): per decision; a decision's seconds are its")
    lines.append("  choice's, observation included (wall clock), a search's budget in seconds its CPU time")
    if len(summaries) == 1:
        lines.append(f"  note: every seat played {summaries[0].level}: nothing to compare "
                     "(give two levels, e.g. --seats hard,medium)")
    return lines


def bench(
    rules: Annotated[str, typer.Option(metavar="RULES", autocompletion=complete_rules,
                                       help="Shipped ruleset name or rules file.")] = "base",
    players: Annotated[int, typer.Option(**integers(1), metavar="INTEGER", help="Players per game.")] = 2,
    seconds: Annotated[float, typer.Option(parser=number(), metavar="NUMBER", help="Seconds per sample.")] = 1.0,
    repeats: Annotated[int, typer.Option(**integers(1), metavar="INTEGER", help="Samples per figure; the median is reported.")] = 5,
    reference: Annotated[Optional[Path], typer.Option(
        metavar="FILE", help="A C engine to compare with, run as FILE PLAYERS GAMES SEED (prints games_per_s).")] = None,
    states: Annotated[int, typer.Option(**integers(0), metavar="INTEGER",
                                        help="Mid-game states for the playout figures (0: none).")] = 1000,
    instructions: Annotated[bool, typer.Option(
        "--instructions", help="Also count instructions per game under valgrind's callgrind.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """The engine's speed, as ratios measured in one run: compiled against twin (and a C engine), playouts."""
    import math

    from spbc.ai.bench import ReferenceEngineError, run_bench

    if not (math.isfinite(seconds) and seconds > 0):
        fail(f"--seconds must be a number of seconds above 0, not {seconds}", code=2)
    if reference is not None and not reference.is_file():
        fail(f"--reference {reference}: no such program", code=2)
    compiled = load_ruleset(rules, "compiled")
    python = load_ruleset(rules, "python")
    try:
        report = run_bench(compiled, python, players, seconds, repeats, reference, states, instructions)
    except ValueError as error:
        fail(str(error), code=2)
    except ReferenceEngineError as error:
        fail(str(error))
    if as_json:
        typer.echo(json.dumps(_bench_json(report), indent=1))
        return
    typer.echo(f"{report.ruleset}, {players} players, medians of {repeats} samples of ~{seconds:g} s")
    engines = report.engines
    typer.echo(f"  compiled engine   {engines.first_median:12,.0f} games/s")
    typer.echo(f"  Python twin       {engines.second_median:12,.0f} games/s   compiled/twin {engines.ratio_median:7.1f} x")
    if report.reference is not None:
        typer.echo(f"  C engine          {report.reference.second_median:12,.0f} games/s   "
                   f"compiled/C {report.reference.ratio_median:9.2f} x")
    if report.api_playouts is not None:
        typer.echo(f"  playouts from {states} mid-game states, determinized for the player to move:")
        typer.echo(f"    Game API        {report.api_playouts:12,.0f} playouts/s")
    if report.c_playouts is not None:
        typer.echo(f"    C interface     {report.c_playouts:12,.0f} playouts/s (one core)")
    for figures in report.search:
        typer.echo(f"  search (ai:hard), {figures.players} players, from {repeats} mid-game states, one core:")
        typer.echo(f"    iterations      {figures.iterations_per_s:12,.0f} /s   playouts {figures.playouts_per_s:10,.0f} /s")
        typer.echo(f"    a decision at the default budget: {figures.decision_seconds:.3f} s, "
                   f"{figures.decision_iterations:,} iterations")
    if report.instructions is not None:
        typer.echo(f"  callgrind         {report.instructions.per_game:12,.0f} instructions/game, "
                   f"{report.instructions.per_move:,.0f}/move")
    for note in report.notes:
        typer.echo(f"  note: {note}")


def _bench_json(report: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleset": report.ruleset, "players": report.players,
        "compiled_games_per_s": report.engines.first_median, "python_games_per_s": report.engines.second_median,
        "speedup": report.engines.ratio_median,
        "samples": {"compiled": report.engines.first, "python": report.engines.second},
        "api_playouts_per_s": report.api_playouts, "c_playouts_per_s": report.c_playouts, "notes": report.notes,
        "search": [dataclasses.asdict(figures) for figures in report.search],
    }
    if report.reference is not None:
        out["reference_games_per_s"] = report.reference.second_median
        out["compiled_over_reference"] = report.reference.ratio_median
    if report.instructions is not None:
        out["instructions_per_game"] = report.instructions.per_game
        out["instructions_per_move"] = report.instructions.per_move
    return out


def register(app: typer.Typer) -> None:
    """Add this module's commands to the spb app."""
    app.command()(sim)
    app.command()(bench)
