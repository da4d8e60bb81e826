"""The attack suite of issue 20: named hostile mails, each sent to a server with a game in play, on standard
input (the library call behind ``spb pbem receive``) and through a Maildir with a good mail queued right
behind it. For each: the server survives, the hostile mail's outcome is a refusal, a drop, a repeat or a
quarantine with a reason (or, for the few that are a player's own legitimate mail, what such a mail
does), no game changes unless the mail was legitimate, no reply carries an injected header, and the good
mail behind it is handled as usual. The last tests put every hostile mail in one Maildir and through
standard input between good mails: no bad mail stops any other."""

from __future__ import annotations

import base64
import email
import email.policy
import os
import re
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem_fuzzing import pathological_html
from pbem_mail import SERVER, make_server, mail, outbox, secret_of, three_and_a_computer
from spbc.pbem.inbox import receive_maildir, receive_stdin
from spbc.pbem.server import Outcome, Server
from spbc.pbem.transport import Outgoing, compose

LIMIT = 262_144
Secrets = dict[str, str]


@dataclass(frozen=True)
class Attack:
    build: Callable[[Secrets], bytes]
    outcome: str  # what the hostile mail's outcome starts with
    reason: str = ""  # a piece of its reason, when there is one to check
    legitimate: bool = False  # a player's own mail, which may change the game


def raw(head: str, body: str | bytes, content: str = "text/plain; charset=utf-8") -> bytes:
    """A mail from its header lines (From first), a Content-Type and a body."""
    data = body if isinstance(body, bytes) else body.encode("utf-8", "surrogateescape")
    return (head + f"\r\nTo: {SERVER}\r\nContent-Type: {content}\r\n\r\n").encode("utf-8", "surrogateescape") + data


def anna(secrets: Secrets, *lines: str, sender: str = "anna@a.test", **extra) -> bytes:
    return mail(sender, ["game g1", f"secret {secrets['anna@a.test']}", *lines], **extra)


def nested(depth: int, kind: str = "multipart/mixed", text: str = "status") -> Callable[[Secrets], bytes]:
    def build(secrets: Secrets) -> bytes:
        opening = "".join(f'Content-Type: {kind}; boundary="{i}"\r\n\r\n--{i}\r\n' for i in range(depth))
        closing = "".join(f"--{i}--\r\n" for i in reversed(range(depth)))
        body = f"game g1\r\nsecret {secrets['anna@a.test']}\r\nmove 1\r\n{text}\r\n"
        return (f"From: anna@a.test\r\nSubject: [spb g1]\r\n{opening}Content-Type: text/plain\r\n\r\n{body}"
                + closing).encode()
    return build


def wide(parts: int) -> Callable[[Secrets], bytes]:
    def build(secrets: Secrets) -> bytes:
        filler = "".join("--w\r\nContent-Type: image/png\r\n\r\nx\r\n" for _ in range(parts))
        return raw("From: anna@a.test\r\nSubject: [spb g1]", filler + "--w\r\nContent-Type: text/plain\r\n\r\n"
                   f"secret {secrets['anna@a.test']}\r\nmove 1\r\nbuy lumb\r\n--w--\r\n",
                   'multipart/mixed; boundary="w"')
    return build


def html(markup: str) -> Callable[[Secrets], bytes]:
    def build(secrets: Secrets) -> bytes:
        return raw("From: anna@a.test\r\nSubject: [spb g1] move 1", markup.replace("SECRET", secrets["anna@a.test"]),
                   "text/html")
    return build


def pathological(unit: str) -> Callable[[Secrets], bytes]:
    def build(secrets: Secrets) -> bytes:
        return raw("From: anna@a.test\r\nSubject: [spb g1] move 1", (unit * LIMIT)[: LIMIT - 300], "text/html")
    return build


