"""Mails for fuzzing the mail server: generated ones of every shape a mail can take (MIME structure deep and
wide, HTML with pathological markup, character sets, sizes up to and over max_bytes, headers with odd
addresses and encoded words, reply shapes of common clients) and byte mutations of real player mails.

:func:`fuzz_mail` draws one mail from a random generator; the fuzz worker (pbem_fuzz_worker.py) and the
attack suite (test_pbem_attack.py) use these generators, so a shape added here is tried by both.
"""

from __future__ import annotations

import base64
import quopri
import random
from collections.abc import Callable

from pbem_mail import SERVER, mail

PEOPLE = ["anna@a.test", "boris@b.test", "clara@c.test"]
MAX_BYTES = 262_144
WORDS = ["buy", "take", "play", "pass", "observe", "pub", "discard", "upper", "lower", "over", "lumberjack",
         "market", "obs", "help", "status", "moves", "hint", "order", "say", "mail", "admin", "game", "secret",
         "move", "ü", "€", "\u202e", "\x00", "=?utf-8?b?QQ==?=", ">", "--", "-- ", "<p>", "&amp;", "\t",
         "YOUR-SECRET", "wrote:", "a écrit :", "From:", "Sent:", "-----Original Message-----"]
#: Addresses that are none the server takes, or take some reading.
ODD_ADDRESSES = ["x\u017f@example.org", "\u0131@a.test", "\u212a@a.test", "anna@a.test\x00", "anna@a.test\r\nBcc: v@x",
                 "x" * 70 + "@a.test", "a@" + "b." * 130 + "test", "\"anna\"@a.test", "anna@[127.0.0.1]",
                 "anna@a.test, boris@b.test", "<>", "", "=?utf-8?q?anna?= <anna@a.test>", "Anna <anna@a.test",
                 "anna@@a.test", "ann\u00e4@a.test", "(comment) anna@a.test", "anna@a.test (Anna)",
                 "=?utf-8?b?" + base64.b64encode(b"anna@a.test\r\nBcc: x@y").decode() + "?= <anna@a.test>"]
CHARSETS = ["x-unknown", "utf-16", "utf-16-le", "utf-32", "utf-7", "iso-2022-jp", "koi8-r", "", "utf-8\x00",
            "cp1252", "gb18030", "big5", "shift_jis", "euc-kr", "idna", "rot13", "base64", "uu", "zlib", "punycode",
            "unicode-escape", "raw-unicode-escape", "hex", "bz2", "charmap", "mbcs", "=?"]
ATTRIBUTIONS = ["On Mon, 1 Dec 2026 at 10:00, Server <spb@games.test> wrote:", "Le lun. 1 déc. 2026, Server a écrit :",
                "Am 01.12.2026 schrieb Server <spb@games.test>:", "在 2026年12月1日，Server 写道：",
                "On Mon, 1 Dec 2026 at 10:00, Server <", "-----Original Message-----", "From: Server",
                "Sent: Monday", "________________________________", "Begin forwarded message:"]


