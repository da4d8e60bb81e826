"""The games made by mail before they start (:mod:`spbc.pbem.lobby`): their rows in the store.

A lobby entry is an open game: its rules, how many people it waits for, its computer seats, its
creator, and for a private game the digest of its invite code (never the code). Each person who joined
is a row of ``lobby_seats`` in the order they joined. When the game starts it becomes an ordinary game
of the ``games`` table (same id), and its entry is kept with the state ``started``; an entry its creator
cancelled is kept with the state ``cancelled`` (its id is not given again).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


def migrate_lobby(db: sqlite3.Connection) -> None:
    """Schema step: the tables of games made by mail. Only new tables (nothing of an earlier version is
    read or changed), so the step applies on top of any version before it."""
    for statement in (
        "CREATE TABLE IF NOT EXISTS lobby (id TEXT PRIMARY KEY, rules TEXT NOT NULL, players INTEGER NOT NULL,"
        " ai TEXT NOT NULL, private INTEGER NOT NULL, code_hash TEXT NOT NULL, creator TEXT NOT NULL,"
        " lang TEXT NOT NULL, created REAL NOT NULL, state TEXT NOT NULL)",
        "CREATE INDEX IF NOT EXISTS lobby_creator ON lobby (creator, state)",
        "CREATE TABLE IF NOT EXISTS lobby_seats (lobby TEXT NOT NULL, address TEXT NOT NULL, name TEXT NOT NULL,"
        " lang TEXT NOT NULL, joined REAL NOT NULL, PRIMARY KEY (lobby, address))",
    ):
        db.execute(statement)


@dataclass(frozen=True)
class Entry:
    """One game made by mail: ``ai`` its computer levels (comma-separated, '' for none)."""

    id: str
    rules: str
    players: int
    ai: str
    private: bool
    code_hash: str
    creator: str
    lang: str
    created: float
    state: str  # open, started or cancelled

    @property
    def levels(self) -> list[str]:
        return [level for level in self.ai.split(",") if level]


@dataclass(frozen=True)
class Joined:
    address: str
    name: str
    lang: str


OPEN, STARTED, CANCELLED = "open", "started", "cancelled"


class Lobby:
    """The lobby's rows of one store connection (inside the mail's transaction)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def add(self, entry: Entry) -> None:
        self.db.execute("INSERT INTO lobby VALUES (?,?,?,?,?,?,?,?,?,?)",
                        (entry.id, entry.rules, entry.players, entry.ai, int(entry.private), entry.code_hash,
                         entry.creator, entry.lang, entry.created, entry.state))

    def entry(self, lobby_id: str) -> Entry | None:
        row = self.db.execute("SELECT * FROM lobby WHERE id = ?", (lobby_id,)).fetchone()
        return None if row is None else _entry(row)

    def entries(self, state: str) -> list[Entry]:
        return [_entry(row) for row in self.db.execute("SELECT * FROM lobby WHERE state = ? ORDER BY created, id",
                                                       (state,))]

    def open_by(self, creator: str) -> int:
        row = self.db.execute("SELECT COUNT(*) FROM lobby WHERE creator = ? AND state = ?", (creator, OPEN))
        return int(row.fetchone()[0])

    def set_state(self, lobby_id: str, state: str) -> None:
        self.db.execute("UPDATE lobby SET state = ? WHERE id = ?", (state, lobby_id))

    def joined(self, lobby_id: str) -> list[Joined]:
        return [Joined(*row) for row in self.db.execute(
            "SELECT address, name, lang FROM lobby_seats WHERE lobby = ? ORDER BY joined, rowid", (lobby_id,))]

    def join(self, lobby_id: str, seat: Joined, at: float) -> None:
        self.db.execute("INSERT INTO lobby_seats VALUES (?,?,?,?,?)", (lobby_id, seat.address, seat.name,
                                                                      seat.lang, at))

    def leave(self, lobby_id: str, address: str) -> bool:
        cursor = self.db.execute("DELETE FROM lobby_seats WHERE lobby = ? AND address = ?", (lobby_id, address))
        return cursor.rowcount > 0


def _entry(row: tuple[object, ...]) -> Entry:
    text = [str(value) for value in row]
    return Entry(text[0], text[1], int(text[2]), text[3], bool(row[4]), text[5], text[6], text[7], float(text[8]),
                 text[9])
