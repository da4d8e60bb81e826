"""Game records: a whole game as plain text, in the spirit of PGN (files end in ``.spbr``).

::

    [Ruleset "base"]
    [RulesDigest "3f2a...e9"]
    [Seed "7"]
    [Player1 "Anna"]
    [Player2 "Boris"]
    [Date "2026-11-29"]
    [Result "Anna 58, Boris 47"]

    # round 1, Worker phase
    Anna: buy upper Lumberjack
    Boris: pass

Headers come first, one per line, with ``\\"`` and ``\\\\`` escaping a quote and a
backslash. Each move line names the player and gives the move in the notation of
:mod:`spbc.play.notation`; lines starting with ``#`` (the round and phase markers the
writer puts in) and blank lines are comments, and a move line may end in one
(``Anna: pass  # a comment``: spb analyze --output writes its notes so). ``Result`` lists the final points in
seat order and is written once the game is over; a reader checks it against the
replay. The seed and the moves give back the whole game, deck order included.

A record written before the game ends may withhold the seed (``[Seed "?"]``): it would
tell every player the order of every deck. Such a record is read back with the seed
given from elsewhere (the saved game it belongs to, see :func:`read_record`).

:mod:`spbc.play.recorder` writes records (:class:`RecordWriter`, :func:`write_record`); this module
reads them back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from spbc.lang.load import shipped_names
from spbc.play.game import Game, Ruleset, load_rules
from spbc.source.diagnostics import RulesError, did_you_mean
from spbc.source.files import read_text
from spbc.play.moves import MalformedMoveError, Move, MoveError
from spbc.play.names import names_problem
from spbc.play.notation import parse_move
# re-exported: records are written (spbc.play.recorder) and read through this module
from spbc.play.recorder import WITHHELD as WITHHELD, RecordWriter as RecordWriter
from spbc.play.recorder import format_result as format_result, write_record as write_record


RECORD_EXTENSION = ".spbr"
#: A record is a few kilobytes of text; anything larger is refused unread.
MAX_RECORD_BYTES = 10_000_000
_HEADER = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_PLAYER = re.compile(r"Player([1-9][0-9]*)$")


def _unquote(value: str) -> str:
    """A header's value as written between its quotes, with ``\\"`` and ``\\\\`` read back."""
    return re.sub(r"\\(.)", r"\1", value)


@dataclass(frozen=True)
class RecordProblem:
    """One thing wrong with a record, at a 1-based line and column."""

    line: int
    column: int
    message: str

    def describe(self, path: str) -> str:
        """``path:line:col: error: message``, as the command line prints it."""
        return f"{path}:{self.line}:{self.column}: error: {self.message}"


class RecordError(ValueError):
    """A record that cannot be replayed (strict mode: its first problem).

    ``path``, ``line``, ``column`` and ``reason`` locate and state the problem;
    ``problems`` holds those found before it (lenient mode, fatal problems only).
    """

    def __init__(self, path: str, problem: RecordProblem, problems: Sequence[RecordProblem] = ()) -> None:
        self.path = path
        self.line = problem.line
        self.column = problem.column
        self.reason = problem.message
        self.problem = problem
        self.problems = list(problems)
        super().__init__(f"{path}:{problem.line}:{problem.column}: {problem.message}")


@dataclass
class Replay:
    """A record read back: the game after its good moves, and what was wrong with the rest."""

    game: Game
    headers: dict[str, str]
    moves: list[Move] = field(default_factory=list)  # the moves replayed, in order
    lines: list[int] = field(default_factory=list)  # the line of each of them in the record, from 1
    problems: list[RecordProblem] = field(default_factory=list)


# --- reading -----------------------------------------------------------------------------


