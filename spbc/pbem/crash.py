"""Named points in the handling of a mail at which a test can have the process killed (SIGKILL).

``SPBC_PBEM_CRASH_AT=committed spb pbem receive ...`` kills the process the first time it reaches
the point ``committed``. The points, in order: ``read`` (the mail is read, nothing is written),
``applied`` (its moves are applied inside the transaction, not committed), ``committed`` (the
transaction is committed, no reply sent), ``sent`` (the first reply is delivered, not yet marked
sent; for a Maildir outbox: every reply is in new/, none is marked), ``marked`` (the replies are marked
sent), ``done`` (the outbox is sent and its lock let go). ``receive --maildir`` (and the IMAP poller, and
the resident receiver) handles mails in batches (:func:`spbc.pbem.inbox.take_batch`): ``applied`` is
reached by each mail inside the batch's transaction, ``committed`` once a batch, after its commit and
before its mails are moved to cur/ (or marked, or answered); the outbox is sent once at the end. ``sending`` is reached before each mail is
handed to the transport; by SMTP, ``sent`` and ``marked`` once a mail. ``NAME:N`` kills the process the
N-th time it reaches NAME (``sent:3``: after the third mail sent by SMTP).
"""

from __future__ import annotations

import os
import signal

POINTS = ("read", "applied", "committed", "sending", "sent", "marked", "done")
VARIABLE = "SPBC_PBEM_CRASH_AT"
_reached: dict[str, int] = {}


def point(name: str) -> None:
    """Kill this process here when the environment names this point (the N-th time, for NAME:N)."""
    wanted = os.environ.get(VARIABLE)
    if not wanted:
        return
    target, _, count = wanted.partition(":")
    if target != name:
        return
    _reached[name] = _reached.get(name, 0) + 1
    if _reached[name] >= int(count or 1):
        os.kill(os.getpid(), signal.SIGKILL)
