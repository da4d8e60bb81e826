"""Commands: play, replay, analyze."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from spbc.frontends.options import complete_rules, integer

if TYPE_CHECKING:  # spbc itself is imported by the command that runs, for a fast start of the others
    from rich.console import Console

    from spbc.frontends.words import Words
    from spbc.play.game import Game
    from spbc.table.session import Session


def register(app: typer.Typer) -> None:
    """Add this module's commands to the spb app."""
    app.command("play")(play)
    app.command("replay")(replay)
    app.command("analyze")(analyze)


# --- play --------------------------------------------------------------------------------


class ScreenLanguage(str, enum.Enum):
    en = "en"
    de = "de"
    zh = "zh"


def play(
    rules: Optional[str] = typer.Option(
        None, "--rules", metavar="RULES", autocompletion=complete_rules,
        help="A shipped ruleset by name, or the path of a rules file (default: base, or the rules a saved game names)."),
    players: Optional[str] = typer.Option(
        None, "--players", metavar="SEATS", help="Comma list of seats: names of people, ai:LEVEL for computers "
        "(default: you,ai:random)."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="INTEGER", parser=integer(),
                                       help="Seed of the deal (default: a random one, told at the end)."),
    record: Optional[Path] = typer.Option(
        None, "--record", metavar="FILE",
        help="Write the game record to this file whenever the game stops (with --load: the record to continue)."),
    load: Optional[Path] = typer.Option(None, "--load", metavar="FILE",
                                        help="Continue a game written by the save command."),
    lang: Optional[ScreenLanguage] = typer.Option(
        None, "--lang", metavar="[en|de|zh]",
        help="The language of the screen's words and names: English, German or Chinese (the move notation stays "
             "English; card names work in every language) [default: en, or the language of a loaded game]."),
) -> None:
    """Play a game in the terminal against computer players or with people at the same keyboard."""
    import sys

    from spbc.frontends.common import fail, load_ruleset
    from spbc.frontends.screen import make_console, render_event
    from spbc.frontends.words import LANGUAGES
    from spbc.table.seats import SeatError, parse_seats, seats_of
    from spbc.table.session import Session, resume_record

    try:
        if load is not None:
            if players is not None or seed is not None:
                fail("--load continues a saved game with its own players and seed; "
                     "leave out --players and --seed", code=2)
            game = _load_game(load, rules)
            try:
                seats = seats_of(game.players)
            except SeatError as error:
                fail(f"{load}: {error}")
        else:
            ruleset = load_ruleset(rules or "base")
            seats = parse_seats(players or "you,ai:random")
            game = ruleset.new_game([seat.name for seat in seats], _seed(seed))
    except (SeatError, ValueError) as error:
        fail(str(error), code=2)
    earlier = []
    if record is not None and load is not None:
        try:
            earlier = resume_record(game, record)
        except ValueError as error:
            fail(str(error))
    if record is not None and not record.parent.is_dir():
        fail(f"cannot write the record to {record}: there is no folder {record.parent}")
    if record is not None and record.is_dir():
        fail(f"cannot write the record to {record}: it is a folder; give a file name such as {record / 'game.spbr'}")
    if record is not None and record.exists() and not record.is_file():  # a device or a pipe is never replaced
        fail(f"cannot write the record to {record}: not a regular file")
    console = make_console()
    at_terminal = sys.stdin.isatty() and sys.stdout.isatty()
    language = lang.value if lang is not None else _saved_language(load)
    words = LANGUAGES[language].for_model(game.ruleset.model)
    session = Session(game, seats, agent_seed=game.seed, interactive=sys.stdin.isatty(),
                      record=record, save_dir=record.parent if record is not None else None,
                      resumed=load is not None, earlier=earlier, words=words.session, language=words.language)
    if at_terminal:
        _play_at_terminal(console, session, words)
        return

    def read(prompt: str) -> str | None:
        if sys.stdin.isatty():  # a person types, but the output goes to a pipe (spb play | tee game.log)
            try:
                return console.input(prompt, markup=False, emoji=False)
            except EOFError:
                return None
        line = sys.stdin.readline()
        if not line:
            return None
        echo = line.rstrip("\n")
        if len(echo) > 200:  # a runaway line is not drawn whole (10 MB took rich 18 s)
            echo = f"{echo[:160]}... ({len(echo)} characters)"
        console.print(prompt + _printable(echo), markup=False, highlight=False)
        return line

    try:
        session.run(read, lambda event: render_event(event, console, words))
    except KeyboardInterrupt:
        _interrupted(session, lambda event: render_event(event, console, words))


