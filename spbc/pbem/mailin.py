"""A mail as the server reads it: who sent it, its Message-ID, whether a machine wrote it, its text.

:func:`read_mail` never raises for what a message holds: broken MIME, unknown or wrong character
sets, binary parts, headers with control characters all come out as a :class:`Mail` (with
``problem`` set when there is no text to read). The text is the player's own: the first text part
(``text/plain``, else ``text/html`` turned into lines), less quoted lines, the signature, the quoted
part of a reply (see :mod:`spbc.pbem.reply`) and anything forwarded; attached messages are never
read. A mail of more than :data:`MAX_PARTS` parts, or nested more than :data:`MAX_DEPTH` deep, is
refused unread, its header read on its own.
"""

from __future__ import annotations

import dataclasses
import email
import email.header
import email.parser
import email.policy
import email.utils
import hashlib
import re
from dataclasses import dataclass
from email.message import Message

from spbc.pbem.address import is_address
from spbc.pbem.markup import html_text
from spbc.pbem.reply import own_lines

#: Headers and header values by which a machine (a vacation reply, a bounce, a list) marks its mail.
_AUTO_HEADERS = ("x-autoreply", "x-autorespond", "x-auto-response-suppress", "x-failed-recipients")
_AUTO_SENDERS = re.compile(r"^(mailer-daemon|postmaster|noreply|no-reply|do-not-reply|bounce[s]?)@", re.I)
_AUTO_SUBJECTS = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response)|out of (the )?office|abwesenheit|vacation|undeliver|"
    r"delivery status notification|mail delivery (failed|system)|returned mail|failure notice)", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
#: Parts of one mail at most, and how deep they may nest: the stdlib's parser recurses once a level, and a
#: mail of a thousand nested parts would end the run with a RecursionError.
MAX_PARTS = 200
MAX_DEPTH = 20
#: A header line that opens a part of parts (counted in the raw bytes before parsing).
_CONTAINERS = re.compile(rb"content-type[ \t]*:[ \t\r\n]*(multipart|message)/", re.I)
#: Bytes of a mail read for its header when its body is not read.
_HEAD = 65536
#: Headers shorter than this are kept whole; longer ones are cut (a name is not a novel).
_HEADER_CHARS = 300


@dataclass(frozen=True)
class Mail:
    """What the server uses of one message."""

    key: str  # the Message-ID, or a digest of the bytes when there is none: what a repeat is known by
    sender: str  # the address of From, lower case, "" when there is none that can be read
    subject: str  # one line, control characters removed
    message_id: str  # "" when the message has none
    auto: str | None  # why a machine wrote this mail (never answered), or None
    lines: tuple[str, ...]  # the player's own text, line by line
    problem: str | None = None  # why there is no text to read, when there is none


def clean_header(value: object) -> str:
    """A header's value as one printable line of at most _HEADER_CHARS characters."""
    text = _CONTROL.sub(" ", str(value).replace("\r", " ").replace("\n", " "))
    text = " ".join(text.split())
    return text if len(text) <= _HEADER_CHARS else text[:_HEADER_CHARS] + "..."


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
    except Exception:  # a header the parser cannot decode is no header for us
        return ""
    return "" if value is None else clean_header(value)


def sender_address(message: Message) -> str:
    """The one address of From in lower case, or "" (none, several, or not an address)."""
    raw = _header(message, "From")
    addresses = email.utils.getaddresses([raw])
    if len(addresses) != 1:
        return ""
    return addresses[0][1].strip().lower() if is_address(addresses[0][1]) else ""


