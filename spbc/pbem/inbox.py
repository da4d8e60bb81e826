"""Mail in: one message from standard input, or every new message of a Maildir, each on its own.

One mail never stops the handling of another. What can happen to a mail:

- it is handled (:meth:`spbc.pbem.server.Server.handle`): applied, answered, refused or dropped;
- the store cannot take it now (locked for longer than ``[server] busy_seconds``, a disk I/O error,
  a store that cannot be opened): :class:`StoreBusy`. On standard input that is exit 75, so the MTA
  delivers the mail again later; in a Maildir the run stops and the mails of the batch stay in ``new/``;
- anything else goes wrong while it is handled (a fault of the server's that this mail brings
  out): the mail is quarantined: its handling is rolled back, the reason is logged, it is noted in
  the store as handled (so a second delivery is a repeat) and kept aside for the operator, in the
  Maildir's ``quarantine/`` folder or, from standard input, in the folder ``[server] quarantine``;
- an entry of a Maildir's ``new/`` that is no regular file (a FIFO, a folder, a link, a device) is
  never opened (a FIFO would block the run for ever): it is moved to ``quarantine/`` with a log line.

Mails that come together (a Maildir, an IMAP look, the mails queued at a resident receiver) are handled
in batches (:func:`take_batch`, group commit): one transaction of at most :data:`BATCH_MAILS` mails or
``[server] batch_seconds``, each mail a savepoint in it, so that a mail the server fails on is rolled back
alone and quarantined, while the batch is made durable by one commit (one sync at ``synchronous =
FULL``). A mail is moved out of ``new/`` (or marked in IMAP, or its sender answered) only after its
batch commits, and the replies are sent after that; a crash before the commit loses the whole batch's
work and each of its mails is delivered again, a crash after it leaves mails that the store knows by
their Message-ID, so each is applied once.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
import sqlite3
import stat
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

from spbc.pbem import crash

from spbc.pbem.mailin import clean_header, read_mail
from spbc.pbem.server import Outcome, Server

log = logging.getLogger("spbc.pbem")
QUARANTINED = "quarantined: "
#: A batch of mails is committed after this many mails, or once ``[server] batch_seconds`` have passed
#: since it began: no reply waits longer than that for the mails handled before it.
BATCH_MAILS = 500
Item = TypeVar("Item")


class StoreBusy(Exception):
    """The store cannot take a mail now (locked, or the disk failing): deliver it again later."""


def store_busy(error: BaseException) -> bool:
    """Whether an error of SQLite means the store cannot take a mail now, rather than that the mail is bad:
    locked or busy, a disk I/O error, a full disk, a store that cannot be opened or is no database."""
    return isinstance(error, sqlite3.OperationalError) or type(error) is sqlite3.DatabaseError


def busy_answer(server: Server, error: BaseException) -> str:
    """What the MTA's log is told when the store cannot take a mail now (exit 75)."""
    return (f"the store {server.config.store_path} cannot take the mail now ({error}); nothing was changed, "
            "deliver it again later")


def take(server: Server, data: bytes) -> Outcome:
    """Handle one mail; a failure that is not the store's (StoreBusy) quarantines it and is its outcome."""
    try:
        return server.handle(data)
    except sqlite3.Error as error:
        if store_busy(error):
            raise StoreBusy(str(error)) from error
        reason = _describe(error)
    except Exception as error:  # noqa: BLE001 - whatever one mail brings out is that mail's problem
        reason = _describe(error)
    return _note(server, data, reason)


def receive_stdin(server: Server, data: bytes) -> Outcome:
    """Handle one mail from standard input and send the replies; a quarantined mail is written to the
    folder ``[server] quarantine``. StoreBusy when the store cannot take it now."""
    outcome = receive_one(server, data)
    server.flush()
    return outcome


def take_batch(server: Server, mails: Iterator[tuple[Item, bytes]]) -> list[tuple[Item, Outcome]]:
    """Take mails from the iterator and handle them in one transaction, one savepoint each (see :func:`take`),
    until it ends or the batch is full (:data:`BATCH_MAILS`, ``[server] batch_seconds``); then commit. Each
    mail's item and its outcome, [] when the iterator had none left. The caller moves or marks the mails
    and sends the replies once this returns. StoreBusy (or any error out of the iterator) rolls the whole
    batch back: none of its mails is handled, and each is delivered again."""
    taken: list[tuple[Item, Outcome]] = []
    first = next(mails, None)
    if first is None:
        return taken  # no transaction for no mail
    start, seconds = time.monotonic(), server.config.server.batch_seconds
    with server.store.batch():
        for item, data in itertools.chain([first], mails):
            taken.append((item, take(server, data)))
            if len(taken) >= BATCH_MAILS or time.monotonic() - start >= seconds:
                break
    crash.point("committed")
    return taken


