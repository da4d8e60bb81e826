"""A game the web server holds: its Table, its secret links, and a version that every change raises.

The Table plays; this module only serialises what reaches it: one move at a time (an asyncio lock),
the computers' moves in a worker thread one at a time, so a page or a live stream waits for at most
one move. A person's move and a standing order are played in the server's loop: they take a tenth of a
millisecond, less than the hop to a thread and back. Every change raises :attr:`WebGame.version` and
wakes the streams waiting on it, which then draw each viewer's own page anew: nothing is broadcast that
one seat alone may see.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from spbc.ai.analyze import Hint
from spbc.play.moves import MoveError
from spbc.table.events import Event
from spbc.table.table import Table
from spbc.frontends.web.links import Viewer, new_tokens, token_digest, viewer_of

#: Called after every change of a game, in the server's loop, once the change is kept (see WebGame.keeping).
Listener = Callable[["WebGame"], None]
T = TypeVar("T")


@dataclass(frozen=True)
class Refusal:
    """Why a move was not played: a key of the page's words with its values, or a reason the rules
    gave already said in the viewer's language (``said``)."""

    key: str
    values: dict[str, str] = field(default_factory=dict)
    said: str | None = None


@dataclass
class WebGame:
    """One game on the server."""

    id: str
    table: Table
    digests: dict[int | None, str]  # seat (None: spectators) -> the digest of its link's token
    version: int = 0
    undo: bool = False  # one person against computers: their moves can be taken back
    closed: bool = False  # the server is stopping: live streams end
    poll_seconds: float = 15.0  # how long a live stream waits before it looks again (refresh) or says it is there
    listeners: list[Listener] = field(default_factory=list)
    keeping: Callable[[WebGame], Awaitable[None]] | None = None  # makes a change durable (the store's), awaited
    # before the change is shown or answered
    submitted: dict[tuple[int, int], str] = field(default_factory=dict)  # (seat, move number) -> text played
    boards: dict[tuple[object, ...], str] = field(default_factory=dict)  # a viewer's board of this version, by
    # (link, language, ...): drawn once for its stream and its answer, dropped on every change
    parts: dict[tuple[object, ...], str] = field(default_factory=dict)  # the parts of boards that viewers
    # share (page.board_context), by language and what makes them differ, dropped on every change
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def viewer(self, token: str) -> Viewer | None:
        """Whose link a token is (constant-time comparison), or None."""
        return viewer_of(self.digests, token)

    async def wait_change(self, seen: int) -> int:
        """Wait until the version is no longer ``seen`` (or the server stops); the version then."""
        while self.version == seen and not self.closed:
            await self._changed.wait()
        return self.version

    async def refresh(self) -> bool:
        """Look for a change made elsewhere (another frontend's); whether there was one. None here:
        every change of a web game is made through this object."""
        return False

    def close(self) -> None:
        """The server stops: wake every stream waiting, to end."""
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()

    async def _keep(self) -> None:
        if self.keeping is not None:
            await self.keeping(self)

    def _bump(self) -> None:
        self.version += 1
        self.boards.clear()
        self.parts.clear()
        self._wake()
        for listener in self.listeners:
            listener(self)

    async def read(self, reader: Callable[[Table], T]) -> T:
        """What reader makes of the table, between moves (never halfway through one)."""
        async with self._lock:
            return reader(self.table)

    async def submit(self, seat: int, text: str, number: int | None, language: str) -> Refusal | None:
        """Play a person's move written in the notation, then the computers' answers; None when it was
        played (or had been: the same move for the same move number again), else why not.

        ``number`` is how many moves the game had when the person chose (the page says it): a second
        submit of one click finds its move played already, and a stale page is told so, not obeyed."""
        async with self._lock:
            table = self.table
            if number is not None and number != table.moves:
                return None if self.submitted.get((seat, number)) == text.strip() else Refusal("stale")
            if table.on_turn is None:
                return Refusal("over")
            if seat != table.on_turn:
                return Refusal("not_on_turn", {"name": table.seats[table.on_turn].name})
            try:
                table.submit(seat, text)
            except MoveError as error:
                return Refusal("refused", said=error.say(table.game, language))
            self.submitted[(seat, table.moves - 1)] = text.strip()
            await self._keep()
            self._bump()
        await self.run_computers()
        return None

    async def run_computers(self) -> None:
        """Play the moves that need nobody, one at a time, each shown as soon as it is made."""
        while True:
            async with self._lock:
                table = self.table
                on_turn = table.on_turn
                searching = on_turn is not None and table.seats[on_turn].computer
                played: list[Event] = await asyncio.to_thread(table.step) if searching else table.step()
                if not played:
                    return
                await self._keep()
                self._bump()

    async def hint(self, level: str) -> Hint:
        """What a search of level would play for the seat on turn (in a worker thread; the table waits).
        Raises RuntimeError where there is no search (the pure-Python engine)."""
        async with self._lock:
            return await asyncio.to_thread(self.table.hint, level)

    async def take_back(self) -> list[str]:
        """Take back the person's last move (against computers only); the moves taken back. Raises
        the table's UndoRefused."""
        async with self._lock:
            taken = self.table.undo()
            await self._keep()
            self._bump()
            return taken


class Hub:
    """Every game on the server, by id."""

    def __init__(self, elsewhere: Callable[[str], WebGame | None] | None = None) -> None:
        self.games: dict[str, WebGame] = {}
        self.elsewhere = elsewhere  # finds a game this server did not make (the mail server's), or None

    def create(self, table: Table) -> tuple[WebGame, dict[int | None, str]]:
        """Put a new table on the server under a new id; the game and its links' tokens (told once)."""
        found = secrets.token_hex(4)
        while found in self.games:
            found = secrets.token_hex(4)
        tokens = new_tokens(table.people)
        return self.restore(found, table, {seat: token_digest(token) for seat, token in tokens.items()}), tokens

    def restore(self, game_id: str, table: Table, digests: dict[int | None, str]) -> WebGame:
        """Put a table on the server under its id with its links (their digests)."""
        game = WebGame(game_id, table, digests, undo=len(table.people) == 1)
        self.games[game_id] = game
        return game

    def close(self) -> None:
        """The server stops: every game's live streams end."""
        for game in self.games.values():
            game.close()

    def reopen(self) -> None:
        """A server starts serving these games (again)."""
        for game in self.games.values():
            game.closed = False

    def find(self, game_id: str, token: str) -> tuple[WebGame, Viewer] | None:
        """The game and viewer a link names; None for an unknown game or a token not of that game."""
        game = self.games.get(game_id)
        if game is None and self.elsewhere is not None:
            game = self.elsewhere(game_id)
        viewer = game.viewer(token) if game is not None else None
        return None if game is None or viewer is None else (game, viewer)