def _play_at_terminal(console: Console, session: Session, words: Words) -> None:
    """The game on the terminal's alternate screen (frontends/terminal.py); Ctrl-C ends it with exit 130."""
    from spbc.frontends.terminal import play_at_terminal

    try:
        play_at_terminal(console, session, lambda terminal: _interrupted(session, terminal.lasting.append, exit=False),
                         words)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def _saved_language(load: Path | None) -> str:
    """The screen language a loaded game was saved in, when it is one of the screen's; else English."""
    from spbc.frontends.words import LANGUAGES
    from spbc.play.save import MAX_SAVE_BYTES, saved_language
    from spbc.source.files import FileReadError, read_text

    if load is None:
        return "en"
    try:
        language = saved_language(read_text(load, MAX_SAVE_BYTES, "saved game"))
    except FileReadError:  # read once already by _load_game: gone since, the game is loaded all the same
        return "en"
    return language if language in LANGUAGES else "en"


def _interrupted(session: Session, emit: Callable[[Any], None], exit: bool = True) -> None:
    """Ctrl-C: the record so far and a save to continue from are written, the game is reported
    interrupted (with where the save went); exit 130."""
    from spbc.table.session import Problem

    event, problem = session.stop("interrupted", save=True)
    if problem is not None:
        emit(Problem(problem))
    emit(event)
    if exit:
        raise typer.Exit(130)


def _printable(text: str) -> str:
    """Text with its control characters written as escapes, so typed input cannot drive the terminal."""
    import unicodedata

    return "".join(repr(char)[1:-1] if unicodedata.category(char) == "Cc" else char for char in text)


def _seed(seed: int | None) -> int:
    """The seed given, or a new one from the whole 64 bits the engine deals by.

    Drawn from a small space (it was one of a million), the seed of a game could be
    found from its opening display by dealing every seed, and with it every deck's order.
    """
    if seed is not None:
        return seed
    import secrets

    return secrets.randbits(64)


