"""The server's configuration file (TOML): its address, its store, how mail goes out, limits, defaults.

::

    [server]
    address = "spb@example.org"     # From: of every mail, and where players send theirs
    store = "pbem.sqlite"           # relative paths are relative to this file
    log = "pbem.log"                # one line per mail handled (optional; default: standard error)
    synchronous = "FULL"            # FULL: each commit and outbox mail on the disk before it counts;
                                    # NORMAL: safe when the process is killed, not at a power cut; faster
    busy_seconds = 60               # how long a mail waits for a store another process holds; then
                                    # receive exits 75 (EX_TEMPFAIL) and the MTA delivers it again later
    quarantine = "quarantine"       # a mail from standard input the server failed on is kept here
    batch_seconds = 1               # a batch of mails (a Maildir, an IMAP look) commits after this long

    [mail]
    transport = "maildir"           # or "smtp"
    outbox = "outbox"               # the Maildir that transport "maildir" writes into
    smtp_host = "localhost"
    smtp_port = 587
    starttls = true
    cafile = "ca.pem"               # optional: a CA to trust besides the system's
    username = "spb"
    password_env = "SPB_SMTP_PASSWORD"   # the password is read from this environment variable
    timeout = 30                    # seconds an SMTP reply is waited for
    send_seconds = 10               # a run sends for at most this long; the rest waits for the next run

    [imap]                          # spb pbem poll: an IMAP mailbox as the server's inbox
    host = "imap.example.org"
    port = 993                      # 993 for tls, 143 for starttls
    security = "tls"                # or "starttls"; a password never crosses in the clear
    cafile = "ca.pem"               # optional: a CA to trust besides the system's
    username = "spb@example.org"
    password_env = "SPB_IMAP_PASSWORD"   # the password is read from this environment variable
    mailbox = "INBOX"
    done = "spb-done"               # optional: handled mail is moved here; without it, it stays,
                                    # flagged Seen and $SpbHandled
    interval = 60                   # seconds between looks where the server offers no IDLE
    timeout = 30                    # seconds an IMAP reply is waited for

    [limits]
    max_bytes = 262144              # larger mails are refused unread
    max_lines = 40                  # lines read from one mail
    refusals_per_hour = 5           # answers to one unknown or failing sender an hour
    refusals_per_hour_total = 30    # answers to all senders who play no seat, together, an hour
    answer_strangers = true         # false: a sender who plays no seat is never answered
    say_per_mail = 1                # 'say' lines sent of one mail (the others are refused)
    say_per_hour = 10               # 'say' lines sent of one seat an hour

    [defaults]                      # for spb pbem new
    deadline_hours = 72             # 0: no deadline
    remind_hours = 24
    policy = "wait"                 # at a deadline: wait, pass, or ai:LEVEL plays the turn
    mail = "move"                   # move: a mail after every move; phase: a digest per phase
    hints = false
    hint_level = "easy"

    [web]                           # spb serve --pbem: the games are played in a browser too
    base_url = "https://spb.example.org"   # optional: each person's welcome gives their own secret
                                    # link under it (nothing when it is not set)

    [admin]
    by_mail = ["pause", "resume", "abort", "status"]   # what a game's administrator may do by mail;
                                    # "address" and "replace" give a seat's mails (its hand) to another
                                    # address: by default only spb pbem admin does them
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from spbc.pbem.address import parse_address
from spbc.pbem.seat_change import BY_MAIL, Action
from spbc.source.files import read_text


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message says where and why."""


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ServerPart(_Part):
    address: str = "spb@localhost"
    store: str = "pbem.sqlite"
    log: str | None = None
    synchronous: Literal["FULL", "NORMAL"] = "FULL"
    busy_seconds: Annotated[float, Field(gt=0, le=3600)] = 60.0  # how long a mail waits for a locked store
    quarantine: str = "quarantine"  # where a mail from standard input that the server failed on is kept
    batch_seconds: Annotated[float, Field(gt=0, le=60)] = 1.0  # a batch commits once it is this old

    @field_validator("address")
    @classmethod
    def _address(cls, value: str) -> str:
        return parse_address(value)  # AddressError is a ValueError: it says what is wrong


