"""Fuzzing the mail server (issue 20's fuzz run): generated and mutated mails (MIME deep and wide, pathological
HTML, character sets, sizes up to and over max_bytes, odd addresses and encoded words, reply shapes, mutated
player mails) go through read_mail, read_request and the server's handle in a worker process with a CPU
limit. Nothing may escape handle (0 crashes), no mail may run past its CPU budget and the worker must answer
within its CPU limit (0 hangs), every game must still load and replay from its record, and no reply may
carry an injected header or someone else's secret.

The default run is small and fixed (a few hundred mails, seed 1), the slow tier 4,000. ``SPBC_MAIL_FUZZ=20000 pytest
tests/test_pbem_fuzz.py`` hands the worker 20,000 mails (``SPBC_MAIL_FUZZ_SEED`` picks the seed, 2 by
default); the test prints the worker's count, crashes, hangs and the costliest mail's CPU time.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pbem_mail import SERVER, make_server
from spbc.pbem.transport import Outgoing, compose
from spbc.play.record import read_record

WORKER = Path(__file__).with_name("pbem_fuzz_worker.py")
HEADERS = ["From", "To", "Subject", "Date", "Message-ID", "Auto-Submitted", "X-Auto-Response-Suppress",
           "MIME-Version", "Content-Type", "Content-Transfer-Encoding"]
#: Mails of the large run, when asked for.
LARGE = int(os.environ.get("SPBC_MAIL_FUZZ", "0") or 0)


def run_worker(folder: Path, count: int, seed: int) -> dict:
    """The worker's answer; a worker that dies (past its CPU limit: SIGXCPU) or hangs fails the test."""
    cpu = 60 + count // 10  # seconds of CPU for the whole run
    done = subprocess.run([sys.executable, str(WORKER), str(folder), str(seed), str(count), str(cpu)],
                          capture_output=True, timeout=cpu * 4 + 120, text=True)
    assert done.returncode == 0, f"the worker died ({done.returncode}): {done.stderr[-3000:]}"
    return json.loads(done.stdout.splitlines()[-1])


def check_store(folder: Path, count: int) -> None:
    """Every game loads and replays from its record; every reply composes with the right headers only."""
    server = make_server(folder, 'synchronous = "NORMAL"\n')
    welcomes: dict[str, str] = {}
    for game_id in server.store.game_ids():
        context = server.sitting(game_id)
        replayed = read_record(server.export(game_id, with_seed=True)).game
        assert replayed.state_values() == context.game.state_values(), game_id
    rows = server.store.db.execute("SELECT id, game, recipient, subject, body, reply_to, kind FROM outbox").fetchall()
    for number, game_id, recipient, subject, body, reply_to, kind in rows:
        if kind == "welcome":
            found = re.search(r"^Your secret: (\S+)$", body, re.M)
            if found:
                welcomes[found.group(1)] = recipient
    for number, game_id, recipient, subject, body, reply_to, kind in rows:
        message = compose(Outgoing(number, game_id, recipient, subject, body, reply_to, kind), SERVER)
        parsed = email.message_from_bytes(message, policy=email.policy.default)
        assert parsed.keys() == HEADERS[:5] + (["In-Reply-To", "References"] if reply_to else []) + HEADERS[5:]
        assert "\n" not in str(parsed["To"]) and "Bcc" not in parsed and "@" in str(parsed["To"])
        for secret, owner in welcomes.items():
            assert secret not in body or (owner == recipient and kind == "welcome")
    moves = sum(1 for game_id in server.store.game_ids() for *_, how in server.store.moves(game_id) if how == "mail")
    assert moves >= count // 40  # the good moves every tenth mail went on being applied
    server.close()


def fuzz(folder: Path, count: int, seed: int) -> dict:
    answer = run_worker(folder, count, seed)
    print(f"\nmail fuzz: {answer['mails']} mails (seed {seed}), {len(answer['crashes'])} crashes, "
          f"{len(answer['hangs'])} hangs, {answer['games']} games, most CPU for one mail "
          f"{answer['max_cpu']:.3f} s (mail {answer['max_cpu_mail']}), worker CPU {answer['cpu']:.1f} s; "
          f"shapes {answer['kinds']}")
    assert answer["crashes"] == [], answer["crashes"][:3]
    assert answer["hangs"] == []
    assert answer["mails"] == count
    check_store(folder, count)
    return answer


def test_a_few_hundred_generated_and_mutated_mails(tmp_path):
    fuzz(tmp_path, 300, seed=1)


@pytest.mark.slow
def test_thousands_of_generated_and_mutated_mails(tmp_path):
    fuzz(tmp_path, 4000, seed=2)


@pytest.mark.skipif(not LARGE, reason="SPBC_MAIL_FUZZ=N asks for a run of N mails")
def test_the_large_mail_fuzz_run(tmp_path):
    """Issue 20's run of >= 20,000 mails, when SPBC_MAIL_FUZZ asks for it."""
    fuzz(tmp_path, LARGE, seed=int(os.environ.get("SPBC_MAIL_FUZZ_SEED", "2")))
