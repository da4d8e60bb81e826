"""spb serve over plain HTTP: what each page, answer and live frame holds (nothing of another seat's
hand, no seed before the end), and refusals of bad requests that change nothing."""

from __future__ import annotations

import html
import os
import random
import re

import pytest

from spbc.table.screen import priced_offers
from spbc.frontends.words import words_in
from spbc.frontends.web.server import sse_data

from webserver import Running, first_frame, request, running

JSON = {"Accept": "application/json"}


@pytest.fixture
def server():
    with running() as serving:
        yield serving


def _card_names(text: str, names: set[str]) -> set[str]:
    """The card names a text holds, the longer first ("Zar und Zimmermann" is not also "Zar")."""
    found = set()
    for name in sorted(names, key=len, reverse=True):
        pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        if pattern.search(text):
            found.add(name)
            text = pattern.sub(" ", text)
    return found


def _check_pages(server: Running, game, names: dict[str, str], language: str) -> None:
    """Every viewer's page and first live frame: the spectator's names only public cards (and what its
    board's prices for the seat on turn displace or need); a seat's adds only its own hand and what its
    board, priced for that seat, displaces or needs; the seed appears only once the game is over."""
    table = game.table
    links = server.links(game)
    public_view = table.public_view()
    _, watched = request(links[None] + f"?lang={language}")
    assert 'class="hand"' not in watched
    _check_rubles(watched, public_view, language)
    seen = set(public_view.upper) | set(public_view.lower) | set(public_view.discard) | {public_view.drawn or ""} | {
        card for player in public_view.players for card in player.play_area}
    taken = " ".join(text for _, _, text in table.history.moves)  # the moves name the cards they took
    public = {names[card] for card in seen if card} | _card_names(taken, set(names.values()))
    hands = {seat: {names[card] for card in table.game.view(seat).players[seat].hand or []}
             for seat in range(len(table.seats))}
    secret_seed = str(table.game.seed)
    leaked = (_card_names(watched, set(names.values())) & set().union(*hands.values())) - public
    leaked -= _priced_names(table, None, names)
    assert not leaked, f"the spectators' page names {leaked} of a hand: {_around(watched, leaked)}"
    for seat, person in enumerate(table.seats):
        if person.computer:
            continue
        others = set().union(*(hand for other, hand in hands.items() if other != seat))
        priced = _priced_names(table, seat, names)
        for text in (request(links[person.name] + f"?lang={language}")[1],
                     first_frame(links[person.name] + f"/events?lang={language}")):
            extra = (_card_names(text, set(names.values())) & others) - public - hands[seat] - priced
            assert not extra, f"{person.name}'s page names {extra} of another hand: {_around(text, extra)}"
            _check_rubles(text, table.game.view(seat), language)
            assert table.game.is_over or secret_seed not in text
    assert table.game.is_over or secret_seed not in watched


def _around(text: str, names: set[str]) -> list[str]:
    """Where a page names these cards: each place with its words around it, the markup left out."""
    plain = re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", html.unescape(text)))
    return [plain[max(0, found.start() - 60): found.end() + 30] for name in sorted(names)
            for found in re.finditer(re.escape(name), plain)]


def _priced_names(table, seat: int | None, names: dict[str, str]) -> set[str]:
    """The cards the board's trading cards displace, or need, as a viewer's board prices them: a seat's
    page prices the board for that seat, the spectators' for the seat on turn. Worked out from the public
    view (the play areas and the rules), so no hand can feed it: a "needs ..." note may name any card the
    rules let a trading card displace, an "over ..." note only a card in the buyer's play area."""
    view = table.public_view()
    buyer = view.current_player if seat is None else seat
    model = table.game.ruleset.model
    named = set()
    for offer in priced_offers(table.game, view, buyer):
        card = model.card(offer.card)
        assert all(card.can_displace(model.card(target)) for target in offer.needs), (offer, "needs an unruled card")
        assert offer.over is None or view.players[buyer].play_area.get(offer.over), (offer, "displaces a card not there")
        named |= {names[target] for target in (*offer.needs, offer.over) if target}
    return named


def _check_rubles(text: str, view, language: str) -> None:
    """Each mat on a page shows a player's rubles only where the viewer may see them."""
    words = words_in(language)
    for player in view.players:
        found = re.search(rf'<article class="mat" aria-label="{re.escape(html.escape(player.name))}">.*?<p>(.*?)</p>',
                          text, re.S)
        assert found, player.name
        shown = words("secret_rubles") if player.rubles is None else words.count(player.rubles, "ruble")
        assert html.escape(shown) in found.group(1), (player.name, found.group(1))