class _Reader:
    """Replays a record line by line; in strict mode the first problem stops it."""

    def __init__(self, text: str, path: str, lenient: bool) -> None:
        self.lines = text.splitlines()
        self.path = path
        self.lenient = lenient
        self.problems: list[RecordProblem] = []
        self.headers: dict[str, str] = {}
        self.header_lines: dict[str, int] = {}
        self.first_move = len(self.lines)  # index of the first line after the headers
        self.out_of_step = False  # a move was left out, so later lines do not fit the game
        self.move_lines: list[int] = []  # the line of each move played

    def problem(self, line: int, column: int, message: str) -> None:
        """A problem the reader can step over in lenient mode."""
        found = RecordProblem(line, column, message)
        if not self.lenient:
            raise RecordError(self.path, found)
        self.problems.append(found)

    def fatal(self, line: int, column: int, message: str) -> RecordError:
        """A problem that leaves nothing to replay, in either mode."""
        return RecordError(self.path, RecordProblem(line, column, message), self.problems)

    def is_move(self, line: str, names: list[str]) -> bool:
        """Whether a stripped line is a move of one of the players (whose name may start with # or [)."""
        return any(line.startswith(name + ":") for name in names)

    def names_so_far(self) -> list[str]:
        """The player names of the headers read so far."""
        names = [value for name, value in self.headers.items() if _PLAYER.match(name)]
        if "Players" in self.headers:
            names += [name.strip() for name in self.headers["Players"].split(",")]
        return names

    def read_headers(self) -> None:
        for index, raw in enumerate(self.lines):
            line = raw.strip()
            if line and self.is_move(line, self.names_so_far()) and not _HEADER.match(line):
                self.first_move = index
                return
            if not line or line.startswith("#"):
                continue
            if not line.startswith("["):
                self.first_move = index
                return
            match = _HEADER.match(line)
            column = len(raw) - len(raw.lstrip()) + 1
            if match is None:
                self.problem(index + 1, column, 'a header reads [Name "value"]')
                continue
            name, value = match.group(1), _unquote(match.group(2))
            if name in self.headers:
                self.problem(index + 1, column, f"a second {name} header")
                continue
            self.headers[name] = value
            self.header_lines[name] = index + 1

    def where(self, name: str) -> tuple[int, int]:
        """Line and column of a header's value (1, 1 when the header is missing)."""
        line = self.header_lines.get(name)
        if line is None:
            return 1, 1
        return line, self.lines[line - 1].index('"') + 1

    def players(self) -> list[str]:
        seats = {int(m.group(1)): value for name, value in self.headers.items() if (m := _PLAYER.match(name))}
        if seats:
            if sorted(seats) != list(range(1, len(seats) + 1)):
                where = self.where(f"Player{max(seats)}")
                raise self.fatal(*where, "the Player headers must number the seats 1, 2, 3... without gaps")
            names = [seats[seat] for seat in sorted(seats)]
            self.check_names(names, [f"Player{seat}" for seat in sorted(seats)])
            return names
        if "Players" in self.headers:
            names = [name.strip() for name in self.headers["Players"].split(",")]
            self.check_names(names, ["Players"] * len(names))
            return names
        raise self.fatal(1, 1, "no players: the record needs a Player1, Player2... header for each seat")

    def check_names(self, names: list[str], headers: list[str]) -> None:
        """Names the moves could not be told apart by (the same twice, empty) end the replay at their header."""

        for seat in range(len(names)):
            problem = names_problem(names[:seat + 1])
            if problem:
                raise self.fatal(*self.where(headers[seat]), f"bad player name: {problem}")

    def ruleset(self, given: Ruleset | None) -> Ruleset:
        """The given ruleset, or the one the Ruleset header names; refused if the digests differ."""
        ruleset = given if given is not None else self.load(self.headers.get("Ruleset"))
        digest = self.headers.get("RulesDigest")
        if digest is None:
            self.problem(1, 1, "no RulesDigest header: cannot tell which version of the rules this record used")
        elif digest != ruleset.model.digest:
            name = self.headers.get("Ruleset", "?")
            hint = "" if given is not None else (
                f"; a record of a rules file of your own names its ruleset ({name}), not the file: "
                "give the file (spb replay --rules FILE)")
            raise self.fatal(*self.where("RulesDigest"),
                             f"this record was played with other rules ({name}, digest {digest[:12]}); "
                             f"these are {ruleset.name}, digest {ruleset.model.digest[:12]}{hint}")
        return ruleset

    def load(self, name: str | None) -> Ruleset:

        if name is None:
            raise self.fatal(1, 1, "no Ruleset header: the record does not say which rules it used")
        shipped = shipped_names()
        if name.replace("-", "_") not in {known.replace("-", "_") for known in shipped}:
            close = did_you_mean(name, shipped)
            raise self.fatal(*self.where("Ruleset"), f"the record was played with the rules {name!r}, which are not "
                             f"shipped with spbc{f' ({close})' if close else ''}: a record of a rules file of your "
                             "own names its ruleset, not the file; give the file (spb replay --rules FILE)")
        try:
            return load_rules(name)
        except (RulesError, OSError) as error:
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise self.fatal(*self.where("Ruleset"), f"cannot load the rules {name!r}: {first}") from None

    def new_game(self, ruleset: Ruleset, seed_given: int | None) -> Game:
        players = self.players()
        seed_text = self.headers.get("Seed")
        if seed_text is None:
            raise self.fatal(1, 1, "no Seed header: the deck order cannot be known")
        if seed_text.strip() == WITHHELD:
            if seed_given is None:
                raise self.fatal(*self.where("Seed"), "the seed is withheld: the record was written before the "
                                 "game ended, so it tells the moves so far but cannot be replayed without "
                                 "the game it belongs to (spb play --load SAVE --record FILE continues it)")
            seed_text = str(seed_given)
        # digits as the writer writes them: int() would also read "5_0" as 50 and "٥" as 5
        if not re.fullmatch(r"-?[0-9]{1,1000}", seed_text):
            shown = seed_text if len(seed_text) <= 40 else seed_text[:30] + "..."
            raise self.fatal(*self.where("Seed"), f"the seed must be a whole number, not {shown!r}: "
                             "a minus sign at most, then up to 1000 digits 0-9")
        seed = int(seed_text)
        if seed_given is not None and seed != seed_given:
            raise self.fatal(*self.where("Seed"), "the record's seed is not the seed of the game it is to continue")
        try:
            return ruleset.new_game(players, seed)
        except ValueError as error:
            raise self.fatal(*self.where("Player1"), str(error)) from None

    def replay(self, game: Game, moves: list[Move]) -> None:
        """Play every move line; a bad one is skipped and the replay goes on from the last good state.

        Once a move has been skipped, the lines after it no longer fit the game: their
        turns and moves fail because of that one fault, so they are summed up in one
        problem (at the first of them) instead of one each. Lines that do not read as
        moves at all are still reported one by one.
        """
        players = sorted(set(game.players), key=len, reverse=True)
        skipped: int | None = None  # the line of the first move left out
        follow_ons: list[RecordProblem] = []
        for index in range(self.first_move, len(self.lines)):
            raw = self.lines[index]
            line = raw.strip()
            move = self.is_move(line, players)
            if not line or (line.startswith("#") and not move):
                continue
            number, indent = index + 1, len(raw) - len(raw.lstrip()) + 1
            if line.startswith("[") and not move:
                self.problem(number, indent, "a header must come before the moves")
                continue
            name = next((p for p in players if line.startswith(p + ":")), None)
            if name is None:
                names = ", ".join(game.players)
                self.problem(number, indent, f"expected 'player: move' with a player of this game ({names})")
                continue
            body = raw[indent - 1 + len(name) + 1:]
            column = indent + len(name) + 1 + len(body) - len(body.lstrip())
            fault = self.play_line(game, name, body.split("#", 1)[0].strip(), moves)
            if fault is None:
                self.move_lines.append(number)
                continue
            message, malformed = fault
            found = RecordProblem(number, indent if message.startswith("it is") else column, message)
            if skipped is not None and not malformed:
                follow_ons.append(found)
                continue
            self.problem(found.line, found.column, found.message)
            skipped = number if skipped is None else skipped
        if follow_ons:
            first = follow_ons[0]
            count = f"{len(follow_ons)} later move" + ("s" if len(follow_ons) > 1 else "")
            self.problem(first.line, first.column,
                         f"{count} not replayed: the game is out of step with the record after line "
                         f"{skipped}; the first: {first.message}")
        self.out_of_step = skipped is not None

    def play_line(self, game: Game, name: str, text: str, moves: list[Move]) -> tuple[str, bool] | None:
        """Play one move line: None if it was played, else the reason and whether it is malformed."""
        to_move = game.players[game.current_player]
        if not game.is_over and name != to_move:
            return f"it is {to_move}'s turn, not {name}'s ({game.context()})", False
        try:  # the reader of a record is no player: it is told none of their secrets
            move = parse_move(text, game, spectator=True)
        except MoveError as error:
            return str(error), isinstance(error, MalformedMoveError)
        game.play(move)
        moves.append(move)
        return None

    def check_result(self, game: Game) -> None:
        """The Result header against the replay (not checked once moves were left out)."""
        said = self.headers.get("Result")
        if said is None or said.strip() == "*" or self.out_of_step:
            return
        if not game.is_over:
            self.problem(*self.where("Result"),
                         f"the record gives a result but its moves end before the game is over ({game.context()})")
            return
        replayed = format_result(game)
        if " ".join(said.split()) != replayed:
            self.problem(*self.where("Result"), f"the result {said!r} does not match the replay: {replayed!r}")