def sender(address: str) -> Callable[[Secrets], bytes]:
    def build(secrets: Secrets) -> bytes:
        return raw(f"From: {address}\r\nSubject: [spb g1] move 1",
                   f"secret {secrets['anna@a.test']}\r\nbuy lumb\r\n")
    return build


def header(line: str, body: str = "status") -> Callable[[Secrets], bytes]:
    def build(secrets: Secrets) -> bytes:
        return raw(f"From: anna@a.test\r\n{line}", f"game g1\r\nsecret {secrets['anna@a.test']}\r\n{body}\r\n")
    return build


def admin_secret(folder: Path) -> str:
    body = next(m.body for m in outbox(folder) if m.subject.endswith("administration"))
    return re.search(r"admin secret: (\S+)", body).group(1)


def bad_admin(action: str) -> Callable[[Secrets], bytes]:
    def build(secrets: Secrets) -> bytes:
        return mail("anna@a.test", ["game g1", f"secret {secrets['admin']}", action])
    return build


def charset(name: str, body: bytes, encoding: str = "8bit") -> Callable[[Secrets], bytes]:
    def build(secrets: Secrets) -> bytes:
        text = body.replace(b"SECRET", secrets["anna@a.test"].encode())
        return raw("From: anna@a.test\r\nSubject: [spb g1] move 1\r\nContent-Transfer-Encoding: " + encoding, text,
                   f"text/plain; charset={name}")
    return build


def body(text: str) -> Callable[[Secrets], bytes]:
    def build(secrets: Secrets) -> bytes:
        return mail("anna@a.test", text.replace("@SECRET@", secrets["anna@a.test"]), subject="[spb g1] move 1")
    return build


