"""What every part of the server works with: the store, the configuration, the clock and the rules
loaded; how a game is opened, its mails queued and the game saved, inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spbc.pbem.config import Config
from spbc.pbem.hints import Hint
from spbc.pbem.letters import subject, update, welcome, welcome_subject
from spbc.pbem.rules import GameLoader, Unloadable
from spbc.pbem.sitting import Sitting, open_sitting
from spbc.pbem.states import MailKind, MailOption
from spbc.pbem.store import GameRow, SeatRow, Store
from spbc.pbem.watchers import mail_watchers, resigned_notes
from spbc.play.game import Game


class PbemError(ValueError):
    """A command of the operator (spb pbem new, admin, export) that cannot be carried out, and why."""


@dataclass
class Desk:
    """The server's store, configuration, clock and loaded rules."""

    config: Config
    store: Store
    clock: Callable[[], float]
    loader: GameLoader

    def loaded(self, row: GameRow) -> Game | None:
        """The game of a row in a transaction; None (told once) when it cannot be loaded now."""
        return self.loader.loaded(self.store, row, self.clock())

    def sitting(self, game_id: str) -> Sitting:
        """The stored game as it stands; PbemError for no such game or one that cannot be loaded now."""
        row = self.store.game(game_id)
        if row is None:
            raise PbemError(f"there is no game {game_id}; spb pbem games lists them")
        try:
            game = self.loader.game(row)
        except Unloadable as problem:
            raise PbemError(f"game {game_id} cannot be loaded now: {problem.reason} ({problem.detail})") from None
        return self._begun(open_sitting(row, self.store.seats(game_id), game, self.store.move_count(game_id)))

    def open(self, row: GameRow, game: Game, hint: Hint | None = None) -> Sitting:
        """The sitting of a row whose game is loaded."""
        return self._begun(open_sitting(row, self.store.seats(row.id), game, self.store.move_count(row.id), hint))

    def _begun(self, sitting: Sitting) -> Sitting:
        """The sitting with the log line it begins after (the observers' mail lists the lines after it)."""
        sitting.log_start = self.store.last_log(sitting.row.id)
        return sitting

    def queue(self, sitting: Sitting, seat: SeatRow, kind: MailKind, subject: str, body: str, reply_to: str) -> None:
        """Queue a mail to a person's seat; what they have read of the log is now all of it."""
        assert seat.address is not None
        self.store.queue(sitting.row.id, seat.address, subject, body, reply_to, kind, self.clock())
        seat.seen = self.store.last_log(sitting.row.id)

    def notify(self, game_id: str | None, recipient: str, subject: str, body: str,
               kind: MailKind = MailKind.NOTICE, reply_to: str = "") -> None:
        """Queue a mail to any address (the administrator, a player's old address, a late player's rivals)."""
        self.store.queue(game_id, recipient, subject, body, reply_to, kind, self.clock())

    def update(self, sitting: Sitting, seat: SeatRow, lines: list[str]) -> str:
        """The body of an update to seat: answers, the log since its last mail, its screen."""
        since = [text for _, text in self.store.log_since(sitting.row.id, seat.seen, seat.lang)]
        notes = resigned_notes(self.store, sitting.row.id, seat.lang)
        return update(sitting, seat, lines, since) + "".join(note + "\n" for note in notes)

    def queue_welcome(self, sitting: Sitting, seat: SeatRow, secret: str) -> None:
        """Queue a person's welcome: their secret, the game, the rules and how to play, then their update."""
        lines = welcome(sitting, seat, secret, self.config.web.base_url)
        body = "\n".join(lines) + "\n" + self.update(sitting, seat, [])
        self.queue(sitting, seat, MailKind.WELCOME, welcome_subject(sitting, seat), body, "")

    def mail_others(self, sitting: Sitting, reply_to: str = "", sender: SeatRow | None = None) -> None:
        """Queue the sender's reply and an update for each other person who should get one now."""
        game = sitting.game
        for seat in sitting.seats:
            if seat.address is None:
                continue
            own = sender is not None and seat.seat == sender.seat
            on_turn = not game.is_over and game.current_player == seat.seat
            if not own:
                if not sitting.changed:
                    continue
                if seat.mail is MailOption.PHASE and not (on_turn or sitting.phase_ended or game.is_over):
                    continue
            lines = sitting.lines.get(seat.seat, []) if own else []
            self.queue(sitting, seat, MailKind.REPLY if own else MailKind.UPDATE, subject(sitting, seat),
                       self.update(sitting, seat, lines), reply_to if own else "")
        mail_watchers(self.store, self.clock(), sitting)

    def save(self, sitting: Sitting) -> None:
        """Write the game's state, its row and its seats back to the store."""
        sitting.row.state = sitting.game.to_json()
        self.store.save_game(sitting.row)
        self.loader.remember(sitting.row.id, sitting.row.state, sitting.game)
        for seat in sitting.seats:
            self.store.save_seat(sitting.row.id, seat)
