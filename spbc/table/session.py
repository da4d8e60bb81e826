"""A game at the terminal as library code: seats, turns, commands and undo, and no printing.

A :class:`Session` drives one game between human and computer seats. It reads a
line of input through a callback and reports everything that happens as events
(:class:`Played`, :class:`Turn`, :class:`Problem`...) to another callback; the
frontend renders them. What a human sees of the game is a :class:`Screen`, built
from the view of the seat on turn (:meth:`spbc.play.game.Game.view`) plus the prices
that seat would pay, so a screen never holds another player's hand or secret rubles.

>>> session = Session(game, parse_seats("Anna,ai:random"), agent_seed=7)
>>> session.run(read=lambda prompt: "pass", emit=print)  # doctest: +SKIP
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from spbc.source.files import write_text_atomic
from spbc.play.game import Game
from spbc.play.moves import PASS, Move, MoveError
from spbc.play.notation import VERBS
from spbc.play.record import RecordWriter
from spbc.play.save import write_game_file
from spbc.play.scoring import final_scores
from spbc.play.words import vocabulary_of
from spbc.reference.forms import describe_notation
from spbc.table.events import (  # re-exported: the session's events are part of its interface
    BoardShown,
    Event,
    Finished,
    Handover,
    LastRound,
    LogShown,
    MoveList,
    NewPhase,
    Note,
    PhaseScored,
    Played,
    PointsBought,
    Problem,
    RoundEnded,
    Started,
    Stopped,
    TookBack,
    Turn,
    phase_name,
)
from spbc.table.phrases import SESSION_WORDS, hint_text
from spbc.table.saving import new_save_path, resume_record, taken_by_another
from spbc.table.screen import Screen
from spbc.table.seats import Seat
from spbc.table.table import History, Table, UndoBlock, UndoRefused

__all__ = [
    "COMMANDS", "BoardShown", "Event", "Finished", "Handover", "LastRound", "LogShown", "MoveList", "NewPhase",
    "Note", "PhaseScored", "Played", "PointsBought", "Problem", "RoundEnded", "SESSION_WORDS", "Session", "Started",
    "Stopped", "TookBack", "Turn", "help_text", "resume_record",
]


# --- the session -------------------------------------------------------------------------


class Session:
    """One game at the terminal. Create it with the seats, then call :meth:`run`.

    ``interactive`` says a person types at a terminal: ``quit`` then asks for
    confirmation. ``record`` is a file for the game record, written whenever the game
    stops (at its end, on ``quit``, at the end of input, by :meth:`stop` when the frontend
    is interrupted) and by the ``save`` command; until the game is over it withholds the
    seed. ``earlier`` are the moves that led to a loaded game (see :func:`resume_record`).
    """

    def __init__(self, game: Game, seats: Sequence[Seat], *, agent_seed: int,
                 interactive: bool = False, record: Path | None = None,
                 save_dir: Path | None = None, resumed: bool = False,
                 earlier: Sequence[Move] = (), hint_level: str = "hard",
                 words: Mapping[str, str] = SESSION_WORDS, language: str = "en") -> None:
        self.table = Table(game, seats, agent_seed=agent_seed, earlier=len(earlier), undo=True)
        self.seats = self.table.seats
        self.interactive = interactive
        self.words = words  # the session's own phrases (prompts, answers to commands), by SESSION_WORDS' keys
        self.language = language  # the language of the help's notation meanings, when the ruleset speaks it
        self.hint_level = hint_level  # the level the hint command asks
        self.resumed = resumed
        self.record = record
        self.save_dir = save_dir or Path(".")
        self.earlier = list(earlier)

    @property
    def game(self) -> Game:
        """The game as it stands (undo puts an earlier state in its place)."""
        return self.table.game

    @property
    def history(self) -> History:
        return self.table.history

    @property
    def log(self) -> list[Event]:
        """What the whole table saw happen here, for the log command."""
        return self.table.log

    @property
    def shared(self) -> bool:
        """Whether several people play at this terminal (each must see only their own screen)."""
        return len(self.table.people) > 1

    # --- reading -------------------------------------------------------------------------

    def screen(self, seat: int) -> Screen:
        """What seat sees now: its view of the game, its prices, its moves, the others' moves."""
        return self.table.view(seat)

    def legal_moves(self) -> tuple[tuple[str, int | None], ...]:
        """The legal moves of the seat on turn in notation, with what each costs."""
        return self.table.legal(self.game.current_player)

    def verbs(self) -> list[str]:
        """Every word a move may start with in these rules: the notation's verbs, short forms and ability verbs."""
        return [*VERBS, *vocabulary_of(self.game.ruleset).abilities]

    def command_of(self, word: str) -> str | None:
        """The command a typed word means, or None: a command's name, ``?`` for help, or a beginning
        of one command's name that begins no verb of the notation (``q``, ``mo``); ``h`` is help, as it was
        before there was hint."""
        word = word.lower()
        if word in COMMANDS or word == "quit":
            return word
        if word == "?":
            return "help"
        if any(verb.startswith(word) for verb in self.verbs()):
            return None
        fitting = [name for name in (*COMMANDS, "quit") if name.startswith(word)]
        return fitting[0] if len(fitting) == 1 or fitting[:2] == ["help", "hint"] else None

    # --- the loop ------------------------------------------------------------------------

    def run(self, read: Callable[[str], str | None], emit: Callable[[Event], None]) -> bool:
        """Play until the game ends or the input does; True if the game was finished.

        ``read(prompt)`` returns the next line typed, or None at the end of input.
        """
        emit(Started(self.game.ruleset.name, self.seats, self.game.seed, self.resumed,
                     self.game.round, phase_name(self.game)))
        previous_human: int | None = None
        while not self.game.is_over:
            played = self.table.step()  # a computer's move, shown as soon as it is made
            if played:
                for event in played:
                    emit(event)
                continue
            seat = self.game.current_player
            if self.shared and previous_human != seat:
                if not self._hand_over(seat, read, emit):
                    return False
            previous_human = seat
            if not self._human_turn(seat, read, emit):
                return False
        record, problem = self._record_now()
        if problem is not None:
            emit(Problem(problem))
        emit(Finished(tuple(self.game.standings()), record, self.game.seed, final_scores(self.game)))
        return True

    def stop(self, reason: str, save: bool = False) -> tuple[Stopped, str | None]:
        """The game is left unfinished for ``reason``: write the record so far (if there is a record
        file) and, with ``save``, the game to continue (:meth:`save_to_continue`); give the event to
        show, with why the record or the save could not be written, if one could not."""
        record, problem = self._record_now()
        saved = None
        if save:
            saved, not_saved = self.save_to_continue()
            problem = "; ".join(p for p in (problem, not_saved) if p) or None
        return Stopped(reason, self.context(), record, saved, self.shared), problem

    def _stopped(self, reason: str, emit: Callable[[Event], None]) -> bool:
        event, problem = self.stop(reason)
        if problem is not None:
            emit(Problem(problem))
        emit(event)
        return False

    def _human_turn(self, seat: int, read: Callable[[str], str | None],
                    emit: Callable[[Event], None]) -> bool:
        """Ask seat for input until it plays a move; False when the game is left."""
        emit(Turn(self.screen(seat)))
        while True:
            line = read(f"{self.seats[seat].name}> ")
            if line is None:
                return self._stopped("end of input", emit)
            words = line.split()
            if not words:
                if self.game.legal_moves() == [PASS] and self._try_move(seat, "pass", emit):
                    return True
                continue
            command = self.command_of(words[0])
            if command == "quit" and len(words) == 1:
                if self._confirm_quit(read):
                    return self._stopped("quit", emit)
                continue
            if command in COMMANDS and (len(words) == 1 or command == "save"):
                again = COMMANDS[command](self, words[1:], emit)
                if again:
                    emit(Turn(self.screen(self.game.current_player)))
                continue
            if self._try_move(seat, line.strip(), emit):
                return True

    def _hand_over(self, seat: int, read: Callable[[str], str | None], emit: Callable[[Event], None]) -> bool:
        """Several humans at one terminal: announce who is next (and, at a terminal, wait for them)."""
        name = self.seats[seat].name
        emit(Handover(name))
        if self.interactive and read(self._say("press_enter", name=name)) is None:
            return self._stopped("end of input", emit)
        return True

    def _confirm_quit(self, read: Callable[[str], str | None]) -> bool:
        if not self.interactive:
            return True
        kept = self._say("kept_record" if self.record is not None else "kept_nothing")
        answer = read(self._say("leave", kept=kept))
        return answer is not None and answer.strip().lower() in ("y", "yes", "j", "ja", "是")

    def _try_move(self, seat: int, text: str, emit: Callable[[Event], None]) -> bool:
        try:
            events = self.table.submit(seat, text)
        except MoveError as error:
            emit(Problem(self._refusal(error)))
            return False
        for event in events:
            emit(event)
        return True

    def _say(self, key: str, **values: object) -> str:
        """One of the session's phrases in its language, filled in (English when it lacks the phrase)."""
        return self.words.get(key, SESSION_WORDS[key]).format(**values)

    def context(self) -> str:
        """Who is to move and when, in the session's language: "Anna, Runde 3, Bauphase"."""
        model = self.game.ruleset.model
        local = model.in_language(self.language) if self.language in model.languages else model
        phase = next(p.name for p in local.phases if p.id == self.game.phase)
        return self._say("context", name=self.game.players[self.game.current_player], round=self.game.round,
                         phase=phase)

    def _refusal(self, error: MoveError) -> str:
        """Why a move was refused, with who and when, in the session's language."""
        return error.say(self.game, self.language)

    # --- commands ------------------------------------------------------------------------

    def undo(self, args: list[str], emit: Callable[[Event], None]) -> bool:
        """Take back the last move of the human on turn and the computers' answers to it."""
        try:
            taken = self.table.undo()
        except UndoRefused as refused:
            emit(Problem(self._undo_refusal(refused)))
            return False
        emit(TookBack(self._say("took_back", moves="; ".join(taken))))
        return True

    def _undo_refusal(self, refused: UndoRefused) -> str:
        """Why undo took nothing back, in the session's words."""
        if refused.block is UndoBlock.OTHERS:
            return self._say("undo_others", names=", ".join(refused.names))
        if refused.block is UndoBlock.NONE:
            return self._say("undo_none")
        what = "barrier_drawn" if refused.block is UndoBlock.DRAWN else "barrier_refill"
        return self._say(what, move=refused.move, drawn=refused.drawn)

    def help(self, args: list[str], emit: Callable[[Event], None]) -> bool:
        emit(Note(help_text(self)))
        return False

    def hint(self, args: list[str], emit: Callable[[Event], None]) -> bool:
        """What the search would play, from what the seat on turn may know, with its win chances."""
        try:
            found = self.table.hint(self.hint_level)
        except RuntimeError as error:  # the twin: no search
            emit(Problem(self._say("no_hint", error=error)))
            return False
        emit(Note(hint_text(found, self._say, self.language)))
        return False

    def board(self, args: list[str], emit: Callable[[Event], None]) -> bool:
        """The screen of the seat on turn in full: board, phases, every player's cards and income."""
        emit(BoardShown(self.screen(self.game.current_player)))
        return False

    def show_log(self, args: list[str], emit: Callable[[Event], None]) -> bool:
        """What the whole table saw happen since the game started (or was loaded) here."""
        emit(LogShown(tuple(self.log)))
        return False

    def moves(self, args: list[str], emit: Callable[[Event], None]) -> bool:
        emit(MoveList(self.seats[self.game.current_player].name, self.legal_moves()))
        return False

    def save(self, args: list[str], emit: Callable[[Event], None]) -> bool:
        """Write the game as JSON (and the record so far, with a record file).

        A file given by name is overwritten only when it holds an earlier save of this game.
        """
        if len(args) > 1:
            emit(Problem(self._say("save_args")))
            return False
        path = Path(args[0]).expanduser() if args else new_save_path(self.save_dir)
        taken = taken_by_another(self.game, path)
        if taken is not None:
            emit(Problem(taken))
            return False
        try:
            write_game_file(self.game, path, self.language)
        except OSError as error:
            emit(Problem(f"could not save to {path}: {error.strerror or error}"))
            return False
        record, problem = self._record_now()
        if problem is not None:  # the game is saved all the same
            emit(Problem(problem))
        extra = self._say("saved_record", record=record) if record is not None else ""
        secret = self._say("saved_secret") if self.shared else ""
        emit(Note(self._say("saved", path=path, extra=extra, secret=secret)))
        return False

    def save_to_continue(self) -> tuple[Path | None, str | None]:
        """Save the game under a new name (:func:`new_save_path`) for spb play --load: where it went,
        or why it could not be saved."""
        path = new_save_path(self.save_dir)
        if path.exists() or path.is_symlink():  # a thousand saves in one second: never over one of them
            return None, f"could not save the game: {path} exists"
        try:
            write_game_file(self.game, path, self.language)
        except OSError as error:
            return None, f"could not save the game to {path}: {error.strerror or error}"
        return path, None

    def _record_now(self) -> tuple[Path | None, str | None]:
        """Write the record (if there is a record file): where it went, and why not if it could not be."""
        try:
            return self.write_record(), None
        except OSError as error:
            return None, f"could not write the record to {self.record}: {error.strerror or error}"

    def write_record(self) -> Path | None:
        """Write the record of the moves so far to the record file, if there is one; the seed is
        withheld until the game is over. Raises OSError when the file cannot be written."""
        if self.record is None:
            return None

        dealt = self.game.ruleset.new_game(list(self.game.players), self.game.seed)
        writer = RecordWriter(dealt, datetime.date.today().isoformat())
        for move in self.earlier + [move for _, move, _ in self.history.moves]:
            writer.add(move)
        write_text_atomic(self.record, writer.text(withhold_seed=True))
        return self.record


