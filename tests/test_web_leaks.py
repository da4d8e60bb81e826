"""Hidden information over many web games: every page, JSON answer and live frame a seat's link or the
spectators' link receives is checked against what that viewer may see, structurally, with the server's
table as the ground truth (recorded at every version of the game): the hand section holds exactly the
viewer's own hand (none for a spectator), the cards drawn as cards are that hand and the board's rows
only, a mat shows rubles only where the viewer may see them, no run of a deck's hidden order and no
seed before the end. Moves are taken from the buttons of the mover's live frame
(now and then of the page).

SPB_LEAK_GAMES sets how many games the slow test plays: 11 by default (about two minutes on a loaded
2-core machine, the server drawing every viewer's board anew after each move); SPB_LEAK_GAMES=200 for the
whole run of issue 24.
"""

from __future__ import annotations

import dataclasses

import html
import json
import os
import random
import re
import threading
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field

import pytest

from spbc.play.game import load_rules
from spbc.frontends.words import words_in
from spbc.frontends.web import page as web_page
from spbc.frontends.web.keeping import new_table
from spbc.frontends.web.links import Viewer
from spbc.frontends.web.page import page_words, render_board
from spbc.table.seats import parse_seats
from spbc.table.table import Table

from webserver import Running, request, running

JSON = {"Accept": "application/json"}
RULESETS = ("base", "open_information", "new_society")
SECTIONS = {"moves", "hand", "recent", "rows", "phases", "mats", "final", "log"}
RUN = 3  # a run of this many of a deck's hidden cards, in order, would tell its order
SEPARATORS = (", ", ",", " ", "</li><li>")


@dataclass(frozen=True)
class Truth:
    """What the table held at one version of a game: each seat's hand, whose rubles each viewer may
    not see (and the word a page says instead), the board's cards (and a card drawn, shown to all), the decks' hidden runs, the seed."""

    hands: dict[int, Counter]
    hidden: dict[int | None, set[int]]
    board: Counter
    runs: tuple[str, ...]
    seed: str
    over: bool
    names: dict[str, str]
    secret: str = ""


def truth_of(table: Table, language: str) -> Truth:
    """The ground truth of a table now, for pages in language."""
    game = table.game
    seats = range(len(table.seats))
    names = {card.id: card.name for card in web_page.local_model(language, game.ruleset).cards}
    hidden: dict[int | None, set[int]] = {None: {p.seat for p in table.public_view().players if p.rubles is None}}
    for seat in seats:
        hidden[seat] = {p.seat for p in game.view(seat).players if p.rubles is None}
    return Truth({seat: Counter(game.hand(seat)) for seat in seats}, hidden,
                 Counter(game.row("upper") + game.row("lower") + [game.drawn_card() or ""]), _deck_runs(table, names), str(game.seed),
                 game.is_over, names, words_in(language)("secret_rubles"))


def _deck_runs(table: Table, names: dict[str, str]) -> tuple[str, ...]:
    """Runs of each deck's hidden cards as a page would write them (ids or names, each separator),
    from both ends of what is left (the next cards, and the last)."""
    game = table.game
    cards = game.ruleset.engine.CARD_IDS
    order = game.state_field("decks")
    room = len(order) // len(game.ruleset.engine.DECK_IDS)
    runs = []
    for index, size in enumerate(game.state_field("deck_size")):
        left = [cards[code] for code in order[index * room: index * room + size]]
        for part in (left[:RUN], left[-RUN:]):
            ranks = [cards.index(card) for card in part]
            # a run of one card, or one in the rules' order (as a mat lists cards), says nothing of the order
            if len(part) == RUN and len(set(part)) > 1 and ranks != sorted(ranks):
                for words in (part, [names[card] for card in part]):
                    runs += [sep.join(html.escape(word) for word in words) for sep in SEPARATORS]
    return tuple(runs)


def _section(board: str, name: str) -> str | None:
    found = re.search(rf'<section class="{name}"(.*?)</section>', board, re.S)
    return None if found is None else found.group(1)


