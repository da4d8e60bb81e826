"""The judge end to end (issue 25): a real Dovecot as the server's inbox (tests/imap_server.py) and a real
aiosmtpd on loopback for what it sends. Four people make a game by mail (one joins in German), an observer
watches it with the code mailed back, one player goes away and one resigns, the others play a move of each
mail's list (chosen at random, seeded) until the game ends; the final standings are a replay of the record
mailed back and of the operator's export (`spb pbem export` replayed by `spb replay`, each in a process of its
own), the same as the game's last mail says; and no observer mail holds a hand or a hidden rubles count.

Each person's first lobby mail has no lobby key: it is answered with the key and sent again with it.
`start` cannot begin a four-person game (four is the most a game seats, and the fourth join starts it), so
here it is only refused to a joiner who did not create the game."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time

import pytest

from imap_server import PASSWORD, USER, Dovecot, dovecot
from pbem_leakcheck import altered
from pbem_mail import SECRET_LINE, Received, make_server, mail, parse_sent
from spbc.pbem.imap import open_inbox, poll_once
from spbc.pbem.sitting import Sitting, table_of
from spbc.pbem.watchers import observer_view, resigned_notes
from spbc.play.record import read_record

aiosmtpd = pytest.importorskip("aiosmtpd.controller")
from test_pbem_e2e import Catcher, free_port  # noqa: E402

PEOPLE = {"anna@a.test": "Anna", "boris@b.test": "Boris", "clara@c.test": "Clara", "dora@d.test": "Dora"}
OBSERVER = "olga@o.test"
OVER = ("] game over", "] Spiel zu Ende")


class Judge:
    """The server polling Dovecot's inbox, mailing through aiosmtpd; a mail in, the mails it made out."""

    def __init__(self, folder, imap: Dovecot, catcher: Catcher, port: int) -> None:
        self.imap, self.catcher, self.seen, self.folder = imap, catcher, 0, folder
        self.listed: list[str] = []  # every move the observer's mails listed, in order
        self.server = make_server(folder, (
            f'[imap]\nhost = "127.0.0.1"\nport = {imap.tls_port}\nsecurity = "tls"\ncafile = "{imap.cafile}"\n'
            f'username = "{USER}"\ninterval = 1\nidle = 30\n'
            f'[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\ntimeout = 20\n'
            '[limits]\nrefusals_per_hour = 50\n[defaults]\npolicy = "pass"\n'))
        self.box = open_inbox(self.server.config)

    def post(self, sender: str, lines: list[str], subject: str = "spb") -> list[Received]:
        """Deliver a mail to the IMAP inbox, poll until the server has handled it; the mails sent since."""
        self.imap.deliver(mail(sender, lines, subject=subject))
        deadline = time.monotonic() + 30
        while not poll_once(self.server, self.box):
            assert time.monotonic() < deadline, "the mail never came out of the inbox"
        with self.catcher.lock:
            new = self.catcher.messages[self.seen:]
            self.seen += len(new)
        return [parse_sent(data) for _, data in new]

    def close(self) -> None:
        self.box.close()
        self.server.close()