COMMANDS: dict[str, Callable[[Session, list[str], Callable[[Event], None]], bool]] = {
    "help": Session.help,
    "hint": Session.hint,
    "moves": Session.moves,
    "board": Session.board,
    "log": Session.show_log,
    "undo": Session.undo,
    "save": Session.save,
}


def _shortest(session: Session, command: str) -> str:
    """The shortest beginning of a command's name that means it."""
    return next(command[:n] for n in range(1, len(command) + 1) if session.command_of(command[:n]) == command)


def help_text(session: Session) -> str:
    """The commands and the notation forms, with examples from the moves legal now (the notation is
    English in every language; the words around it are the session's)."""

    say = session._say
    model = session.game.ruleset.model
    forms = describe_notation(model.in_language(session.language) if session.language in model.languages else model)
    width = max(len(form.form) for form in forms)
    examples = [text for text, _ in session.legal_moves()[:4]]
    short = ", ".join(f"{word} ({kind.value})" for word, kind in VERBS.items() if word != kind.value)
    prefixes = ", ".join(f"{_shortest(session, name)} ({name})" for name in (*COMMANDS, "quit"))
    return "\n".join([
        say("help_moves"),
        *(f"  {form.form:<{width}}  {form.meaning}, {say('help_eg')} {form.example}" for form in forms),
        say("help_short", short=short), say("help_legal", examples=", ".join(examples)),
        say("help_keys"), say("help_commands", prefixes=prefixes), say("help_table"),
    ])
