"""Helpers of the play-by-email tests: a server in a folder, mails as players write them, the outbox read back."""

from __future__ import annotations

import email
import email.policy
import random
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import pytest

from spbc.pbem.config import load_config
from spbc.pbem.lobby_key import lobby_key
from spbc.pbem.server import Created, NewGame, SeatSpec, Server

SERVER = "spb@games.test"
ROOT = Path(__file__).resolve().parent.parent


def write_config(folder: Path, extra: str = "") -> Path:
    """A configuration file in folder: the store and the outbox Maildir beside it."""
    path = folder / "pbem.toml"
    path.write_text(f'[server]\naddress = "{SERVER}"\nstore = "pbem.sqlite"\n' + extra, encoding="utf-8")
    return path


def make_server(folder: Path, extra: str = "", clock=None) -> Server:
    config = load_config(write_config(folder, extra))
    return Server(config) if clock is None else Server(config, clock=clock)


def three_and_a_computer(server: Server, seed: int = 8_831_726_354_125, **options) -> Created:
    seats = [SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test"), SeatSpec("Clara", "clara@c.test"),
             SeatSpec("ai:random")]
    return server.new_game(NewGame(seats, seed=seed, game_id="g1", **options))


_counter = [0]


def mail(sender: str, lines: list[str] | str, subject: str = "moves", message_id: str | None = None,
         headers: dict[str, str] | None = None) -> bytes:
    """A plain-text mail from sender with the given body lines."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = SERVER
    message["Subject"] = subject
    _counter[0] += 1
    message["Message-ID"] = message_id or f"<t{_counter[0]}.{random.getrandbits(40)}@test>"
    for name, value in (headers or {}).items():
        message[name] = value
    body = lines if isinstance(lines, str) else "\n".join(lines) + "\n"
    message.set_content(body)
    return message.as_bytes()


def key_line(store, sender: str) -> str:
    """The line with sender's lobby key, which its create, join, leave, start and cancel mails carry."""
    return f"key {lobby_key(store, sender)}"


#: Where a mail lists its reader's moves, in English, German and Chinese.
YOUR_MOVES = "(?:It is your turn. Your moves:|Du bist am Zug. Deine Züge:|輪到你了。你的走法：)\n"
#: The line of a welcome that holds the reader's secret, in English, German and Chinese.
SECRET_LINE = r"^(?:Your secret: |Dein Geheimnis: |你的密語：)(\S+)$"


@dataclass
class Received:
    """One mail the server sent, parsed."""

    recipient: str
    subject: str
    body: str
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def number(self) -> int | None:
        found = re.search(r"^  move ([0-9]+)$", self.body, re.M)
        return int(found.group(1)) if found else None

    @property
    def moves(self) -> list[str]:
        """The legal moves the mail lists for its reader (on turn)."""
        part = re.split(YOUR_MOVES, self.body, maxsplit=1)
        if len(part) < 2:
            return []
        found = []
        for line in part[1].splitlines():
            if not line.startswith("  "):
                break
            found.append(re.sub(r"  [(（][^()（）]*[)）]$", "", line.strip()))  # "  (3 rubles)", "  （3盧布）"
        return found


def parse_sent(data: bytes) -> Received:
    message = email.message_from_bytes(data, policy=email.policy.default)
    body = message.get_body(("plain",))
    text = body.get_content().replace("\r\n", "\n") if body is not None else ""
    return Received(str(message["To"]), str(message["Subject"]), text,
                    {name: str(value) for name, value in message.items()})


def outbox(folder: Path, start: int = 0) -> list[Received]:
    """Every mail in the outbox Maildir (new/), in the order sent, from the start'th on."""
    return [parse_sent(path.read_bytes()) for path in sorted((folder / "outbox" / "new").iterdir())[start:]]


def secret_of(mails: list[Received], address: str) -> str:
    for sent in mails:
        found = re.search(SECRET_LINE, sent.body, re.M)
        if sent.recipient == address and found:
            return found.group(1)
    raise AssertionError(f"no welcome for {address}")


@pytest.fixture
def game(tmp_path: Path):
    """A server with the game g1 of Anna, Boris, Clara and a computer, and the three people's secrets by address
    (a test module that imports it has it as a fixture)."""
    server = make_server(tmp_path)
    three_and_a_computer(server)
    mails = outbox(tmp_path)
    secrets = {a: secret_of(mails, a) for a in ("anna@a.test", "boris@b.test", "clara@c.test")}
    yield server, tmp_path, secrets
    server.close()
