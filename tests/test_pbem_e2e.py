"""A whole game by mail: three people and a computer, every reply sent through a real SMTP server on the
loopback address (aiosmtpd, started here) and read back from it; the standings are those of a replay of
the exported record, and no mail tells anyone another player's hand or secret rubles, or the seed."""

from __future__ import annotations

import logging
import os
import random
import re
import shutil
import socket
import subprocess
import threading

import pytest

from pbem_mail import SERVER, make_server, mail, parse_sent, three_and_a_computer
from spbc.play.notation import parse_move
from spbc.play.record import read_record

aiosmtpd = pytest.importorskip("aiosmtpd.controller")

PEOPLE = {"anna@a.test": "Anna", "boris@b.test": "Boris", "clara@c.test": "Clara"}
SEED = 8_831_726_354_125


class Catcher:
    """The SMTP server's handler: keeps every message it accepts."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], bytes]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        with self.lock:
            self.messages.append((list(envelope.rcpt_tos), bytes(envelope.content)))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def smtp():
    catcher = Catcher()
    controller = aiosmtpd.Controller(catcher, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield catcher, controller.port
    controller.stop()


def reply_to(received, secret: str, move: str) -> bytes:
    """A reply as a mail program writes one: Re: subject, the moves on top, the mail quoted below, a signature."""
    quoted = "\n".join("> " + line for line in received.body.splitlines()[:30])
    body = [f"secret {secret}", move, "", "-- ", PEOPLE[received.recipient], "", "On Tue, spb wrote:", quoted]
    return mail(f"{PEOPLE[received.recipient]} <{received.recipient}>", body, "Re: " + received.subject,
                headers={"In-Reply-To": received.headers["Message-ID"]})


def check_no_leak(received, secrets: dict[str, str], replayed, seat_of: dict[str, int]) -> None:
    """The mail to one person holds their own hand and rubles, nobody else's, and no seed."""
    body = received.body
    me = seat_of[received.recipient]
    assert (str(SEED) in body) == (received.subject == "[spb g1] game over")  # told once the game is over
    for address, secret in secrets.items():
        assert (secret in body) == (address == received.recipient and "welcome" in received.subject)
    for seat, name in enumerate(replayed.players):
        for line in re.findall(rf"^  {re.escape(name)}( \[[^]]*\])?: (.*)$", body, re.M):
            if seat != me:
                assert ", ? rubles," in line[1], (name, line)
            else:
                assert f", {replayed.rubles(me)} ruble" in line[1], (name, line)
    hands = re.findall(r"^Your hand \((\d+)/\d+\): (.*)$", body, re.M)
    if not replayed.is_over:
        assert len(hands) == 1
        names = [replayed.ruleset.model.card(card).name for card in replayed.hand(me)]
        assert hands[0][1] == (", ".join(names) or "empty")
    assert "hand:" not in body.lower()


