"""Fuzzing the mail server: generated and mutated mails (broken MIME, wrong character sets, huge bodies, binary
attachments, header injection in names) never crash it, never break a game, and never put anything into the
headers of a reply. The default tier sends a few hundred mails; the slow tier some thousands."""

from __future__ import annotations

import base64
import email
import email.policy
import random

import pytest

from pbem_mail import SERVER, make_server, mail, outbox, secret_of, three_and_a_computer
from spbc.pbem.transport import Outgoing, compose
from spbc.play.record import read_record

HEADERS = ["From", "To", "Subject", "Date", "Message-ID", "Auto-Submitted", "X-Auto-Response-Suppress",
           "MIME-Version", "Content-Type", "Content-Transfer-Encoding"]
PEOPLE = ["anna@a.test", "boris@b.test", "clara@c.test"]
WORDS = ["buy", "take", "play", "pass", "observe", "pub", "discard", "upper", "lower", "over", "lumberjack",
         "market", "obs", "help", "status", "moves", "hint", "order", "say", "mail", "admin", "game", "secret",
         "move", "ü", "€", "\u202e", "\x00", "=?utf-8?b?QQ==?=", ">", "--", "-- ", "<p>", "&amp;", "\t"]


def _lines(rng: random.Random, server, secrets) -> list[str]:
    context = server._context("g1")
    lines = []
    if rng.random() < 0.8:
        lines.append("game g1")
    if rng.random() < 0.7:
        lines.append("secret " + (secrets[rng.choice(PEOPLE)] if rng.random() < 0.8 else "zzzz-zzzz"))
    if rng.random() < 0.7:
        lines.append(f"move {context.moves + 1 + rng.choice([0, 0, 0, -1, 1, 1000])}")
    legal = [server._legal(context.game)[i][0] for i in range(len(context.game.legal_moves()))]
    for _ in range(rng.randint(0, 6)):
        roll = rng.random()
        if roll < 0.5 and legal:
            lines.append(rng.choice(legal))
        elif roll < 0.8:
            lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5))))
        else:
            lines.append("".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(1, 80))))
    return lines


def _structural(rng: random.Random, sender: str, text: str) -> bytes:
    """A mail of a random shape around text."""
    head = f"From: {sender}\r\nTo: {SERVER}\r\nSubject: [spb g1] move\r\nMessage-ID: <f{rng.getrandbits(48)}@x>\r\n"
    shape = rng.randrange(9)
    if shape == 0:  # a charset Python does not know, or the wrong one
        charset = rng.choice(["x-unknown", "utf-16", "utf-7", "iso-2022-jp", "koi8-r", "", "utf-8\x00"])
        return (head + f"Content-Type: text/plain; charset={charset}\r\n\r\n").encode() + text.encode("utf-8", "replace")
    if shape == 1:  # broken multipart: no end boundary, no boundary at all, wrong boundary
        boundary = rng.choice(['boundary="b"', "", 'boundary=""', 'boundary="' + "x" * 500 + '"'])
        body = f"--b\r\nContent-Type: text/plain\r\n\r\n{text}\r\n--c\r\n"
        return (head + f"Content-Type: multipart/mixed; {boundary}\r\n\r\n{body}").encode("utf-8", "replace")
    if shape == 2:  # a binary attachment beside the text
        blob = base64.b64encode(rng.randbytes(rng.randint(0, 30_000))).decode()
        return (head + 'Content-Type: multipart/mixed; boundary="q"\r\n\r\n--q\r\nContent-Type: text/plain\r\n\r\n'
                f"{text}\r\n--q\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
                f"Content-Disposition: attachment; filename=x.bin\r\n\r\n{blob}\r\n--q--\r\n").encode("utf-8", "replace")
    if shape == 3:  # a huge body, over or under the limit
        size = rng.choice([262_145, 300_000, 200_000])
        return (head + "\r\n").encode() + (text + "\r\n").encode("utf-8", "replace") + b"x" * size
    if shape == 4:  # header injection in the name and the subject
        name = rng.choice(["Anna\r\nBcc: victim@x.test", "=?utf-8?q?Anna=0D=0ABcc:_v@x.test?=", "\"A\nB\" ",
                           "Anna\x00", "=?utf-8?b?" + base64.b64encode(b"\r\nTo: x@y").decode() + "?="])
        subject = rng.choice(["[spb g1]\r\nBcc: x@y", "=?utf-8?b?" + base64.b64encode(b"a\r\nb").decode() + "?="])
        return (f"From: {name} <{sender}>\r\nTo: {SERVER}\r\nSubject: {subject}\r\n\r\n{text}\r\n").encode("utf-8",
                                                                                                         "replace")
    if shape == 5:  # base64 or quoted-printable text, sometimes broken
        encoded = base64.b64encode(text.encode()).decode()
        if rng.random() < 0.5:
            encoded = encoded[: rng.randint(0, len(encoded))] + "!!"
        return (head + f"Content-Type: text/plain\r\nContent-Transfer-Encoding: {rng.choice(['base64', 'quoted-printable', 'x-what'])}"
                f"\r\n\r\n{encoded}\r\n").encode()
    if shape == 6:  # HTML only, nested parts, a forwarded message attached
        inner = "From: boris@b.test\r\nSubject: x\r\n\r\ngame g1\r\npass\r\n"
        return (head + 'Content-Type: multipart/mixed; boundary="o"\r\n\r\n--o\r\nContent-Type: multipart/alternative; '
                f'boundary="i"\r\n\r\n--i\r\nContent-Type: text/html\r\n\r\n<div>{text}</div><blockquote>x</blockquote>'
                f"\r\n--i--\r\n--o\r\nContent-Type: message/rfc822\r\n\r\n{inner}\r\n--o--\r\n").encode("utf-8", "replace")
    if shape == 7:  # random bytes
        return rng.randbytes(rng.randint(0, 3000))
    return mail(sender, text, message_id=f"<p{rng.getrandbits(48)}@x>")