REFUSED, DROPPED, ANSWERED = "refused: ", "dropped: ", "answered"
INJECTION = "=?utf-8?b?" + base64.b64encode(b"x\r\nBcc: victim@x.test").decode() + "?="
ATTACKS: dict[str, Attack] = {
    # MIME structure
    "1,000 nested multiparts (58 kB)": Attack(nested(1000), REFUSED, "1000 multipart or attached parts"),
    "3,000 nested multiparts": Attack(nested(3000), REFUSED, "multipart or attached parts"),
    "500 nested message/rfc822": Attack(nested(500, "message/rfc822"), REFUSED, "multipart or attached parts"),
    "21 nested parts, one past the limit": Attack(nested(21), REFUSED, "nested more than 20 deep"),
    "150 nested alternatives": Attack(nested(150, "multipart/alternative"), REFUSED, "nested more than 20 deep"),
    "5,000 parts side by side": Attack(wide(5000), REFUSED, "more than 200 parts"),
    "201 parts side by side": Attack(wide(201), REFUSED, "more than 200 parts"),
    "a boundary that never ends": Attack(lambda s: raw("From: anna@a.test\r\nSubject: [spb g1]", "--b\r\n" * 40_000,
                                                       'multipart/mixed; boundary="b"'), REFUSED),
    "a multipart without a boundary": Attack(lambda s: raw("From: anna@a.test\r\nSubject: [spb g1]", "status\r\n",
                                                           "multipart/mixed"), REFUSED, "no text part"),
    # HTML
    "250 kB of <": Attack(pathological("<"), REFUSED, "has no secret line"),
    "unclosed <a at the limit": Attack(pathological("<a"), REFUSED),
    "unclosed </ at the limit": Attack(pathological("</"), REFUSED),
    "an unclosed comment at the limit": Attack(lambda s: html("<!--" + "x" * (LIMIT - 400))(s), REFUSED),
    "a huge attribute": Attack(lambda s: html('<a href="' + "x" * (LIMIT - 400))(s), REFUSED),
    "deeply nested unclosed tags": Attack(pathological("<div><span>"), REFUSED),
    "mixed pathological markup": Attack(lambda s: html(pathological_html(__import__("random").Random(3), LIMIT - 400))(s),
                                        REFUSED),
    "the moves only in a script": Attack(html("<script>game g1\nsecret SECRET\nbuy lumb</script>"), REFUSED),
    "the secret only in a blockquote": Attack(html("<div>buy lumb</div><blockquote>secret SECRET</blockquote>"),
                                              REFUSED, "has no secret line"),
    # addresses
    "From xſ@ (U+017F)": Attack(sender("x\u017f@a.test"), DROPPED, "no sender address"),
    "From ı@ (U+0131)": Attack(sender("\u0131@a.test"), DROPPED, "no sender address"),
    "From a Kelvin sign": Attack(sender("anna@\u212a.test"), DROPPED, "no sender address"),
    "From a local part of 65": Attack(sender("a" * 65 + "@a.test"), DROPPED, "no sender address"),
    "From an address of 300": Attack(sender("a@" + "b." * 148 + "test"), DROPPED, "no sender address"),
    "From two addresses": Attack(sender("anna@a.test, boris@b.test"), DROPPED, "no sender address"),
    "From a quoted local part": Attack(sender('"anna"@a.test'), DROPPED, "no sender address"),
    "From an address literal": Attack(sender("anna@[127.0.0.1]"), DROPPED, "no sender address"),
    "From nothing": Attack(sender(""), DROPPED, "no sender address"),
    "From an encoded word that decodes to an address": Attack(sender("=?utf-8?q?anna=40a.test?="), DROPPED,
                                                              "no sender address"),
    "admin replace with xſ@": Attack(bad_admin("admin replace 2 x\u017f@a.test"), ANSWERED, legitimate=True),
    "admin address with a long local part": Attack(bad_admin("admin address 2 " + "b" * 65 + "@b.test"), ANSWERED,
                                                   legitimate=True),
    # header injection
    "Subject with CRLF Bcc": Attack(header("Subject: [spb g1]\r\nBcc: victim@x.test"), ANSWERED, legitimate=True),
    "Subject with an encoded CRLF": Attack(header(f"Subject: [spb g1] {INJECTION}"), ANSWERED, legitimate=True),
    "From name with an encoded CRLF": Attack(lambda s: header("Subject: [spb g1]")(s).replace(
        b"From: anna@a.test", f"From: {INJECTION} <anna@a.test>".encode()), ANSWERED, legitimate=True),
    "Message-ID with CRLF Bcc": Attack(header("Subject: [spb g1]\r\nMessage-ID: <a@b>\r\nBcc: v@x.test"), ANSWERED,
                                       legitimate=True),
    "a Message-ID of 5,000": Attack(header("Subject: [spb g1]\r\nMessage-ID: <" + "x" * 5000 + ">"), ANSWERED,
                                    legitimate=True),
    "a non-ASCII Message-ID": Attack(header("Subject: [spb g1]\r\nMessage-ID: <\u00e9@x>"), ANSWERED, legitimate=True),
    "say with a CRLF header": Attack(lambda s: anna(s, "say hi\r\nBcc: victim@x.test"), ANSWERED, legitimate=True),
    # forgery and replays
    "a forged From with Anna's secret": Attack(lambda s: anna(s, "move 1", "buy lumb", sender="boris@b.test"), REFUSED,
                                               "has a wrong secret"),
    "a stranger with Anna's secret": Attack(lambda s: anna(s, "move 1", "buy lumb", sender="eve@evil.test"), REFUSED,
                                            "plays no seat"),
    "a wrong secret": Attack(lambda s: mail("anna@a.test", ["game g1", "secret aaaa-bbbb", "move 1", "buy lumb"]),
                             REFUSED, "has a wrong secret"),
    "the admin secret from Boris": Attack(lambda s: mail("boris@b.test", ["game g1", f"secret {s['admin']}",
                                                                          "admin abort"]), REFUSED),
    "the server's own address": Attack(lambda s: anna(s, "move 1", "buy lumb", sender=SERVER), DROPPED,
                                       "the server's own mail"),
    "a bounce from mailer-daemon": Attack(sender("mailer-daemon@a.test"), DROPPED, "written by a machine"),
    "Auto-Submitted": Attack(header("Subject: x\r\nAuto-Submitted: auto-replied", "move 1\r\nbuy lumb"), DROPPED,
                             "written by a machine"),
    "Precedence bulk": Attack(header("Subject: x\r\nPrecedence: bulk", "move 1\r\nbuy lumb"), DROPPED),
    "a vacation reply": Attack(header("Subject: Out of office", "move 1\r\nbuy lumb"), DROPPED),
    "a handled mail's Message-ID again": Attack(lambda s: mail("boris@b.test", ["game g1", "secret x", "admin abort"],
                                                               message_id="<seen@a.test>"), "repeat"),
    "Boris's handled Message-ID from a stranger": Attack(lambda s: mail("eve@evil.test", ["game g1", "pass"],
                                                                        message_id="<seen@a.test>"), REFUSED,
                                                         "plays no seat"),
    "a stale move number": Attack(lambda s: anna(s, "move 7", "buy lumb"), ANSWERED, legitimate=True),
    "a game that does not exist": Attack(lambda s: mail("anna@a.test", ["game zz", "pass"]), REFUSED, "the game the mail names is not on this server"),
    # quoted and hidden secrets
    "the secret only quoted": Attack(body("> secret @SECRET@\nmove 1\nbuy lumb\n"), REFUSED, "has no secret line"),
    "the placeholder YOUR-SECRET": Attack(body("secret YOUR-SECRET\nmove 1\nbuy lumb\n"), REFUSED,
                                          "has no secret line"),
    "the secret after the signature": Attack(body("move 1\nbuy lumb\n-- \nsecret @SECRET@\n"), REFUSED,
                                             "has no secret line"),
    "the secret in a forwarded part": Attack(body("move 1\nbuy lumb\n---------- Forwarded message ---------\n"
                                                  "secret @SECRET@\n"), REFUSED, "has no secret line"),
    "the secret below an Outlook header": Attack(body("move 1\nbuy lumb\nFrom: Anna\nSent: today\nsecret @SECRET@\n"),
                                                 REFUSED, "has no secret line"),
    "the secret in an attachment": Attack(lambda s: raw(
        "From: anna@a.test\r\nSubject: [spb g1] move 1", "--q\r\nContent-Type: text/plain\r\n\r\nbuy lumb\r\n--q\r\n"
        "Content-Type: text/plain\r\nContent-Disposition: attachment\r\n\r\nsecret " + s["anna@a.test"] + "\r\n--q--\r\n",
        'multipart/mixed; boundary="q"'), REFUSED, "has no secret line"),
    "a pasted view's secret after a wrong one": Attack(body("secret wrong-one\nmove 1\nbuy lumb\n\n"
                                                            "  secret @SECRET@\n"), REFUSED, "has a wrong secret"),
    "a stranger's say": Attack(lambda s: mail("eve@evil.test", ["game g1", "say buy cheap pills"]), REFUSED,
                               "plays no seat"),
    "a game id with a path": Attack(lambda s: mail("anna@a.test", ["game ../../etc/passwd", "status"]), REFUSED,
                                    "names no game"),
    "a game id of 1,000": Attack(lambda s: mail("anna@a.test", ["game " + "g" * 1000, "status"]), REFUSED,
                                 "names no game"),
    "a delivery report": Attack(lambda s: raw("From: anna@a.test\r\nSubject: [spb g1]", "--r\r\nContent-Type: "
                                              "text/plain\r\n\r\nsecret " + s["anna@a.test"] + "\r\n--r--\r\n",
                                              'multipart/report; boundary="r"'), DROPPED, "delivery report"),
    "Return-Path <>": Attack(header("Subject: [spb g1]\r\nReturn-Path: <>", "move 1\r\nbuy lumb"), DROPPED,
                             "a bounce"),
    "a list's mail": Attack(header("Subject: [spb g1]\r\nList-Id: <spam.x.test>", "move 1\r\nbuy lumb"), DROPPED,
                            "mailing list"),
    "10,000 blank lines before the moves": Attack(lambda s: mail("eve@evil.test", "\n" * 10_000 + "game g1\npass\n"),
                                                  REFUSED, "plays no seat"),
    "a header of 270,000 characters": Attack(header("Subject: [spb g1]\r\nX-Long: " + "x" * 270_000), REFUSED,
                                             "more than the 262144"),
    # bytes
    "NUL bytes in the body": Attack(body("secret @SECRET@\x00\nmove 1\x00\n\x00buy lumb\n"), "1 moves applied",
                                    legitimate=True),
    "NUL bytes in the header": Attack(lambda s: header("Subject: [spb g1]\x00\x00")(s).replace(
        b"From: anna@a.test", b"From: an\x00na@a.test"), DROPPED, "no sender address"),
    "random bytes": Attack(lambda s: bytes(range(256)) * 40, DROPPED),
    "an empty mail": Attack(lambda s: b"", DROPPED, "no sender address"),
    "a header and no body": Attack(lambda s: b"From: anna@a.test\r\nSubject: [spb g1]\r\n", REFUSED),
    "a line of 1 MB": Attack(lambda s: anna(s, "move 1", "x" * 1_000_000), REFUSED, "more than the 262144"),
    "a line of 250 kB": Attack(lambda s: anna(s, "move 1", "x" * 250_000), ANSWERED, legitimate=True),
    "CR-only line ends": Attack(lambda s: anna(s, "move 7", "pass").replace(b"\n", b"\r").replace(b"\r\r", b"\r"),
                                ANSWERED, legitimate=True),
    # encoded words
    "an encoded-word bomb in the subject": Attack(header("Subject: " + "=?utf-8?q?x?= " * 15_000), ANSWERED,
                                                  legitimate=True),
    "encoded words of an unknown charset": Attack(header("Subject: =?x-what?q?x?= =?utf-8?b?!!!?="), ANSWERED,
                                                  legitimate=True),
    "an encoded-word bomb in the From name": Attack(lambda s: header("Subject: [spb g1]")(s).replace(
        b"From: anna@a.test", ("From: " + "=?utf-8?q?x?=" * 5000 + " <anna@a.test>").encode()), DROPPED,
                                                    "no sender address"),
    # charset tricks
    "UTF-7 smuggling": Attack(charset("utf-7", b"+AGcAYQBtAGU- g1\r\nsecret SECRET\r\n+ADw-script+AD4-\r\n"), ANSWERED,
                              legitimate=True),
    "UTF-16 without a BOM": Attack(charset("utf-16-le", "game g1\r\nsecret x\r\n".encode("utf-16-le")), REFUSED),
    "an unknown charset": Attack(charset("x-klingon", b"game g1\r\nsecret SECRET\r\nstatus\r\n"), ANSWERED,
                                 legitimate=True),
    "a codec that is no charset": Attack(charset("rot13", b"game g1\r\nsecret SECRET\r\nstatus\r\n"), ANSWERED,
                                         legitimate=True),
    "broken base64": Attack(charset("utf-8", b"Z2FtZSBn!!!\r\n", "base64"), REFUSED),
    # attribution tricks
    "a move of the quoted mail below an unknown attribution": Attack(body(
        "secret @SECRET@\nmove 1\nbuy lumb\n\nLe lun. 1 déc. 2026, Server a écrit :\nIt is your turn.\n  pass\n"),
        "1 moves applied", legitimate=True),
    "a move bottom-posted below a quote": Attack(body(
        "On Mon, 1 Dec 2026 at 10:00, Server <\nspb@games.test> wrote:\n> secret YOUR-SECRET\n> move 9\n\n"
        "secret @SECRET@\nmove 1\nbuy lumb\n"), "1 moves applied", legitimate=True),
}


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A folder with a game in play, a handled mail (<seen@a.test>) and the secrets, copied for each test."""
    folder = tmp_path_factory.mktemp("template")
    server = make_server(folder)
    three_and_a_computer(server)
    mails = outbox(folder)
    secrets = {a: secret_of(mails, a) for a in ("anna@a.test", "boris@b.test", "clara@c.test")}
    server.receive(mail("boris@b.test", ["game g1", f"secret {secrets['boris@b.test']}", "status"],
                        message_id="<seen@a.test>"))
    server.close()
    (folder / "secrets").write_text(" ".join([secrets["anna@a.test"], admin_secret(folder)]), encoding="utf-8")
    return folder


def start(template: Path, folder: Path) -> tuple[Server, Secrets]:
    shutil.copytree(template, folder)
    anna_secret, admin = (folder / "secrets").read_text(encoding="utf-8").split()
    return make_server(folder), {"anna@a.test": anna_secret, "admin": admin}


def game_state(server: Server) -> tuple:
    row = server.store.game("g1")
    return row.state, row.status, server.store.moves("g1"), [(s.address, s.secret_hash) for s in server.store.seats("g1")]


def next_good(server: Server, secrets: Secrets) -> bytes | None:
    """Anna's good move when it is her turn (the first move of the game), else None."""
    context = server.sitting("g1")
    if context.game.current_player != 0 or context.game.is_over:
        return None
    return anna(secrets, f"move {context.moves + 1}", "buy lumb")