@pytest.mark.parametrize("games", [2])
def test_no_page_or_frame_holds_another_hand_or_the_seed(server, compiled, games):
    _play_and_check(server, compiled, games, every=5)


@pytest.mark.slow
def test_no_page_or_frame_holds_another_hand_or_the_seed_over_200_games(server, compiled):
    # SPB_HTTP_GAMES plays the first games of the run only (the same games: one seeded sequence)
    _play_and_check(server, compiled, int(os.environ.get("SPB_HTTP_GAMES", "200")), every=25)


def _play_and_check(server: Running, ruleset, games: int, every: int = 3) -> None:
    rng = random.Random(12)
    model = ruleset.model
    for number in range(games):
        seats = ",".join(["Anna", "Boris", "Clara", "ai:random"][:rng.choice((2, 3, 4))])
        language = ("en", "de", "zh")[number % 3]
        names = {card.id: card.name for card in (model.in_language(language) if language != "en" else model).cards}
        game = server.add_game(ruleset, seats, seed=rng.getrandbits(60) | 1 << 59)
        links = server.links(game)
        step = 0
        while not game.table.game.is_over:
            if step % every == 0:
                _check_game(server, game, names, language, f"game {number} ({seats}, {language}) at move {step}")
            seat = game.table.on_turn
            move = rng.choice(game.table.legal(seat))[0]
            status, _ = request(links[game.table.seats[seat].name] + "/move",
                                f"n={game.table.moves}&move={move}".encode(), JSON)
            assert status == 200
            step += 1
        _check_game(server, game, names, language, f"game {number} ({seats}, {language}) at its end")


def _check_game(server: Running, game, names: dict[str, str], language: str, where: str) -> None:
    """_check_pages, its failure saying which game of the seeded run and which move."""
    try:
        _check_pages(server, game, names, language)
    except AssertionError as failed:
        raise AssertionError(f"{where}: {failed}") from failed


def test_bad_requests_are_refused_and_change_nothing(server, compiled):
    game = server.add_game(compiled, "Anna,Boris", seed=77)
    other = server.add_game(compiled, "Anna,Boris", seed=78)
    links, elsewhere = server.links(game), server.links(other)
    seat = game.table.on_turn
    mover, waiter = game.table.seats[seat].name, game.table.seats[1 - seat].name
    number, move = game.table.moves, game.table.legal(seat)[0][0]
    other_number = other.table.moves
    body = f"n={number}&move={move}".encode()
    base = links[mover].rsplit("/", 1)[0]
    token = links[mover].rsplit("/", 1)[1]
    refused = [
        (base + "/" + "x" * 43 + "/move", body, JSON, 404),  # a made-up token
        (elsewhere[mover].rsplit("/", 1)[0] + "/" + token + "/move", body, JSON, 404),  # replayed on another game
        (links[mover] + "/move", b"n=1&&&==move", JSON, 400),  # malformed
        (links[mover] + "/move", b"n=" + b"9" * 5000, JSON, 413),  # oversized
        (links[mover] + "/move", body + b"&move=pass", JSON, 400),  # a field twice
        (links[mover] + "/move", f"n=x&move={move}".encode(), JSON, 400),  # no move number
        (links[mover] + "/move", body, {**JSON, "Origin": "http://elsewhere.example"}, 403),  # cross-site
        (links[mover] + "/move", body, {**JSON, "Sec-Fetch-Site": "cross-site"}, 403),
        (links[None] + "/move", body, JSON, 400),  # a spectator has no move
        (links[mover] + "/undo", f"n={number}".encode(), JSON, 400),  # undo only against computers
    ]
    for url, data, headers, status in refused:
        got, text = request(url, data, headers)
        assert got == status, (url, data, text)
        assert (game.table.moves, other.table.moves) == (number, other_number)
        assert '"ok":false' in text.replace(" ", "")
    got, text = request(links[waiter] + "/move", f"n={number}&move=pass".encode(), JSON)  # out of turn
    assert got == 422 and mover in text and game.table.moves == number
    got, text = request(links[mover] + "/move", f"n={number}&move=buy nothing".encode(), JSON)
    assert got == 422 and "nothing" in text and game.table.moves == number
    assert request(links[mover] + "/move", body, JSON)[0] == 200
    assert request(links[mover] + "/move", body, JSON)[0] == 200  # the same click again: played once
    assert game.table.moves == number + 1
    assert request(links[mover] + "/move", f"n={number}&move=a+stale+move".encode(), JSON)[0] == 422  # stale
    assert game.table.moves == number + 1
    assert request(links[mover] + "/nowhere")[0] == 404
    for page in ("", "/events", "/record"):  # reading with a made-up token, or on another game
        assert request(base + "/" + "x" * 43 + page)[0] == 404
        assert request(elsewhere[mover].rsplit("/", 1)[0] + "/" + token + page)[0] == 404


