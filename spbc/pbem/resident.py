"""The resident receiver: ``spb pbem serve`` keeps one server (its store open, rules and games loaded once)
and takes the mails that ``spb pbem receive`` hands it over a Unix socket (:mod:`spbc.pbem.relay`).

Each mail is handled as ``receive`` handles one from standard input (:func:`spbc.pbem.inbox.receive_one`):
a quarantined mail kept aside; the sender is answered once the mail is committed (or refused), then the
replies are sent. Mails are taken in the order they connect; those that wait at the socket together are
handled as one batch (:func:`spbc.pbem.inbox.take_batch`: one transaction, a savepoint each); other
commands (``tick``, ``admin``, a Maildir ``receive``) may use the store meanwhile, as they may beside each
other, since every game is read in the transaction that changes it.

Only the receiver's own user (and root) may hand it mail: the socket is made readable and writable by its
owner alone, and a connection from another user is closed unread.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import stat
import struct
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from spbc.pbem.inbox import BATCH_MAILS, StoreBusy, busy_answer, keep_aside, take_batch
from spbc.pbem.relay import EX_TEMPFAIL, connect
from spbc.pbem.server import Server

log = logging.getLogger("spbc.pbem")

#: Seconds a connection may take to hand over its mail before it is closed unread (its sender exits 75).
READ_SECONDS = 60.0
#: struct ucred of SO_PEERCRED: pid, uid, gid.
_UCRED = struct.Struct("3i")


class ReceiverError(Exception):
    """The receiver cannot listen: another one listens at the socket, or the path cannot be one."""


class _Stopped(Exception):
    """Raised by the signal handler while the receiver waits for a connection."""


class Receiver:
    """A resident receiver of one server at one socket path; :meth:`run` serves until SIGTERM or SIGINT."""

    def __init__(self, server: Server, path: Path) -> None:
        self.server = server
        self.path = path
        self.handled = 0
        self._listener: socket.socket | None = None
        self._busy = False
        self._stopping = False

    def listen(self) -> None:
        """Bind the socket (owner only) and listen; ReceiverError when another receiver listens there or
        something that is no socket stands at the path."""
        probe = connect(self.path)
        if probe is not None:
            probe.close()  # sends nothing: the receiver there handles no mail of it
            raise ReceiverError(f"a receiver already listens at {self.path}")
        try:
            if stat.S_ISSOCK(os.lstat(self.path).st_mode):
                os.unlink(self.path)  # left by a receiver that was killed: nobody listens at it
            else:
                raise ReceiverError(f"{self.path} is there and is no socket; move it away first")
        except FileNotFoundError:
            pass
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        mask = os.umask(0o177)
        try:
            listener.bind(os.fspath(self.path))
        except OSError as error:  # another receiver bound it just now, a name too long, no permission
            listener.close()
            raise ReceiverError(f"cannot listen at {self.path}: {error.strerror or error}") from None
        finally:
            os.umask(mask)
        listener.listen(64)
        self._listener = listener

    def run(self, ready: Callable[[], None] = lambda: None) -> None:
        """Take mails until SIGTERM or SIGINT (the mails being handled then are finished first); ready is
        called once both signals stop it. The mails whose senders wait at the socket together are handled
        as one batch (group commit), each sender answered once the batch is committed."""
        assert self._listener is not None, "listen() first"
        previous = {number: signal.signal(number, self._stop) for number in (signal.SIGTERM, signal.SIGINT)}
        try:
            ready()
            while not self._stopping:
                connection, _ = self._listener.accept()
                self._busy = True
                connections = [connection, *self._waiting()]
                try:
                    self._answer(connections)
                finally:
                    for each in connections:
                        each.close()
                self._send()
                self._busy = False
        except _Stopped:
            pass
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)

    def _waiting(self) -> list[socket.socket]:
        """The connections waiting at the socket already (a batch's worth at most), taken without waiting."""
        assert self._listener is not None
        more: list[socket.socket] = []
        self._listener.setblocking(False)
        try:
            while len(more) + 1 < BATCH_MAILS:
                more.append(self._listener.accept()[0])
        except BlockingIOError:
            pass
        finally:
            self._listener.setblocking(True)
        return more

    def close(self) -> None:
        """Stop listening and remove the socket."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass

    def _stop(self, number: int, frame: FrameType | None) -> None:
        self._stopping = True
        if not self._busy:
            raise _Stopped

    def _answer(self, connections: list[socket.socket]) -> None:
        """Read a mail from each connection, handle them in batches and answer each sender, once its mail's
        batch is committed, with the exit code for the MTA and a line."""
        mails = [(connection, data) for connection in connections for data in [self._read(connection)] if data]
        answers: dict[socket.socket, str] = {}
        pending = (((connection, data), data) for connection, data in mails)
        try:
            while taken := take_batch(self.server, pending):
                for (connection, data), outcome in taken:
                    keep_aside(self.server, data, outcome)
                    answers[connection] = f"0 {outcome.result}"
        except StoreBusy as error:
            busy = f"{EX_TEMPFAIL} {busy_answer(self.server, error)}"
            answers.update((connection, busy) for connection, _ in mails if connection not in answers)
        self.handled += len(mails)
        for connection, _ in mails:
            _answer_quietly(connection, answers[connection])

    def _read(self, connection: socket.socket) -> bytes | None:
        """The mail a connection hands over; None (the connection answered or left unanswered) for none."""
        uid = _UCRED.unpack(connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size))[1]
        if uid not in (os.getuid(), 0):
            log.warning("a connection of user %d to the receiver was closed unread", uid)
            return None
        connection.settimeout(READ_SECONDS)
        try:
            data = _read_mail(connection, self.server.config.limits.max_bytes + 1)
        except OSError as error:  # the sender stalled or went away: it exits 75, the MTA tries again
            log.warning("a mail handed to the receiver was not read whole: %s", error)
            return None
        if not data:  # a probe (another receiver starting) or a sender with nothing to send: no mail
            _answer_quietly(connection, "0 an empty message: nothing to handle")
            return None
        return data

    def _send(self) -> None:
        """Send the replies queued; a store that fails now leaves them queued for the next mail or flush."""
        try:
            self.server.flush()
        except Exception as error:  # noqa: BLE001 - the receiver keeps taking mail
            log.error("the replies could not be sent now: %s", error)


def _answer_quietly(connection: socket.socket, answer: str) -> None:
    """Answer the sender with one line, if it still listens (if not, a mail it sent is handled all the same,
    and a repeat when it comes again)."""
    try:
        connection.sendall(answer.encode("utf-8", "replace") + b"\n")
    except OSError:
        pass


def _read_mail(connection: socket.socket, limit: int) -> bytes:
    """The first limit bytes a sender writes before it shuts its side down; the rest is read and dropped
    (the server refuses a mail over its limit unread, as from standard input)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := connection.recv(65536):
        if size < limit:
            chunks.append(chunk[:limit - size])
        size += len(chunk)
    return b"".join(chunks)
