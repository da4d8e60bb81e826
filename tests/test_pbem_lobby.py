"""Games made by mail (spbc.pbem.lobby), against a real aiosmtpd on loopback: a game created, joined by three
people (a private one with a wrong code and then the right one), started, a first move played, and the list."""

from __future__ import annotations

import email
import email.policy
import re
import sqlite3
import threading

import pytest

from pbem_mail import SECRET_LINE, Received, key_line, make_server, mail, outbox, parse_sent
from spbc.pbem.lobby import MAX_OPEN
from spbc.pbem.schema import VERSION

aiosmtpd = pytest.importorskip("aiosmtpd.controller")
from test_pbem_e2e import free_port  # noqa: E402

PEOPLE = ["anna@a.test", "boris@b.test", "clara@c.test"]


class Inbox:
    """An SMTP server's handler that keeps every message it is given."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[Received] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        with self.lock:
            self.messages.append(parse_sent(bytes(envelope.content)))
        return "250 OK"

    def taken(self) -> list[Received]:
        """The mails received since the last call."""
        with self.lock:
            found, self.messages = self.messages, []
        return found


@pytest.fixture
def lobby(tmp_path):
    inbox = Inbox()
    controller = aiosmtpd.Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    server = make_server(tmp_path, '[limits]\nrefusals_per_hour = 20\n'
                                   f'[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\n'
                                   f'smtp_port = {controller.port}\ntimeout = 20\n')
    yield server, inbox
    server.close()
    controller.stop()


def send(server, inbox: Inbox, sender: str, lines: list[str], key: bool = True) -> list[Received]:
    """A lobby mail from sender (with the sender's lobby key unless key is False); the mails sent since."""
    server.receive(mail(sender, [*lines, *([key_line(server.store, sender)] if key else [])], subject="lobby"))
    return inbox.taken()


def one_to(mails: list[Received], address: str) -> Received:
    found = [sent for sent in mails if sent.recipient == address]
    assert len(found) == 1, [sent.subject for sent in mails]
    return found[0]


def created_id(sent: Received) -> str:
    return re.search(r"^\[spb (g\w+)\]", sent.subject).group(1)


def test_a_private_game_is_made_joined_started_and_played_by_mail(lobby):
    server, inbox = lobby
    made = one_to(send(server, inbox, "anna@a.test", ["create base players 3 ai random private"]), "anna@a.test")
    game_id = created_id(made)
    code = re.search(r"Its invite code: (\S+)$", made.body, re.M).group(1)
    assert server.store.game(game_id) is None  # open, not yet a game
    wrong = one_to(send(server, inbox, "boris@b.test", [f"join {game_id} aaaa-bbbb-cccc-dddd as Boris"]),
                   "boris@b.test")
    assert "not its invite code" in wrong.body and "Boris" not in wrong.body
    stranger = one_to(send(server, inbox, "boris@b.test", [f"join {game_id} as Boris"]), "boris@b.test")
    assert "not its invite code" in stranger.body
    assert "joined" in one_to(send(server, inbox, "anna@a.test", [f"join {game_id} {code} as Anna"]),
                              "anna@a.test").subject
    assert "beigetreten" in one_to(send(server, inbox, "boris@b.test", [f"beitreten {game_id} {code} als Boris"]),
                                   "boris@b.test").subject
    assert server.store.game(game_id) is None
    last = send(server, inbox, "clara@c.test", [f"join {game_id} {code} as Clara"])  # full: it starts
    row = server.store.game(game_id)
    assert row is not None and row.admin == "anna@a.test"
    assert [seat.name for seat in server.store.seats(game_id)] == ["Anna", "Boris", "Clara", "ai:random"]
    secrets = {}
    for address in PEOPLE:
        welcome = next(sent for sent in last if sent.recipient == address and re.search(SECRET_LINE, sent.body, re.M))
        secrets[address] = re.search(SECRET_LINE, welcome.body, re.M).group(1)
    assert all(code not in sent.body for sent in last)
    assert next(s for s in server.store.seats(game_id) if s.name == "Boris").lang == "de"
    on_turn = next(sent for sent in reversed(last) if sent.moves)  # the person on turn (a computer sits last)
    seat = next(seat for seat in server.store.seats(game_id) if seat.address == on_turn.recipient)
    outcome = server.receive(mail(seat.address, [f"game {game_id}", f"secret {secrets[seat.address]}",
                                                 f"move {on_turn.number}", on_turn.moves[0]]))
    assert outcome.applied >= 1 and server.store.move_count(game_id) >= 1
    listed = one_to(send(server, inbox, "dora@d.test", ["list"]), "dora@d.test")
    assert game_id not in listed.body  # a private game is not listed to anyone


def test_a_public_game_is_listed_started_by_its_creator_and_left(lobby):
    server, inbox = lobby
    game_id = created_id(one_to(send(server, inbox, "anna@a.test", ["create players 3"]), "anna@a.test"))
    send(server, inbox, "boris@b.test", [f"join {game_id} as Boris"])
    send(server, inbox, "clara@c.test", [f"加入 {game_id} 作為 小明"])
    listed = one_to(send(server, inbox, "dora@d.test", ["list"]), "dora@d.test")
    assert re.search(rf"^  {game_id}: base, 2 of 3 people joined, computers: none$", listed.body, re.M)
    assert "已離開" in one_to(send(server, inbox, "clara@c.test", [f"離開 {game_id}"]), "clara@c.test").subject
    assert "not enough" in one_to(send(server, inbox, "anna@a.test", [f"start {game_id}"]), "anna@a.test").body
    send(server, inbox, "clara@c.test", [f"join {game_id} as Clara"])
    assert "only the creator" in one_to(send(server, inbox, "boris@b.test", [f"start {game_id}"]),
                                        "boris@b.test").body
    started = send(server, inbox, "anna@a.test", [f"start {game_id}"])
    assert [seat.name for seat in server.store.seats(game_id)] == ["Boris", "Clara"]
    assert {sent.recipient for sent in started} == {"anna@a.test", "boris@b.test", "clara@c.test"}
    listed = one_to(send(server, inbox, "dora@d.test", ["liste"]), "dora@d.test")
    assert re.search(rf"^  {game_id}: base, Boris, Clara$", listed.body, re.M)
    assert "Laufende Partien:" in listed.body


@pytest.mark.parametrize("line", ["create base players 9", "create ../../etc/passwd", "create ai nobody",
                                  "create players 1", "create base players 2 ai random,random,random",
                                  "create base ai hard@600s", "create base ai expert@30001it",
                                  "create base ai easy,hard@100000000it"])
def test_a_game_that_cannot_be_made_is_refused_and_nothing_is_stored(lobby, line):
    server, inbox = lobby
    refused = one_to(send(server, inbox, "anna@a.test", [line]), "anna@a.test")
    assert "create [RULES]" in refused.body and "at most expert's 30000 iterations" in refused.body
    assert server.store.db.execute("SELECT COUNT(*) FROM lobby").fetchone()[0] == 0


def test_an_address_has_a_few_open_games_at_most_and_names_are_checked(lobby):
    server, inbox = lobby
    made = [created_id(one_to(send(server, inbox, "anna@a.test", ["create"]), "anna@a.test"))
            for _ in range(MAX_OPEN)]
    assert "open games already" in one_to(send(server, inbox, "anna@a.test", ["create"]), "anna@a.test").body
    for name in ["x" * 21, "a\u202eb", "ai:easy", "-", "Bo<b>"]:  # each refused (20 refusals an hour here)
        said = one_to(send(server, inbox, "boris@b.test", [f"join {made[0]} as {name}"]), "boris@b.test")
        assert "a name is 1 to 20" in said.body
    send(server, inbox, "boris@b.test", [f"join {made[0]} as Boris"])
    assert "a name is" in one_to(send(server, inbox, "clara@c.test", [f"join {made[0]} as boris"]),
                                 "clara@c.test").body
    assert "already" in one_to(send(server, inbox, "boris@b.test", [f"join {made[0]} as Bob"]), "boris@b.test").body


def test_the_lobby_tables_come_by_migration(tmp_path):
    server = make_server(tmp_path)
    server.close()
    db = sqlite3.connect(tmp_path / "pbem.sqlite")
    assert db.execute("PRAGMA user_version").fetchone()[0] == VERSION >= 7
    assert {row[0] for row in db.execute("SELECT name FROM sqlite_master")} >= {"lobby", "lobby_seats"}


def test_a_mail_delivered_twice_makes_one_game_and_a_reply_leaves_the_game_of_its_subject(lobby):
    server, inbox = lobby
    data = mail("anna@a.test", ["create players 2", key_line(server.store, "anna@a.test")], subject="new game")
    assert server.receive(data).result.startswith("create g")
    assert server.receive(data).result == "repeat"
    inbox.taken()
    (game_id,) = [row[0] for row in server.store.db.execute("SELECT id FROM lobby")]
    send(server, inbox, "boris@b.test", [f"join {game_id} as Boris"])
    server.receive(mail("boris@b.test", ["leave", key_line(server.store, "boris@b.test")],
                        subject=f"Re: [spb {game_id}] joined"))
    assert "left" in one_to(inbox.taken(), "boris@b.test").subject
    assert server.store.db.execute("SELECT COUNT(*) FROM lobby_seats").fetchone()[0] == 0


def test_lists_to_one_address_are_limited_as_refusals_are(lobby):
    server, inbox = lobby
    answered = [len(send(server, inbox, "dora@d.test", ["list"])) for _ in range(22)]
    assert answered == [1] * 20 + [0, 0]


def test_joins_are_told_to_those_in_the_game_and_the_creator_cancels_it_telling_the_joiners(lobby):
    server, inbox = lobby
    game_id = created_id(one_to(send(server, inbox, "anna@a.test", ["create players 4"]), "anna@a.test"))
    first = send(server, inbox, "boris@b.test", [f"beitreten {game_id} als Boris"])
    assert {sent.recipient for sent in first} == {"anna@a.test", "boris@b.test"}
    assert "Boris joined game " + game_id + ": 1 of 4 people." in one_to(first, "anna@a.test").body
    second = send(server, inbox, "clara@c.test", [f"join {game_id} as Clara"])
    assert "Clara ist der Partie" in one_to(second, "boris@b.test").body  # Boris joined in German
    assert "2 of 4 people" in one_to(second, "anna@a.test").body
    assert "only the creator" in one_to(send(server, inbox, "boris@b.test", [f"cancel {game_id}"]),
                                        "boris@b.test").body
    assert server.store.db.execute("SELECT state FROM lobby").fetchone() == ("open",)
    cancelled = send(server, inbox, "anna@a.test", [f"cancel {game_id}"])
    assert {sent.recipient for sent in cancelled} == {"anna@a.test", "boris@b.test", "clara@c.test"}
    assert "the 2 people who had joined are told" in one_to(cancelled, "anna@a.test").body
    assert "abgesagt" in one_to(cancelled, "boris@b.test").body
    assert "was cancelled by its creator" in one_to(cancelled, "clara@c.test").body
    assert server.store.game(game_id) is None
    listed = one_to(send(server, inbox, "dora@d.test", ["list"]), "dora@d.test")
    assert game_id not in listed.body
    assert "no open game" in one_to(send(server, inbox, "dora@d.test", [f"join {game_id} as Dora"]),
                                    "dora@d.test").body
    assert "沒有開放的牌局" in one_to(send(server, inbox, "anna@a.test", [f"取消 {game_id}"]), "anna@a.test").body
    for _ in range(MAX_OPEN):  # a cancelled game no longer counts among the creator's open ones
        created_id(one_to(send(server, inbox, "anna@a.test", ["create"]), "anna@a.test"))


def test_a_started_game_cannot_be_cancelled(lobby):
    server, inbox = lobby
    game_id = created_id(one_to(send(server, inbox, "anna@a.test", ["create players 2"]), "anna@a.test"))
    send(server, inbox, "boris@b.test", [f"join {game_id} as Boris"])
    started = send(server, inbox, "clara@c.test", [f"join {game_id} as Clara"])
    assert not any("joined game" in sent.body and sent.recipient != "clara@c.test" for sent in started)
    assert server.store.game(game_id) is not None
    refused = send(server, inbox, "anna@a.test", [f"absagen {game_id}"])
    assert server.store.db.execute("SELECT state FROM lobby").fetchone() == ("started",)
    assert all(sent.recipient == "anna@a.test" for sent in refused)


def _tables(server) -> list[str]:
    """Every row of the lobby's tables and of the games'."""
    db = server.store.db
    return [repr(row) for table in ("lobby", "lobby_seats", "games", "seats")
            for row in db.execute(f"SELECT * FROM {table} ORDER BY 1")]


def test_a_forged_from_changes_nothing_and_the_key_goes_to_the_address_itself(lobby):
    """Eve writes Boris's address in From: to make him leave, and Anna's to start or cancel Anna's game, to
    create games in Clara's name and to join Dora to it: without the address's key each mail changes nothing,
    and the key is mailed to the address (which Eve does not read); the log says no key."""
    server, inbox = lobby
    game_id = created_id(one_to(send(server, inbox, "anna@a.test", ["create players 3"]), "anna@a.test"))
    send(server, inbox, "boris@b.test", [f"join {game_id} as Boris"])
    before = _tables(server)
    keys = {address: key_line(server.store, address).split()[1] for address in PEOPLE + ["dora@d.test"]}
    assert len(set(keys.values())) == 4  # one key an address
    forged = [("boris@b.test", [f"leave {game_id}"]), ("anna@a.test", [f"start {game_id}"]),
              ("anna@a.test", [f"cancel {game_id}"]), ("clara@c.test", ["create players 2"]),
              ("dora@d.test", [f"join {game_id} as Dora"]),
              ("boris@b.test", [f"leave {game_id}", f"key {keys['anna@a.test']}"]),  # another address's key
              ("boris@b.test", [f"leave {game_id}", f"key {keys['boris@b.test'][:-1]}"])]
    for address, lines in forged:
        outcome = server.receive(mail(address, lines, subject="lobby")).result
        assert "lobby key" in outcome and keys[address] not in outcome, outcome
        [sent] = inbox.taken()
        assert sent.recipient == address and f"Your key: {keys[address]}" in sent.body
        assert sent.subject == "[spb] your lobby key" and "nothing was changed" in sent.body
        assert _tables(server) == before
    kept = [repr(row) for table in ("messages", "log") for row in server.store.db.execute(f"SELECT * FROM {table}")]
    assert kept and not any(key in row for key in keys.values() for row in kept)
    with_key = [f"leave {game_id}", f"KEY {keys['boris@b.test'].upper()}"]  # as a person may type it
    server.receive(mail("boris@b.test", with_key, subject="lobby"))
    assert "left" in one_to(inbox.taken(), "boris@b.test").subject
    assert server.store.db.execute("SELECT COUNT(*) FROM lobby_seats").fetchone()[0] == 0


def test_an_open_game_that_never_starts_is_dropped_after_the_days_set_and_its_people_are_told(tmp_path):
    """[defaults] lobby_days = 2: the tick after two days drops the open game (the creator, who did not
    join, and the joiner are told, each in their language); a game made later is kept; it is dropped once."""
    now = [1_000_000.0]
    server = make_server(tmp_path, "[defaults]\nlobby_days = 2\n", clock=lambda: now[0])
    try:
        def lobby_mail(sender: str, line: str) -> str:
            return server.receive(mail(sender, [line, key_line(server.store, sender)], subject="lobby")).result
        old = lobby_mail("anna@a.test", "create players 3").split()[1]
        lobby_mail("boris@b.test", f"beitreten {old} als Boris")
        now[0] += 86_400
        young = lobby_mail("anna@a.test", "create players 2").split()[1]
        sent = len(outbox(tmp_path))
        assert server.tick() == []
        now[0] += 86_400 + 1
        assert server.tick() == [f"{old}: dropped, not started in 2 days"]
        told = outbox(tmp_path, sent)
        assert sorted(m.recipient for m in told) == ["anna@a.test", "boris@b.test"]
        assert "did not start within 2 days" in next(m.body for m in told if m.recipient == "anna@a.test")
        assert "verfallen" in next(m.subject for m in told if m.recipient == "boris@b.test")
        states = dict(server.store.db.execute("SELECT id, state FROM lobby"))
        assert states == {old: "cancelled", young: "open"}
        assert server.tick() == [] and len(outbox(tmp_path)) == sent + 2
        refused = lobby_mail("clara@c.test", f"join {old} as Clara")
        assert "refused" in refused and server.store.db.execute(
            "SELECT COUNT(*) FROM lobby_seats WHERE lobby = ? AND address = ?", (old, "clara@c.test")).fetchone() == (0,)
    finally:
        server.close()