def test_a_whole_game_by_mail_through_smtp(tmp_path, smtp, caplog):
    caplog.set_level(logging.INFO, logger="spbc.pbem")
    catcher, port = smtp
    server = make_server(tmp_path, f'[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\n')
    three_and_a_computer(server, seed=SEED)
    rng = random.Random(5)
    seen = 0
    received_all = []
    secrets: dict[str, str] = {}
    over = False
    for _ in range(1000):
        with catcher.lock:
            batch = catcher.messages[seen:]
            seen = len(catcher.messages)
        received = [parse_sent(data) for _, data in batch]
        assert all(r.headers["From"] == SERVER for r in received)
        received_all += received
        for r in received:
            found = re.search(r"^Your secret: (\S+)$", r.body, re.M)
            if found:
                secrets[r.recipient] = found.group(1)
        if any(r.subject == "[spb g1] game over" for r in received):
            over = True
            break
        on_turn = [r for r in received if r.subject.endswith(": your turn")]
        assert len(on_turn) == 1, [r.subject for r in received]
        turn = on_turn[0]
        assert turn.moves, turn.body
        server.receive(reply_to(turn, secrets[turn.recipient], rng.choice(turn.moves)))
    assert over
    record = server.export("g1")
    replay = read_record(record)
    final = server.sitting("g1").game
    assert replay.game.is_over and replay.game.standings() == final.standings()
    assert '[Result "' in record and f'[Seed "{SEED}"]' in record
    # the game-over mail's table is the replay's standings
    last = [r for r in received_all if r.subject == "[spb g1] game over"]
    assert sorted(r.recipient for r in last) == sorted(PEOPLE)
    for standing in replay.game.standings():
        assert re.search(rf"^\s+{standing.rank}\s+{re.escape(standing.name)}\s.*\s{standing.final}$", last[0].body, re.M)
    assert sum(1 for _, _, how in server.store.moves("g1") if how == "computer") > 10
    # every mail of the game: replayed to the move it was written at, it shows the reader only their own secrets
    seat_of = {address: index for index, address in enumerate(PEOPLE)}
    moves = [text for _, text, _ in server.store.moves("g1")]
    game = final.ruleset.new_game(list(final.players), SEED)
    at = 0
    checked = 0
    for r in received_all:
        found = re.search(r", move ([0-9]+)\.$", r.body, re.M)
        if r.recipient not in PEOPLE or found is None:
            continue
        number = int(found.group(1))
        while at < number - 1:
            game.play(parse_move(moves[at], game, spectator=True))
            at += 1
        check_no_leak(r, secrets, game, seat_of)
        checked += 1
    assert checked > 200  # 270 mails with seed 8831726354125 and random.Random(5)
    assert len(received_all) == len(server.store.outbox("g1"))
    # the log: a line per mail, with no secret and no seed
    assert len(caplog.records) > 80
    for record in caplog.records:
        line = record.getMessage()
        assert str(SEED) not in line and not any(secret in line for secret in secrets.values()), line


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")
def test_smtp_with_starttls_and_login_on_a_real_server(tmp_path):
    """aiosmtpd on loopback that takes mail only after STARTTLS and a login; the outbox reaches it."""
    import ssl

    from aiosmtpd.smtp import AuthResult

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((mechanism, auth_data.login, auth_data.password))
        return AuthResult(success=auth_data.login == b"spb" and auth_data.password == b"hunter2")

    catcher = Catcher()
    controller = aiosmtpd.Controller(catcher, hostname="127.0.0.1", port=free_port(), tls_context=context,
                                     require_starttls=True, authenticator=authenticator, auth_require_tls=True)
    controller.start()
    try:
        config = (f'[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {controller.port}\n'
                  f'starttls = true\ncafile = "{cert}"\nusername = "spb"\npassword_env = "SPB_TEST_SMTP"\ntimeout = 3\n')
        os.environ["SPB_TEST_SMTP"] = "hunter2"
        server = make_server(tmp_path, config)
        three_and_a_computer(server)
        assert len(catcher.messages) == 4 and logins and logins[0][1:] == (b"spb", b"hunter2")
        assert all(m.state == "sent" for m in server.store.outbox("g1"))
        os.environ["SPB_TEST_SMTP"] = "wrong"
        server.admin("g1", ["pause"])  # the three mails of a refused login stay queued
        assert [m.state for m in server.store.outbox("g1")].count("pending") == 3
        server.close()
    finally:
        os.environ.pop("SPB_TEST_SMTP", None)
        controller.stop()


@pytest.mark.slow
def test_a_whole_game_with_digests_and_a_stronger_computer(tmp_path):
    """Two people take a digest per phase, one a mail per move, ai:easy plays; into the outbox Maildir."""
    from pbem_mail import outbox

    server = make_server(tmp_path, 'synchronous = "NORMAL"\n')
    from spbc.pbem.server import NewGame, SeatSpec

    server.new_game(NewGame([SeatSpec("Anna", "anna@a.test"), SeatSpec("Boris", "boris@b.test"),
                             SeatSpec("Clara", "clara@c.test"), SeatSpec("ai:easy")], seed=77, game_id="g1"))
    secrets = {}
    for sent in outbox(tmp_path):
        found = re.search(r"^Your secret: (\S+)$", sent.body, re.M)
        if found:
            secrets[sent.recipient] = found.group(1)
    seen = len(outbox(tmp_path))
    for address in ("anna@a.test", "boris@b.test"):
        server.receive(mail(address, ["game g1", f"secret {secrets[address]}", "mail phase"]))
    rng = random.Random(9)
    for _ in range(1000):
        new = outbox(tmp_path, seen)
        seen += len(new)
        if any(m.subject == "[spb g1] game over" for m in new):
            break
        turn = [m for m in new if m.subject.endswith(": your turn")]
        assert len({m.recipient for m in turn}) == 1, [m.subject for m in new]
        server.receive(reply_to(turn[-1], secrets[turn[-1].recipient], rng.choice(turn[-1].moves)))
    final = server.sitting("g1").game
    assert final.is_over and read_record(server.export("g1")).game.standings() == final.standings()
    got = {address: sum(1 for m in outbox(tmp_path) if m.recipient == address) for address in PEOPLE}
    assert got["anna@a.test"] < got["clara@c.test"] and got["boris@b.test"] < got["clara@c.test"]