def check(attack: Attack, outcome: Outcome, before: tuple, server: Server) -> None:
    assert outcome.result.startswith(attack.outcome), outcome.result
    assert attack.reason in outcome.result
    if not attack.legitimate:
        assert game_state(server) == before
    else:
        assert [(s.address, s.secret_hash) for s in server.store.seats("g1")] == before[3]


def check_replies(server: Server) -> None:
    """No reply carries a header besides the server's own, nor a second recipient."""
    for number, game_id, recipient, subject, body, reply_to, kind in server.store.db.execute(
            "SELECT id, game, recipient, subject, body, reply_to, kind FROM outbox"):
        parsed = email.message_from_bytes(compose(Outgoing(number, game_id, recipient, subject, body, reply_to, kind),
                                                  SERVER), policy=email.policy.default)
        assert "Bcc" not in parsed and "\n" not in str(parsed["To"]) and str(parsed["To"]) == recipient


def test_there_are_at_least_sixty_attacks():
    assert len(ATTACKS) >= 60


@pytest.mark.parametrize("name", ATTACKS)
def test_a_hostile_mail_on_standard_input(template, tmp_path, name):
    attack = ATTACKS[name]
    server, secrets = start(template, tmp_path / "server")
    before = game_state(server)
    outcome = receive_stdin(server, attack.build(secrets))
    check(attack, outcome, before, server)
    good = next_good(server, secrets)
    if good is not None:
        assert receive_stdin(server, good).applied == 1
    check_replies(server)
    server.close()


