"""The server's store: one SQLite file in WAL mode, every change made in one transaction.

Tables: ``games`` (each game's settings and its whole state as :meth:`spbc.play.game.Game.to_json`
writes it), ``seats`` (a person's address and the digest of their secret, or a computer's level;
their standing orders and mail options), ``moves`` (every accepted move in order: the record),
``log`` (the public lines of what happened, for "since your last mail"), ``messages`` (the
Message-ID of every mail handled: a repeat is known and applied once), ``outbox`` (replies, queued
in the transaction of the mail that caused them and sent after its commit), ``refusals`` (when
unknown senders were last answered, and the other counts of :mod:`spbc.pbem.limits`), ``meta``
(the store's salt). The file holds the seed and the deck order: it is the server's alone. Its schema and versions are :mod:`spbc.pbem.schema`'s.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from spbc.pbem.schema import migrate



class MailState(StrEnum):
    """Where a queued mail stands."""

    PENDING = "pending"  # to be sent (again, after a temporary failure, from its next_try on)
    SENT = "sent"
    FAILED = "failed"  # refused for good (a permanent SMTP failure): set aside, never tried again


@dataclass
class SeatRow:
    seat: int
    name: str
    address: str | None
    level: str | None
    secret_hash: str
    mail: str  # "move": a mail after every change; "phase": on their turn and at each phase's end
    orders: list[str] = field(default_factory=list)
    seen: int = 0  # the last log line they were mailed


@dataclass
class GameRow:
    id: str
    rules: str
    state: str
    status: str  # "active", "paused", "aborted", "over"
    created: float
    agent_seed: int
    admin: str
    admin_hash: str
    deadline: float  # hours a player has for a turn; 0: no deadline
    remind: float  # hours before the deadline of the reminder
    policy: str  # at the deadline: "wait", "pass", or a computer level "ai:LEVEL"
    hints: bool
    turn_since: float
    reminded: bool
    late: bool
    rules_text: str = ""  # the rules file's text when the game is of a file, not a shipped ruleset
    rules_digest: str = ""  # the digest of the rules the game was made with


class Store:
    """The SQLite file of a server. Every change goes through :meth:`transaction`."""

    def __init__(self, path: Path, synchronous: str = "FULL") -> None:
        self.path = path
        self.db = sqlite3.connect(str(path), timeout=60, isolation_level=None)
        self.db.execute("PRAGMA busy_timeout = 60000")
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute(f"PRAGMA synchronous = {'NORMAL' if synchronous == 'NORMAL' else 'FULL'}")
        migrate(self.db)
        self.salt = str(self.db.execute("SELECT value FROM meta WHERE key = 'salt'").fetchone()[0])

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (BEGIN IMMEDIATE): two processes are serialised here."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # --- games -----------------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        row = self.db.execute(
            "SELECT id, rules, state, status, created, agent_seed, admin, admin_hash, deadline, remind, policy,"
            " hints, turn_since, reminded, late, rules_text, rules_digest FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return GameRow(id=row[0], rules=row[1], state=row[2], status=row[3], created=row[4], agent_seed=row[5],
                       admin=row[6], admin_hash=row[7], deadline=row[8], remind=row[9], policy=row[10],
                       hints=bool(row[11]), turn_since=row[12], reminded=bool(row[13]), late=bool(row[14]),
                       rules_text=row[15], rules_digest=row[16])

    def game_ids(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT id FROM games ORDER BY created, id")]

    def add_game(self, game: GameRow) -> None:
        self.db.execute("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (
            game.id, game.rules, game.state, game.status, game.created, game.agent_seed, game.admin,
            game.admin_hash, game.deadline, game.remind, game.policy, int(game.hints), game.turn_since,
            int(game.reminded), int(game.late), game.rules_text, game.rules_digest))

    def save_game(self, game: GameRow) -> None:
        self.db.execute(
            "UPDATE games SET state = ?, status = ?, admin = ?, turn_since = ?, reminded = ?, late = ? WHERE id = ?",
            (game.state, game.status, game.admin, game.turn_since, int(game.reminded), int(game.late), game.id))

    # --- seats -----------------------------------------------------------------------------

    def seats(self, game_id: str) -> list[SeatRow]:
        rows = self.db.execute("SELECT seat, name, address, level, secret_hash, mail, orders, seen FROM seats "
                               "WHERE game = ? ORDER BY seat", (game_id,)).fetchall()
        return [SeatRow(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7]) for r in rows]

    def add_seat(self, game_id: str, seat: SeatRow) -> None:
        self.db.execute("INSERT INTO seats VALUES (?,?,?,?,?,?,?,?,?)", (
            game_id, seat.seat, seat.name, seat.address, seat.level, seat.secret_hash, seat.mail,
            json.dumps(seat.orders), seat.seen))

    def save_seat(self, game_id: str, seat: SeatRow) -> None:
        self.db.execute("UPDATE seats SET address = ?, level = ?, secret_hash = ?, mail = ?, orders = ?, seen = ? "
                        "WHERE game = ? AND seat = ?", (seat.address, seat.level, seat.secret_hash, seat.mail,
                                                        json.dumps(seat.orders), seat.seen, game_id, seat.seat))

    # --- moves and the log -------------------------------------------------------------------

    def moves(self, game_id: str) -> list[tuple[int, str, str]]:
        """(seat, move in notation, how it was made) of every accepted move, in order."""
        return [(r[0], r[1], r[2]) for r in self.db.execute(
            "SELECT seat, text, how FROM moves WHERE game = ? ORDER BY ply", (game_id,))]

    def move_count(self, game_id: str) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM moves WHERE game = ?", (game_id,)).fetchone()[0])

    def add_move(self, game_id: str, ply: int, seat: int, text: str, how: str) -> None:
        self.db.execute("INSERT INTO moves VALUES (?,?,?,?,?)", (game_id, ply, seat, text, how))

    def add_log(self, game_id: str, line: str) -> int:
        cursor = self.db.execute("INSERT INTO log (game, line) VALUES (?, ?)", (game_id, line))
        return int(cursor.lastrowid or 0)

    def log_since(self, game_id: str, after: int) -> list[tuple[int, str]]:
        return [(r[0], r[1]) for r in self.db.execute(
            "SELECT id, line FROM log WHERE game = ? AND id > ? ORDER BY id", (game_id, after))]

    def last_log(self, game_id: str) -> int:
        row = self.db.execute("SELECT MAX(id) FROM log WHERE game = ?", (game_id,)).fetchone()
        return int(row[0] or 0)

    # --- messages handled --------------------------------------------------------------------

    def handled(self, sender: str, key: str) -> str | None:
        """The outcome of a mail of this sender handled before, or None."""
        row = self.db.execute("SELECT outcome FROM messages WHERE sender = ? AND key = ?", (sender, key)).fetchone()
        return None if row is None else str(row[0])

    def note_handled(self, key: str, game_id: str | None, sender: str, at: float, outcome: str) -> None:
        self.db.execute("INSERT INTO messages VALUES (?,?,?,?,?)", (sender, key, game_id, at, outcome))

    # --- the outbox --------------------------------------------------------------------------

    def queued(self) -> int:
        """The number of the last mail queued (0 for none): what a mail queued is counted from."""
        row = self.db.execute("SELECT MAX(id) FROM outbox").fetchone()
        return int(row[0] or 0)

    def queue(self, game_id: str | None, recipient: str, subject: str, body: str, reply_to: str, kind: str,
              at: float) -> int:
        cursor = self.db.execute(
            "INSERT INTO outbox (game, recipient, subject, body, reply_to, kind, created) VALUES (?,?,?,?,?,?,?)",
            (game_id, recipient, subject, body, reply_to, kind, at))
        return int(cursor.lastrowid or 0)

    def pending(self) -> list[tuple[int, str | None, str, str, str, str, str]]:
        """(id, game, recipient, subject, body, reply_to, kind) of every reply not yet sent, oldest first."""
        return [tuple(r) for r in self.db.execute(
            "SELECT id, game, recipient, subject, body, reply_to, kind FROM outbox WHERE state = 'pending' ORDER BY id")]

    def mark_sent(self, outbox_id: int) -> None:
        self.db.execute("UPDATE outbox SET state = 'sent' WHERE id = ?", (outbox_id,))

    def outbox(self, game_id: str | None = None) -> list[tuple[int, str, str, str, str]]:
        """(id, recipient, subject, kind, state) of the replies queued, for tests and status."""
        query = "SELECT id, recipient, subject, kind, state FROM outbox"
        rows = self.db.execute(query + (" WHERE game = ?" if game_id else "") + " ORDER BY id",
                               (game_id,) if game_id else ())
        return [tuple(r) for r in rows]

    # --- refusals to unknown senders ------------------------------------------------------------

    def refusal_allowed(self, address: str, now: float, per_hour: int) -> bool:
        """Whether an unknown or failing sender may be answered again (at most per_hour an hour; 0:
        never), counted if so. ``address`` is a key of :mod:`spbc.pbem.limits`: an address, or another
        count kept in this table (every refusal to strangers, a seat's messages)."""
        if per_hour <= 0:
            return False
        row = self.db.execute("SELECT at, count FROM refusals WHERE address = ?", (address,)).fetchone()
        if row is None or now - row[0] >= 3600:
            self.db.execute("INSERT OR REPLACE INTO refusals VALUES (?, ?, 1)", (address, now))
            return True
        if row[1] >= per_hour:
            return False
        self.db.execute("UPDATE refusals SET count = count + 1 WHERE address = ?", (address,))
        return True
