"""Command: play (the commands that read a game record back, replay and analyze, are in record_cmds)."""

from __future__ import annotations

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
    from spbc.play.moves import Move
    from spbc.table.seats import Seat
    from spbc.table.session import Session


def register(app: typer.Typer) -> None:
    """Add this module's commands to the spb app."""
    app.command("play")(play)


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

    from spbc.frontends.screen import make_console, render_event
    from spbc.frontends.words import LANGUAGES
    from spbc.table.session import Session

    game, seats = _start(rules, players, seed, load)
    earlier = _earlier_moves(game, record, load)
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
    try:
        session.run(_line_reader(console), lambda event: render_event(event, console, words))
    except KeyboardInterrupt:
        _interrupted(session, lambda event: render_event(event, console, words))


def _start(rules: str | None, players: str | None, seed: int | None, load: Path | None) -> tuple[Game, list[Seat]]:
    """The game to play and its seats: a saved one continued, or a new deal; exit 2 for bad options."""
    from spbc.frontends.common import fail, load_ruleset
    from spbc.table.seats import SeatError, parse_seats, seats_of

    try:
        if load is not None:
            if players is not None or seed is not None:
                fail("--load continues a saved game with its own players and seed; "
                     "leave out --players and --seed", code=2)
            game = _load_game(load, rules)
            try:
                return game, list(seats_of(game.players))
            except SeatError as error:
                fail(f"{load}: {error}")
        ruleset = load_ruleset(rules or "base")
        seats = parse_seats(players or "you,ai:random")
        return ruleset.new_game([seat.name for seat in seats], deal_seed(seed)), list(seats)
    except (SeatError, ValueError) as error:
        fail(str(error), code=2)


def _earlier_moves(game: Game, record: Path | None, load: Path | None) -> list[Move]:
    """The moves of the record a loaded game continues (none for a new one); exit 1 for a record that
    cannot be written where --record points."""
    from spbc.frontends.common import fail
    from spbc.table.session import resume_record

    earlier: list[Move] = []
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
    return earlier


def _line_reader(console: Console) -> Callable[[str], str | None]:
    """How the session reads a line when the output is no terminal: from a person typing (the prompt
    asked on the console) or from a pipe (the line echoed after the prompt, a runaway one cut short)."""
    import sys

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

    return read


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


def deal_seed(seed: int | None) -> int:
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
