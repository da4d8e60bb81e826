"""The game at a terminal: the alternate screen, each screen drawn in place, nothing left behind.

When standard input and output are a terminal, ``spb play`` runs in the terminal's alternate
screen. Every turn clears it and draws the screen of the player on turn, after what the table
saw happen since the last screen (scorings, the end of a round): the full screen where it fits
the terminal's height, else the compact one (frontends/compact.py), with as much of what the
table saw as fits above it. Moves, errors and answers to commands then appear under it; an
answer is drawn again under the same player's next screen only until a move (anyone's, or an
undo) changes the position it spoke of.

Several people at one terminal must not see each other's rubles or hands, on the screen or
in its scrollback: every handover, and the final standings, clear both (ESC[3J clears the
scrollback, which a plain clear leaves), and the handover screen shows nothing but whose
turn it is. Each person gets their own line history, so Up never shows another's input.
Leaving the game leaves the alternate screen and prints how it ended on the normal one.
"""

from __future__ import annotations

import readline  # line editing and history for input(); the completer is set per session
from collections.abc import Callable
from types import TracebackType

from rich.cells import cell_len
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from spbc.frontends.compact import render_compact
from spbc.frontends.screen import render_line, render_screen, render_standings, started_line
from spbc.frontends.words import ENGLISH, Words
from spbc.table.completion import complete
from spbc.table.screen import Screen
from spbc.table.session import (
    BoardShown,
    Event,
    Finished,
    Handover,
    LastRound,
    LogShown,
    NewPhase,
    Note,
    PhaseScored,
    Played,
    PointsBought,
    Problem,
    RoundEnded,
    Session,
    Started,
    Stopped,
    TookBack,
    Turn,
)

#: Home, clear the screen, clear the scrollback.
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"
#: Events every player may see, kept to be shown again on the next screen.
PUBLIC = (Played, PhaseScored, PointsBought, RoundEnded, NewPhase, LastRound)
#: Lines kept free under a screen: the prompt, and a line of answer.
BELOW = 2


