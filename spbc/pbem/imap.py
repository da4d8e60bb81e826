"""An IMAP mailbox as the server's inbox (``spb pbem poll``): for a host who has a mailbox, not a mail server.

The poller logs in over TLS (or STARTTLS: a password never crosses in the clear), looks in ``[imap]
mailbox`` for every mail not yet handled, and hands each to the server as ``spb pbem receive`` would
(:func:`spbc.pbem.inbox.take`); then it marks the mail, ``\\Seen`` and ``$SpbHandled`` (``$SpbQuarantined``
as well when the server failed on it, which leaves it in the mailbox for the operator), or moves it to
``[imap] done``, and sends the replies. Between looks it waits in IMAP IDLE where the server offers it
(renewed every ``[imap] idle`` seconds, 600 unless set), else ``[imap] interval`` seconds.

Each mail is applied once. The mark comes after the commit of the mail's batch: a poller stopped between the two
sees the mail again next time, and the store, which notes every mail it handled by sender and
Message-ID, answers it as a repeat and changes nothing. A dropped connection, a restarted IMAP server or a
failed login is logged and tried again, waiting twice as long each time up to five minutes; a store that
cannot take a mail now (:class:`spbc.pbem.inbox.StoreBusy`) leaves it unmarked for the next look.
"""

from __future__ import annotations

import imaplib
import logging
import os
import re
import select
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from spbc.pbem.config import Config, ImapPart
from spbc.pbem.inbox import QUARANTINED, StoreBusy, take_batch
from spbc.pbem.server import Outcome, Server

log = logging.getLogger("spbc.pbem")
#: The keyword a handled mail gets, and the one a mail the server failed on gets as well.
HANDLED, ASIDE = "$SpbHandled", "$SpbQuarantined"
#: The longest wait before trying a lost connection again, in seconds.
BACKOFF_MAX = 300.0
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


class ImapError(Exception):
    """The mailbox cannot be used now (refused login, no such mailbox, a connection lost); says why."""


@dataclass
class Mailbox:
    """One logged-in connection to the inbox, its mailbox selected."""

    settings: ImapPart
    connection: imaplib.IMAP4

    @classmethod
    def open(cls, settings: ImapPart, cafile: str | None = None) -> Mailbox:
        """Connect, secure, log in and select; ImapError says which step failed and why."""
        password = os.environ.get(settings.password_env)
        if not settings.username or password is None:
            raise ImapError(f"no IMAP login: set [imap] username and the password in ${settings.password_env}")
        context = ssl.create_default_context()
        if cafile:
            context.load_verify_locations(cafile)
        try:
            if settings.security == "tls":
                connection: imaplib.IMAP4 = imaplib.IMAP4_SSL(settings.host, settings.port, ssl_context=context,
                                                              timeout=settings.timeout)
            else:
                connection = imaplib.IMAP4(settings.host, settings.port, timeout=settings.timeout)
                connection.starttls(ssl_context=context)
            connection.login(settings.username, password)
            status, _ = connection.select(_quoted(settings.mailbox))
        except (OSError, imaplib.IMAP4.error) as error:
            raise ImapError(f"IMAP {settings.host}:{settings.port}: {error}") from None
        if status != "OK":
            raise ImapError(f"IMAP {settings.host}:{settings.port}: no mailbox {settings.mailbox!r}")
        return cls(settings, connection)

    def waiting(self) -> list[str]:
        """The UIDs of the mails not yet handled, oldest first."""
        status, data = self.connection.uid("SEARCH", "UNKEYWORD", HANDLED, "UNDELETED")
        _check(status, data, "SEARCH")
        found = data[0] if data and isinstance(data[0], bytes) else b""
        return sorted((uid.decode("ascii") for uid in found.split()), key=int)

    def fetch(self, uid: str, limit: int) -> bytes | None:
        """The mail of uid, at most limit bytes of it (a longer one is refused unread); None when it is gone."""
        status, data = self.connection.uid("FETCH", uid, "(RFC822.SIZE)")
        _check(status, data, "FETCH")
        size = next((int(found.group(1)) for item in data if isinstance(item, bytes)
                     for found in [_SIZE.search(item)] if found), None)
        if size is None:
            return None
        part = "BODY.PEEK[]" if size <= limit else f"BODY.PEEK[]<0.{limit}>"
        status, data = self.connection.uid("FETCH", uid, f"({part})")
        _check(status, data, "FETCH")
        return next((item[1] for item in data if isinstance(item, tuple)), None)

    def mark(self, uid: str, aside: bool) -> None:
        """Mark a handled mail (or move it to ``done``); a mail the server failed on stays, marked aside."""
        flags = f"(\\Seen {HANDLED}{' ' + ASIDE if aside else ''})"
        status, data = self.connection.uid("STORE", uid, "+FLAGS", flags)
        _check(status, data, "STORE")
        if self.settings.done and not aside:
            status, data = self.connection.uid("COPY", uid, _quoted(self.settings.done))
            if status != "OK":  # the folder is made once, when it is first needed
                self.connection.create(_quoted(self.settings.done))
                status, data = self.connection.uid("COPY", uid, _quoted(self.settings.done))
            _check(status, data, "COPY")
            status, data = self.connection.uid("STORE", uid, "+FLAGS", "(\\Deleted)")
            _check(status, data, "STORE")
            self.connection.expunge()

    def wait(self, seconds: float, stop: threading.Event) -> None:
        """Wait for new mail: in IDLE where the server offers it, for at most seconds; else sleep the interval.

        IDLE is read here, a byte at a time from the socket (TLS's own buffer counted), not through
        imaplib's buffered reader, which would hold back a line it has read ahead; a stop is seen within
        a second."""
        if "IDLE" not in self.connection.capabilities:
            stop.wait(self.settings.interval)
            return
        sock = self.connection.socket()
        self.connection.send(b"SPBIDLE IDLE\r\n")
        if not _line(sock, self.settings.timeout).startswith(b"+"):
            raise ImapError("the server refused IDLE")
        left = seconds
        while left > 0 and not stop.is_set():
            if not _readable(sock, 1.0):
                left -= 1.0
                continue
            line = _line(sock, self.settings.timeout)
            if line.startswith(b"*") and (b"EXISTS" in line or b"RECENT" in line):
                break
        self.connection.send(b"DONE\r\n")
        while not _line(sock, self.settings.timeout).startswith(b"SPBIDLE "):
            pass  # what the server said meanwhile, to IDLE's own answer

    def close(self) -> None:
        try:
            self.connection.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