#: Where a mail lists its reader's moves, in English and in German.
YOUR_MOVES = ("It is your turn. Your moves:\n", "Du bist am Zug. Deine Züge:\n")


def moves_of(received) -> list[str]:
    """The moves a mail in English or German lists for its reader (in notation, as every language writes them)."""
    for head in YOUR_MOVES:
        if head in received.body:
            lines = received.body.split(head, 1)[1].splitlines()
            listed = [line for line in lines[:next((i for i, line in enumerate(lines) if not line.startswith("  ")),
                                                   len(lines))]]
            return [re.sub(r"  \(.*\)$", "", line.strip()) for line in listed]
    return []


@pytest.mark.slow  # a second whole game through SMTP (about 3 CPU-s); the English one stays in the default tier
def test_a_player_who_writes_lang_de_gets_german_mails_through_smtp(tmp_path, smtp):
    """Anna writes 'lang de' with her first mail; from its answer on, every mail to her, through a real SMTP
    server on loopback, is German to the game's end (the others' stay English), and tells her no other
    player's hand, secret rubles or secret, nor the seed before the end."""
    from test_pbem_languages import check_said_in

    catcher, port = smtp
    server = make_server(tmp_path, f'[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\n')
    three_and_a_computer(server, seed=SEED)
    server.flush()
    received = [parse_sent(data) for _, data in catcher.messages]
    secrets = {r.recipient: re.search(r"^Your secret: (\S+)$", r.body, re.M).group(1)
               for r in received if "welcome" in r.subject}
    seen = len(catcher.messages)
    server.receive(mail("Anna <anna@a.test>", ["game g1", f"secret {secrets['anna@a.test']}", "lang de", "status"]))
    rng, german, over = random.Random(11), [], False
    for _ in range(1000):
        server.flush()
        with catcher.lock:
            batch, seen = catcher.messages[seen:], len(catcher.messages)
        new = [parse_sent(data) for _, data in batch]
        german += [r for r in new if r.recipient == "anna@a.test"]
        assert all(r.recipient == "anna@a.test" or not r.subject.startswith("[spb g1] move") or not r.subject.endswith("du bist am Zug") for r in new)
        if any(r.subject.endswith(("] game over", "] Spiel zu Ende")) for r in new):
            over = True
            break
        turn = [r for r in new if r.subject.endswith((": your turn", ": du bist am Zug"))]
        if not turn:
            continue
        server.receive(reply_to(turn[-1], secrets[turn[-1].recipient], rng.choice(moves_of(turn[-1]))))
    assert over, [r.subject for r in german[-3:]]
    assert german and german[0].body.startswith("ok Zeile 3: ab jetzt sind deine Mails auf Deutsch\n")
    final = server.sitting("g1").game
    model = final.ruleset.model
    english = {thing.name for thing in [*model.phases, *model.decks]} - {
        thing.name for thing in [*model.in_language("de").phases, *model.in_language("de").decks]}
    others = [name for name in final.players if name != "Anna"]
    for sent in german:
        check_said_in(sent, "de", english)
        assert not any(secret in sent.body for address, secret in secrets.items() if address != "anna@a.test")
        assert (str(SEED) in sent.body) == sent.subject.endswith("] Spiel zu Ende")
        for name in others:
            for line in re.findall(rf"^  {re.escape(name)}( \[[^]]*\])?: (.*)$", sent.body, re.M):
                assert ", ? Rubel," in line[1], (name, line)
    last = german[-1]
    assert last.subject == "[spb g1] Spiel zu Ende" and "Das Spiel ist zu Ende. Endstand:" in last.body
    for standing in final.standings():
        assert re.search(rf"^\s+{standing.rank}\s+{re.escape(standing.name)}\s.*\s{standing.final}$", last.body, re.M)
    server.close()
