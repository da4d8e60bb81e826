"""A play-by-email game watched and played in the browser: the mail server's store holds it, the page
is one more view of it, and a move made on either shows on both.

The link of a seat is ``/game/<game>/<secret>`` with the seat's mail secret (the one its welcome mail
gave, compared with the stored digest in constant time). A move made here goes through the mail
server's own path (spbc.pbem.sitting and its desk): booked in one transaction of the store with its
log lines, the other players' update mails queued in it and sent after the commit, exactly as a
move by mail. A move made by mail is seen here when the store's move count changes: the game's
table is loaded again from the store and every page's stream draws it anew.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from typing_extensions import override

from spbc.pbem.desk import PbemError
from spbc.pbem.secret import secret_matches
from spbc.pbem.server import Server
from spbc.pbem.sitting import advance, submit
from spbc.play.moves import MoveError
from spbc.table.table import Table
from spbc.frontends.web.links import Viewer
from spbc.frontends.web.live import Refusal, WebGame

T = TypeVar("T")
POLL_SECONDS = 1.0  # how often a watched mail game looks for a move made by mail


def mail_games(server: Server) -> Callable[[str], WebGame | None]:
    """The finder of the mail server's games by id, each loaded once (None for no such game)."""
    found: dict[str, WebGame] = {}

    def find(game_id: str) -> WebGame | None:
        if game_id not in found:
            try:
                found[game_id] = MailGame.of(server, game_id)
            except PbemError:
                return None
        return found[game_id]

    return find


class MailGame(WebGame):
    """A game of the mail server's store behind web links (no spectator link: watching is by mail)."""

    server: Server

    @classmethod
    def of(cls, server: Server, game_id: str) -> MailGame:
        """The stored game as it stands (PbemError for none, or one that cannot be loaded)."""
        game = cls(game_id, server.sitting(game_id).table, {})
        game.server = server
        game.poll_seconds = POLL_SECONDS
        return game

    @override
    def viewer(self, token: str) -> Viewer | None:
        found: Viewer | None = None
        for seat in self.server.store.seats(self.id):
            if seat.address is not None and secret_matches(token, seat.secret_hash):
                found = Viewer(seat.seat)
        return found

    @override
    async def refresh(self) -> bool:
        """Load the game again if a move was made by mail (or by the mail server's clock)."""
        async with self._lock:
            return self._reload()

    def _reload(self) -> bool:
        if self.server.store.move_count(self.id) == self.table.moves:
            return False
        self.table = self.server.sitting(self.id).table
        self._bump()
        return True

    @override
    async def read(self, reader: Callable[[Table], T]) -> T:
        async with self._lock:
            self._reload()
            return reader(self.table)

    @override
    async def submit(self, seat: int, text: str, number: int | None, language: str) -> Refusal | None:
        async with self._lock:
            self._reload()
            table = self.table
            if number is not None and number != table.moves:
                return None if self.submitted.get((seat, number)) == text.strip() else Refusal("stale")
            if table.on_turn is None:
                return Refusal("over")
            if seat != table.on_turn:
                return Refusal("not_on_turn", {"name": table.seats[table.on_turn].name})
            try:  # in the server's thread: the store's connection is its own
                self._play(seat, text)
            except MoveError as error:
                return Refusal("refused", said=error.say(table.game, language))
            self.submitted[(seat, table.moves)] = text.strip()
            self._reload()
        return None

    def _play(self, seat: int, text: str) -> None:
        """The move through the mail server's path, in one transaction: booked, the computers' answers,
        the update mails queued; then the mails sent."""
        server = self.server
        now = server.clock()
        with server.store.transaction():
            sitting = server.desk.sitting(self.id)
            submit(sitting, server.store, now, seat, text)
            advance(sitting, server.store, now)
            server.desk.mail_others(sitting)
            server.desk.save(sitting)
        server.flush()
