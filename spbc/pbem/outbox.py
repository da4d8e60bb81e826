"""The outbox: sending the queued mails, one process at a time, within a time budget, each mail's
failure its own; and what the operator does with the mails set aside.

>>> Sender(store, transport, clock=time.time, budget=10.0).flush()   # the number of mails sent
3

The policy:

- Mails go oldest first. A mail refused for good (a 5xx reply of the SMTP server, or a mail that
  cannot be written as a message at all) is set aside: its state ``failed``, the reason kept, a
  warning in the log; ``spb pbem outbox --failed`` lists it, ``--retry N`` and ``--drop N`` act on it.
  It is never tried again by itself.
- A temporary failure (a 4xx reply, a broken connection, a timeout) counts a try and puts that mail
  off: one minute, then two, four... at most :data:`BACKOFF_MAX`; after :data:`MAX_TRIES` tries, or
  once the mail is older than :data:`MAX_AGE`, it is set aside as failed too. The next mail is tried
  at once (on a connection opened again if it broke): one mail's failure never delays another's.
- A failure of the transport itself (no connection, a refused login, a full disk) ends the run: no
  mail could go now. Nothing is counted against the mails; the next run tries them again.
- One process sends at a time (an flock on a file beside the store). A run that finds it taken does
  not wait: its mails are queued, and the holder sends them before it lets go (it looks for mails
  queued meanwhile until there are none); after letting go it looks once more, so a mail queued while
  it was letting go is not left behind.
- A run sends for at most ``[mail] send_seconds``; what is left waits for the next run (``spb pbem
  flush`` from cron sends it).
"""

from __future__ import annotations

import fcntl
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from spbc.pbem import crash
from spbc.pbem.states import MailKind, MailState
from spbc.pbem.store import Outgoing, Store
from spbc.pbem.transport import MailError, Transport, TransportError

log = logging.getLogger("spbc.pbem")

BACKOFF_FIRST = 60.0  # seconds before the second try of a mail that failed for now
BACKOFF_MAX = 4 * 3600.0  # the longest wait between two tries
MAX_TRIES = 30
MAX_AGE = 3 * 86400.0  # a mail not sent after three days is set aside


class OutboxError(ValueError):
    """An operator's outbox command that cannot be carried out (no such mail, a mail already sent)."""