def _load_game(path: Path, rules: str | None) -> Game:
    """A saved game from a file, with the rules it names unless --rules gives others; exit 1 with the
    reason for an unreadable or bad file, and with how to pass --rules when its rules are not found."""
    from spbc.frontends.common import fail, load_ruleset
    from spbc.play.save import MAX_SAVE_BYTES, GameFileError, saved_rules
    from spbc.source.files import FileReadError, read_text
    from spbc.source.locate import shipped_rules

    try:
        text = read_text(path, MAX_SAVE_BYTES, "saved game")
    except FileReadError as error:
        fail(str(error))
    named = saved_rules(text)
    if rules is None and named is not None and named[1] is not None:
        if not Path(named[1]).is_file():
            fail(f"{path}: the game was played with the rules file {named[1]}, which is not there any more; "
                 "give its rules with --rules FILE")
        rules = named[1]
    elif rules is None and named is not None and shipped_rules(named[0]) is not None:
        rules = named[0]  # a shipped ruleset: saves name it, not its file
    ruleset = load_ruleset(rules or "base")
    try:
        return ruleset.game_from_json(text)
    except GameFileError as error:
        hint = ""
        if named is not None and named[0] != ruleset.name and rules is None:
            hint = f"; it names the rules {named[0]!r}: give them with --rules FILE"
        fail(f"{path}: {error}{hint}")


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

    from spbc.source.files import FileReadError
    from spbc.frontends.common import fail, load_ruleset
    from spbc.play.record import RecordError, read_record, read_record_text

    try:
        text = read_record_text(file)
    except FileReadError as error:
        fail(str(error))
    # rules the record names are loaded by read_record, which points at the header when they cannot be
    ruleset = load_ruleset(rules) if rules else None
    path = str(file)
    try:
        result = read_record(text, ruleset, lenient=lenient, path=path)
    except RecordError as error:
        for problem in [*error.problems, error.problem]:
            typer.echo(problem.describe(path), err=True)
        raise typer.Exit(1) from None
    for problem in result.problems:
        typer.echo(problem.describe(path), err=True)
    game = result.game
    # Until the game is over, secret rubles stay secret: an unfinished record shows what
    # every player could see at the table (points, hand sizes), no final scores.
    secret = not game.is_over and not game.ruleset.model.game.open_rubles
    standings = game.standings()
    # after a problem the record's game goes on beyond what was replayed: say whose standings these are
    part = "the replayed part only (see the problems above): " if result.problems else ""
    if as_json:
        typer.echo(json.dumps({
            "file": path, "ruleset": game.ruleset.name, "moves": len(result.moves), "over": game.is_over,
            "complete": not result.problems,  # false: the standings are of the replayed part only
            "round": game.round,
            "standings": None if secret else [
                {"rank": s.rank, "seat": s.seat + 1, "name": s.name, "final": s.final, "rubles": s.rubles}
                for s in standings],
            "points": [{"seat": seat + 1, "name": name, "points": game.points(seat),
                        "hand_size": len(game.hand(seat))} for seat, name in enumerate(game.players)],
            "problems": [{"line": p.line, "column": p.column, "message": p.message} for p in result.problems],
        }, indent=1, ensure_ascii=False))
    elif secret:
        typer.echo(f"{path}: {part}{len(result.moves)} moves, not over ({game.context()}); "
                   "points so far (rubles stay secret until the end)")
        width = max(len(name) for name in game.players)
        for seat, name in enumerate(game.players):
            typer.echo(f"  {name:<{width}}  {game.points(seat):>4} points  {len(game.hand(seat))} cards in hand")
    else:
        state = (f"game over after round {game.round}" if game.is_over
                 else f"not over ({game.context()}); standings as if it ended now")
        typer.echo(f"{path}: {part}{len(result.moves)} moves, {state}")
        width = max(len(s.name) for s in standings)
        for s in standings:
            typer.echo(f"  {s.rank}. {s.name:<{width}}  {s.final:>4} points  {s.rubles:>3} rubles")
    if result.problems:
        raise typer.Exit(1)


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
    seed: int = typer.Option(0, "--seed", metavar="INTEGER", parser=integer(), help="The search's own seed."),
    rules: Optional[str] = typer.Option(
        None, "--rules", metavar="RULES", autocompletion=complete_rules,
        help="A shipped ruleset by name, or the path of a rules file [default: the rules the record names]."),
    output: Optional[Path] = typer.Option(
        None, "--output", metavar="FILE",
        help="Write the record with a comment on each marked move (the better move, both win chances)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary and the marked moves as JSON."),
) -> None:
    """Replay a game record and mark each move where ai:hard prefers another by a clear margin.

    Each move is judged from what its player could know at that moment (their view of the game,
    never the others' hands, the deck order or secret rubles). A forced move (the only legal one) is
    counted but not judged. Under one --seed and a budget in iterations (hard@3000it) the analysis is
    the same on every run.
    """
    from spbc.ai.budget import Level
    from spbc.ai.analyze import judge, marks as marks_of, summarize
    from spbc.frontends.common import fail, load_ruleset, progress_bar
    from spbc.play.record import RecordError, read_record, read_record_text
    from spbc.source.files import FileReadError

    try:
        searches = Level.parse(level).searches
    except ValueError as error:
        fail(str(error), code=2)
    if not searches:
        fail(f"--level {level}: the judge is a search level, hard or medium (hard@2s)", code=2)
    try:
        text = read_record_text(file)
    except FileReadError as error:
        fail(str(error))
    path = str(file)
    ruleset = load_ruleset(rules) if rules else None
    try:
        replay = read_record(text, ruleset, path=path)
    except RecordError as error:
        for found in [*error.problems, error.problem]:
            typer.echo(found.describe(path), err=True)
        raise typer.Exit(1) from None
    players = list(replay.game.players)
    if seat is not None and seat not in players:
        fail(f"--seat {seat!r}: no player of {path} is named so; the players are {', '.join(players)}", code=2)
    if replay.game.ruleset.engine.c_api() is None:
        fail(f"analyze searches on the compiled engine; the rules of {path} run on the Python twin")
    seats = {players.index(seat)} if seat is not None else set(range(len(players)))
    start = replay.game.ruleset.new_game(players, replay.game.seed)
    with progress_bar(f"{len(replay.moves)} moves", len(replay.moves)) as advance:
        judgements = list(judge(start, replay.moves, seats, level, seed, progress=advance))
    marks, summaries = marks_of(judgements, margin), summarize(judgements, players, seats, margin)
    if output is not None:
        _write_annotated(output, text, replay.lines, marks, summaries, players, _heading(level, seed, margin))
    _print_analysis(path, level, seed, margin, marks, summaries, as_json)


def _heading(level: str, seed: int, margin: float) -> str:
    return (f"judged by ai:{level.removeprefix('ai:')} (seed {seed}); a move is marked when the best move's "
            f"win chance is at least {margin * 100:g} percentage points higher")


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


def _print_analysis(path: str, level: str, seed: int, margin: float, marks: list[Any], summaries: list[Any],
                    as_json: bool) -> None:
    import json

    from spbc.ai.analyze import pp, summary_line

    if as_json:
        typer.echo(json.dumps({"file": path, "level": level, "seed": seed, "margin": margin,
                               "seats": [summary.name for summary in summaries],
                               "players": [dataclasses.asdict(summary) for summary in summaries],
                               "marks": [dataclasses.asdict(mark) for mark in marks]}, indent=1, ensure_ascii=False))
        return
    typer.echo(f"{path}: {_heading(level, seed, margin)}")
    for summary in summaries:
        typer.echo(f"  {summary_line(summary)}")
    for mark in marks:
        typer.echo(f"  move {mark.number:>3}  {mark.context}: {mark.size}, {pp(mark.best_win - mark.played_win)} lost")
        typer.echo(f"           played  {mark.played:<40} win chance {mark.played_win:4.0%}")
        typer.echo(f"           better  {mark.best:<40} win chance {mark.best_win:4.0%}")