def check_board(board: str, truth: Truth, seat: int | None) -> None:
    """A viewer's board (a page, a JSON answer's board, a live frame) against the table at its version."""
    sections = set(re.findall(r'<section class="(\w+)"', board))
    assert sections <= SECTIONS, f"unknown sections {sections - SECTIONS}"
    hand = _section(board, "hand")
    if seat is None:
        assert hand is None, "the spectators' page has a hand"
        shown_hand: Counter = Counter()
    else:
        assert hand is not None, "a seat's page has no hand"
        shown_hand = Counter(re.findall(r'data-card="(\w+)"', hand))
        assert shown_hand == truth.hands[seat], f"seat {seat}'s hand shows {shown_hand}, not {truth.hands[seat]}"
    rows = _section(board, "rows") or ""
    in_rows = re.findall(r'data-card="(\w+)"', rows)
    assert set(in_rows) <= set(truth.board), f"the rows show {set(in_rows) - set(truth.board)} not on the board"
    every = Counter(re.findall(r'data-card="(\w+)"', board))
    assert every == shown_hand + Counter(in_rows), "a card drawn outside the hand and the rows"
    for player in truth.hidden[seat]:
        mats = re.findall(r'<article class="mat" aria-label="[^"]*">\s*<h3>.*?</h3>\s*<p>(.*?)</p>', board, re.S)
        assert html.escape(truth.secret) in mats[player], f"player {player}'s rubles shown to {seat}"
    for run in truth.runs:
        assert run not in board, f"a deck's order shown: {run}"
    if not truth.over:
        assert truth.seed not in board, "the seed shown before the end"


def check_page(text: str, truth: Truth, seat: int | None) -> None:
    """A whole page: its board as check_board has it, and nothing secret around it."""
    found = re.search(r'<div class="board".*</div>', text, re.S)
    assert found, "a page without its board"
    check_board(found.group(0), truth, seat)
    if not truth.over:
        assert truth.seed not in text, "the seed in the page"


@dataclass
class Stream:
    """One link's live stream read in a thread: every frame (version, board) it sent."""

    url: str
    frames: list[tuple[int, str]] = field(default_factory=list)
    seen: threading.Condition = field(default_factory=threading.Condition)
    thread: threading.Thread | None = None

    def start(self) -> Stream:
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self) -> None:
        with urllib.request.urlopen(self.url, timeout=60) as stream:
            version, data = None, []
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    version = int(line[4:])
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif not line and data:
                    with self.seen:
                        self.frames.append((version, "\n".join(data)))
                        self.seen.notify_all()
                    version, data = None, []

    def wait_for(self, version: int) -> None:
        with self.seen:
            assert self.seen.wait_for(lambda: bool(self.frames) and self.frames[-1][0] == version, 60), \
                f"{self.url}: no frame of version {version}"


