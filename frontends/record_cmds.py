"""Commands: replay and analyze, which read a game record back (spbc.play.record)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from spbc.frontends.options import complete_rules, integer, number

if TYPE_CHECKING:  # spbc itself is imported by the command that runs, for a fast start of the others
    from spbc.play.game import Game
    from spbc.play.record import Replay


def register(app: typer.Typer) -> None:
    """Add this module's commands to the spb app."""
    app.command("replay")(replay)
    app.command("analyze")(analyze)


def _read(file: Path, rules: str | None, lenient: bool = False) -> tuple[str, Replay]:
    """The text of a record file and its replay (spbc.play.record.read_record); exit 1 with the reason
    for a file that cannot be read, and with every problem (path:line:col) when nothing can be replayed."""
    from spbc.frontends.common import fail, load_ruleset
    from spbc.play.record import RecordError, read_record, read_record_text
    from spbc.source.files import FileReadError

    try:
        text = read_record_text(file)
    except FileReadError as error:
        fail(str(error))
    # rules the record names are loaded by read_record, which points at the header when they cannot be
    ruleset = load_ruleset(rules) if rules else None
    path = str(file)
    try:
        return text, read_record(text, ruleset, lenient=lenient, path=path)
    except RecordError as error:
        for problem in [*error.problems, error.problem]:
            typer.echo(problem.describe(path), err=True)
        raise typer.Exit(1) from None


# --- replay ------------------------------------------------------------------------------


def replay(
    file: Path = typer.Argument(..., metavar="FILE", help="A game record (.spbr), as spb play --record or spb sim --records write."),
    as_json: bool = typer.Option(False, "--json", help="Print the standings and the number of moves as JSON."),
    lenient: bool = typer.Option(False, "--lenient", help="Report every problem, skip bad moves, replay the rest."),
    rules: Optional[str] = typer.Option(
        None, "--rules", metavar="RULES", autocompletion=complete_rules,
        help="A shipped ruleset by name, or the path of a rules file [default: the rules the record names]."),
) -> None:
    """Replay a game record, check every move and the result, and print the standings.

    Exit 1 with path:line:col: error: ... for a record with a bad move or header
    (with --lenient: after every problem and the standings of what could be replayed).
    """
    import json

    path = str(file)
    _, result = _read(file, rules, lenient)
    for problem in result.problems:
        typer.echo(problem.describe(path), err=True)
    if as_json:
        typer.echo(json.dumps(_replay_json(result, path), indent=1, ensure_ascii=False))
    else:
        _echo_replay(result, path)
    if result.problems:
        raise typer.Exit(1)


def _secret(game: Game) -> bool:
    """Until the game is over, secret rubles stay secret: an unfinished record shows what every player
    could see at the table (points, hand sizes), no final scores."""
    return not game.is_over and not game.ruleset.model.game.open_rubles


def _replay_json(result: Replay, path: str) -> dict[str, Any]:
    """What spb replay --json prints: the standings (None while rubles are secret), points and problems."""
    game = result.game
    return {
        "file": path, "ruleset": game.ruleset.name, "moves": len(result.moves), "over": game.is_over,
        "complete": not result.problems,  # false: the standings are of the replayed part only
        "round": game.round,
        "standings": None if _secret(game) else [
            {"rank": s.rank, "seat": s.seat + 1, "name": s.name, "final": s.final, "rubles": s.rubles}
            for s in game.standings()],
        "points": [{"seat": seat + 1, "name": name, "points": game.points(seat),
                    "hand_size": len(game.hand(seat))} for seat, name in enumerate(game.players)],
        "problems": [{"line": p.line, "column": p.column, "message": p.message} for p in result.problems],
    }


def _echo_replay(result: Replay, path: str) -> None:
    """Print how far a replay got and its standings (points and hand sizes only, while rubles are secret)."""
    game = result.game
    # after a problem the record's game goes on beyond what was replayed: say whose standings these are
    part = "the replayed part only (see the problems above): " if result.problems else ""
    if _secret(game):
        typer.echo(f"{path}: {part}{len(result.moves)} moves, not over ({game.context()}); "
                   "points so far (rubles stay secret until the end)")
        width = max(len(name) for name in game.players)
        for seat, name in enumerate(game.players):
            typer.echo(f"  {name:<{width}}  {game.points(seat):>4} points  {len(game.hand(seat))} cards in hand")
        return
    standings = game.standings()
    state = (f"game over after round {game.round}" if game.is_over
             else f"not over ({game.context()}); standings as if it ended now")
    typer.echo(f"{path}: {part}{len(result.moves)} moves, {state}")
    width = max(len(s.name) for s in standings)
    for s in standings:
        typer.echo(f"  {s.rank}. {s.name:<{width}}  {s.final:>4} points  {s.rubles:>3} rubles")


# --- analyze -----------------------------------------------------------------------------


def _margin(value: object) -> float:
    """--margin as a share (0.10) or in percentage points (10pp), above 0 and at most 1 (100 pp)."""
    text = str(value).strip()
    points = text.lower().endswith("pp")
    try:
        margin = float(text[:-2] if points else text) / (100 if points else 1)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a valid float (or a number of percentage points, 10pp).") from None
    if not 0 < margin <= 1:
        raise typer.BadParameter(f"{text}: a difference of win chances above 0 and at most 1 "
                                 "(0.10 or 10pp is 10 percentage points)")
    return margin