def auto_reason(message: Message, sender: str, subject: str) -> str | None:
    """Why a mail was written by a machine and must not be answered (RFC 3834 and common practice)."""
    auto = _header(message, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = _header(message, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in _AUTO_HEADERS:
        if _header(message, name):
            return f"it has a {name} header"
    if _header(message, "List-Id") or _header(message, "List-Unsubscribe"):
        return "it came from a mailing list"
    if _header(message, "Return-Path").strip() == "<>":
        return "its Return-Path is empty (a bounce)"
    if message.get_content_type() == "multipart/report":
        return "it is a delivery report"
    if sender and _AUTO_SENDERS.match(sender):
        return f"it is from {sender}"
    if _AUTO_SUBJECTS.match(subject):
        return "its subject is that of an automatic reply"
    return None


def _decode(part: Message) -> str:
    """A text part's text: its charset when Python knows it, else UTF-8, else Latin-1 (never fails)."""
    try:
        payload = part.get_payload(decode=True)
    except Exception:
        payload = None
    if not isinstance(payload, bytes):
        raw = part.get_payload()
        return raw if isinstance(raw, str) else ""
    charset = part.get_content_charset() or "utf-8"
    for encoding in (charset, "utf-8"):
        try:
            return payload.decode(encoding)
        except (LookupError, UnicodeDecodeError, ValueError):
            continue
    return payload.decode("latin-1")


def body_text(message: Message, limit: int) -> str | None:
    """The text of the first text/plain part that is not an attachment, else of the first text/html
    part as plain lines (of its first limit characters); attached messages (forwarded mail) are not
    read. None when there is none."""
    plain: Message | None = None
    markup: Message | None = None
    stack = [message]
    while stack:
        part = stack.pop(0)
        kind = part.get_content_type()
        if kind == "message/rfc822" or kind.startswith("message/"):
            continue  # a forwarded or bounced message: not the sender's words
        if part.is_multipart():
            payload = part.get_payload()
            if isinstance(payload, list):
                stack[0:0] = [p for p in payload if isinstance(p, Message)]
            continue
        disposition = (part.get("Content-Disposition") or "").lower()
        if "attachment" in disposition:
            continue
        if kind == "text/plain" and plain is None:
            plain = part
        elif kind == "text/html" and markup is None:
            markup = part
    if plain is not None:
        return _decode(plain)
    if markup is not None:
        return html_text(_decode(markup), limit)
    return None


def read_mail(data: bytes, max_bytes: int) -> Mail:
    """One message as the server uses it; never raises for what the bytes hold: a mail that cannot be
    read (too large, nested too deep, of too many parts, or one the parser fails on) comes back with
    ``problem`` set, its sender and subject read from its header alone where they can be."""
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    try:
        return _read(data, max_bytes, digest)
    except Exception as error:  # RecursionError, MemoryError, a parser's own bug: the mail's problem
        return _unread(data, digest, f"the mail cannot be read ({type(error).__name__}); send the moves as "
                       "plain text without attachments")


def _read(data: bytes, max_bytes: int, digest: str) -> Mail:
    if len(data) > max_bytes:
        return _unread(data, digest, f"the mail is {len(data)} bytes, more than the {max_bytes} this server "
                       "reads; send the moves as plain text without attachments")
    containers = len(_CONTAINERS.findall(data))
    if containers > MAX_PARTS:
        return _unread(data, digest, f"the mail has {containers} multipart or attached parts, more than the "
                       f"{MAX_PARTS} this server reads; send the moves as plain text")
    message = email.message_from_bytes(data, policy=email.policy.compat32)
    shape = _shape(message)
    if shape is not None:
        return _unread(data, digest, shape)
    mail = _mail(message, digest, ())
    try:
        text = body_text(message, max_bytes)
    except Exception:  # a structure the parser could not make sense of
        text = None
    if text is None:
        return dataclasses.replace(mail, problem="the mail has no text part; write the moves as plain text in "
                                   "the body")
    return dataclasses.replace(mail, lines=tuple(own_lines(text)))


def _shape(message: Message) -> str | None:
    """Why the parts of a parsed message are too many or nested too deep to read, or None."""
    parts, stack = 0, [(message, 0)]
    while stack:
        part, depth = stack.pop()
        parts += 1
        if depth > MAX_DEPTH:
            return f"the mail's parts are nested more than {MAX_DEPTH} deep; send the moves as plain text"
        if parts > MAX_PARTS:
            return f"the mail has more than {MAX_PARTS} parts; send the moves as plain text"
        payload = part.get_payload()
        if isinstance(payload, list):
            stack += [(p, depth + 1) for p in payload if isinstance(p, Message)]
    return None


def _mail(message: Message, digest: str, lines: tuple[str, ...], problem: str | None = None) -> Mail:
    """A Mail of message's header (and the given lines)."""
    message_id = _header(message, "Message-ID")
    # printable ASCII only: it is written back into the headers of the reply (In-Reply-To)
    message_id = message_id if re.fullmatch(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>", message_id) else ""
    sender = sender_address(message)
    subject = _subject(message)
    return Mail(message_id or digest, sender, subject, message_id, auto_reason(message, sender, subject), lines,
                problem)


def _unread(data: bytes, digest: str, problem: str) -> Mail:
    """A mail whose text is not read: what its header says (parsed on its own, which cannot recurse)."""
    try:
        header = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(data[:_HEAD])
        return _mail(header, digest, (), problem)
    except Exception:  # not even a header that can be read
        return Mail(digest, "", "", "", None, (), problem)


def _subject(message: Message) -> str:
    """The Subject decoded from its encoded words (=?utf-8?...?=), as one clean line."""
    raw = message.get("Subject")
    if raw is None:
        return ""
    try:
        parts = email.header.decode_header(str(raw))
        text = ""
        for value, charset in parts:
            if isinstance(value, bytes):
                try:
                    text += value.decode(charset or "utf-8", errors="replace")
                except LookupError:
                    text += value.decode("utf-8", errors="replace")
            else:
                text += value
    except Exception:
        text = str(raw)
    return clean_header(text)
