"""A seat's own changes and observers by mail (issue 25): resign, away/back, watch/unwatch, against a
real aiosmtpd on loopback. An observer's mails hold nothing a player's view hides: each equals the
observer's view of a copy of the game in which every hand, the deck order and every hidden ruble
count are changed."""

from __future__ import annotations

import random
import sqlite3

import pytest

from pbem_leakcheck import altered
from typer.testing import CliRunner

from pbem_mail import mail, make_server, parse_sent, secret_of, three_and_a_computer, write_config
from spbc.frontends.cli import app
from spbc.pbem.schema import VERSION
from spbc.pbem.seat import parse_until, resign_policy, set_resign_policy
from spbc.pbem.sitting import Sitting, table_of
from spbc.pbem.watchers import observer_view, resigned_notes, watch_code

aiosmtpd = pytest.importorskip("aiosmtpd.controller")
from test_pbem_e2e import Catcher, smtp  # noqa: E402,F401  (smtp: the SMTP server on loopback, a fixture)

PEOPLE = ("anna@a.test", "boris@b.test", "clara@c.test")
OBSERVER = "olga@o.test"
FUTURE = "2099-01-01"


class Table:
    """A server with game g1 (Anna, Boris, Clara and ai:random) that mails through a real SMTP server."""

    def __init__(self, folder, port: int, catcher: Catcher, **options) -> None:
        extra = f'[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\ntimeout = 20\n'
        self.now = 1_000_000.0  # 1970-01-12 13:46:40 UTC; a test may move it on
        self.server = make_server(folder, extra, clock=lambda: self.now)
        self.catcher = catcher
        three_and_a_computer(self.server, **options)
        self.secrets = {address: secret_of(self.sent(), address) for address in PEOPLE}
        self.seen = len(catcher.messages)

    def sent(self, start: int = 0):
        with self.catcher.lock:
            return [parse_sent(data) for _, data in self.catcher.messages[start:]]

    def new(self):
        """The mails sent since the last call."""
        found = self.sent(self.seen)
        self.seen += len(found)
        return found

    def on_turn(self) -> str:
        sitting = self.server.sitting("g1")
        return sitting.seats[sitting.game.current_player].address

    def send(self, sender: str, lines: list[str]):
        if sender in self.secrets:
            lines = ["game g1", f"secret {self.secrets[sender]}", *lines]
        return self.server.receive(mail(sender, lines))

    def move(self) -> None:
        """The person on turn makes their first legal move."""
        who, sitting = self.on_turn(), self.server.sitting("g1")
        legal = sitting.legal(sitting.game.current_player)[0][0]
        outcome = self.send(who, [f"move {sitting.moves + 1}", legal])
        assert outcome.applied >= 1, outcome.result


@pytest.fixture
def table(tmp_path, smtp):
    catcher, port = smtp
    made = Table(tmp_path, port, catcher, policy="pass")
    yield made
    made.server.close()


def test_the_store_gains_version_6_with_the_seats_tables(table):
    db = sqlite3.connect(table.server.config.store_path)
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert VERSION >= 6 and {"resigned", "away", "resign_policies", "watchers"} <= names
    assert db.execute("SELECT length(value) FROM meta WHERE key = 'watch_key'").fetchone() == (64,)
    db.close()


def test_a_resigned_seat_plays_on_as_the_computer_and_its_later_mails_are_refused(table):
    who = table.on_turn()
    name = next(s.name for s in table.server.store.seats("g1") if s.address == who)
    before = table.server.store.move_count("g1")
    table.send(who, ["resign"])
    seat = next(s for s in table.server.store.seats("g1") if s.name == name)
    assert seat.level == "easy" and seat.address is None
    assert table.server.store.move_count("g1") > before  # the computer played the seat's turn
    mails = table.new()
    assert any(m.recipient == who and "You resigned from game g1" in m.body for m in mails)
    others = [m for m in mails if m.recipient in PEOPLE and m.recipient != who]
    assert others and all(f"{name} resigned; the computer (easy) plays the seat." in m.body for m in others)
    assert f"{name}: computer easy" in table.server.status("g1")
    table.move()
    later = [m for m in table.new() if m.recipient in PEOPLE]
    assert later and all(f"Resigned: {name} (the computer (easy) plays the seat)." in m.body for m in later)
    moves = table.server.store.move_count("g1")
    outcome = table.send(who, [f"move {moves + 1}", "pass"])
    assert outcome.applied == 0 and table.server.store.move_count("g1") == moves
    refusal = [m for m in table.new() if m.recipient == who]
    assert len(refusal) == 1 and "you resigned from game g1" in refusal[0].body


