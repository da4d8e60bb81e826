"""A mail as the server reads it: who sent it, its Message-ID, whether a machine wrote it, its text.

:func:`read_mail` never raises for what a message holds: broken MIME, unknown or wrong character
sets, binary parts, headers with control characters all come out as a :class:`Mail` (with
``problem`` set when there is no text to read). The text is the player's own: the first text part
(``text/plain``, else ``text/html`` turned into lines), less quoted lines, the signature, the quoted
part of a reply ("On ... wrote:") and anything forwarded; attached messages are never read.
"""

from __future__ import annotations

import email
import email.header
import email.policy
import email.utils
import hashlib
import html
import re
from dataclasses import dataclass
from email.message import Message

from spbc.pbem.address import is_address

#: Headers and header values by which a machine (a vacation reply, a bounce, a list) marks its mail.
_AUTO_HEADERS = ("x-autoreply", "x-autorespond", "x-auto-response-suppress", "x-failed-recipients")
_AUTO_SENDERS = re.compile(r"^(mailer-daemon|postmaster|noreply|no-reply|do-not-reply|bounce[s]?)@", re.I)
_AUTO_SUBJECTS = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response)|out of (the )?office|abwesenheit|vacation|undeliver|"
    r"delivery status notification|mail delivery (failed|system)|returned mail|failure notice)", re.I)
#: Where the quoted part of a reply or a forwarded message begins: nothing from there on is read.
_CUT = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|weitergeleitete nachricht|ursprüngliche nachricht)"
    r"\s*-{2,}|begin forwarded message:|on .{0,200} wrote:\s*$|am .{0,200} schrieb .{0,200}:\s*$|"
    r"_{10,}\s*$)", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
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


class _Text:
    """Lines from HTML: tags dropped, block ends as line ends, entities decoded."""

    _BLOCK = re.compile(r"<\s*(br|/p|/div|/li|/tr|/h[1-6]|p|div|li|tr)\b[^>]*>", re.I)
    _QUOTE = re.compile(r"<\s*blockquote\b.*?<\s*/\s*blockquote\s*>", re.I | re.S)
    _DROP = re.compile(r"<\s*(script|style|head)\b.*?<\s*/\s*\1\s*>", re.I | re.S)

    @classmethod
    def of(cls, markup: str) -> str:
        text = cls._DROP.sub("", markup)
        text = cls._QUOTE.sub("\n", text)  # a quoted earlier mail in HTML
        text = cls._BLOCK.sub("\n", text)
        text = re.sub(r"<[^>]*>", "", text)
        return html.unescape(text)


def body_text(message: Message) -> str | None:
    """The text of the first text/plain part that is not an attachment, else of the first text/html
    part as plain lines; attached messages (forwarded mail) are not read. None when there is none."""
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
        return _Text.of(_decode(markup))
    return None


def own_lines(text: str) -> list[str]:
    """The sender's own lines: up to a signature ("-- "), a quoted reply's header or a forwarded
    part; quoted lines (">") dropped; control characters removed; blank lines kept as ""."""
    lines = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if raw.rstrip("\n") in ("-- ", "--", "\u2014 "):
            break
        if _CUT.match(raw):
            break
        if raw.lstrip().startswith(">"):
            continue
        lines.append(" ".join(_CONTROL.sub(" ", raw.replace("\u00a0", " ")).split()))
    return lines


def read_mail(data: bytes, max_bytes: int) -> Mail:
    """One message as the server uses it; never raises for what the bytes hold."""
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    head = data[: min(len(data), 65536)]
    message = email.message_from_bytes(data if len(data) <= max_bytes else head, policy=email.policy.compat32)
    message_id = _header(message, "Message-ID")
    # printable ASCII only: it is written back into the headers of the reply (In-Reply-To)
    message_id = message_id if re.fullmatch(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>", message_id) else ""
    sender = sender_address(message)
    subject = _subject(message)
    key = message_id or digest
    auto = auto_reason(message, sender, subject)
    if len(data) > max_bytes:
        return Mail(key, sender, subject, message_id, auto, (),
                    f"the mail is {len(data)} bytes, more than the {max_bytes} this server reads; "
                    "send the moves as plain text without attachments")
    try:
        text = body_text(message)
    except Exception:  # a structure the parser could not make sense of
        text = None
    if text is None:
        return Mail(key, sender, subject, message_id, auto, (),
                    "the mail has no text part; write the moves as plain text in the body")
    return Mail(key, sender, subject, message_id, auto, tuple(own_lines(text)))


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