def receive_one(server: Server, data: bytes) -> Outcome:
    """Handle one mail that came alone (from standard input or a resident receiver's socket), its replies
    queued, not sent; a quarantined mail is written to the folder ``[server] quarantine``. StoreBusy when
    the store cannot take it now."""
    outcome = take(server, data)
    keep_aside(server, data, outcome)
    return outcome


def keep_aside(server: Server, data: bytes, outcome: Outcome) -> None:
    """Write a mail that came alone to the folder ``[server] quarantine`` when it was quarantined."""
    if outcome.result.startswith(QUARANTINED):
        folder = server.config.path(server.config.server.quarantine)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            name = f"{int(time.time())}.{os.getpid()}.{hashlib.sha256(data).hexdigest()[:16]}"
            (folder / name).write_bytes(data)
            log.error("mail kept in %s", folder / name)
        except OSError as error:
            log.error("the quarantined mail could not be kept in %s: %s", folder, error)


def receive_maildir(server: Server, folder: Path) -> list[Outcome]:
    """Handle every message in folder/new (oldest name first), in batches (:func:`take_batch`): once its
    batch is committed each is moved to cur/, or to quarantine/ when it cannot be handled (see the
    module's docstring); then the replies are sent. StoreBusy stops the run with the mails of the batch
    that met it still in new/."""
    outcomes: list[Outcome] = []
    new, cur, aside = folder / "new", folder / "cur", folder / "quarantine"
    cur.mkdir(parents=True, exist_ok=True)
    readable = _readable(server, new, aside, outcomes)
    while taken := take_batch(server, readable):
        for name, outcome in taken:
            outcomes.append(outcome)
            if outcome.result.startswith(QUARANTINED):
                aside.mkdir(exist_ok=True)
                _move(new / name, aside / name)
            else:
                _move(new / name, cur / (name + ":2,S"))
    server.flush()
    return outcomes


def _readable(server: Server, new: Path, aside: Path, outcomes: list[Outcome]) -> Iterator[tuple[str, bytes]]:
    """The name and bytes of each mail in new/, oldest name first; an entry that is no regular file is
    moved to aside at once, its outcome added to outcomes (the store knows nothing of it)."""
    for name in sorted(entry.name for entry in os.scandir(new) if not entry.name.startswith(".")):
        data = _read_regular(new / name, server.config.limits.max_bytes + 1)
        if data is None:
            continue  # another process took it
        if isinstance(data, bytes):
            yield name, data
            continue
        log.error("%s: %s; moved to %s", new / name, data, aside)
        outcomes.append(Outcome(name, None, QUARANTINED + data))
        aside.mkdir(exist_ok=True)
        _move(new / name, aside / name)


def _read_regular(path: Path, limit: int) -> bytes | str | None:
    """The first limit bytes of a regular file; why not (a str) when it is none; None when it is gone."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            return f"it is no regular file ({_kind(info.st_mode)}), and is not read"
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as error:  # a link put in its place since, or no permission
        return f"it cannot be opened ({error.strerror})"
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return "it is no regular file, and is not read"
        return stream.read(limit)


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device")):
        if test(mode):
            return kind
    return "of an unknown kind"


def _move(path: Path, to: Path) -> None:
    """Move a mail (or what stands in new/) to its folder, beside one of the same name if there is one."""
    target, number = to, 0
    while target.exists() or target.is_symlink():
        number += 1
        target = to.with_name(f"{to.name}.{number}")
    try:
        path.rename(target)
    except FileNotFoundError:
        pass  # another process took it
    except OSError as error:  # it stays in new/; noted as handled, it is a repeat next time
        log.error("%s could not be moved to %s: %s", path, target.parent, error.strerror)


def _describe(error: BaseException) -> str:
    """The error's type and where it was raised: no message, which could hold what a seat may not see."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"the server failed on it ({type(error).__name__}{where})"


def _note(server: Server, data: bytes, reason: str) -> Outcome:
    """Log a quarantined mail and note it in the store as handled (when the store can)."""
    mail = read_mail(data, server.config.limits.max_bytes)
    log.error("mail %s from %s: %s%s", clean_header(mail.key)[:80], mail.sender or "?", QUARANTINED, reason)
    try:
        with server.store.transaction():
            if server.store.handled(mail.sender, mail.key) is None:
                server.store.note_handled(mail.key, None, mail.sender, server.clock(), QUARANTINED + reason)
    except sqlite3.Error as error:
        if store_busy(error):
            raise StoreBusy(str(error)) from error
        log.error("the quarantined mail could not be noted in the store: %s", _describe(error))
    return Outcome(mail.key, None, QUARANTINED + reason)
