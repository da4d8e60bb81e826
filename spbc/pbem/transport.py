"""Sending the server's mails: into an outbox Maildir (the default, needing no server) or by SMTP.

Every mail has a Message-ID made from its outbox number, so a mail delivered twice is known as one.
The Maildir transport is idempotent: a mail whose file is already in new/ or cur/ is not written
again, so a reply is delivered exactly once however often a crashed run is repeated; a mail is written
into tmp/ and moved into new/ whole. SMTP cannot
tell whether a connection that broke after the data was sent delivered the mail: such a mail is
sent again on the next run (with the same Message-ID).
"""

from __future__ import annotations

import email.header
import email.utils
import os
import smtplib
import socket
import ssl
from dataclasses import dataclass
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


def compose(mail: Outgoing, sender: str) -> bytes:
    """The RFC 5322 message of a queued mail, marked as written by a machine (RFC 3834). Every header
    value is the server's own (an address it checked, a subject it wrote as one clean line), so the
    message is written directly: the email package's header objects would cost more than the game."""
    domain = sender.rpartition("@")[2] or "localhost"
    subject = mail.subject
    if not subject.isascii():
        subject = email.header.Header(subject, "utf-8").encode()
    headers = [
        f"From: {sender}", f"To: {mail.recipient}", f"Subject: {subject}",
        f"Date: {email.utils.formatdate(localtime=False)}", f"Message-ID: {message_id(mail.number, mail.game, domain)}",
    ]
    if mail.reply_to:
        headers += [f"In-Reply-To: {mail.reply_to}", f"References: {mail.reply_to}"]
    headers += [f"Auto-Submitted: {'auto-replied' if mail.reply_to else 'auto-generated'}",
                "X-Auto-Response-Suppress: All", "MIME-Version: 1.0", 'Content-Type: text/plain; charset="utf-8"',
                "Content-Transfer-Encoding: 8bit"]
    body = "\r\n".join(mail.body.replace("\r", "").split("\n"))
    return ("\r\n".join(headers) + "\r\n\r\n").encode("ascii") + body.encode("utf-8")


def message_id(number: int, game: str | None, domain: str) -> str:
    return f"<spb-{number}.{game or 'server'}@{domain}>"


class Transport(Protocol):
    #: Whether sending a mail again does nothing (then the outbox marks mails sent in one go).
    idempotent: bool

    def send(self, mail: Outgoing) -> None: ...
    def finish(self) -> None: ...  # every mail sent is delivered once this returns
    def close(self) -> None: ...


class MaildirTransport:
    """Writes each mail into a Maildir (tmp/ then new/), once: a mail already there is skipped."""

    idempotent = True

    def __init__(self, folder: Path, sender: str, durable: bool = True) -> None:
        self.folder = folder
        self.sender = sender
        self.durable = durable  # each mail flushed to the disk before it is moved into new/
        self._cur: set[str] | None = None
        self._staged: list[str] = []  # written into tmp/, not yet moved into new/
        for sub in ("tmp", "new", "cur"):
            (folder / sub).mkdir(parents=True, exist_ok=True)

    def _name(self, mail: Outgoing) -> str:
        return f"spb-{mail.number:010d}.{mail.game or 'server'}"

    def delivered(self, mail: Outgoing) -> bool:
        """Whether the mail is in new/, or in cur/ where a mail reader moved it (read once a run)."""
        name = self._name(mail)
        if (self.folder / "new" / name).exists():
            return True
        if self._cur is None:
            self._cur = {entry.split(":", 1)[0] for entry in os.listdir(self.folder / "cur")}
        return name in self._cur

    def send(self, mail: Outgoing) -> None:
        """Write the mail into tmp/; :meth:`finish` moves it into new/."""
        if self.delivered(mail):
            return
        name = self._name(mail)
        try:
            with open(self.folder / "tmp" / name, "wb") as stream:  # a crashed run's half file is overwritten
                stream.write(compose(mail, self.sender))
        except OSError as error:
            raise TransportError(f"cannot write to the outbox {self.folder}: {error.strerror or error}") from None
        self._staged.append(name)

    def finish(self) -> None:
        """Move the mails written into new/. Durable: the disk has every mail whole before the first is
        moved (one sync for them all, not one a mail), and has the moves before they are marked sent."""
        if not self._staged:
            return
        try:
            if self.durable:
                os.sync()
            for name in self._staged:
                os.replace(self.folder / "tmp" / name, self.folder / "new" / name)
            if self.durable:
                os.sync()
        except OSError as error:
            raise TransportError(f"cannot write to the outbox {self.folder}: {error.strerror or error}") from None
        finally:
            self._staged = []

    def close(self) -> None:
        self._cur = None
        self._staged = []


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
                cafile = str(self.config.path(mail.cafile)) if mail.cafile else None
                connection.starttls(context=ssl.create_default_context(cafile=cafile))
                connection.ehlo()
            if mail.username:
                password = mail.password
                if mail.password_env:
                    password = os.environ.get(mail.password_env)
                if password is None:
                    raise TransportError(f"no SMTP password: set {mail.password_env or 'password_env'} "
                                         "in the environment")
                connection.login(mail.username, password)
        except TransportError:
            raise
        except (smtplib.SMTPException, OSError) as error:  # socket and TLS errors are OSErrors
            raise TransportError(f"cannot send by SMTP through {mail.smtp_host}:{mail.smtp_port}: "
                                 f"{type(error).__name__}: {error}") from None
        return connection

    def send(self, mail: Outgoing) -> None:
        if self.connection is None:
            self.connection = self._connect()
        try:
            self.connection.sendmail(self.config.server.address, [mail.recipient],
                                     compose(mail, self.config.server.address))
        except (smtplib.SMTPException, socket.error) as error:
            self.close()
            raise TransportError(f"SMTP refused the mail to {mail.recipient}: {type(error).__name__}: "
                                 f"{error}") from None

    def finish(self) -> None:
        pass

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