def read_record(text: str, ruleset: Ruleset | None = None, lenient: bool = False,
                path: str = "<record>", seed: int | None = None) -> Replay:
    """Replay a record: the game after its moves, the moves and any problems.

    ruleset None loads the rules the Ruleset header names. Strict mode raises
    RecordError (``path:line:col``, the reason) at the first problem; lenient mode
    notes every problem in ``Replay.problems``, skips the bad line and goes on from
    the last good state. Both modes raise RecordError when nothing can be replayed:
    no seed or players, rules that cannot be loaded, or rules whose digest differs
    from the record's.

    ``seed`` is the seed of the game the record belongs to: it replays a record that
    withholds its seed (``[Seed "?"]``), and a record whose seed differs is refused.
    """
    reader = _Reader(text, path, lenient)
    reader.read_headers()
    rules = reader.ruleset(ruleset)
    game = reader.new_game(rules, seed)
    replay = Replay(game, reader.headers)
    reader.replay(game, replay.moves)
    reader.check_result(game)
    replay.lines = reader.move_lines
    replay.problems = sorted(reader.problems, key=lambda p: (p.line, p.column))
    return replay


def read_record_text(path: Path) -> str:
    """The text of a record file, read with the limits of :func:`spbc.source.files.read_text`.

    Raises :class:`spbc.source.files.FileReadError` for a file that cannot be read: missing,
    no regular file, larger than MAX_RECORD_BYTES, not UTF-8.
    """
    return read_text(path, MAX_RECORD_BYTES, "game record")


def record_ruleset(text: str) -> str | None:
    """The value of a record's Ruleset header, or None: which rules to load for it."""
    for raw in text.splitlines():
        match = _HEADER.match(raw.strip())
        if match and match.group(1) == "Ruleset":
            return _unquote(match.group(2))
    return None
