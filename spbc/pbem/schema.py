"""The store's schema and its versions: each version a step of SQL from the one before.

A store records its version in SQLite's ``user_version``. Opening a store brings it to
:data:`VERSION` step by step, all steps in the one transaction that sets the new number, so a
store is always at one whole version: a crash during an upgrade leaves it as it was.

- Version 1 is the schema of the first server (its stores say ``user_version = 0`` with the tables
  present).
- Version 2: the rules of each game kept with it (the text and its digest, so that a game never
  depends on a file or a working folder); for each queued mail, how often it was tried, when it is
  tried next and why it failed last, and a state ``failed`` for a mail set aside; a per-store salt
  that makes outbox names and Message-IDs unique across stores; mails handled keyed by sender and
  Message-ID together.
- Version 3: for each game, the reason it could not be loaded that its administrator was told
  (``unloadable``; '' once it loads), so that they are told once, not for every mail.

- Version 4: the language of each seat's mails, and each log line in the other languages.
- Version 5: the games of the web server (``spb serve``) beside the mail server's: each game's
  rules, seats and seed, the digests of its links, and its moves in order (replayed on start).
- Version 6: seats that resigned (the address they had, the policy that plays on for them) and
  seats away until a time; each game's resign policy where it is not the default; the observers of
  each game; the key of the watch codes (spbc.pbem.seat, spbc.pbem.watchers).
- Version 7: games made by mail before they start (:mod:`spbc.pbem.lobby_store`): new tables only.

A store written by a newer spbc (a version above :data:`VERSION`) is refused, never changed.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable

from spbc.pbem.lobby_store import migrate_lobby

V1 = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, rules TEXT NOT NULL, state TEXT NOT NULL, status TEXT NOT NULL,
    created REAL NOT NULL, agent_seed INTEGER NOT NULL, admin TEXT NOT NULL, admin_hash TEXT NOT NULL,
    deadline REAL NOT NULL, remind REAL NOT NULL, policy TEXT NOT NULL, hints INTEGER NOT NULL,
    turn_since REAL NOT NULL, reminded INTEGER NOT NULL DEFAULT 0, late INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, address TEXT, level TEXT,
    secret_hash TEXT NOT NULL, mail TEXT NOT NULL, orders TEXT NOT NULL, seen INTEGER NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL, ply INTEGER NOT NULL, seat INTEGER NOT NULL, text TEXT NOT NULL, how TEXT NOT NULL,
    PRIMARY KEY (game, ply)
);
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, line TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS log_game ON log (game, id);
CREATE TABLE IF NOT EXISTS messages (
    key TEXT PRIMARY KEY, game TEXT, sender TEXT NOT NULL, handled REAL NOT NULL, outcome TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT, recipient TEXT NOT NULL, subject TEXT NOT NULL,
    body TEXT NOT NULL, reply_to TEXT NOT NULL, kind TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'pending',
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_state ON outbox (state, id);
CREATE TABLE IF NOT EXISTS refusals (address TEXT PRIMARY KEY, at REAL NOT NULL, count INTEGER NOT NULL);
"""


def _v1(db: sqlite3.Connection) -> None:
    for statement in V1.split(";"):
        if statement.strip():
            db.execute(statement)


