"""Sending the server's mails: into an outbox Maildir (the default, needing no server) or by SMTP.

Every mail has a Message-ID made from its outbox number, so a mail delivered twice is known as one.
The Maildir transport is idempotent: a mail whose file is already in new/ or cur/ is not written
again, so a reply is delivered exactly once however often a crashed run is repeated. SMTP cannot
tell whether a connection that broke after the data was sent delivered the mail: such a mail is
sent again on the next run (with the same Message-ID).
"""

from __future__ import annotations

import email.utils
import os
import smtplib
import socket
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

from spbc.pbem.config import Config


@dataclass(frozen=True)
class Outgoing:
    """One queued mail."""

    number: int  # its row in the outbox
    game: str | None
    recipient: str
    subject: str
    body: str
    reply_to: str  # the Message-ID this mail answers, or ""
    kind: str  # "reply", "update", "welcome", "notice", "refusal", "message"


class TransportError(OSError):
    """A mail could not be handed on; it stays queued and is tried again on the next run."""


def compose(mail: Outgoing, sender: str) -> EmailMessage:
    """The RFC 5322 message of a queued mail, marked as written by a machine (RFC 3834)."""
    message = EmailMessage()
    domain = sender.rpartition("@")[2] or "localhost"
    message["From"] = sender
    message["To"] = mail.recipient
    message["Subject"] = mail.subject
    message["Date"] = email.utils.formatdate(localtime=False)
    message["Message-ID"] = message_id(mail.number, mail.game, domain)
    if mail.reply_to:
        message["In-Reply-To"] = mail.reply_to
        message["References"] = mail.reply_to
    message["Auto-Submitted"] = "auto-replied" if mail.reply_to else "auto-generated"
    message["X-Auto-Response-Suppress"] = "All"
    message.set_content(mail.body, charset="utf-8", cte="8bit")
    return message


def message_id(number: int, game: str | None, domain: str) -> str:
    return f"<spb-{number}.{game or 'server'}@{domain}>"


class Transport(Protocol):
    #: Whether sending a mail again does nothing (then the outbox marks mails sent in one go).
    idempotent: bool

    def send(self, mail: Outgoing) -> None: ...
    def close(self) -> None: ...


class MaildirTransport:
    """Writes each mail into a Maildir (tmp/ then new/), once: a mail already there is skipped."""

    idempotent = True

    def __init__(self, folder: Path, sender: str, durable: bool = True) -> None:
        self.folder = folder
        self.sender = sender
        self.durable = durable  # each mail flushed to the disk before it is moved into new/
        for sub in ("tmp", "new", "cur"):
            (folder / sub).mkdir(parents=True, exist_ok=True)

    def _name(self, mail: Outgoing) -> str:
        return f"spb-{mail.number:010d}.{mail.game or 'server'}"

    def delivered(self, mail: Outgoing) -> bool:
        name = self._name(mail)
        if (self.folder / "new" / name).exists():
            return True
        return any(entry.startswith(name + ":") or entry == name for entry in os.listdir(self.folder / "cur"))

    def send(self, mail: Outgoing) -> None:
        if self.delivered(mail):
            return
        data = compose(mail, self.sender).as_bytes()
        name = self._name(mail)
        temporary = self.folder / "tmp" / f"{name}.{os.getpid()}"
        try:
            with open(temporary, "wb") as stream:
                stream.write(data)
                if self.durable:
                    stream.flush()
                    os.fsync(stream.fileno())
            os.replace(temporary, self.folder / "new" / name)
        except OSError as error:
            raise TransportError(f"cannot write to the outbox {self.folder}: {error.strerror or error}") from None

    def close(self) -> None:
        pass


class SmtpTransport:
    """Sends by SMTP (smtplib), with STARTTLS and login when configured; one connection per run."""

    idempotent = False

    def __init__(self, config: Config) -> None:
        self.config = config
        self.connection: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        mail = self.config.mail
        try:
            # the name said in EHLO is the domain of the server's address (smtplib would look up this
            # machine's name, which can wait on DNS for seconds)
            domain = self.config.server.address.rpartition("@")[2] or "localhost"
            connection = smtplib.SMTP(mail.smtp_host, mail.smtp_port, local_hostname=domain, timeout=mail.timeout)
            connection.ehlo()
            if mail.starttls:
                connection.starttls(context=ssl.create_default_context())
                connection.ehlo()
            if mail.username:
                password = mail.password
                if mail.password_env:
                    password = os.environ.get(mail.password_env)
                if password is None:
                    raise TransportError(f"no SMTP password: set {mail.password_env or 'password_env'} "
                                         "in the environment")
                connection.login(mail.username, password)
        except (smtplib.SMTPException, socket.error, ssl.SSLError) as error:
            raise TransportError(f"cannot send by SMTP through {mail.smtp_host}:{mail.smtp_port}: "
                                 f"{type(error).__name__}: {error}") from None
        return connection

    def send(self, mail: Outgoing) -> None:
        if self.connection is None:
            self.connection = self._connect()
        try:
            self.connection.send_message(compose(mail, self.config.server.address))
        except (smtplib.SMTPException, socket.error) as error:
            self.close()
            raise TransportError(f"SMTP refused the mail to {mail.recipient}: {type(error).__name__}: "
                                 f"{error}") from None

    def close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.quit()
            except (smtplib.SMTPException, socket.error):
                pass
            self.connection = None


def make_transport(config: Config) -> Transport:
    if config.mail.transport == "smtp":
        return SmtpTransport(config)
    return MaildirTransport(config.outbox_path, config.server.address, config.server.synchronous == "FULL")
