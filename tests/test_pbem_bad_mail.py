"""Bad mail to every command of play by email made by mail (issue 25): forged, stale, duplicate, garbled and
machine-written mails to list, create, join, leave, start, cancel, resign, away, back, watch, unwatch, record,
history, say to, ratings and lang change nothing in the store and get one clear answer (none for a machine's
mail), which holds nobody's secret, invite code or seed; a stranger cannot join, read or watch a private game.

The replies go through a real aiosmtpd on loopback (one for the module); each test has its own SQLite store.
"Nothing changed" compares a dump of every table (sqlite3 iterdump) before and after, apart from three tables
that change by design for every mail: ``messages`` (the Message-IDs or digests of the mails handled, so that a
second delivery is known), ``outbox`` (the answers themselves) and ``refusals`` (the hourly counts that limit
answers), with their row counters in ``sqlite_sequence``. Incoming mail is read from its bytes (Maildir or IMAP): there is no SMTP envelope to compare the From
header with, so a forged From is tested as the From header alone.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem_mail import SECRET_LINE, SERVER, Received, key_line, make_server, mail, three_and_a_computer
from spbc.pbem.limits import refusal_body
from spbc.pbem.server import NewGame, SeatSpec
from spbc.pbem.watchers import watch_code
from spbc.pbem.wording import mail_words

aiosmtpd = pytest.importorskip("aiosmtpd.controller")
from test_pbem_e2e import free_port  # noqa: E402
from test_pbem_lobby import Inbox  # noqa: E402

SEED = 8_831_726_354_125
#: Tables that change for every mail by design (see the module's text).
LOGS = ("messages", "outbox", "refusals")
EVE = "eve@evil.test"


@pytest.fixture(scope="module")
def smtp():
    inbox = Inbox()
    controller = aiosmtpd.Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller.port, inbox
    controller.stop()


@dataclass
class World:
    """A store with games in every state, and what their people know."""

    server: object
    inbox: Inbox
    path: Path
    secrets: dict[str, str] = field(default_factory=dict)  # "g1 anna" -> secret
    ids: dict[str, str] = field(default_factory=dict)  # open, private, started, cancelled -> lobby game id
    codes: dict[str, str] = field(default_factory=dict)  # private, started -> invite code
    watch: str = ""  # dora's watch code of g1 (she watches it)

    def send(self, data: bytes) -> list[Received]:
        self.server.receive(data)
        return self.inbox.taken()

    def lobby(self, sender: str, line: str) -> Received:
        return next(sent for sent in self.send(mail(sender, [line, key_line(self.server.store, sender)],
                                                    subject="lobby")) if sent.recipient == sender)

    def hidden(self) -> list[str]:
        """What no answer to a bad mail may hold."""
        return [*self.secrets.values(), *self.codes.values(), str(SEED), self.watch]

    def dump(self) -> list[str]:
        db = sqlite3.connect(self.path / "pbem.sqlite")
        try:
            logs = tuple(f'INSERT INTO "{t}"' for t in LOGS) + tuple(f'INSERT INTO "sqlite_sequence" VALUES(\'{t}\''
                                                                    for t in LOGS)
            return [line for line in db.iterdump() if not line.startswith(logs)]
        finally:
            db.close()


def _game_id(sent: Received) -> str:
    return re.search(r"^\[spb (g\w+)\]", sent.subject).group(1)


def _secrets(world: World, game: str, mails: list[Received]) -> None:
    for sent in mails:
        found = re.search(SECRET_LINE, sent.body, re.M)
        if found:
            world.secrets[f"{game} {sent.recipient.split('@')[0]}"] = found.group(1)


def _config(port: int) -> str:
    return ("[limits]\nrefusals_per_hour = 500\nrefusals_per_hour_total = 5000\n"
            f'[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\ntimeout = 20\n')


@pytest.fixture(scope="module")
def made(tmp_path_factory, smtp):
    """The games of every state, made once by mail; each test plays on a copy of their store file."""
    port, inbox = smtp
    folder = tmp_path_factory.mktemp("made")
    server = make_server(folder, _config(port))
    world = World(server, inbox, folder)
    three_and_a_computer(server, seed=SEED)
    _secrets(world, "g1", inbox.taken())
    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test", "de")],
                            seed=SEED + 1, game_id="g2"))
    _secrets(world, "g2", inbox.taken())
    server.admin("g2", ["abort"])  # an ended game
    inbox.taken()
    world.ids["open"] = _game_id(world.lobby("anna@a.test", "create players 3"))
    world.lobby("boris@b.test", f"join {world.ids['open']} as Boris")
    for kind, line in (("private", "create players 3 private"), ("started", "create players 2 private")):
        created = world.lobby("anna@a.test", line)
        world.ids[kind] = _game_id(created)
        world.codes[kind] = re.search(r"Its invite code: (\S+)$", created.body, re.M).group(1)
    started, code = world.ids["started"], world.codes["started"]
    world.lobby("boris@b.test", f"join {started} {code} as Boris")
    world.send(mail("clara@c.test", [f"join {started} {code} as Clara", key_line(server.store, "clara@c.test")],
                    subject="lobby"))
    world.ids["cancelled"] = _game_id(world.lobby("anna@a.test", "create players 2"))
    world.lobby("anna@a.test", f"cancel {world.ids['cancelled']}")
    world.watch = watch_code(server.store, "dora@d.test", "g1")
    world.send(mail("dora@d.test", [f"watch g1 {world.watch}"]))
    inbox.taken()
    server.close()  # the last connection: the store is one file again
    return world


@pytest.fixture
def world(tmp_path, smtp, made):
    port, inbox = smtp
    shutil.copy(made.path / "pbem.sqlite", tmp_path / "pbem.sqlite")
    server = make_server(tmp_path, _config(port))
    inbox.taken()
    world = World(server, inbox, tmp_path, dict(made.secrets), dict(made.ids), dict(made.codes), made.watch)
    yield world
    server.close()


def _as(world: World, who: str, game: str = "g1") -> list[str]:
    return [f"game {game}", f"secret {world.secrets[f'{game} {who}']}"]


def _raw(sender: str, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> bytes:
    head = f"From: {sender}\r\nTo: {SERVER}\r\nSubject: moves\r\nMessage-ID: <raw{len(body)}.{id(body)}@test>\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    return (head + f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\n\r\n").encode() + body


def _attachment_only(sender: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, SERVER, "moves"
    message["Message-ID"] = "<binary.only@test>"
    message.add_attachment(bytes(range(256)) * 8, maintype="application", subtype="octet-stream",
                           filename="moves.bin")
    return message.as_bytes()


def _bounce(lines: list[str]) -> bytes:
    """A delivery report from a mailer daemon that quotes a command."""
    text = "\r\n".join(lines)
    body = (f"--b\r\nContent-Type: text/plain\r\n\r\n{text}\r\n--b\r\n"
            "Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.test\r\n--b--\r\n")
    return _raw("MAILER-DAEMON@mx.test", body.encode(), 'multipart/report; report-type=delivery-status; boundary="b"')


@dataclass(frozen=True)
class Case:
    command: str
    kind: str
    make: Callable[[World], bytes]
    to: str | None  # who gets the one answer (None: nobody)
    says: str = ""  # a regex the answer holds (where and why)
    lang: str = "en"  # the answer's language
    refusal: bool = True  # the answer is a refusal (else an answer that changes nothing)


A, B, C, D = "anna@a.test", "boris@b.test", "clara@c.test", "dora@d.test"
LONG = "x" * 100_000
AUTO = {"Auto-Submitted": "auto-replied"}
BULK = {"Precedence": "bulk"}
KEY_SENT = "Your key: [0-9a-f]{16}\nSend your mail again"


def _lobby(sender: str, line: Callable[[World], str], headers: dict[str, str] | None = None):
    """A lobby mail with its sender's own lobby key (the forged ones without it are cases of their own)."""
    return lambda w: mail(sender, [line(w), key_line(w.server.store, sender)], subject="lobby", headers=headers)