def _v2(db: sqlite3.Connection) -> None:
    for statement in (
        "ALTER TABLE games ADD COLUMN rules_text TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE games ADD COLUMN rules_digest TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE outbox ADD COLUMN next_try REAL NOT NULL DEFAULT 0",
        "ALTER TABLE outbox ADD COLUMN error TEXT NOT NULL DEFAULT ''",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE messages_v2 (sender TEXT NOT NULL, key TEXT NOT NULL, game TEXT, handled REAL NOT NULL,"
        " outcome TEXT NOT NULL, PRIMARY KEY (sender, key))",
        "INSERT INTO messages_v2 SELECT sender, key, game, handled, outcome FROM messages",
        "DROP TABLE messages",
        "ALTER TABLE messages_v2 RENAME TO messages",
    ):
        db.execute(statement)
    db.execute("INSERT INTO meta VALUES ('salt', ?)", (secrets.token_hex(8),))


def _v3(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE games ADD COLUMN unloadable TEXT NOT NULL DEFAULT ''")


def _v4(db: sqlite3.Connection) -> None:
    """The language of each seat's mails, and each log line in the languages besides English (a JSON
    object, language -> line; a line stored before is said in English to everyone)."""
    _add_column(db, "seats", "lang", "TEXT NOT NULL DEFAULT 'en'")
    _add_column(db, "log", "said", "TEXT NOT NULL DEFAULT '{}'")


def _add_column(db: sqlite3.Connection, table: str, column: str, declared: str) -> None:
    """Add a column unless the table has it (a store set back to an earlier version by hand keeps it)."""
    if not any(row[1] == column for row in db.execute(f"PRAGMA table_info({table})")):
        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declared}")


def _v5(db: sqlite3.Connection) -> None:
    """The web server's games: a game (its seats a JSON list of [name, level or null]; its seed as text,
    all 64 bits), the digests of its links (seat -1: the spectators'), its moves (``typed``: what the person wrote, so a repeated
    request is known after a restart)."""
    for statement in (
        "CREATE TABLE IF NOT EXISTS web_games (id TEXT PRIMARY KEY, rules TEXT NOT NULL, seats TEXT NOT NULL,"
        " seed TEXT NOT NULL, created REAL NOT NULL)",
        "CREATE TABLE IF NOT EXISTS web_links (game TEXT NOT NULL, seat INTEGER NOT NULL, digest TEXT NOT NULL,"
        " PRIMARY KEY (game, seat))",
        "CREATE TABLE IF NOT EXISTS web_moves (game TEXT NOT NULL, ply INTEGER NOT NULL, seat INTEGER NOT NULL,"
        " text TEXT NOT NULL, typed TEXT NOT NULL, how TEXT NOT NULL, PRIMARY KEY (game, ply))",
    ):
        db.execute(statement)


def _v6(db: sqlite3.Connection) -> None:
    """Resigned and away seats, resign policies, observers, and the secret key of the watch codes."""
    for statement in (
        "CREATE TABLE IF NOT EXISTS resigned (game TEXT NOT NULL, seat INTEGER NOT NULL, address TEXT NOT NULL,"
        " policy TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (game, seat))",
        "CREATE TABLE IF NOT EXISTS away (game TEXT NOT NULL, seat INTEGER NOT NULL, until REAL NOT NULL,"
        " PRIMARY KEY (game, seat))",
        "CREATE TABLE IF NOT EXISTS resign_policies (game TEXT PRIMARY KEY, policy TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS watchers (game TEXT NOT NULL, address TEXT NOT NULL, lang TEXT NOT NULL,"
        " since REAL NOT NULL, PRIMARY KEY (game, address))",
        "INSERT OR IGNORE INTO meta VALUES ('watch_key', '%s')" % secrets.token_hex(32),
    ):
        db.execute(statement)


#: Each step brings a store from the version before it to its number.
MIGRATIONS: list[tuple[int, Callable[[sqlite3.Connection], None]]] = [
    (1, _v1),
    (2, _v2),
    (3, _v3),
    (4, _v4),
    (5, _v5),
    (6, _v6),
    (7, migrate_lobby),
]
VERSION = MIGRATIONS[-1][0]


class SchemaError(ValueError):
    """A store that this spbc cannot use (written by a newer one); it is left as it is."""


def version_of(db: sqlite3.Connection) -> int:
    """The store's version: its user_version, or 1 for a first-server store (tables, version 0)."""
    number = int(db.execute("PRAGMA user_version").fetchone()[0])
    if number == 0 and db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
        return 1
    return number


def migrate(db: sqlite3.Connection) -> int:
    """Bring the store to :data:`VERSION` in one transaction (``db`` in autocommit mode); the
    version it had. Raises :class:`SchemaError` for a store of a newer version."""
    db.execute("BEGIN IMMEDIATE")  # two processes opening one old store upgrade it once
    try:
        found = version_of(db)
        if found > VERSION:
            raise SchemaError(f"the store is of version {found}, written by a newer spbc; this one knows "
                              f"versions up to {VERSION}: upgrade spbc")
        for number, step in MIGRATIONS:
            if number > found:
                step(db)
                db.execute(f"PRAGMA user_version = {number}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return found