class Terminal:
    """Draws a session's events on a terminal; a context manager around :meth:`Session.run`.

    >>> with Terminal(console, session) as terminal:        # doctest: +SKIP
    ...     session.run(terminal.read, terminal.emit)
    """

    def __init__(self, console: Console, session: Session, words: Words = ENGLISH) -> None:
        self.console = console
        self.session = session
        self.words = words  # the language of the screen's fixed words (spbc.frontends.words)
        self.log: list[Event] = []  # public events since the last screen
        self.answers: list[Event] = []  # answers to the player at the keyboard since the last screen
        self.seat: int | None = None  # whose screen was drawn last
        self.lasting: list[Event] = []  # what stays on the normal screen after the game
        self.histories: dict[str, list[str]] = {}
        self.owner: str | None = None  # whose lines readline's history holds now

    def __enter__(self) -> Terminal:
        readline.set_completer_delims("")  # a move's card names hold spaces: complete the whole line
        readline.set_completer(self._completer)
        binding = "bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete"
        readline.parse_and_bind(binding)
        readline.clear_history()
        self.console.set_alt_screen(True)
        self.clear()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        readline.set_completer(None)
        readline.clear_history()
        self.clear()
        self.console.set_alt_screen(False)
        for event in self.lasting:
            self._draw_lasting(event)

    def clear(self) -> None:
        """Clear the screen and the scrollback."""
        self.console.file.write(CLEAR_ALL)
        self.console.file.flush()

    # --- input -----------------------------------------------------------------------------

    def read(self, prompt: str) -> str | None:
        """A line typed at the prompt, with line editing; None at the end of input (Ctrl-D).
        Ctrl-C is not caught here: it ends the game (see spbc.frontends.game_cmds)."""
        try:
            return input(prompt)
        except EOFError:
            return None

    def _completer(self, text: str, state: int) -> str | None:
        found = complete(self.session, readline.get_line_buffer()[:readline.get_endidx()])
        return found[state] if state < len(found) else None

    def _history_of(self, name: str) -> None:
        """Give readline the lines that name typed, keeping the lines of whoever typed before."""
        if self.owner == name:
            return
        if self.owner is not None:
            length = readline.get_current_history_length()
            self.histories[self.owner] = [readline.get_history_item(i) for i in range(1, length + 1)]
        readline.clear_history()
        for line in self.histories.get(name, []):
            readline.add_history(line)
        self.owner = name

    # --- output ----------------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        """Draw one event of the session."""
        match event:
            case Started():
                self._title(event)
            case Turn():
                self._history_of(event.screen.me.name)
                self.clear()
                self._draw_screen(event.screen)
                if event.screen.seat == self.seat:  # the same player's screen again (after undo): keep the answer
                    for answer in self.answers:
                        render_line(answer, self.console, self.words)
                self.answers.clear()
                self.seat = event.screen.seat
            case Handover():
                self._history_of(event.name)
                self.answers.clear()
                self.seat = None
                self.clear()
                self.console.print(Rule(Text(self.words("handover", name=event.name)), style="bold yellow"))
                self.console.print(Text(self.words("only_look", name=event.name), style="dim"))
            case Finished():
                if self.session.shared:
                    self.clear()
                render_standings(event, self.console, self.words)
                self.lasting.append(event)
            case Stopped():
                render_line(event, self.console, self.words)
                self.lasting.append(event)
            case Problem() | Note() | BoardShown() | LogShown():
                if isinstance(event, TookBack):  # the position changed: what was said of the other one goes
                    self.answers.clear()
                render_line(event, self.console, self.words)
                self.answers.append(event)
            case _:
                if isinstance(event, Played):  # the position changed: hints and refusals speak of the old one
                    self.answers.clear()
                render_line(event, self.console, self.words)
                if isinstance(event, PUBLIC):
                    self.log.append(event)

    def _title(self, event: Started) -> None:
        self.console.print(Text(started_line(event, self.words)))

    def _draw_screen(self, screen: Screen) -> None:
        """What the table saw since the last screen, then the screen itself, laid out for the terminal's
        height: the full screen where it fits, else the compact one, with only as much of what the table
        saw above it as fits (the log command shows it all)."""
        seen = self._captured(self._replay_log)
        full = self._captured(lambda: render_screen(screen, self.console, words=self.words))
        height, width = self.console.height, self.console.width
        if _lines(seen, width) + _lines(full, width) + BELOW <= height:
            self._write(seen + full)
            return
        compact = self._captured(lambda: render_compact(screen, self.console, self.words))
        room = height - _lines(compact, width) - BELOW
        lines = seen.splitlines(keepends=True)
        cut = self._captured(lambda: self.console.print(Text(self.words("log_cut"), style="dim")))
        kept, dropped = lines, 0
        while kept and _lines("".join(kept), width) > room:  # the latest of what the table saw stays
            dropped += 1
            kept = [cut, *lines[dropped + 1:]] if dropped + 1 < len(lines) else []
        self._write("".join(kept) + compact)

    def _captured(self, draw: Callable[[], None]) -> str:
        """What draw prints on the console, as text with the console's escapes, not yet written."""
        with self.console.capture() as capture:
            draw()
        return capture.get()

    def _write(self, text: str) -> None:
        self.console.file.write(text)
        self.console.file.flush()

    def _replay_log(self) -> None:
        """What the table saw since the last screen, above the new one (the moves and the phase are
        on the screen itself)."""
        shown = [event for event in self.log if not isinstance(event, (Played, NewPhase))]
        self.log.clear()
        for event in shown:
            render_line(event, self.console, self.words)

    def _draw_lasting(self, event: Event) -> None:
        if isinstance(event, Finished):
            render_standings(event, self.console, self.words)
        else:
            render_line(event, self.console, self.words)


def _lines(text: str, width: int) -> int:
    """How many lines of a terminal width a captured drawing takes (a line longer than the width wraps)."""
    return sum(max(1, -(-cell_len(Text.from_ansi(line).plain) // width)) for line in text.splitlines())


def play_at_terminal(console: Console, session: Session, on_interrupt: Callable[[Terminal], None],
                     words: Words = ENGLISH) -> None:
    """Run a session on the terminal; Ctrl-C calls ``on_interrupt`` (still inside the alternate
    screen, so it can add what is to stay on the normal screen) and is raised again."""
    with Terminal(console, session, words) as terminal:
        try:
            session.run(terminal.read, terminal.emit)
        except KeyboardInterrupt:
            on_interrupt(terminal)
            raise
