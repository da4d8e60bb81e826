"""The leak check of the play-by-email server: whole games by mail, every mail and log line held
against its reader's view.

People are played by a scripted mover that reads its last mail, picks one of the moves the mail
lists at random and mails it (with now and then a say, a status, a standing order or a hint);
computer seats play as the server makes them. After every mail the server handles, each mail it
sent is checked against its reader r and the game as it stands (the position every one of those
mails was built at):

- it holds no secret of another seat, the admin secret only for the administrator, and no seed
  before the game is over;
- an observer's mail (an address that watches the game) is the observer's view, the same for a copy
  altered for any seat;
- its screen is the screen of r's own view (:func:`spbc.table.screen.build_screen`), and that screen
  is the same for a copy of the game in which everything r cannot see is changed: the other hands
  and the deck order dealt anew (:meth:`spbc.play.game.Game.determinized`) and every rubles count
  that r's view hides raised (``altered``).

A few times a game, the whole store is copied twice, one copy's game set to the altered position
for a reader r, and both are paused by the operator: r's mails (subject and body, their number)
from the two copies must be equal. And twice more, one copy with other rubles for a person whose
rubles the others cannot see; the person on turn passes in both copies: every other person's mails
must be equal (so a pass, or when it comes, tells no one whether a player can pay for a card). At the end the game is replayed move by move: the public lines
each move logs (scorings, round ends, points bought) must be the same on the altered position for a
reader who did not move (its hands and deck order dealt anew; rubles kept: an upkeep a player
cannot pay is seen not paid at the table), and no log line holds a secret, the seed, or a standing
order's tag.
What a ruleset shows (open_information's rubles) is what its own view shows: nothing is assumed.
"""

from __future__ import annotations

import functools
import json
import os
import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from pbem_mail import Received, make_server, mail, outbox, secret_of, write_config
from pbem_positions import put_position
from spbc.pbem.config import load_config
from spbc.pbem.seatwords import seat_words
from spbc.pbem.server import NewGame, SeatSpec, Server
from spbc.pbem.sitting import Sitting, table_of
from spbc.pbem.watchers import observer_view, resigned_notes, watch_code
from spbc.pbem.text import RULE, event_lines, screen_lines
from spbc.pbem.wording import mail_words
from spbc.play.game import Game, Ruleset, load_rules
from spbc.play.moves import PASS, MoveError
from spbc.play.notation import format_move, parse_move
from spbc.source.locate import rules_dir
from spbc.table.events import table_events
from spbc.table.screen import build_screen

#: Every shipped ruleset, by the name of its rules file.
RULESETS = tuple(sorted(path.stem for path in rules_dir().glob("*.spb")))
FAST = 'synchronous = "NORMAL"\n'
#: An address that watches every game of the check (with the code, as anyone may).
OBSERVER = "olga@observer.test"
DEBUG = bool(os.environ.get("SPBC_LEAK_DEBUG"))


@dataclass
class Tally:
    """What the check looked at, and every leak found (one line each)."""

    games: int = 0
    moves: int = 0
    mails: int = 0
    screens: int = 0  # mails whose screen was held to the reader's own
    altered_screens: int = 0  # ... and to the reader's screen of an altered copy (a reader a mail)
    paused_pairs: int = 0
    rubles_pairs: int = 0
    rubles_pairs_computer: int = 0  # not compared: a computer seat played otherwise in the two copies
    rubles_pairs_public: int = 0  # not compared: the same moves, but a scoring paid an upkeep in one only
    rubles_pairs_over: int = 0  # not compared: the game ended in a copy, and the final standings show all rubles
    log_lines: int = 0
    observer_mails: int = 0  # an observer's mails after a move, each held to its view and an altered copy's
    ledger_differs: int = 0  # positions where the public history's rubles are not a seat's rubles
    events_compared: int = 0
    events_skipped: int = 0  # the move was not legal on the altered position (its card was dealt elsewhere)
    leaks: list[str] = field(default_factory=list)


@functools.cache
def ruleset(name: str) -> Ruleset:
    return load_rules(name)


def altered(game: Game, reader: int, rng: random.Random, rubles: bool = True) -> Game:
    """A copy in which everything reader cannot see is changed: hands, deck order, hidden rubles
    (unless not rubles)."""
    copy = json.loads(game.determinized(reader, rng.getrandbits(62)).to_json())
    view = game.view(reader)
    for player in view.players:
        if player.rubles is None and rubles:
            copy["state"]["rubles"][player.seat] += rng.randint(1, 30)
    changed = game.ruleset.game_from_json(json.dumps(copy))
    changed._last = game._last  # a loaded game forgets its last move, which a prompt reads (issue finding 19)
    return changed