def test_pages_speak_the_viewers_language(server, compiled):
    game = server.add_game(compiled, "Anna,ai:random", seed=3)
    link = server.links(game)["Anna"]
    assert 'lang="de"' in request(link + "?lang=de")[1] and "Spieler" in request(link + "?lang=de")[1]
    assert "玩家" in request(link, headers={"Accept-Language": "zh-TW,zh;q=0.9"})[1]
    status, text = request(link + "/move", f"n={game.table.moves}&move=buy nichts".encode(),
                           {**JSON, "Accept-Language": "de"})
    assert status == 422 and "nichts" in text


def test_fuzzed_requests_to_every_endpoint_are_refused_and_change_nothing(server, compiled):
    game = server.add_game(compiled, "Anna,Boris", seed=91)
    other = server.add_game(compiled, "Anna,ai:random", seed=92)
    links, elsewhere = server.links(game), server.links(other)
    tokens = [link.rsplit("/", 1)[1] for link in links.values()]
    rng = random.Random(5)
    endpoints = ["", "/events", "/record", "/move", "/undo", "/hint"]
    before = (game.table.moves, other.table.moves)
    for _ in range(300):
        token = rng.choice([rng.choice(tokens)[:-1] + "A", "x" * rng.randrange(1, 300), "%00", "..", ""])
        game_id = rng.choice([game.id, other.id, "nosuch", "g1"])
        if rng.random() < 0.3:  # a real token on the other game: never good there
            game_id, token = other.id, rng.choice(tokens)
        path = f"/game/{game_id}/{token}{rng.choice(endpoints)}"
        body = rng.choice([b"", b"n=0&move=pass", bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 64))),
                           b"move=" + b"a" * 5000, "n=0&move=ü€".encode(), b"n=0&n=1"])
        headers = rng.choice([JSON, {**JSON, "Origin": "http://evil.test"}, {"Content-Type": "text/plain"}, {}])
        method = rng.choice(["GET", "POST", "PUT", "DELETE"])
        status, _ = request(server.origin + path, body if method != "GET" else None, headers, method)
        assert status in (400, 403, 404, 405, 413, 415, 422), (method, path, body[:40], status)
    assert (game.table.moves, other.table.moves) == before


@pytest.mark.parametrize("seats", ["Anna,ai:hard@600s", "Anna,ai:expert@30001it", "Anna,ai:easy,ai:hard@9999999it"])
def test_the_lobby_seats_no_computer_beyond_what_a_player_may_ask(server, seats):
    """A game made on the lobby's form takes the levels and budgets up to expert's in iterations: a budget in
    seconds, or more, is the operator's (spb serve --players), or one form could hold the server."""
    before = len(server.hub.games)
    status, text = request(server.origin + "/games", f"rules=base&seats={seats}".encode(),
                           {"Origin": server.origin})
    assert status == 422 and "is the operator&#39;s to seat" in text and len(server.hub.games) == before
    assert request(server.origin + "/games", b"rules=base&seats=Anna,ai:hard@1000it", {"Origin": server.origin})[0] == 200
    assert len(server.hub.games) == before + 1


def _event_data(frame: str) -> str:
    """What a browser's EventSource hands the page for the data lines of one event (the HTML standard's
    parsing: a line ends at CR LF, CR or LF; the data lines joined with LF)."""
    lines = frame.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.removeprefix("data: ") for line in lines if line.startswith("data: "))


@pytest.mark.parametrize("text", ["<p>one</p>", "a\nb", "a\nb\n", "a\n\nb", "x\r\ny\rz", "line\u2028same line"])
def test_a_live_frame_gives_the_page_the_board_it_was_made_of(text):
    data = sse_data(text)
    assert data.endswith("\n") and "\n\n" not in data  # an empty line would end the event early
    assert _event_data(data) == text.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n")
