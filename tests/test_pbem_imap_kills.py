"""spb pbem poll killed with kill -9 over and over: a real Dovecot in (tests/imap_server.py), a real aiosmtpd out.

The mails of a game of three people and a computer wait in the IMAP inbox; ``spb pbem poll --once`` processes
take them as they arrive, a few at a time, each run killed (SIGKILL) at a random point: a named point of the handling (spbc.pbem.crash: read,
applied, committed, sending, sent, marked, done, the n-th time for those reached once a mail) or a moment of
the SMTP dialogue (the n-th RCPT, the n-th DATA before or after the server kept the mail). A killed run is
followed by another, as cron's next minute would, until one ends by itself; every few kills the IMAP server is
restarted between two runs. At the end of each round: the store is what one unkilled run left (no mail lost,
none applied twice), every mail of the inbox is marked handled, and the SMTP server got every reply that run
sent with the same body; a reply got twice only under its one Message-ID and only where a kill came after
DATA (the documented case: the mail was delivered, the process never heard so).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from imap_server import PASSWORD, USER, Dovecot, dovecot
from test_pbem_crash import kill_plan, recorder, smtp_game, snapshot  # noqa: F401  (recorder: a fixture)
from spbc.pbem import crash
from spbc.pbem.imap import HANDLED

#: Kills in all (the issue asks for at least a hundred); SPBC_IMAP_KILLS for a longer run.
KILLS = int(os.environ.get("SPBC_IMAP_KILLS", "100"))
#: The IMAP server is restarted after every this many kills.
RESTART_EVERY = 20
#: Mails that arrive together: the next ones are delivered once a run has handled these.
ARRIVING = 2


@pytest.fixture(scope="module")
def dovecot_server():
    with dovecot() as server:
        yield server


def _imap_part(imap: Dovecot) -> str:
    return (f'[imap]\nhost = "127.0.0.1"\nport = {imap.tls_port}\nsecurity = "tls"\ncafile = "{imap.cafile}"\n'
            f'username = "{USER}"\ninterval = 1\nidle = 30\n')


def _plan(rng: random.Random) -> tuple[str, object]:
    """A kill at a named point or in the SMTP dialogue (no timers: every kill is at a known step)."""
    while True:
        plan = kill_plan(rng, 1.0)
        if plan[0] != "timer":
            return plan


def _poll(folder: Path, plan: tuple[str, object] | None, handler) -> int:
    """One ``spb pbem poll --once`` run, killed as planned; its exit code."""
    env = {key: value for key, value in os.environ.items() if key != crash.VARIABLE}
    env["SPB_IMAP_PASSWORD"] = PASSWORD
    if plan is not None and plan[0] == "point":
        env[crash.VARIABLE] = str(plan[1])
    command = [sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", "poll", "--once", "--config",
               str(folder / "pbem.toml")]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    handler.arm(plan[1] if plan is not None and plan[0] == "smtp" else None, process.pid)
    try:
        _, stderr = process.communicate(timeout=180)
    finally:
        handler.arm(None, 0)
    if process.returncode not in (0, -9):
        raise AssertionError(stderr.decode()[-3000:])
    return process.returncode


def _round(source: Path, folder: Path, mails: list[bytes], imap: Dovecot, handler, rng: random.Random,
           stats: dict) -> list[tuple[str, str, str]]:
    """The mails delivered to the inbox a few at a time, as they would arrive, each few taken by poll runs killed
    at random until one ends by itself with every mail so far marked; then a flush. What the SMTP server got."""
    shutil.copytree(source, folder)
    config = folder / "pbem.toml"
    config.write_text(config.read_text(encoding="utf-8") + _imap_part(imap), encoding="utf-8")
    imap.clear()
    waiting = list(mails)
    while True:
        if not waiting and all(HANDLED in flags for flags in imap.flags()):
            break
        if all(HANDLED in flags for flags in imap.flags()):  # the mail of the next minutes arrives
            for data in waiting[:ARRIVING]:
                imap.deliver(data)
            del waiting[:ARRIVING]
        plan = _plan(rng) if stats["kills"] < KILLS and rng.random() < 0.8 else None
        code = _poll(folder, plan, handler)
        if code == -9:
            stats["kills"] += 1
            stats["by"][plan[0] if plan else "?"] += 1
            if plan is not None and (str(plan[1]).startswith("sent") or (
                    plan[0] == "smtp" and plan[1][0] == "data-after")):  # type: ignore[index]
                stats["after_data"] += 1
            if stats["kills"] % RESTART_EVERY == 0:
                imap.stop()
                imap.start()
                stats["restarts"] += 1
    env = {key: value for key, value in os.environ.items() if key != crash.VARIABLE}
    done = subprocess.run([sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", "flush", "--config", str(config)],
                          env=env, capture_output=True, timeout=180)
    assert done.returncode == 0, done.stderr.decode()
    assert len(imap.flags()) == len(mails)
    stats["snapshots"].append(snapshot(folder))
    shutil.rmtree(folder)
    return handler.take()


@pytest.mark.slow  # a real IMAP server, a real SMTP server and a process a kill
def test_a_poller_killed_a_hundred_times_handles_every_mail_once_and_loses_no_reply(tmp_path, recorder,
                                                                                    dovecot_server):
    handler, _ = recorder
    (tmp_path / "fresh").mkdir()
    mails, sent, reference = smtp_game(tmp_path / "fresh", recorder, 12)
    assert len(mails) == 12 and len(sent) > 30
    rng = random.Random(int(os.environ.get("SPBC_CRASH_SEED", "23")))
    stats = {"kills": 0, "by": {"point": 0, "smtp": 0, "?": 0}, "after_data": 0, "restarts": 0, "snapshots": []}
    rounds = duplicates = 0
    while stats["kills"] < KILLS:
        got = _round(tmp_path / "fresh", tmp_path / f"round{rounds}", mails, dovecot_server, handler, rng, stats)
        rounds += 1
        ids = [message_id for message_id, _, _ in got]
        assert set(ids) == set(sent), "a reply was lost, or one was sent that the unkilled run did not send"
        for message_id, recipient, body in got:
            assert (recipient, body) == sent[message_id], message_id
        duplicates += len(ids) - len(set(ids))
    for kept in stats["snapshots"]:
        assert kept == reference
    assert duplicates <= stats["after_data"]  # a mail in flight a kill at most
    assert stats["kills"] >= KILLS and stats["restarts"] >= KILLS // RESTART_EVERY
    print(f"\nIMAP kill -9 suite: {stats['kills']} kills ({stats['by']}) over {rounds} rounds of {len(mails)} mails, "
          f"{stats['restarts']} IMAP restarts; 0 lost, 0 applied twice; {duplicates} replies got twice "
          f"({stats['after_data']} kills came after DATA)")