@pytest.mark.slow  # the isolation runs below put every mail in a Maildir too
@pytest.mark.parametrize("name", ATTACKS)
def test_a_hostile_mail_in_a_maildir_then_a_good_one(template, tmp_path, name):
    attack = ATTACKS[name]
    server, secrets = start(template, tmp_path / "server")
    before = game_state(server)
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    (inbox / "new" / "1").write_bytes(attack.build(secrets))
    outcomes = receive_maildir(server, inbox)
    check(attack, outcomes[0], before, server)
    good = next_good(server, secrets)
    if good is not None:
        (inbox / "new" / "2").write_bytes(good)
        assert receive_maildir(server, inbox)[0].applied == 1
    check_replies(server)
    server.close()


ENTRIES: dict[str, Callable[[Path], None]] = {
    "a FIFO": lambda path: os.mkfifo(path),
    "a folder": lambda path: path.mkdir(),
    "a symbolic link": lambda path: path.symlink_to("/etc/passwd"),
    "a dangling link": lambda path: path.symlink_to("/nonexistent/mail"),
    "a socket": lambda path: socket.socket(socket.AF_UNIX).bind(str(path)),
}


@pytest.mark.parametrize("name", ENTRIES)
def test_an_entry_of_new_that_is_no_file_is_put_aside(template, tmp_path, name):
    """Issue finding 15 in the attack suite: none is opened, each is moved to quarantine/, the good mail is read."""
    server, secrets = start(template, tmp_path / "server")
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    ENTRIES[name](inbox / "new" / "1")
    (inbox / "new" / "2").write_bytes(next_good(server, secrets))
    first, second = receive_maildir(server, inbox)
    assert first.result.startswith("quarantined: it is no regular file") and second.applied == 1
    assert [p.name for p in (inbox / "quarantine").iterdir()] == ["1"]
    server.close()