@pytest.fixture
def judge(tmp_path, monkeypatch):
    monkeypatch.setenv("SPB_IMAP_PASSWORD", PASSWORD)
    catcher = Catcher()
    controller = aiosmtpd.Controller(catcher, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        with dovecot() as imap:
            made = Judge(tmp_path, imap, catcher, controller.port)
            try:
                yield made
            finally:
                made.close()
    finally:
        controller.stop()


def to(mails: list[Received], address: str) -> list[Received]:
    return [sent for sent in mails if sent.recipient == address]


#: The lobby key's line in a key mail, in English and German: "  key 0123abcd..." / "  schlüssel ...".
KEY_LINE = re.compile(r"^  (?:key|schlüssel) ([0-9a-f]{16})$", re.M)


def lobby_post(judge: Judge, keys: dict[str, str], sender: str, line: str) -> list[Received]:
    """A lobby mail as a person writes it: the first of an address has no key and is answered with it
    (nothing changed), so it is sent again with the key the mail gave."""
    if sender not in keys:
        [answer] = judge.post(sender, [line])
        assert answer.recipient == sender and re.search("nothing was changed|nichts wurde geändert", answer.body)
        keys[sender] = KEY_LINE.search(answer.body).group(1)
    return judge.post(sender, [line, f"key {keys[sender]}"])


def lobby(judge: Judge) -> tuple[str, dict[str, str], list[Received]]:
    """The game made and joined by mail: its id, the secrets by address, the mails of its start."""
    keys: dict[str, str] = {}
    [made] = to(lobby_post(judge, keys, "anna@a.test", "create base players 4"), "anna@a.test")
    game_id = re.search(r"^\[spb (g\w+)\]", made.subject).group(1)
    lobby_post(judge, keys, "anna@a.test", f"join {game_id} as Anna")
    lobby_post(judge, keys, "boris@b.test", f"beitreten {game_id} als Boris")
    assert "only the creator" in to(lobby_post(judge, keys, "boris@b.test", f"start {game_id}"),
                                    "boris@b.test")[0].body
    lobby_post(judge, keys, "clara@c.test", f"join {game_id} as Clara")
    assert judge.server.store.game(game_id) is None  # three of four: still open
    started = lobby_post(judge, keys, "dora@d.test", f"join {game_id} as Dora")  # full: it starts
    assert [seat.name for seat in judge.server.store.seats(game_id)] == list(PEOPLE.values())
    secrets = {}
    for address in PEOPLE:
        found = [re.search(SECRET_LINE, sent.body, re.M) for sent in to(started, address)]
        secrets[address] = next(match.group(1) for match in found if match)
    welcomes = [sent.body for sent in to(started, "boris@b.test") if re.search(SECRET_LINE, sent.body, re.M)]
    assert welcomes and "Dein Geheimnis: " in welcomes[0]  # Boris joined in German
    return game_id, secrets, started


def watch(judge: Judge, game_id: str) -> list[Received]:
    [coded] = to(judge.post(OBSERVER, [f"watch {game_id}"]), OBSERVER)
    code = re.search(rf"^  watch {game_id} (\S+)$", coded.body, re.M).group(1)
    welcome = to(judge.post(OBSERVER, [f"watch {game_id} {code}"]), OBSERVER)
    assert any(f"You watch game {game_id}" in sent.body for sent in welcome)
    return welcome


def listed_moves(body: str) -> list[str]:
    """The moves and scorings an observer's mail lists as played since the mail before it."""
    head = "Every move since the last mail, in order:\n"
    if head not in body:
        return []
    return [line[2:] for line in body.split(head, 1)[1].split("\n\n", 1)[0].splitlines()]


def check_observer(judge: Judge, game_id: str, mails: list[Received], rng: random.Random) -> int:
    """No observer mail shows a hand or a hidden rubles count; the last of a batch (the position as stored)
    is the observer's view, the same for copies with every hand, the deck order and hidden rubles changed."""
    sitting = judge.server.sitting(game_id)
    names = list(PEOPLE.values())
    watched = [sent for sent in to(mails, OBSERVER) if "(observer)" in sent.subject]
    for sent in to(mails, OBSERVER):
        assert not re.search(r"^(Your hand|Deine Hand|hand:)", sent.body, re.M | re.I), sent.body
        if any(sent.subject.endswith(end) for end in OVER) or sitting.game.is_over:
            continue
        for name in names:
            for line in re.findall(rf"^  {re.escape(name)}( \[[^]]*\])?: (.*)$", sent.body, re.M):
                assert ", ? rubles," in line[1], (name, line)
    listed = [listed_moves(sent.body) for sent in watched]
    judge.listed += [line for lines in listed for line in lines]
    if watched and not sitting.game.is_over:
        notes = resigned_notes(judge.server.store, game_id, "en")
        assert watched[-1].body == observer_view(sitting, "en", notes, listed[-1])
        for reader in range(len(sitting.seats)):
            copy = altered(sitting.game, reader, rng)
            other = Sitting(sitting.row, sitting.seats, table_of(sitting.row, sitting.seats, copy, sitting.moves))
            assert observer_view(other, "en", notes, listed[-1]) == watched[-1].body, reader
    return len(watched)


def exported_standings(judge: Judge, game_id: str) -> list[tuple[int, str, int]]:
    """(rank, name, final points) of the game as the operator exports it (spb pbem export) and spb replay
    replays that file, each a process of its own: the record a third party would check."""
    record = judge.folder / f"{game_id}.spbr"
    for args in (["pbem", "export", game_id, "--config", str(judge.folder / "pbem.toml"), "--output", str(record)],
                 ["replay", str(record), "--json"]):
        done = subprocess.run([sys.executable, "-P", "-m", "spbc.frontends.cli", *args], cwd=judge.folder,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (args, done.stderr)
    replayed = json.loads(done.stdout)
    assert replayed["over"] and replayed["complete"], replayed
    return [(standing["rank"], standing["name"], standing["final"]) for standing in replayed["standings"]]


def on_turn(mails: list[Received]) -> Received | None:
    """The newest mail that lists its reader's moves (to a person still playing by mail)."""
    listing = [sent for sent in mails if sent.recipient in PEOPLE and sent.moves]
    return listing[-1] if listing else None


@pytest.mark.slow  # a whole game through a real IMAP and SMTP server
def test_four_people_make_and_play_a_whole_game_by_mail_through_imap_and_smtp(judge):
    game_id, secrets, mails = lobby(judge)
    mails += watch(judge, game_id)
    watched_from = judge.server.store.last_log(game_id)
    rng, observed, away, resigned, played, german = random.Random(3), 0, False, False, 0, []
    turn = on_turn(mails)
    for _ in range(600):
        if any(sent.subject.endswith(OVER) for sent in mails):
            break
        if played == 6 and not away:
            away = True
            told = judge.post("clara@c.test", [f"game {game_id}", f"secret {secrets['clara@c.test']}",
                                               "away until 2099-01-01"])
            assert any(sent.subject.endswith(("is away", "ist abwesend")) for sent in told)
            mails = told
        elif played == 12 and not resigned:
            resigned = True
            mails = judge.post("dora@d.test", [f"game {game_id}", f"secret {secrets['dora@d.test']}", "resign"])
            assert any("You resigned from game" in sent.body for sent in to(mails, "dora@d.test"))
        else:
            assert turn is not None, [sent.subject for sent in mails]
            mails = judge.post(turn.recipient, [f"game {game_id}", f"secret {secrets[turn.recipient]}",
                                                f"move {turn.number}", rng.choice(turn.moves)], "Re: " + turn.subject)
            played += 1
        observed += check_observer(judge, game_id, mails, rng)
        german += to(mails, "boris@b.test")
        turn = on_turn(mails) or turn
    over = [sent for sent in mails if sent.subject.endswith(OVER)]
    assert away and resigned and over
    assert {sent.recipient for sent in over} >= {"anna@a.test", "boris@b.test"}, [s.subject for s in mails]
    assert to(mails, OBSERVER), [s.subject for s in mails]  # the observer is told the end as well
    assert german and all(not sent.subject.endswith(": your turn") for sent in german)
    assert any(sent.subject.endswith(": du bist am Zug") for sent in german)
    assert observed > 20
    logged = [text for _, text in judge.server.store.log_since(game_id, watched_from, "en")]
    assert judge.listed == logged and len(logged) > played  # every move once, in order (and the scorings)
    recorded = to(judge.post("anna@a.test", [f"game {game_id}", f"secret {secrets['anna@a.test']}", "record"]),
                  "anna@a.test")
    text = next(sent.body for sent in recorded if "[Seed " in sent.body)
    record = text[text.index("[Ruleset "):].split(f"\nGame {game_id}, round")[0]
    replay = read_record(record).game
    assert replay.is_over and replay.standings() == judge.server.sitting(game_id).game.standings()
    exported = exported_standings(judge, game_id)
    assert exported == [(standing.rank, standing.name, standing.final) for standing in replay.standings()]
    last = next(sent for sent in reversed(over) if sent.recipient == "anna@a.test")  # the game's last mail to her
    said = [(int(rank), name, int(final)) for rank, name, final in
            re.findall(rf"^\s+(\d+)\s+({'|'.join(map(re.escape, PEOPLE.values()))})\s.*\s(-?\d+)$", last.body, re.M)]
    assert said == exported, last.body
    finals = [next(sent for sent in over if sent.recipient == "anna@a.test"), to(mails, OBSERVER)[-1]]
    for final in finals:  # a player's game-over mail and the observer's last one
        for standing in replay.standings():
            assert re.search(rf"^\s+{standing.rank}\s+{re.escape(standing.name)}\s.*\s{standing.final}$",
                             final.body, re.M), final.body
