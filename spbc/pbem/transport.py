"""Sending the server's mails: into an outbox Maildir (the default, needing no server) or by SMTP.

Every mail has a Message-ID made from its outbox number and the store's salt, so a mail delivered
twice is known as one, and two stores (a new season beside an old outbox) never share one. The
Maildir transport is idempotent: a mail whose file is already in new/ or cur/ is not written again,
so a reply is delivered exactly once however often a crashed run is repeated; a mail is written into
tmp/ and moved into new/ whole. SMTP cannot tell whether a connection that broke after the data was
sent delivered the mail: such a mail is sent again on the next run (with the same Message-ID).

Two kinds of failure: :class:`MailError` is one mail's (refused by the SMTP server, for good with a
5xx reply or for now with a 4xx one or a broken connection; or a mail that cannot be written as a
message at all), :class:`TransportError` the transport's (no connection, a refused login, a full
disk): no mail can go now. What is done about each is :mod:`spbc.pbem.outbox`'s.
"""

from __future__ import annotations

import email.header
import email.utils
import os
import quopri
import re
import smtplib
import socket
import ssl
from pathlib import Path
from typing import Protocol

from spbc.pbem.config import Config
from spbc.pbem.address import is_address
from spbc.pbem.store import Outgoing

__all__ = ["ComposeError", "MailError", "Outgoing", "Transport", "TransportError", "compose", "make_transport"]

LINE_LIMIT = 998  # octets of a line, CRLF not counted (RFC 5321 4.5.3.1.6, RFC 5322 2.1.1)
MAX_SUBJECT = 200  # characters of a subject; a longer one is cut
_MESSAGE_ID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>")


class TransportError(OSError):
    """No mail can be handed on now (no connection, a refused login, a full disk); the mails stay queued."""