def test_no_bad_mail_stops_any_other_in_one_maildir_run(template, tmp_path):
    """Every hostile mail, with a FIFO and a folder, in one Maildir between good mails of each player: one
    run handles them all, and every good mail is applied."""
    server, secrets = start(template, tmp_path / "server")
    everyone = {a: secret_of(outbox(tmp_path / "server"), a) for a in ("anna@a.test", "boris@b.test", "clara@c.test")}
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    os.mkfifo(inbox / "new" / "0000-fifo")
    (inbox / "new" / "0001-folder").mkdir()
    hostile = [a for a in ATTACKS.values() if not a.legitimate]
    for index, attack in enumerate(hostile):
        (inbox / "new" / f"{index:04d}-x").write_bytes(attack.build(secrets))
    first = receive_maildir(server, inbox)
    assert len(first) == len(hostile) + 2
    assert all(o.result.startswith(("refused", "dropped", "repeat", "quarantined")) for o in first)
    applied = 0
    for turn in range(12):  # the players' good mails, each queued behind a hostile mail
        context = server.sitting("g1")
        seat = context.game.current_player
        who = ["anna@a.test", "boris@b.test", "clara@c.test"][seat]
        move = context.legal(context.game.current_player)[0][0]
        (inbox / "new" / f"{turn:04d}-a").write_bytes(hostile[turn % len(hostile)].build(secrets))
        (inbox / "new" / f"{turn:04d}-b").write_bytes(mail(who, ["game g1", f"secret {everyone[who]}",
                                                                 f"move {context.moves + 1}", move]))
        outcomes = receive_maildir(server, inbox)
        applied += outcomes[1].applied
        assert outcomes[1].applied == 1, outcomes[1].result
    assert applied == 12
    server.close()


def test_no_bad_mail_stops_any_other_on_standard_input(template, tmp_path):
    """Every hostile mail on standard input, each followed by the good move of the player on turn."""
    server, secrets = start(template, tmp_path / "server")
    everyone = {a: secret_of(outbox(tmp_path / "server"), a) for a in ("anna@a.test", "boris@b.test", "clara@c.test")}
    for attack in [a for a in ATTACKS.values() if not a.legitimate]:
        before = game_state(server)
        assert receive_stdin(server, attack.build(secrets)).result.startswith(
            ("refused", "dropped", "repeat", "quarantined"))
        assert game_state(server) == before
        context = server.sitting("g1")
        if context.game.is_over:
            break
        who = ["anna@a.test", "boris@b.test", "clara@c.test"][context.game.current_player]
        move = context.legal(context.game.current_player)[0][0]
        good = mail(who, ["game g1", f"secret {everyone[who]}", f"move {context.moves + 1}", move])
        assert receive_stdin(server, good).applied == 1
    check_replies(server)
    server.close()
