"""The mail figures of benchmarks/costs.py: ``spb pbem receive`` of one mail through a pipe, as an MTA delivers it
(a process a mail, the mail on standard input), into a real SQLite store that ``spb pbem new`` of the install
measured made, with running games of two people and a computer.

Without a resident receiver every run gets a fresh copy of the store (so a move mail is a move each time);
with one (``spb pbem serve``, in this install only), run k moves in game k of one store the receiver holds,
and the receiver's own CPU time a mail is told beside the piped process's.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

SERVER = "spb@games.test"
PLAYERS = "Anna=anna@a.test,Boris=boris@b.test,ai:easy"
#: With this seed Boris moves first, and his moves include this one.
SEED, MOVER, MOVE = 42, "boris@b.test", "take upper Lumberjack"
#: The mails measured: a move, a mail with a wrong secret, a status request.
KINDS = ("move", "bad", "status")


def make_store(spb: Callable[..., list[str]], python: str, folder: Path, games: int) -> None:
    """A server folder (configuration, store, outbox) with games g0... of PLAYERS, and in folder/mails
    each kind of mail for each game, from the player on turn."""
    folder.mkdir(parents=True)
    (folder / "pbem.toml").write_text(f'[server]\naddress = "{SERVER}"\nstore = "pbem.sqlite"\n', encoding="utf-8")
    for index in range(games):
        subprocess.run([python, *spb("pbem", "new", "--players", PLAYERS, "--id", f"g{index}", "--seed", str(SEED))],
                       cwd=folder, check=True, capture_output=True)
    secrets = _secrets(folder / "outbox" / "new")
    (folder / "mails").mkdir()
    for index in range(games):
        game, secret = f"g{index}", secrets[f"g{index}"]
        bodies = {"move": [f"secret {secret}", MOVE], "bad": ["secret xxxx-xxxx-xxxx-xxxx", MOVE],
                  "status": [f"secret {secret}", "status"]}
        for kind, lines in bodies.items():
            (folder / "mails" / f"{kind}-{game}.eml").write_bytes(_mail(game, lines, f"<{kind}.{game}@b.test>"))


def _secrets(outbox: Path) -> dict[str, str]:
    """The mover's secret in each game, from their welcome mails."""
    found = {}
    for path in outbox.iterdir():
        text = path.read_text(encoding="utf-8", errors="replace")
        game = re.search(r"^Subject: \[spb (g[0-9]+)\] welcome", text, re.M)
        secret = re.search(r"^Your secret: (\S+)$", text, re.M)
        if game and secret and re.search(rf"^To: {re.escape(MOVER)}$", text, re.M):
            found[game.group(1)] = secret.group(1)
    return found


def _mail(game: str, lines: list[str], message_id: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Message-ID"] = MOVER, SERVER, message_id
    message["Subject"] = f"Re: [spb {game}] move 1: your turn"
    message.set_content("\n".join(lines) + "\n")
    return message.as_bytes()


def fresh_copy(pristine: Path, work: Path) -> Path:
    """A copy of the server folder to spend on one run."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(pristine, work)
    return work


def process_cpu(pid: int) -> float:
    """The CPU seconds (user + system) another running process of this user has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Resident:
    """``spb pbem serve`` on a copy of the store, from its start (it has said where it listens) to stop()."""

    def __init__(self, spb: Callable[..., list[str]], python: str, folder: Path) -> None:
        self.process = subprocess.Popen([python, *spb("pbem", "serve")], cwd=folder, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith(b"listening at "):
            raise SystemExit(f"spb pbem serve did not start: {line!r}")
        self.started = process_cpu(self.process.pid)

    def used(self) -> float:
        """The CPU seconds the receiver has used since it listened."""
        return process_cpu(self.process.pid) - self.started

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.communicate(timeout=300)