class MailError(Exception):
    """One mail was not handed on: ``permanent`` when trying again cannot help (a 5xx reply, a mail that
    cannot be written), else a temporary failure (a 4xx reply, a broken connection)."""

    def __init__(self, reason: str, permanent: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent


class ComposeError(ValueError):
    """A queued mail that cannot be written as a message (an address that is no ASCII address, say)."""


def compose(mail: Outgoing, sender: str, salt: str = "") -> bytes:
    """The RFC 5322 message of a queued mail, marked as written by a machine (RFC 3834), every line
    within RFC 5322's 998 octets: a subject is cleaned of control characters, cut to MAX_SUBJECT
    characters and folded into encoded words when not ASCII; a body with a longer line is sent
    quoted-printable. Raises ComposeError for a mail that cannot be written (its recipient is no
    address that can be written in ASCII), whatever the store holds."""
    domain = sender.rpartition("@")[2] or "localhost"
    if not is_address(mail.recipient) or mail.recipient != mail.recipient.strip():
        raise ComposeError(f"the recipient {mail.recipient!r} is no ASCII e-mail address")
    headers = [
        f"From: {sender}", f"To: {mail.recipient}", f"Subject: {_subject(mail.subject)}",
        f"Date: {email.utils.formatdate(localtime=False)}", f"Message-ID: {message_id(mail.number, mail.game, domain, salt)}",
    ]
    reply = mail.reply_to if _MESSAGE_ID.fullmatch(mail.reply_to) else ""
    if reply:
        headers += [f"In-Reply-To: {reply}", f"References: {reply}"]
    body, encoding = _body(mail.body)
    headers += [f"Auto-Submitted: {'auto-replied' if reply else 'auto-generated'}",
                "X-Auto-Response-Suppress: All", "MIME-Version: 1.0", 'Content-Type: text/plain; charset="utf-8"',
                f"Content-Transfer-Encoding: {encoding}"]
    try:
        head = ("\r\n".join(headers) + "\r\n\r\n").encode("ascii")
    except UnicodeEncodeError as error:
        raise ComposeError(f"a header cannot be written in ASCII: {error.reason}") from None
    return head + body


def _subject(text: str) -> str:
    """A subject as one header value: no control characters, at most MAX_SUBJECT characters, folded
    into encoded words (each line within 78 characters) when it is not ASCII."""
    clean = "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in text)
    if len(clean) > MAX_SUBJECT:
        clean = clean[:MAX_SUBJECT - 3] + "..."
    if clean.isascii():
        return clean
    try:
        return email.header.Header(clean, "utf-8", header_name="Subject").encode(linesep="\r\n")
    except UnicodeError:
        raise ComposeError("the subject cannot be written in UTF-8") from None


def _body(text: str) -> tuple[bytes, str]:
    """The body's octets with CRLF line ends and its transfer encoding: 8bit when every line is within
    LINE_LIMIT octets, else quoted-printable (lines of at most 76)."""
    data = text.replace("\r", "").encode("utf-8", "replace")
    lines = data.split(b"\n")
    if all(len(line) <= LINE_LIMIT for line in lines):
        return b"\r\n".join(lines), "8bit"
    return b"\r\n".join(quopri.encodestring(data).split(b"\n")), "quoted-printable"


def message_id(number: int, game: str | None, domain: str, salt: str = "") -> str:
    """The Message-ID of the outbox's mail number: <spb-12.g1.SALT@domain>."""
    return f"<spb-{number}.{game or 'server'}{'.' + salt if salt else ''}@{domain}>"


class Transport(Protocol):
    #: Whether sending a mail again does nothing (then the outbox marks mails sent in one go).
    idempotent: bool

    def send(self, mail: Outgoing) -> None: ...  # raises MailError (this mail) or TransportError (any mail)
    def finish(self) -> None: ...  # every mail sent is delivered once this returns
    def close(self) -> None: ...


class MaildirTransport:
    """Writes each mail into a Maildir (tmp/ then new/), once: a mail already there is skipped."""

    idempotent = True

    def __init__(self, folder: Path, sender: str, durable: bool = True, salt: str = "") -> None:
        self.folder = folder
        self.sender = sender
        self.salt = salt  # the store's: two stores writing into one outbox never share a name
        self.durable = durable  # each mail flushed to the disk before it is moved into new/
        self._cur: set[str] | None = None
        self._staged: list[str] = []  # written into tmp/, not yet moved into new/
        for sub in ("tmp", "new", "cur"):
            (folder / sub).mkdir(parents=True, exist_ok=True)

    def _name(self, mail: Outgoing) -> str:
        return f"spb-{self.salt + '-' if self.salt else ''}{mail.number:010d}.{mail.game or 'server'}"

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
            message = compose(mail, self.sender, self.salt)
        except ComposeError as error:
            raise MailError(str(error), permanent=True) from None
        try:
            with open(self.folder / "tmp" / name, "wb") as stream:  # a crashed run's half file is overwritten
                stream.write(message)
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

    def __init__(self, config: Config, salt: str = "") -> None:
        self.config = config
        self.salt = salt
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
        """Send one mail on this run's connection (opened, or opened again after a break, here). A refusal
        is a MailError, permanent for a 5xx reply; a broken connection is a temporary one."""
        try:
            message = compose(mail, self.config.server.address, self.salt)
        except ComposeError as error:
            raise MailError(str(error), permanent=True) from None
        if self.connection is None:
            self.connection = self._connect()
        try:
            self.connection.sendmail(self.config.server.address, [mail.recipient], message)
        except smtplib.SMTPRecipientsRefused as error:
            code, text = next(iter(error.recipients.values()), (0, b""))
            self._after_refusal()
            raise _refused(code, text, "the recipient") from None
        except smtplib.SMTPResponseException as error:  # MAIL FROM or DATA refused, or the server is closing
            self._after_refusal()
            raise _refused(error.smtp_code, error.smtp_error, "the mail") from None
        except smtplib.SMTPNotSupportedError as error:  # the mail needs an extension the server lacks
            self._after_refusal()
            raise MailError(f"SMTP cannot take the mail: {error}", permanent=True) from None
        except (smtplib.SMTPException, OSError) as error:  # the connection broke or timed out
            self.close()
            raise MailError(f"SMTP connection lost: {type(error).__name__}: {error}", permanent=False) from None

    def _after_refusal(self) -> None:
        """smtplib resets the transaction after a refusal and closes the socket after a 421: a
        connection that is no more is opened again for the next mail."""
        if self.connection is not None and getattr(self.connection, "sock", None) is None:
            self.connection = None

    def finish(self) -> None:
        pass

    def close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.quit()
            except (smtplib.SMTPException, socket.error):
                pass
            self.connection = None


def _refused(code: int, text: bytes | str, what: str) -> MailError:
    """The MailError of an SMTP reply: permanent for 5xx, temporary otherwise (4xx)."""
    said = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    said = " ".join(said.split())[:300]
    return MailError(f"SMTP refused {what}: {code} {said}", permanent=500 <= code < 600)


def make_transport(config: Config, salt: str = "") -> Transport:
    """The transport the configuration names; salt is the store's (in every Message-ID and file name)."""
    if config.mail.transport == "smtp":
        return SmtpTransport(config, salt)
    return MaildirTransport(config.outbox_path, config.server.address, config.server.synchronous == "FULL", salt)