def _mutated(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 12)):
        if not data:
            break
        at = rng.randrange(len(data))
        roll = rng.random()
        if roll < 0.4:
            data[at] = rng.randrange(256)
        elif roll < 0.7:
            del data[at: at + rng.randint(1, 40)]
        else:
            data[at:at] = rng.choice([b"\r\n", b"\x00", b"\xff\xfe", b"--b", b"=?", b": ", b"\n\n", b">"])
    return bytes(data)


def fuzz(tmp_path, count: int, seed: int) -> None:
    server = make_server(tmp_path, 'synchronous = "NORMAL"\n')
    three_and_a_computer(server)
    mails = outbox(tmp_path)
    secrets = {a: secret_of(mails, a) for a in PEOPLE}
    rng = random.Random(seed)
    for index in range(count):
        if index % 10 == 9:  # now and then a good move of the player on turn, so that the game goes on
            context = server._context("g1")
            seat = context.game.current_player
            if seat < 3 and not context.game.is_over:
                move = rng.choice(server._legal(context.game))[0]
                server.handle(mail(PEOPLE[seat], ["game g1", f"secret {secrets[PEOPLE[seat]]}",
                                                  f"move {context.moves + 1}", move], message_id=f"<g{index}@x>"))
            continue
        sender = rng.choice(PEOPLE + ["x@evil.test", "mailer-daemon@x.test", SERVER])
        text = "\r\n".join(_lines(rng, server, secrets))
        data = _structural(rng, sender, text)
        if rng.random() < 0.3:
            data = _mutated(rng, data)
        server.handle(data)  # must not raise
    server.flush()
    context = server._context("g1")
    assert read_record(server.export("g1", with_seed=True)).game.state_values() == context.game.state_values()
    for number, game_id, recipient, subject, body, reply_to, kind in server.store.db.execute(
            "SELECT id, game, recipient, subject, body, reply_to, kind FROM outbox"):
        message = compose(Outgoing(number, game_id, recipient, subject, body, reply_to, kind), SERVER)
        parsed = email.message_from_bytes(message, policy=email.policy.default)
        assert parsed.keys() == HEADERS[:5] + (["In-Reply-To", "References"] if reply_to else []) + HEADERS[5:]
        assert "\n" not in str(parsed["To"]) and "Bcc" not in parsed and "@" in str(parsed["To"])
        for address, secret in secrets.items():
            assert secret not in body or (address == recipient and kind == "welcome")
    assert len([how for _, _, how in server.store.moves("g1") if how == "mail"]) >= min(count // 20, 20)
    server.close()


def test_a_few_hundred_generated_and_mutated_mails(tmp_path):
    fuzz(tmp_path, 400, seed=1)


@pytest.mark.slow
def test_thousands_of_generated_and_mutated_mails(tmp_path):
    fuzz(tmp_path, 4000, seed=2)