def _keyless(sender: str, line: Callable[[World], str], key: str | None = None):
    """A lobby mail in sender's name without its key (or with another): what a forged From: can send."""
    return lambda w: mail(sender, [line(w), *([f"key {key}"] if key else [])], subject="lobby")


def _play(sender: str, who: str, line: str, game: str = "g1", headers: dict[str, str] | None = None):
    return lambda w: mail(sender, [*_as(w, who, game), line], headers=headers)


def _cases() -> list[Case]:
    o, p = (lambda w: w.ids["open"]), (lambda w: w.ids["private"])
    s, x = (lambda w: w.ids["started"]), (lambda w: w.ids["cancelled"])
    cases = [
        Case("list", "garbled", lambda w: _attachment_only(D), D, "no text part"),
        Case("list", "garbled", lambda w: mail(D, ""), D, "names no game"),
        Case("list", "machine", lambda w: mail(D, ["list"], headers=AUTO), None),
        Case("list", "machine", lambda w: _bounce(["list"]), None),
        Case("create", "garbled", _lobby(D, lambda w: "create players 9"), D, r"create \[RULES\]"),
        Case("create", "garbled", _lobby(D, lambda w: "create ../../etc/passwd"), D, r"create \[RULES\]"),
        Case("create", "garbled", _lobby(D, lambda w: "create " + LONG), D, r"create \[RULES\]"),
        Case("create", "garbled", _lobby(D, lambda w: "erstellen spieler neun"), D, r"create \[RULES\]|erstellen", "de"),
        Case("create", "garbled", lambda w: _raw(D, f"create players 9\n{key_line(w.server.store, D)}\n"
                                                 .encode("utf-16"), "text/plain"), D, ""),
        Case("create", "garbled", lambda w: _raw(D, b"create \xff\xfe players 9\n" + key_line(w.server.store, D)
                                                 .encode(), "text/plain; charset=x-nonesuch"),
           D, r"create \[RULES\]"),
        # a forged From: without the address's lobby key (or with a wrong one): the key goes to the address
        Case("create", "forged", _keyless(B, lambda w: "create players 2"), B, KEY_SENT, refusal=False),
        Case("join", "forged", _keyless(C, lambda w: f"join {w.ids['open']} as Clara"), C, KEY_SENT, refusal=False),
        Case("join", "forged", _keyless(C, lambda w: f"beitreten {w.ids['open']} als Clara", "0" * 16), C,
             "Dein Schlüssel: [0-9a-f]{16}", "de", refusal=False),
        Case("leave", "forged", _keyless(B, lambda w: f"leave {w.ids['open']}"), B, KEY_SENT, refusal=False),
        Case("leave", "forged", _keyless(B, lambda w: f"leave {w.ids['open']}", "key"), B, KEY_SENT, refusal=False),
        Case("start", "forged", _keyless(A, lambda w: f"start {w.ids['open']}"), A, KEY_SENT, refusal=False),
        Case("cancel", "forged", _keyless(A, lambda w: f"取消 {w.ids['open']}"), A, "你的密鑰：[0-9a-f]{16}", "zh",
             refusal=False),
        Case("cancel", "forged", _keyless(A, lambda w: f"cancel {w.ids['open']}", "f" * 16), A, KEY_SENT,
             refusal=False),
        Case("create", "machine", lambda w: mail(D, ["create players 2"], headers=BULK), None),
        Case("create", "machine", lambda w: _bounce(["create players 2"]), None),
        Case("join", "forged", _lobby(EVE, lambda w: f"join {w.ids['private']} as Eve"), EVE, "not its invite code"),
        Case("join", "forged", _lobby(EVE, lambda w: f"join {w.ids['private']} aaaa-bbbb-cccc-dddd as Eve"), EVE,
           "not its invite code"),
        Case("join", "forged", _lobby(EVE, lambda w: f"join {w.ids['private']} {w.codes['started']} as Eve"), EVE,
           "not its invite code"),
        Case("join", "forged", _lobby(EVE, lambda w: f"beitreten {w.ids['private']} als Eve"), EVE, "Einladungscode",
           "de"),
        Case("join", "forged", _lobby(B, lambda w: f"join {w.ids['open']} as Bob"), B, "already"),
        Case("join", "stale", _lobby(EVE, lambda w: f"join {w.ids['cancelled']} as Eve"), EVE, "no open game"),
        Case("join", "stale", _lobby(EVE, lambda w: f"join {w.ids['started']} {w.codes['started']} as Eve"), EVE,
           "no open game"),
        Case("join", "stale", _lobby(EVE, lambda w: "加入 g2 作為 小明"), EVE, "", "zh"),
        Case("join", "garbled", _lobby(EVE, lambda w: f"join {w.ids['open']}"), EVE, "join GAME"),
        Case("join", "garbled", _lobby(EVE, lambda w: f"join {w.ids['open']} as " + LONG), EVE, "a name is"),
        Case("join", "garbled", _lobby(EVE, lambda w: f"join {w.ids['open']} as a\u202eb"), EVE, "a name is"),
        Case("join", "garbled", _lobby(EVE, lambda w: "join ../../x as Eve"), EVE, "no open game"),
        Case("join", "machine", _lobby(EVE, lambda w: f"join {w.ids['open']} as Eve", AUTO), None),
        Case("join", "machine", lambda w: _bounce([f"join {w.ids['open']} as Eve"]), None),
        Case("leave", "forged", _lobby(EVE, lambda w: f"leave {w.ids['open']}"), EVE, "not"),
        Case("leave", "stale", _lobby(B, lambda w: f"leave {w.ids['started']}"), B, "no open game"),
        Case("leave", "stale", _lobby(B, lambda w: f"verlassen {w.ids['cancelled']}"), B, "kein offenes|keine offene",
           "de"),
        Case("leave", "garbled", _lobby(B, lambda w: "leave"), B, "no open game"),
        Case("leave", "machine", _lobby(B, lambda w: f"leave {w.ids['open']}", BULK), None),
        Case("start", "forged", _lobby(B, lambda w: f"start {w.ids['open']}"), B, "only the creator"),
        Case("start", "forged", _lobby(EVE, lambda w: f"start {w.ids['private']}"), EVE, "only the creator"),
        Case("start", "stale", _lobby(A, lambda w: f"start {w.ids['cancelled']}"), A, "no open game"),
        Case("start", "stale", _lobby(A, lambda w: f"start {w.ids['started']}"), A, "no open game"),
        Case("start", "garbled", _lobby(A, lambda w: f"start {w.ids['open']}"), A, "not enough"),
        Case("start", "garbled", _lobby(A, lambda w: "start " + LONG), A, "no open game"),
        Case("start", "machine", _lobby(A, lambda w: f"start {w.ids['open']}", AUTO), None),
        Case("cancel", "forged", _lobby(B, lambda w: f"cancel {w.ids['open']}"), B, "only the creator"),
        Case("cancel", "forged", _lobby(EVE, lambda w: f"取消 {w.ids['private']}"), EVE, "", "zh"),
        Case("cancel", "stale", _lobby(A, lambda w: f"cancel {w.ids['cancelled']}"), A, "no open game"),
        Case("cancel", "stale", _lobby(A, lambda w: f"absagen {w.ids['started']}"), A, "", "de"),
        Case("cancel", "machine", lambda w: _bounce([f"cancel {w.ids['open']}"]), None),
    ]
    for command, good in (("resign", "resign"), ("away", "away until 2999-01-01"), ("back", "back"),
                          ("record", "record"), ("history", "history"), ("say to", "say to Boris hello"),
                          ("lang", "lang de")):
        cases += [
            Case(command, "forged", lambda w, g=good: mail(EVE, ["game g1", f"secret {w.secrets['g1 anna']}", g]), EVE,
               "eve@evil.test plays no seat of game g1"),
            Case(command, "forged", lambda w, g=good: mail(A, ["game g1", "secret wrong-wrong-wrong-wrng", g]), A,
               "wrong secret"),
            Case(command, "forged", lambda w, g=good: mail(A, ["game g1", g]), A, "secret"),
            Case(command, "forged", lambda w, g=good: mail(A, ["game g1", f"secret {w.secrets['g1 boris']}", g]), A,
               "wrong secret"),
            Case(command, "forged", lambda w, g=good: mail(A, ["game g1", f"secret {w.secrets['g2 anna']}", g]), A,
               "wrong secret"),
            Case(command, "machine", _play(A, "anna", good, headers=AUTO), None),
            Case(command, "machine", _play(A, "anna", good, headers=BULK), None),
            Case(command, "garbled", lambda w, g=good: _raw(A, f"game g1\nsecret {w.secrets['g1 anna']}\n{g}\n"
                                                          .encode("utf-16-le"), "text/plain; charset=us-ascii"),
               A, "names no game|no text|secret", refusal=False),
        ]
        if command not in ("record", "history"):  # an ended game is still read (and talked about once over)
            cases.append(Case(command, "stale", _play(A, "anna", good, game="g2"), A, "aborted|not taken|ended",
                            refusal=False))
    cases += [
        Case("away", "garbled", _play(A, "anna", "away until 2001-01-01"), A, "away until", refusal=False),
        Case("away", "garbled", _play(A, "anna", "away until 2999-13-45"), A, "away until", refusal=False),
        Case("away", "garbled", _play(A, "anna", "away tomorrow"), A, "away until", refusal=False),
        Case("away", "garbled", _play(A, "anna", "away until " + LONG), A, "away until", refusal=False),
        Case("back", "garbled", _play(A, "anna", "back"), A, "not away", refusal=False),
        Case("back", "garbled", _play(A, "anna", "back soon"), A, "takes no more words", refusal=False),
        Case("resign", "garbled", _play(A, "anna", "resign please"), A, "'resign' alone", refusal=False),
        Case("resign", "garbled", _play(A, "anna", "resign?"), A, "unknown|not a move|resign", refusal=False),
        Case("resign", "garbled", _play(A, "anna", "aufgeben resign"), A, "", refusal=False),
        Case("history", "garbled", _play(A, "anna", "history 999"), A, "history", refusal=False),
        Case("history", "garbled", _play(A, "anna", "history abc"), A, "history", refusal=False),
        Case("say to", "garbled", _play(A, "anna", "say to Nobody hello"), A, "to whom", refusal=False),
        Case("say to", "garbled", _play(A, "anna", "say to"), A, "say", refusal=False),
        Case("lang", "garbled", _play(A, "anna", "lang xx"), A, "lang", refusal=False),
        Case("lang", "garbled", _play(A, "anna", "lang " + LONG), A, "lang", refusal=False),
        Case("record", "forged", lambda w: mail(EVE, [f"game {w.ids['started']}", "record"]), EVE, "plays no seat"),
        Case("record", "forged", lambda w: mail(EVE, [f"game {w.ids['started']}", f"secret {w.codes['started']}",
                                                    "record"]), EVE, "plays no seat"),
        Case("record", "forged", lambda w: mail(A, [f"game {w.ids['started']}", f"secret {w.codes['started']}",
                                                  "record"]), A, "plays no seat"),
        Case("watch", "forged", lambda w: mail(EVE, [f"watch {w.ids['started']}"]), EVE, "no game", refusal=False),
        Case("watch", "forged", lambda w: mail(EVE, [f"watch {w.ids['started']} "
                                                   f"{watch_code(w.server.store, EVE, w.ids['started'])}"]), EVE,
           "no game", refusal=False),
        Case("watch", "forged", lambda w: mail(EVE, [f"watch g1 {w.watch}"]), EVE, "not the code|code", refusal=False),
        Case("watch", "forged", lambda w: mail(EVE, ["watch g1 0123456789"]), EVE, "code", refusal=False),
        Case("watch", "stale", lambda w: mail(EVE, [f"watch g1 {watch_code(w.server.store, EVE, 'g2')}"]), EVE,
           "code", refusal=False),
        Case("watch", "stale", lambda w: mail(EVE, [f"watch {w.ids['cancelled']}"]), EVE, "no game", refusal=False),
        Case("watch", "garbled", lambda w: mail(EVE, ["watch"]), EVE, "watch GAME", refusal=False),
        Case("watch", "garbled", lambda w: mail(EVE, ["watch g1 a b"]), EVE, "watch GAME", refusal=False),
        Case("watch", "garbled", lambda w: mail(EVE, ["watch ../../x"]), EVE, "watch GAME", refusal=False),
        Case("watch", "garbled", lambda w: mail(EVE, ["watch g1 " + LONG]), EVE, "watch GAME|code", refusal=False),
        Case("watch", "machine", lambda w: mail(EVE, ["watch g1"], headers=AUTO), None),
        Case("watch", "machine", lambda w: _bounce(["watch g1"]), None),
        Case("unwatch", "forged", lambda w: mail(D, ["unwatch g1 0123456789"]), D, "code", refusal=False),
        Case("unwatch", "forged", lambda w: mail(EVE, [f"unwatch g1 {w.watch}"]), EVE, "not watching|watch",
           refusal=False),
        Case("unwatch", "stale", lambda w: mail(D, [f"unwatch g1 {watch_code(w.server.store, D, 'g2')}"]), D, "code",
           refusal=False),
        Case("unwatch", "stale", lambda w: mail(D, [f"unwatch g2 {watch_code(w.server.store, D, 'g2')}"]), D, "watch",
           refusal=False),
        Case("unwatch", "garbled", lambda w: mail(D, ["unwatch"]), D, "watch GAME", refusal=False),
        Case("unwatch", "machine", lambda w: mail(D, [f"unwatch g1 {w.watch}"], headers=BULK), None),
        Case("ratings", "garbled", lambda w: mail(D, ["ratings nonesuch"]), D, "no ruleset 'nonesuch'.*base"),
        Case("ratings", "garbled", lambda w: mail(D, ["wertungen " + LONG]), D, "kein Regelwerk", "de"),
        Case("ratings", "stale", lambda w: mail(EVE, ["ratings"]), EVE, "no finished games", refusal=False),
        Case("ratings", "machine", lambda w: mail(D, ["ratings"], headers=AUTO), None),
    ]
    return cases