def test_a_seat_resigned_under_the_pass_policy_passes_at_once(table):
    with table.server.store.transaction():
        set_resign_policy(table.server.store, "g1", "pass")
    who = table.on_turn()
    table.send(who, ["resign"])
    moves = table.server.store.moves("g1")
    assert moves and moves[-1][2].value in ("deadline", "computer")
    assert table.on_turn() != who
    assert any("a stand-in that passes" in m.body for m in table.new() if m.recipient in PEOPLE)


def test_away_lets_the_deadline_policy_play_and_the_others_are_told_and_back_ends_it(table):
    who = table.on_turn()
    other = next(a for a in PEOPLE if a != who)
    table.send(other, ["away until " + FUTURE])
    told = [m for m in table.new() if m.subject.endswith("is away")]
    assert sorted(m.recipient for m in told) == sorted(a for a in PEOPLE if a != other)
    for _ in range(12):  # play on until the away seat has had its turn
        if table.on_turn() == other:
            break
        table.move()
    assert table.on_turn() != other
    assert any(how.value == "deadline" for seat, _, how in table.server.store.moves("g1")
               if table.server.store.seats("g1")[seat].address == other)
    table.send(other, ["back"])
    assert any(m.subject.endswith("is back") for m in table.new())
    reply = table.send(other, ["back"])
    assert reply.applied == 0
    assert any("you were not away" in m.body for m in table.new() if m.recipient == other)


def test_an_away_period_that_runs_out_ends_with_a_notice_to_the_seat_and_the_others(table):
    """No 'back' needed: the server's tick after the date ends the period, tells everyone once, and the
    person's own mail is refused as it is for anyone not away any more."""
    who = table.on_turn()
    other = next(a for a in PEOPLE if a != who)
    table.send(other, ["away until 1970-01-13 12:00"])
    table.new()
    assert table.server.tick() == [] and table.new() == []  # not yet
    table.now = 1_000_000.0 + 86_400  # 1970-01-13 13:46:40: past it
    assert table.server.tick() == [f"g1: {dict(zip(PEOPLE, ('Anna', 'Boris', 'Clara')))[other]}'s away period ended"]
    told = table.new()
    assert sorted(m.recipient for m in told) == sorted(PEOPLE) and all(m.subject.endswith("is back") for m in told)
    assert "Your away period in game g1 has ended" in next(m.body for m in told if m.recipient == other)
    assert table.server.tick() == [] and table.new() == []  # once
    table.send(other, ["back"])
    assert any("you were not away" in m.body for m in table.new() if m.recipient == other)


def test_away_needs_a_date_to_come():
    assert parse_until("until 2099-01-01", 1e9) is not None
    assert parse_until("until 2099-01-01 12:30", 1e9) == pytest.approx(4070953800.0)
    for wrong in ("until 1999-01-01", "2099-01-01", "until tomorrow", "until 2099-13-01", ""):
        assert parse_until(wrong, 1e9) is None


def observer_since(table, body: str) -> list[str]:
    """The moves an observer's mail lists: the game's public log lines since the observer's mail before it
    (every one, in order: none is skipped between two mails), or for the first mail checked the last lines
    of the log; the lines, checked."""
    head = "Every move since the last mail, in order:\n"
    listed = body.split(head, 1)[1].split("\n\n", 1)[0].splitlines() if head in body else []
    listed = [line[2:] for line in listed]
    log = table.server.store.log_since("g1", getattr(table, "observer_seen", 0), "en")
    if hasattr(table, "observer_seen"):
        assert listed == [text for _, text in log]
    else:
        assert listed and listed == [text for _, text in log][-len(listed):]
    table.observer_seen = table.server.store.last_log("g1")
    return listed


