"""The server's store: one SQLite file in WAL mode, every change made in one transaction.

Tables: ``games`` (each game's settings and its whole state as :meth:`spbc.play.game.Game.to_json`
writes it), ``seats`` (a person's address and the digest of their secret, or a computer's level;
their standing orders and mail options), ``moves`` (every accepted move in order: the record),
``log`` (the public lines of what happened, for "since your last mail"), ``messages`` (the
Message-ID of every mail handled: a repeat is known and applied once), ``outbox`` (replies, queued
in the transaction of the mail that caused them and sent after its commit; see
:mod:`spbc.pbem.outbox`), ``refusals`` (when unknown senders were last answered, and the other counts of
:mod:`spbc.pbem.limits`), ``meta`` (the
store's salt). The file holds the seed and the deck order: it is the server's alone.

A mail's body is kept only until it is sent: every mail marked sent (or dropped by the operator)
has its body emptied, with ``secure_delete`` on so that the freed bytes are zeroed, and the WAL is
truncated after a welcome (which holds a player's or the administrator's secret) is sent. So the
secrets of the welcome mails are in the file only while those mails wait to be sent, or while they
are set aside as failed (kept for the operator to retry). Its schema and versions are :mod:`spbc.pbem.schema`'s.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spbc.pbem.orders import Order, format_order, parse_order
from spbc.pbem.schema import migrate
from spbc.pbem.states import GameStatus, MailKind, MailOption, MailState, MoveSource

__all__ = ["GameRow", "MailState", "Outgoing", "SeatRow", "Store"]


@dataclass(frozen=True)
class Outgoing:
    """One mail of the outbox."""

    number: int  # its row in the outbox
    game: str | None
    recipient: str
    subject: str
    body: str  # "" once sent or dropped
    reply_to: str  # the Message-ID this mail answers, or ""
    kind: MailKind
    created: float = 0.0
    state: MailState = MailState.PENDING
    attempts: int = 0  # failed tries so far
    next_try: float = 0.0  # not tried again before this time
    error: str = ""  # why the last try failed


_OUTGOING = "id, game, recipient, subject, body, reply_to, kind, created, state, attempts, next_try, error"


def _outgoing(row: Any) -> Outgoing:
    return Outgoing(int(row[0]), row[1], str(row[2]), str(row[3]), str(row[4]), str(row[5]), MailKind(row[6]),
                    float(row[7]), MailState(row[8]), int(row[9]), float(row[10]), str(row[11]))


@dataclass
class SeatRow:
    seat: int
    name: str
    address: str | None
    level: str | None
    secret_hash: str
    mail: MailOption
    orders: list[Order] = field(default_factory=list)
    seen: int = 0  # the last log line they were mailed
    lang: str = "en"  # the language of their mails (spbc.pbem.wording)


@dataclass
class GameRow:
    id: str
    rules: str
    state: str
    status: GameStatus
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
    unloadable: str = ""  # why the game could not be loaded, as its administrator was told ('': it loads)


class Store:
    """The SQLite file of a server. Every change goes through :meth:`transaction`."""

    def __init__(self, path: Path, synchronous: str = "FULL", busy_seconds: float = 60.0) -> None:
        self.path = path
        self._batched = False
        self.db = sqlite3.connect(str(path), timeout=busy_seconds, isolation_level=None)
        self.db.execute(f"PRAGMA busy_timeout = {int(busy_seconds * 1000)}")
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute(f"PRAGMA synchronous = {'NORMAL' if synchronous == 'NORMAL' else 'FULL'}")
        self.db.execute("PRAGMA secure_delete = ON")  # a dropped mail body is zeroed in the file, not left free
        migrate(self.db)
        self.salt = str(self.db.execute("SELECT value FROM meta WHERE key = 'salt'").fetchone()[0])

    def close(self) -> None:
        self.db.close()

    def checkpoint(self) -> None:
        """Copy the WAL into the file and truncate it, so that no older page (a sent mail's body) stays in
        it; best effort: readers of other processes may keep some of it until the last one closes."""
        self.db.execute("PRAGMA busy_timeout = 2000")  # not the minute a mail waits for the store
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.OperationalError:
            pass
        finally:
            self.db.execute("PRAGMA busy_timeout = 60000")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (BEGIN IMMEDIATE): two processes are serialised here.
        Inside a :meth:`batch` it is a savepoint of the batch's transaction, rolled back alone on an error."""
        if self._batched:
            self.db.execute("SAVEPOINT mail")
            try:
                yield self.db
            except BaseException:
                if self.db.in_transaction:  # SQLite ends the whole transaction itself on some errors (a full disk)
                    self.db.execute("ROLLBACK TO mail")
                    self.db.execute("RELEASE mail")
                raise
            self.db.execute("RELEASE mail")
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One write transaction for several (group commit): each :meth:`transaction` inside it is a
        savepoint, and all of them are made durable by one commit at the end (one sync of the WAL at
        ``synchronous = FULL``); an error out of the batch rolls all of them back."""
        if self._batched:
            raise RuntimeError("a batch is open already")
        self.db.execute("BEGIN IMMEDIATE")
        self._batched = True
        try:
            yield
        except BaseException:
            self._batched = False
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        self._batched = False
        self.db.execute("COMMIT")

    @property
    def batched(self) -> bool:
        """Whether a batch is open: a transaction ended now is not yet committed."""
        return self._batched

    # --- games -----------------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        row = self.db.execute(
            "SELECT id, rules, state, status, created, agent_seed, admin, admin_hash, deadline, remind, policy,"
            " hints, turn_since, reminded, late, rules_text, rules_digest, unloadable FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return GameRow(id=row[0], rules=row[1], state=row[2], status=GameStatus(row[3]), created=row[4], agent_seed=row[5],
                       admin=row[6], admin_hash=row[7], deadline=row[8], remind=row[9], policy=row[10],
                       hints=bool(row[11]), turn_since=row[12], reminded=bool(row[13]), late=bool(row[14]),
                       rules_text=row[15], rules_digest=row[16], unloadable=row[17])

    def game_ids(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT id FROM games ORDER BY created, id")]

    def add_game(self, game: GameRow) -> None:
        self.db.execute("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (
            game.id, game.rules, game.state, game.status, game.created, game.agent_seed, game.admin,
            game.admin_hash, game.deadline, game.remind, game.policy, int(game.hints), game.turn_since,
            int(game.reminded), int(game.late), game.rules_text, game.rules_digest, game.unloadable))

    def save_game(self, game: GameRow) -> None:
        self.db.execute(
            "UPDATE games SET state = ?, status = ?, admin = ?, turn_since = ?, reminded = ?, late = ? WHERE id = ?",
            (game.state, game.status, game.admin, game.turn_since, int(game.reminded), int(game.late), game.id))

    def keep_rules(self, game_id: str, rules: str, text: str, digest: str) -> None:
        """Keep a game's rules (spbc.pbem.rules) for a game stored before they were kept."""
        self.db.execute("UPDATE games SET rules = ?, rules_text = ?, rules_digest = ? WHERE id = ?",
                        (rules, text, digest, game_id))

    def note_unloadable(self, game_id: str, reason: str) -> None:
        """Record why a game cannot be loaded, as its administrator was told ('': it loads again)."""
        self.db.execute("UPDATE games SET unloadable = ? WHERE id = ?", (reason, game_id))

    # --- seats -----------------------------------------------------------------------------

    def seats(self, game_id: str) -> list[SeatRow]:
        rows = self.db.execute("SELECT seat, name, address, level, secret_hash, mail, orders, seen, lang FROM seats "
                               "WHERE game = ? ORDER BY seat", (game_id,)).fetchall()
        return [SeatRow(r[0], r[1], r[2], r[3], r[4], MailOption(r[5]), [parse_order(o) for o in json.loads(r[6])], r[7],
                        r[8])
                for r in rows]

    def add_seat(self, game_id: str, seat: SeatRow) -> None:
        self.db.execute("INSERT INTO seats VALUES (?,?,?,?,?,?,?,?,?,?)", (
            game_id, seat.seat, seat.name, seat.address, seat.level, seat.secret_hash, seat.mail,
            _orders(seat), seat.seen, seat.lang))

    def save_seat(self, game_id: str, seat: SeatRow) -> None:
        self.db.execute("UPDATE seats SET address = ?, level = ?, secret_hash = ?, mail = ?, orders = ?, seen = ?, "
                        "lang = ? WHERE game = ? AND seat = ?", (seat.address, seat.level, seat.secret_hash, seat.mail,
                                                                _orders(seat), seat.seen, seat.lang, game_id, seat.seat))

    # --- moves and the log -------------------------------------------------------------------

    def moves(self, game_id: str) -> list[tuple[int, str, MoveSource]]:
        """(seat, move in notation, how it was made) of every accepted move, in order."""
        return [(r[0], r[1], MoveSource(r[2])) for r in self.db.execute(
            "SELECT seat, text, how FROM moves WHERE game = ? ORDER BY ply", (game_id,))]

    def move_count(self, game_id: str) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM moves WHERE game = ?", (game_id,)).fetchone()[0])

    def add_move(self, game_id: str, ply: int, seat: int, text: str, how: MoveSource) -> None:
        self.db.execute("INSERT INTO moves VALUES (?,?,?,?,?)", (game_id, ply, seat, text, MoveSource(how).value))

    def add_log(self, game_id: str, line: str, said: Mapping[str, str] | None = None) -> int:
        """A public line of the game's log, in English and (said) in other languages."""
        cursor = self.db.execute("INSERT INTO log (game, line, said) VALUES (?, ?, ?)",
                                 (game_id, line, json.dumps(dict(said or {}), ensure_ascii=False)))
        return int(cursor.lastrowid or 0)

    def log_since(self, game_id: str, after: int, lang: str = "en") -> list[tuple[int, str]]:
        """(id, line) of the log after id ``after``, each line in lang where it was said in it, else English."""
        return [(r[0], json.loads(r[2]).get(lang, r[1])) for r in self.db.execute(
            "SELECT id, line, said FROM log WHERE game = ? AND id > ? ORDER BY id", (game_id, after))]

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

    def queue(self, game_id: str | None, recipient: str, subject: str, body: str, reply_to: str, kind: MailKind,
              at: float) -> int:
        cursor = self.db.execute(
            "INSERT INTO outbox (game, recipient, subject, body, reply_to, kind, created) VALUES (?,?,?,?,?,?,?)",
            (game_id, recipient, subject, body, reply_to, MailKind(kind).value, at))
        return int(cursor.lastrowid or 0)

    def pending(self, now: float | None = None, after: int = 0) -> list[Outgoing]:
        """The mails to be sent, oldest first: those due by now (all when None), numbered above after."""
        query = f"SELECT {_OUTGOING} FROM outbox WHERE state = ? AND id > ?"
        arguments: tuple[object, ...] = (MailState.PENDING.value, after)
        if now is not None:
            query += " AND next_try <= ?"
            arguments += (now,)
        return [_outgoing(row) for row in self.db.execute(query + " ORDER BY id", arguments)]

    def mark_sent(self, outbox_id: int) -> None:
        """The mail is handed on: its body is dropped (the transport has it; a welcome's holds a secret)."""
        self.db.execute("UPDATE outbox SET state = ?, body = '', error = '' WHERE id = ?",
                        (MailState.SENT.value, outbox_id))

    def mark_failed(self, outbox_id: int, attempts: int, error: str) -> None:
        """The mail is set aside for good (kept, body and all, for the operator to retry or drop)."""
        self.db.execute("UPDATE outbox SET state = ?, attempts = ?, error = ? WHERE id = ?",
                        (MailState.FAILED.value, attempts, error, outbox_id))

    def mark_retry(self, outbox_id: int, attempts: int, next_try: float, error: str) -> None:
        """The mail failed for now: it stays pending, tried again from next_try on."""
        self.db.execute("UPDATE outbox SET state = ?, attempts = ?, next_try = ?, error = ? WHERE id = ?",
                        (MailState.PENDING.value, attempts, next_try, error, outbox_id))

    def mark_dropped(self, outbox_id: int) -> None:
        """The operator gave the mail up: it is never sent, and its body is dropped."""
        self.db.execute("UPDATE outbox SET state = ?, body = '' WHERE id = ?", (MailState.DROPPED.value, outbox_id))

    def mail(self, outbox_id: int) -> Outgoing | None:
        row = self.db.execute(f"SELECT {_OUTGOING} FROM outbox WHERE id = ?", (outbox_id,)).fetchone()
        return None if row is None else _outgoing(row)

    def outbox(self, game_id: str | None = None, state: MailState | None = None) -> list[Outgoing]:
        """The mails queued (of one game, in one state), oldest first, for status and the tests."""
        query = f"SELECT {_OUTGOING} FROM outbox WHERE 1"
        arguments: tuple[object, ...] = ()
        if game_id is not None:
            query += " AND game = ?"
            arguments += (game_id,)
        if state is not None:
            query += " AND state = ?"
            arguments += (state.value,)
        return [_outgoing(row) for row in self.db.execute(query + " ORDER BY id", arguments)]

    def count_mails(self, state: MailState, game_id: str | None = None) -> int:
        query = "SELECT COUNT(*) FROM outbox WHERE state = ?" + (" AND game = ?" if game_id is not None else "")
        arguments = (state.value,) + ((game_id,) if game_id is not None else ())
        return int(self.db.execute(query, arguments).fetchone()[0])

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


def _orders(seat: SeatRow) -> str:
    """A seat's standing orders as the store keeps them: a JSON list of their texts."""
    return json.dumps([format_order(order) for order in seat.orders])