def analyze(
    file: Path = typer.Argument(..., metavar="RECORD", help="A finished game record (.spbr)."),
    seat: Optional[str] = typer.Option(None, "--seat", metavar="NAME",
                                       help="The player whose moves to analyse [default: every player]."),
    level: str = typer.Option("hard", "--level", metavar="LEVEL",
                              help="The search that judges, with its budget: hard, hard@2s, hard@3000it."),
    margin: float = typer.Option(0.10, "--margin", metavar="NUMBER", parser=_margin,
                                 help="Mark a move when the best one's win chance is this much higher, in "
                                      "percentage points: 0.10 or 10pp."),
    points: float = typer.Option(5.0, "--points", metavar="NUMBER", parser=number(0.01),
                                 help="Mark a move when the best one is expected to end this many points better."),
    playouts: int = typer.Option(1000, "--playouts", metavar="INTEGER", parser=integer(10),
                                 help="The deals and playouts each weighed move gets (the same for all of a position)."),
    seed: int = typer.Option(0, "--seed", metavar="INTEGER", parser=integer(), help="The analysis's own seed."),
    rules: Optional[str] = typer.Option(
        None, "--rules", metavar="RULES", autocompletion=complete_rules,
        help="A shipped ruleset by name, or the path of a rules file [default: the rules the record names]."),
    output: Optional[Path] = typer.Option(
        None, "--output", metavar="FILE",
        help="Write the record with a comment on each marked move (the better move, both win chances)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary and the marked moves as JSON."),
) -> None:
    """Replay a game record and mark each move that lost win chance or points against the best.

    Each decision is searched by --level, then the move played and the search's best moves are weighed
    on the same --playouts deals and playouts; a move is marked (inaccuracy, mistake, blunder: 1, 2, 3
    times the margin) when it lost --margin of win chance or --points expected points, beyond its own
    noise. Each move is judged from what its player could know at that moment (their view of the game,
    never the others' hands, the deck order or secret rubles). A forced move (the only legal one) is
    counted but not judged. Under one --seed and a budget in iterations (hard@3000it) the analysis is
    the same on every run.
    """
    from spbc.ai.analyze import judge, marks as marks_of, summarize
    from spbc.ai.budget import SEARCH_LEVELS, Level
    from spbc.frontends.common import fail, progress_bar

    try:
        searches = Level.parse(level).searches
    except ValueError as error:
        fail(str(error), code=2)
    if not searches:
        fail(f"--level {level}: the judge is a search level, one of {', '.join(SEARCH_LEVELS)} (hard@5000it)", code=2)
    path = str(file)
    text, replay = _read(file, rules)
    players = list(replay.game.players)
    if seat is not None and seat not in players:
        fail(f"--seat {seat!r}: no player of {path} is named so; the players are {', '.join(players)}", code=2)
    if replay.game.ruleset.engine.c_api() is None:
        fail(f"analyze searches on the compiled engine; the rules of {path} run on the Python twin")
    seats = {players.index(seat)} if seat is not None else set(range(len(players)))
    start = replay.game.ruleset.new_game(players, replay.game.seed)
    with progress_bar(f"{len(replay.moves)} moves", len(replay.moves)) as advance:
        judgements = list(judge(start, replay.moves, seats, level, seed, progress=advance, repeats=playouts,
                                margins=(margin, points)))
    marks, summaries = marks_of(judgements, margin, points), summarize(judgements, players, seats, margin, points)
    heading = _heading(level, seed, margin, points, playouts)
    if output is not None:
        _write_annotated(output, text, replay.lines, marks, summaries, players, heading)
    _print_analysis(path, heading, {"level": level, "seed": seed, "margin": margin, "points": points,
                                    "playouts": playouts}, marks, summaries, as_json)


def _heading(level: str, seed: int, margin: float, points: float, playouts: int) -> str:
    return (f"judged by ai:{level.removeprefix('ai:')} (seed {seed}, {playouts} playouts a move); a move is "
            f"marked when the best move's win chance is at least {margin * 100:g} percentage points higher or "
            f"it is expected to end at least {points:g} points better, beyond the noise")


def _write_annotated(output: Path, text: str, lines: list[int], marks: list[Any], summaries: list[Any],
                     players: list[str], heading: str) -> None:
    from spbc.ai.analyze import annotated_record, summary_line
    from spbc.frontends.common import fail
    from spbc.source.files import write_text_atomic

    annotated = annotated_record(text, lines, marks, [heading, *map(summary_line, summaries)], players)
    try:
        write_text_atomic(output, annotated)
    except OSError as error:
        fail(f"cannot write the annotated record to {output}: {error.strerror or error}")


def _print_analysis(path: str, heading: str, settings: dict[str, Any], marks: list[Any], summaries: list[Any],
                    as_json: bool) -> None:
    import json

    from spbc.ai.analyze import mark_comment, summary_line

    if as_json:
        typer.echo(json.dumps({"file": path, **settings,
                               "seats": [summary.name for summary in summaries],
                               "players": [dataclasses.asdict(summary) for summary in summaries],
                               "marks": [dataclasses.asdict(mark) for mark in marks]}, indent=1, ensure_ascii=False))
        return
    typer.echo(f"{path}: {heading}")
    for summary in summaries:
        typer.echo(f"  {summary_line(summary)}")
    for mark in marks:
        typer.echo(f"  move {mark.number:>3}  {mark.context}: {mark_comment(mark).split(': better')[0]}")
        typer.echo(f"           played  {mark.played:<40} win chance {mark.played_win:4.0%}  points {mark.played_points:+6.1f}")
        typer.echo(f"           better  {mark.best:<40} win chance {mark.best_win:4.0%}  points {mark.best_points:+6.1f}")