def pathological_html(rng: random.Random, size: int) -> str:
    """HTML that costs a naive reader time: unclosed tags, comments, attributes, entities, deep nesting."""
    units = ["<", "<a", "</", "<?", "<!", "<!--", "<div>", "<blockquote>", "<script>", '<a href="', "&", "&#",
             "&#x1F600;", "<a b=c ", "<![CDATA[", ">", "<>", "< ", "<p>", "</p>"]
    unit = rng.choice(units)
    if rng.random() < 0.3:
        unit = "".join(rng.choice(units) for _ in range(rng.randint(2, 6)))
    return (unit * (size // len(unit) + 1))[:size]


def _head(rng: random.Random, sender: str, subject: str = "[spb g1] move") -> str:
    return (f"From: {sender}\r\nTo: {SERVER}\r\nSubject: {subject}\r\nMessage-ID: <f{rng.getrandbits(48)}@x>\r\n"
            "MIME-Version: 1.0\r\n")


def _nested(rng: random.Random, sender: str, text: str) -> bytes:
    depth = rng.choice([2, 5, 19, 20, 21, 50, 199, 200, 201, 500, 1000, 1500, 3000])
    kind = rng.choice(["multipart/mixed", "multipart/alternative", "message/rfc822", "multipart/related"])
    opening, closing = [], []
    for i in range(depth):
        if kind == "message/rfc822" and i % 2:
            opening.append("Content-Type: message/rfc822\r\n\r\n")
        else:
            opening.append(f'Content-Type: {kind}; boundary="{i}"\r\n\r\n--{i}\r\n')
            closing.append(f"--{i}--\r\n")
    body = "".join(opening) + f"Content-Type: text/plain\r\n\r\n{text}\r\n" + "".join(reversed(closing))
    return (_head(rng, sender) + body).encode("utf-8", "replace")


def _wide(rng: random.Random, sender: str, text: str) -> bytes:
    parts = rng.choice([150, 199, 200, 201, 1000, 5000])
    filler = "".join(f"--w\r\nContent-Type: {rng.choice(['text/plain', 'image/png', 'text/html'])}\r\n\r\nx\r\n"
                     for _ in range(parts))
    return (_head(rng, sender) + 'Content-Type: multipart/mixed; boundary="w"\r\n\r\n' + filler +
            f"--w\r\nContent-Type: text/plain\r\n\r\n{text}\r\n--w--\r\n").encode("utf-8", "replace")


def _html(rng: random.Random, sender: str, text: str) -> bytes:
    size = rng.choice([1000, 60_000, MAX_BYTES - 400, MAX_BYTES - 100, MAX_BYTES + 10])
    markup = pathological_html(rng, size)
    if rng.random() < 0.5:
        markup = "<div>" + text.replace("\r\n", "<br>") + "</div>" + markup
    return (_head(rng, sender) + "Content-Type: text/html; charset=utf-8\r\n\r\n").encode() + markup.encode(
        "utf-8", "replace")


def _charset(rng: random.Random, sender: str, text: str) -> bytes:
    charset = rng.choice(CHARSETS)
    encoding = rng.choice(["8bit", "base64", "quoted-printable", "7bit", "x-uuencode", "binary"])
    raw = text.encode(rng.choice(["utf-8", "utf-16", "latin-1", "cp1252"]), "replace")
    if encoding == "base64":
        raw = base64.encodebytes(raw)
    elif encoding == "quoted-printable":
        raw = quopri.encodestring(raw)
    return (_head(rng, sender) + f"Content-Type: text/plain; charset={charset}\r\n"
            f"Content-Transfer-Encoding: {encoding}\r\n\r\n").encode() + raw


def _size(rng: random.Random, sender: str, text: str) -> bytes:
    size = rng.choice([MAX_BYTES - 2000, MAX_BYTES - 300, MAX_BYTES + 1, 300_000, 1_100_000])
    line = rng.choice([b"x" * 1_000_000, b"x" * 70 + b"\r\n", b"> quoted\r\n", b"\r\n", b"buy lumb\r\n"])
    filler = (line * (size // len(line) + 1))[:size]
    return (_head(rng, sender) + "\r\n" + text + "\r\n").encode("utf-8", "replace") + filler


def _headers(rng: random.Random, sender: str, text: str) -> bytes:
    """Odd addresses, encoded-word bombs, header injection, long and folded headers."""
    roll = rng.randrange(5)
    if roll == 0:
        sender = rng.choice(ODD_ADDRESSES)
    subject = rng.choice([
        "[spb g1]\r\nBcc: x@y", "=?utf-8?b?" + base64.b64encode(b"a\r\nb").decode() + "?=",
        "=?utf-8?q?x?= " * rng.choice([10, 1000, 20_000]), "=?x-unknown?q?x?=", "=?utf-8?b?!!!?=",
        "x" * rng.choice([1000, 100_000]), "[spb g1]\r\n " * 500, "=?utf-8?q?" + "=0D=0A" * 200 + "?=",
        "[spb " + "g" * 40 + "] move 99999999999", "\x00\x01\x1b[2J [spb g1] move 1"])
    name = rng.choice(["Anna\r\nBcc: victim@x.test", "=?utf-8?q?Anna=0D=0ABcc:_v@x.test?=", "\"A\nB\" ", "Anna\x00",
                       "=?utf-8?b?" + base64.b64encode(b"\r\nTo: x@y").decode() + "?=", "=?utf-8?q?x?=" * 5000])
    head = f"From: {name} <{sender}>\r\n" if roll == 1 else f"From: {sender}\r\n"
    head += f"To: {SERVER}\r\nSubject: {subject}\r\n"
    if rng.random() < 0.5:
        head += "Message-ID: " + rng.choice(["<a@b>\r\nBcc: x@y", "<" + "x" * 5000 + ">", "<\u00e9@x>", "",
                                             "<spb.1.g1@games.test>", "<a b@c>"]) + "\r\n"
    if rng.random() < 0.3:
        head += "X-Long: " + "\r\n\t".join("x" * 900 for _ in range(rng.randint(1, 300))) + "\r\n"
    return (head + "\r\n" + text + "\r\n").encode("utf-8", "replace")


def _reply(rng: random.Random, sender: str, text: str) -> bytes:
    """A reply in the shape of a common client, the moves on top or below a quote."""
    quote = "\r\n".join(["> It is your turn. Your moves:", ">   buy upper Lumberjack", "> secret YOUR-SECRET"])
    mark = rng.choice(ATTRIBUTIONS)
    body = rng.choice([f"{text}\r\n\r\n{mark}\r\n{quote}\r\n", f"{mark}\r\n{quote}\r\n\r\n{text}\r\n",
                       f"{text}\r\n{mark}\r\nIt is your turn.\r\n  secret YOUR-SECRET\r\n  move 1\r\n"])
    if rng.random() < 0.4:
        markup = "<div>" + body.replace("\r\n", "<br>") + "</div>"
        return (_head(rng, sender, "Re: [spb g1] move 1: your turn") +
                'Content-Type: multipart/alternative; boundary="alt"\r\n\r\n--alt\r\n'
                f"Content-Type: text/html; charset=utf-8\r\n\r\n{markup}\r\n--alt--\r\n").encode("utf-8", "replace")
    return mail(sender, body, subject="Re: [spb g1] move 1: your turn", message_id=f"<r{rng.getrandbits(48)}@x>")


def _classic(rng: random.Random, sender: str, text: str) -> bytes:
    """The first fuzz suite's shapes: wrong charsets, broken multipart, attachments, huge bodies, injection."""
    head = _head(rng, sender)
    shape = rng.randrange(6)
    if shape == 0:  # broken multipart: no end boundary, no boundary at all, wrong boundary
        boundary = rng.choice(['boundary="b"', "", 'boundary=""', 'boundary="' + "x" * 500 + '"'])
        body = f"--b\r\nContent-Type: text/plain\r\n\r\n{text}\r\n--c\r\n"
        return (head + f"Content-Type: multipart/mixed; {boundary}\r\n\r\n{body}").encode("utf-8", "replace")
    if shape == 1:  # a binary attachment beside the text
        blob = base64.b64encode(rng.randbytes(rng.randint(0, 30_000))).decode()
        return (head + 'Content-Type: multipart/mixed; boundary="q"\r\n\r\n--q\r\nContent-Type: text/plain\r\n\r\n'
                f"{text}\r\n--q\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
                f"Content-Disposition: attachment; filename=x.bin\r\n\r\n{blob}\r\n--q--\r\n").encode("utf-8", "replace")
    if shape == 2:  # base64 or quoted-printable text, sometimes broken
        encoded = base64.b64encode(text.encode()).decode()
        if rng.random() < 0.5:
            encoded = encoded[: rng.randint(0, len(encoded))] + "!!"
        return (head + f"Content-Type: text/plain\r\nContent-Transfer-Encoding: "
                f"{rng.choice(['base64', 'quoted-printable', 'x-what'])}\r\n\r\n{encoded}\r\n").encode()
    if shape == 3:  # HTML only, nested parts, a forwarded message attached
        inner = "From: boris@b.test\r\nSubject: x\r\n\r\ngame g1\r\npass\r\n"
        return (head + 'Content-Type: multipart/mixed; boundary="o"\r\n\r\n--o\r\nContent-Type: multipart/alternative; '
                f'boundary="i"\r\n\r\n--i\r\nContent-Type: text/html\r\n\r\n<div>{text}</div><blockquote>x</blockquote>'
                f"\r\n--i--\r\n--o\r\nContent-Type: message/rfc822\r\n\r\n{inner}\r\n--o--\r\n").encode("utf-8", "replace")
    if shape == 4:  # random bytes
        return rng.randbytes(rng.randint(0, 3000))
    return mail(sender, text, message_id=f"<p{rng.getrandbits(48)}@x>")


GENERATORS: dict[str, Callable[[random.Random, str, str], bytes]] = {
    "classic": _classic, "nested": _nested, "wide": _wide, "html": _html, "charset": _charset, "size": _size,
    "headers": _headers, "reply": _reply,
}


def mutated(rng: random.Random, data: bytes) -> bytes:
    """data with a few bytes changed, cut out or put in (line ends, NUL, boundaries, encoded words)."""
    changed = bytearray(data)
    for _ in range(rng.randint(1, 12)):
        if not changed:
            break
        at = rng.randrange(len(changed))
        roll = rng.random()
        if roll < 0.4:
            changed[at] = rng.randrange(256)
        elif roll < 0.7:
            del changed[at: at + rng.randint(1, 40)]
        else:
            changed[at:at] = rng.choice([b"\r\n", b"\x00", b"\xff\xfe", b"--b", b"=?", b": ", b"\n\n", b">",
                                         b"Content-Type: multipart/mixed; boundary=b\r\n", b"<", b"\xc5\xbf"])
    return bytes(changed)


def command_lines(rng: random.Random, game_id: str, secrets: dict[str, str], number: int,
                  legal: list[str]) -> list[str]:
    """The lines of a player's mail: mostly right, sometimes wrong, now and then noise."""
    lines = []
    if rng.random() < 0.8:
        lines.append(f"game {game_id}")
    if rng.random() < 0.7:
        lines.append("secret " + (secrets[rng.choice(PEOPLE)] if rng.random() < 0.8 else "zzzz-zzzz"))
    if rng.random() < 0.7:
        lines.append(f"move {number + rng.choice([0, 0, 0, -1, 1, 1000])}")
    for _ in range(rng.randint(0, 6)):
        roll = rng.random()
        if roll < 0.5 and legal:
            lines.append(rng.choice(legal))
        elif roll < 0.8:
            lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5))))
        else:
            lines.append("".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(1, 80))))
    return lines


def fuzz_mail(rng: random.Random, text: str) -> tuple[str, bytes]:
    """One generated mail around text (and its generator's name), mutated three times in ten."""
    sender = rng.choice(PEOPLE + ["x@evil.test", "mailer-daemon@x.test", SERVER])
    name = rng.choice(list(GENERATORS))
    data = GENERATORS[name](rng, sender, text)
    if rng.random() < 0.3:
        return name + "+mutated", mutated(rng, data)
    return name, data