CASES = _cases()


@pytest.mark.parametrize("case", CASES, ids=[f"{c.command}-{c.kind}-{n}" for n, c in enumerate(CASES)])
def test_a_bad_mail_changes_nothing_and_gets_one_clear_answer_or_none(world, case):
    data = case.make(world)
    before = world.dump()
    sent = world.send(data)
    assert world.dump() == before
    if case.to is None:
        assert sent == []
        return
    assert [m.recipient for m in sent] == [case.to], [(m.recipient, m.subject) for m in sent]
    answer = sent[0]
    text = answer.subject + "\n" + answer.body
    assert re.search(case.says, text, re.I), text
    if case.refusal:
        assert answer.body.startswith(refusal_body("", mail_words(case.lang))[:12]), answer.body
    for hidden in world.hidden():  # (a line of the sender's own may be quoted back)
        assert hidden not in text or hidden.encode() in data
    assert len(answer.body) < 20_000  # an overlong line is not quoted back whole
    if case.kind != "machine":  # the same bytes again: known, no second answer
        world.server.receive(data)
        assert world.dump() == before and world.inbox.taken() == []


# --- duplicates: a good mail delivered twice is applied once and answered once ------------------------------

GOOD: dict[str, Callable[[World], bytes]] = {
    "list": lambda w: mail(D, ["list"]),
    "create": lambda w: mail(D, ["create players 2", key_line(w.server.store, D)], subject="lobby"),
    "join": lambda w: mail(C, [f"join {w.ids['open']} as Clara", key_line(w.server.store, C)], subject="lobby"),
    "leave": lambda w: mail(B, [f"leave {w.ids['open']}", key_line(w.server.store, B)], subject="lobby"),
    "start": lambda w: mail(A, [f"start {w.ids['open']}", key_line(w.server.store, A)], subject="lobby"),
    "cancel": lambda w: mail(A, [f"cancel {w.ids['private']}", key_line(w.server.store, A)], subject="lobby"),
    "resign": lambda w: mail(C, [*_as(w, "clara"), "resign"]),
    "away": lambda w: mail(C, [*_as(w, "clara"), "away until 2999-01-01"]),
    "back": lambda w: mail(C, [*_as(w, "clara"), "back"]),
    "record": lambda w: mail(C, [*_as(w, "clara"), "record"]),
    "history": lambda w: mail(C, [*_as(w, "clara"), "history"]),
    "say to": lambda w: mail(C, [*_as(w, "clara"), "say to Boris hello"]),
    "lang": lambda w: mail(C, [*_as(w, "clara"), "lang zh"]),
    "watch": lambda w: mail(EVE, [f"watch g1 {watch_code(w.server.store, EVE, 'g1')}"]),
    "unwatch": lambda w: mail(D, [f"unwatch g1 {w.watch}"]),
    "ratings": lambda w: mail(D, ["ratings"]),
}
#: What a command needs done before it can be carried out (start: a second person; back: being away).
BEFORE: dict[str, Callable[[World], bytes]] = {
    "start": lambda w: mail(C, [f"join {w.ids['open']} as Clara", key_line(w.server.store, C)], subject="lobby"),
    "back": lambda w: mail(C, [*_as(w, "clara"), "away until 2999-01-01"]),
}