def observer_mails_hide_everything(table, mails) -> int:
    """Each of the observer's update mails is its view of the game as stored, and (before the end, when the
    standings show every ruble) equal to its view of copies with every hand, the deck order and every
    hidden ruble count changed; the mails checked."""
    sitting = table.server.sitting("g1")
    rng = random.Random(7)
    checked = 0
    for sent in mails:
        if sent.recipient != OBSERVER or "(observer)" not in sent.subject:
            continue
        notes = resigned_notes(table.server.store, "g1", "en")
        since = observer_since(table, sent.body)
        assert sent.body == observer_view(sitting, "en", notes, since)
        checked += 1
        if sitting.game.is_over:  # the standings show every ruble, to the players as well
            continue
        for reader in range(len(sitting.seats)):
            copy = altered(sitting.game, reader, rng)
            other = Sitting(sitting.row, sitting.seats, table_of(sitting.row, sitting.seats, copy, sitting.moves))
            assert observer_view(other, "en", notes, since) == sent.body, f"the observer's mail differs for {reader}"
        assert "Your hand" not in sent.body
    return checked


def test_watch_needs_the_code_mailed_to_the_address_then_the_public_view_follows_each_move(table):
    table.server.receive(mail(OBSERVER, ["watch g1"]))
    coded = [m for m in table.new() if m.recipient == OBSERVER]
    assert len(coded) == 1 and "watch g1 " in coded[0].body
    code = watch_code(table.server.store, OBSERVER, "g1")
    assert f"watch g1 {code}" in coded[0].body
    wrong = "0" * len(code) if code != "0" * len(code) else "1" * len(code)
    table.server.receive(mail(OBSERVER, [f"watch g1 {wrong}"]))
    assert any("is wrong" in m.body for m in table.new() if m.recipient == OBSERVER)
    table.server.receive(mail("mallory@m.test", [f"watch g1 {code}"]))  # another address's code
    assert not table.server.store.db.execute("SELECT 1 FROM watchers WHERE address = 'mallory@m.test'").fetchone()
    table.new()
    table.server.receive(mail(OBSERVER, [f"watch g1 {code}"]))
    assert any("You watch game g1" in m.body for m in table.new() if m.recipient == OBSERVER)
    checked = 0
    for _ in range(6):
        table.move()
        mails = table.new()
        assert not any(table.secrets[a] in m.body for a in PEOPLE for m in mails if m.recipient == OBSERVER)
        checked += observer_mails_hide_everything(table, mails)
    assert checked >= 6
    table.server.receive(mail(OBSERVER, [f"unwatch g1 {code}"]))
    assert any("You no longer watch game g1" in m.body for m in table.new())
    table.move()
    assert not [m for m in table.new() if m.recipient == OBSERVER]


def test_unwatch_needs_the_same_code_so_a_forged_from_stops_nothing(table):
    code = watch_code(table.server.store, OBSERVER, "g1")
    table.server.receive(mail(OBSERVER, [f"watch g1 {code}"]))
    assert any(f"'unwatch g1 {code}' stops them" in m.body for m in table.new() if m.recipient == OBSERVER)
    table.server.receive(mail(OBSERVER, ["unwatch g1"]))  # anyone may write this From:
    coded = table.new()
    assert [m.recipient for m in coded] == [OBSERVER] and f"unwatch g1 {code}" in coded[0].body
    wrong = "0" * len(code) if code != "0" * len(code) else "1" * len(code)
    table.server.receive(mail(OBSERVER, [f"unwatch g1 {wrong}"]))
    assert any("is wrong" in m.body for m in table.new() if m.recipient == OBSERVER)
    table.server.receive(mail(OBSERVER, ["unwatch g1 " + watch_code(table.server.store, OBSERVER, "g2")]))
    table.new()
    table.move()
    assert [m for m in table.new() if m.recipient == OBSERVER], "a forged or wrong unwatch stopped the mails"
    table.server.receive(mail(OBSERVER, ["lang de", f"unwatch g1 {code.upper()}"]))
    assert any("Du schaust Spiel g1 nicht mehr zu" in m.body for m in table.new() if m.recipient == OBSERVER)
    table.move()
    assert not [m for m in table.new() if m.recipient == OBSERVER]
    table.server.receive(mail(OBSERVER, ["unwatch g1"]))
    assert any("you do not watch game g1" in m.body for m in table.new() if m.recipient == OBSERVER)


def test_an_observer_is_answered_in_the_language_it_asks_for(table):
    code = watch_code(table.server.store, OBSERVER, "g1")
    table.server.receive(mail(OBSERVER, ["lang de", f"watch g1 {code}"]))
    assert any("Du schaust Spiel g1 zu" in m.body for m in table.new() if m.recipient == OBSERVER)
    table.move()
    assert any("Zuschauer" in m.subject for m in table.new() if m.recipient == OBSERVER)