class Sender:
    """Sends a store's outbox through a transport. ``clock`` is the time of the store's records (seconds
    since 1970: when a mail is due, how old it is); ``timer`` measures the budget of ``budget`` seconds."""

    def __init__(self, store: Store, transport: Transport, clock: Callable[[], float], budget: float,
                 timer: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.transport = transport
        self.clock = clock
        self.budget = budget
        self.timer = timer
        self.lock_path = Path(str(store.path) + ".send-lock")

    def flush(self) -> int:
        """Send every mail due, oldest first, unless another process is sending (it sends them then);
        the number sent. Never raises for a mail or a transport that fails: that is logged and recorded."""
        deadline = self.timer() + self.budget
        sent = 0
        highest = 0  # the newest mail this run looked at
        while True:
            with self._lock() as held:
                if not held:
                    break
                done, highest, stopped = self._send_due(deadline, highest)
                sent += done
            crash.point("done")
            if stopped or self.timer() >= deadline or not self.store.pending(self.clock(), after=highest):
                break
        return sent

    @contextmanager
    def _lock(self) -> Iterator[bool]:
        """Whether this process holds the send lock (taken without waiting) inside the block."""
        with open(self.lock_path, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                self.transport.close()
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _send_due(self, deadline: float, highest: int) -> tuple[int, int, bool]:
        """Send batches of due mails until none is left, the budget is spent or the transport fails:
        (mails sent, the newest looked at, whether the run must stop)."""
        sent = 0
        after = 0  # the first batch is every mail due; the next ones only those queued since
        while self.timer() < deadline:
            batch = self.store.pending(self.clock(), after=after)
            if not batch:
                return sent, max(highest, after), False
            after = batch[-1].number
            done, stopped = self._send_batch(batch, deadline)
            sent += done
            if stopped:
                return sent, max(highest, after), True
        if self.store.pending(self.clock()):
            log.info("the sending time of this run (%g s) is spent; the mails left wait for the next run",
                     self.budget)
        return sent, max(highest, after), True

    def _send_batch(self, batch: list[Outgoing], deadline: float) -> tuple[int, bool]:
        """Hand each mail on; a mail's failure is recorded and the next one tried. (sent, stop)."""
        delivered: list[Outgoing] = []  # handed on, not yet marked sent
        sent = 0
        stopped = False
        for mail in batch:
            if self.timer() >= deadline:
                stopped = True
                break
            crash.point("sending")
            try:
                self.transport.send(mail)
            except MailError as error:
                self._failed(mail, error)
                continue
            except TransportError as error:
                log.warning("no mail can be sent now, %d stay queued: %s", len(self.store.pending()), error)
                stopped = True
                break
            delivered.append(mail)
            if not self.transport.idempotent:  # sent again after a crash: marked at once
                crash.point("sent")
                sent += self._mark(delivered)
                crash.point("marked")
        try:
            self.transport.finish()
        except TransportError as error:
            log.warning("the mails were not delivered, and stay queued: %s", error)
            return sent, True
        if delivered:
            crash.point("sent")
            sent += self._mark(delivered)
            crash.point("marked")
        return sent, stopped

    def _mark(self, mails: list[Outgoing]) -> int:
        """Mark the mails sent (their bodies dropped); after a welcome, the WAL holding it is truncated."""
        count = len(mails)
        with self.store.transaction():
            for mail in mails:
                self.store.mark_sent(mail.number)
        if any(mail.kind is MailKind.WELCOME for mail in mails):
            self.store.checkpoint()
        mails.clear()
        return count

    def _failed(self, mail: Outgoing, error: MailError) -> None:
        """Set a refused mail aside, or put off one that failed for now (the backoff of its tries)."""
        tries = mail.attempts + 1
        now = self.clock()
        what = f"mail {mail.number} to {mail.recipient} ({mail.kind}, game {mail.game or '-'})"
        if error.permanent or tries >= MAX_TRIES or now - mail.created >= MAX_AGE:
            reason = error.reason if error.permanent else f"given up after {tries} tries: {error.reason}"
            with self.store.transaction():
                self.store.mark_failed(mail.number, tries, reason)
            log.warning("%s set aside, never sent: %s (spb pbem outbox --failed lists it)", what, reason)
            return
        wait = min(BACKOFF_FIRST * 2 ** (tries - 1), BACKOFF_MAX)
        with self.store.transaction():
            self.store.mark_retry(mail.number, tries, now + wait, error.reason)
        log.warning("%s not sent (try %d), tried again in %s: %s", what, tries, _duration(wait), error.reason)


def _duration(seconds: float) -> str:
    return f"{seconds / 3600:g} h" if seconds >= 3600 else f"{seconds / 60:g} min"


# --- what the operator does (spb pbem outbox) ------------------------------------------------------

def describe(mail: Outgoing) -> str:
    """One line of the outbox listing: number, state, when queued, to whom, what, and why it failed."""
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(mail.created))
    line = f"{mail.number:>6} {mail.state.value:<8} {when} {mail.game or '-'} {mail.kind} to {mail.recipient}"
    if mail.attempts:
        line += f"; {mail.attempts} tries"
    if mail.state is MailState.PENDING and mail.next_try > mail.created:
        line += f", next {time.strftime('%Y-%m-%d %H:%M', time.gmtime(mail.next_try))}"
    if mail.error:
        line += f": {mail.error}"
    return line


def listing(store: Store, failed_only: bool = False) -> list[str]:
    """The mails not sent (pending and failed), or only those set aside; one line each."""
    states = [MailState.FAILED] if failed_only else [MailState.PENDING, MailState.FAILED]
    mails = sorted((m for state in states for m in store.outbox(state=state)), key=lambda m: m.number)
    return [describe(mail) for mail in mails]


def _unsent(store: Store, number: int) -> Outgoing:
    mail = store.mail(number)
    if mail is None:
        raise OutboxError(f"there is no mail {number} in the outbox")
    if mail.state in (MailState.SENT, MailState.DROPPED):
        raise OutboxError(f"mail {number} is {mail.state.value}")
    return mail


def retry(store: Store, number: int) -> str:
    """Put a mail set aside (or put off) back in line, to be sent at once; raises OutboxError."""
    with store.transaction():
        mail = _unsent(store, number)
        store.mark_retry(mail.number, 0, 0.0, "")
    log.info("mail %d to %s put back in line by the operator", mail.number, mail.recipient)
    return f"mail {number} to {mail.recipient} is queued again"


def drop(store: Store, number: int) -> str:
    """Give a mail up: never sent, its body dropped; raises OutboxError."""
    with store.transaction():
        mail = _unsent(store, number)
        store.mark_dropped(mail.number)
    log.info("mail %d to %s dropped by the operator", mail.number, mail.recipient)
    return f"mail {number} to {mail.recipient} is dropped"