def moves_of(game: Game, seat: int) -> tuple[tuple[str, int | None], ...]:
    if game.is_over or game.current_player != seat:
        return ()
    return tuple((format_move(move, game.ruleset), game.cost(move)) for move in game.legal_moves())


class LeakCheck:
    """One game of one ruleset, played by mail in folder and checked as it goes."""

    def __init__(self, folder: Path, rules: str, number: int, tally: Tally, language: str = "en") -> None:
        """A game of rules whose people read their mails in language."""
        self.folder, self.rules, self.tally = folder, rules, tally
        self.words = mail_words(language)
        self.rng = random.Random(f"{rules}-{number}")
        model = ruleset(rules).model
        players = self.rng.randint(model.game.min_players, model.game.max_players)
        people = self.rng.randint(1, players - 1) if self.rng.random() < 0.8 else players
        self.addresses = [f"p{i}@p{i}.test" for i in range(people)]
        seats = [SeatSpec(f"P{i}", address, lang=language) for i, address in enumerate(self.addresses)]
        levels = ["ai:random", "ai:easy", "ai:medium@20it", "ai:hard@20it"]  # one seat a level: one name a seat
        seats += [SeatSpec(level) for level in self.rng.sample(levels, players - people)]
        self.rng.shuffle(seats)
        self.server = make_server(folder, FAST)
        hints = self.rng.random() < 0.3
        self.server.new_game(NewGame(seats, rules=rules, seed=self.rng.getrandbits(64), game_id="g",
                                     mail=self.rng.choice(["move", "move", "phase"]), hints=hints))
        self.seat_of = {seat.address: index for index, seat in enumerate(seats) if seat.address}
        sent = outbox(folder)
        self.secrets = {address: secret_of(sent, address) for address in self.addresses}
        self.admin_subject = self.words("admin_subject", game="g")
        admin = next(m.body for m in sent if m.subject == self.admin_subject)
        self.admin_secret = admin.split(self.words("admin_welcome", game="g", secret=""), 1)[1].split()[0]
        self.read = 0
        self.last: dict[str, Received] = {}
        self.pairs = 0
        self.language = language
        self.server.receive(mail(OBSERVER, [f"watch g {watch_code(self.server.store, OBSERVER, 'g')}", f"lang {language}"]))

    def game(self) -> Game:
        return self.server.sitting("g").game

    def play(self) -> None:
        self.check_new()
        for _ in range(5000):
            game = self.game()
            if game.is_over or self.server.store.game("g").status != "active":
                break
            address = self.server.store.seats("g")[game.current_player].address
            assert address is not None, "a computer seat waits"
            self.mover(address)
            self.check_new()
            if self.pairs < 3 and self.rng.random() < 0.05 and not self.game().is_over:
                self.pairs += 1
                self.paused_pair()
                self.rubles_pair()
        assert self.game().is_over, f"{self.rules}: the game did not end"
        self.replay()
        self.tally.games += 1
        self.server.close()

    def mover(self, address: str) -> None:
        """The person at address answers their last mail with one of the moves it lists."""
        last = self.last[address]
        assert last.moves, f"{self.rules}: {address} is on turn, but their last mail lists no moves"
        lines = ["game g", f"secret {self.secrets[address]}", f"move {last.number}"]
        roll = self.rng.random()
        extra = (["hint"] if roll < 0.05 else ["status"] if roll < 0.1 else ["say well played"] if roll < 0.13
                 else ["order pass phase"] if roll < 0.15 else [])
        self.server.receive(mail(address, extra + lines + [self.rng.choice(last.moves)]))
        self.tally.moves += 1

    # --- every mail -------------------------------------------------------------------------------

    def check_new(self) -> None:
        new = outbox(self.folder, self.read)
        self.read += len(new)
        game = self.game()
        altered_for = self.rng.choice(new).recipient if new else None  # one reader a mail is held to it
        for sent in new:
            if RULE in sent.body:  # a mail with the reader's screen, not a message or a notice
                self.last[sent.recipient] = sent
            self.check_mail(sent, game, sent.recipient == altered_for)

    def leak(self, what: str, sent: Received) -> None:
        self.tally.leaks.append(f"{self.rules}: {what}: to {sent.recipient}, {sent.subject!r}")

    def check_mail(self, sent: Received, game: Game, alter: bool) -> None:
        self.tally.mails += 1
        text = sent.subject + "\n" + sent.body
        for address, secret in self.secrets.items():
            if secret in text and address != sent.recipient:
                self.leak(f"the secret of {address}", sent)
        if self.admin_secret in text and sent.subject != self.admin_subject:
            self.leak("the admin secret", sent)
        if not game.is_over and str(game.seed) in text:
            self.leak("the seed before the end", sent)
        if sent.recipient == OBSERVER:
            self.check_observer(sent, game)
            return
        reader = self.seat_of.get(sent.recipient)
        if reader is None or RULE not in sent.body or game.is_over:
            return
        own = "\n".join(screen_lines(build_screen(game, reader, moves_of(game, reader)), self.words))
        if own not in sent.body:
            self.leak("a screen that is not the reader's own", sent)
        self.tally.screens += 1
        if alter:
            other = altered(game, reader, self.rng)
            changed = "\n".join(screen_lines(build_screen(other, reader, moves_of(other, reader)), self.words))
            if changed != own:
                self.leak("a screen that changes with what its reader cannot see", sent)
                if DEBUG:
                    import difflib
                    print("\n".join(difflib.unified_diff(own.splitlines(), changed.splitlines(), lineterm="")))
            self.tally.altered_screens += 1

    def check_observer(self, sent: Received, game: Game) -> None:
        """An observer's mail after a move is its view of the game as it stands, the same for a copy altered
        for any seat (the observer sees less than every seat); the moves it lists are the log's last ones."""
        if "(observer)" not in sent.subject or game.is_over:
            return
        self.tally.observer_mails += 1
        sitting = self.server.sitting("g")
        head = seat_words(self.language)("observer_since") + "\n"
        since = [line[2:] for line in sent.body.split(head, 1)[1].split("\n\n", 1)[0].splitlines()] \
            if head in sent.body else []
        logged = [text for _, text in self.server.store.log_since("g", 0, self.language)]
        if not since or logged[-len(since):] != since:
            self.leak("an observer mail whose moves are not the log's last ones", sent)
        notes = resigned_notes(self.server.store, "g", self.language)
        if sent.body != observer_view(sitting, self.language, notes, since):
            self.leak("an observer mail that is not the observer's view", sent)
        reader = self.rng.randrange(len(game.players))
        other = altered(game, reader, self.rng)
        copy = Sitting(sitting.row, sitting.seats, table_of(sitting.row, sitting.seats, other, sitting.moves))
        if observer_view(copy, self.language, notes, since) != sent.body:
            self.leak(f"an observer mail that changes with what seat {reader} cannot see", sent)

    # --- positions that differ only in what one reader cannot see ----------------------------------

    def copy(self, name: str) -> Server:
        folder = self.folder / name
        folder.mkdir()
        target = sqlite3.connect(str(folder / "pbem.sqlite"))
        self.server.store.db.backup(target)
        target.close()
        server = Server(load_config(write_config(folder, FAST)))
        return server

    def paused_pair(self) -> None:
        """The operator pauses two copies of the store, one with the game altered for a reader: the
        reader's mails must be the same."""
        people = [seat for seat in self.seat_of.values()]
        reader = self.rng.choice(people)
        address = next(a for a, s in self.seat_of.items() if s == reader)
        mails = []
        for name in (f"same{self.pairs}", f"altered{self.pairs}"):
            server = self.copy(name)
            if name.startswith("altered"):
                put_position(server, "g", altered(self.game(), reader, self.rng))
            server.admin("g", ["pause"])
            mails.append([(m.subject, m.body) for m in outbox(server.config.base) if m.recipient == address])
            server.close()
        self.tally.paused_pairs += bool(mails[0])  # a reader of digests (mail phase) gets none of a pause
        if mails[0] != mails[1]:
            self.tally.leaks.append(f"{self.rules}: the mails to seat {reader} change with what it cannot see")
            if DEBUG:
                import difflib
                for one, two in zip(mails[0], mails[1]):
                    print("\n".join(difflib.unified_diff(one[1].splitlines(), two[1].splitlines(), lineterm="")))

    def rubles_pair(self) -> None:
        """Two copies of the store that differ only in one person's rubles, which the others cannot see;
        the person on turn passes in both: every other person's mails (their number, subjects and
        bodies) must be the same, computer seats and standing orders playing on as they do. The person
        whose rubles differ is not the one on turn: whether that one may pass can hang on its own rubles
        (second-edition's first phase must buy where it can), and a refused pass is its own answer."""
        game = self.game()
        people = list(self.seat_of.values())
        hidden = [seat for seat in people if seat != game.current_player
                  and all(game.view(r).players[seat].rubles is None for r in people if r != seat)]
        if PASS not in game.legal_moves() or not hidden or len(people) < 2:
            return
        secret = self.rng.choice(hidden)
        mover = next(a for a, s in self.seat_of.items() if s == game.current_player)
        number = self.server.store.move_count("g") + 1
        mails, played, logged, ended = [], [], [], []
        for name, rubles in ((f"as-is{self.pairs}", None), (f"rubles{self.pairs}", self.rng.randint(0, 40))):
            server = self.copy(name)
            if rubles is not None:
                saved = json.loads(game.to_json())
                saved["state"]["rubles"][secret] = rubles
                put_position(server, "g", game.ruleset.game_from_json(json.dumps(saved)))
            server.receive(mail(mover, ["game g", f"secret {self.secrets[mover]}", f"move {number}", "pass"]))
            mails.append([(m.recipient, m.subject, m.body) for m in outbox(server.config.base)
                          if self.seat_of.get(m.recipient) != secret])
            played.append(server.store.moves("g"))
            logged.append(server.store.log_since("g", 0))
            ended.append(server.sitting("g").game.is_over)
            server.close()
        if any(ended):
            self.tally.rubles_pairs_over += 1  # every ruble is public once the game is over
            return
        if played[0] == played[1] and logged[0] != logged[1]:
            self.tally.rubles_pairs_public += 1  # a scoring's upkeep paid in one copy only: done at the table
            return
        first = next((i for i, pair in enumerate(zip(*played)) if pair[0] != pair[1]), min(map(len, played)))
        diverged = [moves[first][0] for moves in played if len(moves) > first]
        if any(seat not in self.seat_of.values() for seat in diverged):
            # a computer seat played otherwise: it weighs the others' rubles as the public history of
            # prices and incomes tells them, and the copy's history is another (not a leak of the mails)
            self.tally.rubles_pairs_computer += 1
            return
        self.tally.rubles_pairs += 1
        if mails[0] != mails[1]:
            self.tally.leaks.append(f"{self.rules}: the others' mails change with seat {secret}'s rubles")
            if DEBUG:
                import difflib
                for one, two in zip(mails[0], mails[1]):
                    print("\n".join(difflib.unified_diff(one[2].splitlines(), two[2].splitlines(), lineterm="")))
                print(len(mails[0]), len(mails[1]))

    # --- the log ------------------------------------------------------------------------------------

    def replay(self) -> None:
        """Each move's public lines, on the game and on a position altered for a reader who did not move."""
        store = self.server.store
        final = self.game()
        for _, line in store.log_since("g", 0):
            self.tally.log_lines += 1
            if "(standing order)" in line or str(final.seed) in line and "over" not in line:
                self.tally.leaks.append(f"{self.rules}: log line {line!r}")
            if any(secret in line for secret in [*self.secrets.values(), self.admin_secret]):
                self.tally.leaks.append(f"{self.rules}: a secret in log line {line!r}")
        game = ruleset(self.rules).new_game(list(final.players), final.seed)
        for seat, text, _ in store.moves("g"):
            move = parse_move(text, game)
            before = game.clone()
            game.play(move)
            self.tally.ledger_differs += any(game.public_rubles(s) != game.rubles(s) for s in range(len(game.players)))
            readers = [r for r in range(len(game.players)) if r != seat]
            if not readers:
                continue
            reader = self.rng.choice(readers)
            other = altered(before, reader, self.rng, rubles=False)  # an upkeep not paid is seen at the table
            try:
                after = other.clone()
                after.play(parse_move(text, other))
            except MoveError:
                self.tally.events_skipped += 1
                continue
            model = game.ruleset.model
            lines = [line for event in table_events(before, game, seat, move)
                     for line in event_lines(event, self.words, model)]
            others = [line for event in table_events(other, after, seat, move)
                      for line in event_lines(event, self.words, model)]
            self.tally.events_compared += 1
            if lines != others:
                self.tally.leaks.append(f"{self.rules}: the lines of move {text!r} change with what "
                                        f"seat {reader} cannot see: {lines} / {others}")