def play_one(server: Running, ruleset, seats: str, seed: int, language: str, rng: random.Random) -> int:
    """One game played through its pages, every answer and frame checked; how many things were checked."""
    game = server.add_game(ruleset, seats, seed)
    truths = {game.version: truth_of(game.table, language)}
    game.listeners.append(lambda changed: truths.__setitem__(changed.version, truth_of(changed.table, language)))
    links = server.links(game)
    seat_of: dict[str | None, int | None] = {person.name: seat for seat, person in enumerate(game.table.seats)}
    seat_of[None] = None
    streams = {name: Stream(link + f"/events?lang={language}").start() for name, link in links.items()}
    checked = 0
    for name, link in links.items():
        check_page(request(link + f"?lang={language}")[1], truths[game.version], seat_of[name])
    while not game.table.game.is_over:
        name = game.table.seats[game.table.on_turn].name
        streams[name].wait_for(game.version)  # the mover's live frame of now has the buttons (checked below)
        text = streams[name].frames[-1][1]
        if rng.random() < 0.1:  # and now and then the page itself
            status, text = request(links[name] + f"?lang={language}")
            assert status == 200
            check_page(text, truths[game.version], seat_of[name])
            checked += 1
        number = int(re.search(r'name="n" value="(\d+)"', text).group(1))
        move = html.unescape(rng.choice(re.findall(r'name="move" value="([^"]*)"', text)))
        status, body = request(links[name] + f"/move?lang={language}",
                               urllib.parse.urlencode({"n": number, "move": move}).encode(), JSON)
        answer = json.loads(body)
        assert status == 200 and set(answer) == {"ok", "problem", "note", "board"} and answer["ok"], body
        assert answer["note"] is None and answer["problem"] is None
        check_board(answer["board"], truths[game.version], seat_of[name])
        checked += 1
        if rng.random() < 0.05:
            record = request(links[None] + "/record")[1]
            assert game.table.game.is_over or str(game.table.game.seed) not in record
    for name, link in links.items():
        check_page(request(link + f"?lang={language}")[1], truths[game.version], seat_of[name])
    for stream in streams.values():
        stream.wait_for(game.version)
    game.close()
    for name, stream in streams.items():
        stream.thread.join(30)
        for version, board in stream.frames:
            check_board(board, truths[version], seat_of[name])
        checked += len(stream.frames)
    return checked + len(links)


@pytest.mark.slow
def test_no_page_answer_or_frame_holds_what_its_viewer_may_not_see():
    games = int(os.environ.get("SPB_LEAK_GAMES", "11"))
    rulesets = [load_rules(name) for name in RULESETS]
    rng = random.Random(24)
    checked = 0
    with running() as server:
        for number in range(games):
            people = ["Anna", "Boris", "Clara", "Dmitri"][:rng.choice((2, 3, 4))]
            if rng.random() < 0.3:
                people[-1] = "ai:random"
            checked += play_one(server, rulesets[number % len(rulesets)], ",".join(people),
                                rng.getrandbits(60) | 1 << 59, ("en", "de", "zh")[number % 3], rng)
    assert checked > games * 50


def _leaky_boards(monkeypatch, table: Table, leak: str) -> list[tuple[str, int | None]]:
    """Every viewer's board with one leak put in the page on purpose."""
    seed, run = str(table.game.seed), truth_of(table, "en").runs
    if leak == "hand":
        real = web_page.screen_of
        monkeypatch.setattr(web_page, "screen_of", lambda t, v: real(t, Viewer(None if v.seat is None else
                                                                                 1 - v.seat)))
    elif leak == "rubles":
        real_mat = web_page.mat_of
        monkeypatch.setattr(web_page, "mat_of", lambda screen, seat: dataclasses.replace(
            real_mat(screen, seat), rubles=table.game.rubles(seat)))
    elif leak in ("seed", "deck"):
        monkeypatch.setattr(web_page, "title_text", lambda *args: seed if leak == "seed" else run[0])
    words = page_words("en", table)
    return [(render_board(table, Viewer(seat), words, "/game/x/y"), seat) for seat in (None, 0, 1)]


@pytest.mark.parametrize("leak, said", [("hand", "hand shows"), ("rubles", "rubles shown"), ("seed", "seed"),
                                        ("deck", "deck's order")])
def test_the_check_finds_a_leak_put_in_on_purpose(monkeypatch, leak, said):
    table = new_table(load_rules("base"), parse_seats("Anna,Boris"), 1 << 59 | 12345)
    table.advance()
    while not (table.game.hand(0) and table.game.hand(1)):  # both hands hold a card: a swap shows
        table.submit(table.on_turn, next(move for move, _ in table.legal(table.on_turn) if move.startswith("take")))
    truth = truth_of(table, "en")
    for board, seat in _leaky_boards(monkeypatch, table, "none"):
        check_board(board, truth, seat)  # the honest pages pass
    found = []
    for board, seat in _leaky_boards(monkeypatch, table, leak):
        try:
            check_board(board, truth, seat)
        except AssertionError as error:
            found.append(str(error))
    assert found and all(said in message for message in found), (leak, found)