class MailPart(_Part):
    transport: Literal["maildir", "smtp"] = "maildir"
    outbox: str = "outbox"
    smtp_host: str = "localhost"
    smtp_port: Annotated[int, Field(ge=1, le=65535)] = 25
    starttls: bool = False
    cafile: str | None = None  # certificates to trust besides the system's (a server with a private CA)
    username: str | None = None
    password: str | None = None
    password_env: str | None = None
    timeout: Annotated[float, Field(gt=0)] = 30.0
    send_seconds: Annotated[float, Field(gt=0)] = 10.0  # the sending time of one run; the rest waits


class ImapPart(_Part):
    host: str = "localhost"
    port: Annotated[int, Field(ge=1, le=65535)] = 993
    security: Literal["tls", "starttls"] = "tls"
    cafile: str | None = None
    username: str | None = None
    password_env: str = "SPB_IMAP_PASSWORD"
    mailbox: str = "INBOX"
    done: str | None = None
    interval: Annotated[float, Field(ge=1, le=86_400)] = 60.0
    idle: Annotated[float, Field(ge=1, le=1740)] = 600.0  # an IDLE is renewed (RFC 2177: within 29 minutes)
    timeout: Annotated[float, Field(gt=0, le=3600)] = 30.0


class LimitsPart(_Part):
    max_bytes: Annotated[int, Field(ge=1024, le=50_000_000)] = 262_144
    max_lines: Annotated[int, Field(ge=1, le=1000)] = 40
    refusals_per_hour: Annotated[int, Field(ge=0, le=1000)] = 5
    refusals_per_hour_total: Annotated[int, Field(ge=0, le=100_000)] = 30
    answer_strangers: bool = True
    say_per_mail: Annotated[int, Field(ge=0, le=40)] = 1
    say_per_hour: Annotated[int, Field(ge=0, le=1000)] = 10


class DefaultsPart(_Part):
    deadline_hours: Annotated[float, Field(ge=0, le=8760, allow_inf_nan=False)] = 72.0  # a year at most
    remind_hours: Annotated[float, Field(ge=0, le=8760, allow_inf_nan=False)] = 24.0
    policy: str = "wait"
    mail: Literal["move", "phase"] = "move"
    hints: bool = False
    hint_level: str = "easy"
    lobby_days: Annotated[float, Field(ge=0, le=3650, allow_inf_nan=False)] = 14.0  # an open game by mail; 0: ever


class AdminPart(_Part):
    by_mail: tuple[Action, ...] = BY_MAIL


class WebPart(_Part):
    base_url: str | None = None  # where spb serve --pbem is reached from outside; None: no links in mails

    @field_validator("base_url")
    @classmethod
    def _a_web_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", value):
            raise ValueError("a web address like https://spb.example.org (no query, no spaces)")
        return value.rstrip("/")


class Config(_Part):
    """A whole configuration; ``base`` is the folder relative paths are taken from."""

    server: ServerPart = ServerPart()
    mail: MailPart = MailPart()
    imap: ImapPart = ImapPart()
    limits: LimitsPart = LimitsPart()
    defaults: DefaultsPart = DefaultsPart()
    admin: AdminPart = AdminPart()
    web: WebPart = WebPart()
    base: Path = Path(".")

    def path(self, value: str) -> Path:
        given = Path(value).expanduser()
        return given if given.is_absolute() else self.base / given

    @property
    def store_path(self) -> Path:
        return self.path(self.server.store)

    @property
    def outbox_path(self) -> Path:
        return self.path(self.mail.outbox)


def load_config(path: Path) -> Config:
    """The configuration in a TOML file; ConfigError names the file, the setting and what it takes."""
    try:
        text = read_text(path, 1_000_000, "configuration file")
    except OSError as error:
        raise ConfigError(str(error)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not TOML: {error}") from None
    try:
        return Config(**data, base=path.resolve().parent)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}" for item in error.errors())
        raise ConfigError(f"{path}: {problems}") from None
    except TypeError as error:
        raise ConfigError(f"{path}: {error}") from None