def test_watch_codes_to_one_address_are_limited_and_a_repeat_changes_nothing(table):
    data = mail(OBSERVER, ["watch g1"])
    table.server.receive(data)
    table.server.receive(data)  # the same Message-ID again
    assert len([m for m in table.new() if m.recipient == OBSERVER]) == 1
    for _ in range(10):
        table.server.receive(mail(OBSERVER, ["watch g1"]))
    coded = [m for m in table.new() if m.recipient == OBSERVER]
    assert len(coded) == table.server.config.limits.refusals_per_hour - 1
    table.server.receive(mail(OBSERVER, ["watch nosuch"]))
    assert any("there is no game nosuch" in m.body for m in table.new())


def test_the_resign_policy_is_a_setting_of_spb_pbem_new(tmp_path):
    write_config(tmp_path)
    runner = CliRunner()
    base = ["pbem", "new", "--players", "Anna=anna@a.test,Boris=boris@b.test", "--config", str(tmp_path / "pbem.toml")]
    refused = runner.invoke(app, [*base, "--id", "r1", "--resign", "wait"])
    assert refused.exit_code == 2 and "cannot wait" in refused.output
    made = runner.invoke(app, [*base, "--id", "r2", "--resign", "pass"])
    assert made.exit_code == 0, made.output
    server = make_server(tmp_path)
    try:
        assert resign_policy(server.store, "r2") == "pass" and resign_policy(server.store, "r1") == "ai:easy"
        assert server.store.game("r1") is None
    finally:
        server.close()


def test_a_garbled_away_changes_nothing_and_says_how_to_write_it_in_the_players_language(table):
    who = PEOPLE[1]
    table.send(who, ["lang de"])
    table.new()
    table.send(who, ["away until someday"])
    answer = [m for m in table.new() if m.recipient == who]
    assert len(answer) == 1 and "away until JJJJ-MM-TT" in answer[0].body
    assert not table.server.store.db.execute("SELECT 1 FROM away").fetchone()
    table.send(who, ["away until 1970-01-02"])  # a date gone by (the clock is 1970-01-12)
    assert not table.server.store.db.execute("SELECT 1 FROM away").fetchone()


def test_a_german_player_resigns_in_german_and_cannot_resign_twice(table):
    who = PEOPLE[2]
    table.send(who, ["lang de", "resign"])
    mine = [m for m in table.new() if m.recipient == who]
    assert any("Du hast in Spiel g1 aufgegeben" in m.body for m in mine)
    table.send(who, ["resign"])
    again = [m for m in table.new() if m.recipient == who]
    assert len(again) == 1 and "du hast in Spiel g1 aufgegeben" in again[0].body
    assert table.server.store.db.execute("SELECT COUNT(*) FROM resigned").fetchone() == (1,)


def test_help_tells_of_resign_away_and_watch_in_each_language(table):
    for who, lang, word in ((PEOPLE[0], "en", "leave the game"), (PEOPLE[1], "de", "das Spiel verlassen"),
                            (PEOPLE[2], "zh", "離開遊戲")):
        table.send(who, [f"lang {lang}", "help"])
        answer = [m for m in table.new() if m.recipient == who]
        assert len(answer) == 1 and word in answer[0].body and "watch" in answer[0].body


@pytest.mark.slow
def test_an_observer_of_a_whole_game_with_a_resign_and_an_away_sees_nothing_hidden(table):
    """A whole game by mail, one person away and one resigned half-way: every observer mail is the
    public view, the same on copies with the hands, the deck order and the hidden rubles changed."""
    code = watch_code(table.server.store, OBSERVER, "g1")
    table.server.receive(mail(OBSERVER, [f"watch g1 {code}"]))
    table.new()
    checked = mails = 0
    while not table.server.sitting("g1").game.is_over and mails < 400:
        if mails == 20:
            table.send(PEOPLE[1], ["away until " + FUTURE])
        elif mails == 40:
            table.send(PEOPLE[2], ["resign"])
        else:
            table.move()
        mails += 1
        checked += observer_mails_hide_everything(table, table.new())
    assert table.server.sitting("g1").game.is_over
    assert checked >= mails - 2