@pytest.mark.parametrize("command", list(GOOD))
def test_a_mail_delivered_twice_is_carried_out_and_answered_once(world, command):
    if command in BEFORE:
        world.send(BEFORE[command](world))
    data = GOOD[command](world)
    first = world.send(data)
    assert first, "the first delivery is answered"
    after = world.dump()
    assert world.server.receive(data).result == "repeat"
    assert world.dump() == after and world.inbox.taken() == []


# --- a stranger and a private game ------------------------------------------------------------------------


def test_a_stranger_cannot_join_read_or_watch_a_private_game_but_its_players_can_watch(world):
    private, started = world.ids["private"], world.ids["started"]
    for line in (f"join {private} as Eve", f"join {private} {world.codes['started']} as Eve",
                 f"join {private} {world.codes['private'][::-1]} as Eve"):
        assert "not its invite code" in world.lobby(EVE, line).body
    listed = world.lobby(EVE, "list")
    assert private not in listed.body and started not in listed.body
    said = world.send(mail(EVE, [f"watch {started}"]))
    assert [m.recipient for m in said] == [EVE] and watch_code(world.server.store, EVE, started) not in said[0].body
    assert world.server.store.db.execute("SELECT COUNT(*) FROM watchers WHERE game = ?", (started,)).fetchone() == (0,)
    code = watch_code(world.server.store, B, started)  # a player of the game may watch it
    world.send(mail(B, [f"watch {started} {code}"]))
    assert world.server.store.db.execute("SELECT address FROM watchers WHERE game = ?", (started,)).fetchall() == [
        (B,)]