def _readable(sock: socket.socket, seconds: float) -> bool:
    """Whether the socket has something to read within seconds (what TLS has decrypted already counts)."""
    if isinstance(sock, ssl.SSLSocket) and sock.pending():
        return True
    return bool(select.select([sock], [], [], seconds)[0])


def _line(sock: socket.socket, seconds: float) -> bytes:
    """One line from the socket, read to its end; ImapError when the server closes or stays silent."""
    line = bytearray()
    while not line.endswith(b"\n"):
        if len(line) > 65_536 or not _readable(sock, seconds):
            raise ImapError("the IMAP server stopped answering")
        byte = sock.recv(1)
        if not byte:
            raise ImapError("the IMAP server closed the connection")
        line += byte
    return bytes(line)


def _quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _check(status: str, data: list[object], what: str) -> None:
    if status != "OK":
        raise ImapError(f"IMAP {what} failed: {data!r:.200}")


def open_inbox(config: Config) -> Mailbox:
    """The inbox of a configuration's ``[imap]``, logged in and selected; ImapError."""
    settings = config.imap
    return Mailbox.open(settings, str(config.path(settings.cafile)) if settings.cafile else None)


def poll_once(server: Server, box: Mailbox) -> list[Outcome]:
    """Handle every waiting mail of the mailbox in batches (:func:`spbc.pbem.inbox.take_batch`), mark the
    mails of each batch once it is committed, then send the replies."""
    outcomes = []
    fetched = _fetched(server, box)
    try:
        # StoreBusy or a lost connection rolls the batch back: its mails stay unmarked, for the next look
        while taken := take_batch(server, fetched):
            for uid, outcome in taken:
                outcomes.append(outcome)
                box.mark(uid, outcome.result.startswith(QUARANTINED))
    finally:
        server.flush()
    return outcomes


def _fetched(server: Server, box: Mailbox) -> Iterator[tuple[str, bytes]]:
    """The UID and bytes of each mail waiting, oldest first (those expunged meanwhile left out)."""
    limit = server.config.limits.max_bytes + 1
    for uid in box.waiting():
        data = box.fetch(uid, limit)
        if data is not None:
            yield uid, data


def poll(server: Server, stop: threading.Event, on_look: Callable[[list[Outcome]], None] | None = None,
         connect: Callable[[], Mailbox] | None = None) -> None:
    """Poll the mailbox of ``[imap]`` until stop is set, through lost connections and a busy store;
    on_look is told what each look handled."""
    settings = server.config.imap
    opener = connect or (lambda: open_inbox(server.config))
    backoff = 1.0
    while not stop.is_set():
        try:
            box = opener()
        except ImapError as error:
            log.error("%s; trying again in %.0f s", error, backoff)
            stop.wait(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX)
            continue
        log.info("IMAP %s:%s: logged in, watching %s", settings.host, settings.port, settings.mailbox)
        try:
            while not stop.is_set():
                outcomes = poll_once(server, box)
                backoff = 1.0
                if on_look is not None:
                    on_look(outcomes)
                box.wait(settings.idle, stop)
        except StoreBusy as error:
            log.error("the store cannot take mail now (%s); trying again in %.0f s", error, backoff)
            stop.wait(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX)
        except (ImapError, OSError, imaplib.IMAP4.error) as error:
            log.error("IMAP connection lost (%s); trying again in %.0f s", error, backoff)
            stop.wait(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX)
        finally:
            box.close()
