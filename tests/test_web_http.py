"""spb serve over plain HTTP: what each page, answer and live frame holds (nothing of another seat's
hand, no seed before the end), and refusals of bad requests that change nothing."""

from __future__ import annotations

import random
import re

import pytest

from spbc.frontends.web.page import spectator_screen

from webserver import Running, first_frame, request, running

JSON = {"Accept": "application/json"}


@pytest.fixture
def server():
    with running() as serving:
        yield serving


def _card_names(text: str, names: set[str]) -> set[str]:
    return {name for name in names if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)}


def _check_pages(server: Running, game, names: dict[str, str], language: str) -> None:
    """Every viewer's page and first live frame: the spectator's names only public cards; a seat's
    adds only its own hand; the seed appears only once the game is over."""
    table = game.table
    links = server.links(game)
    public_view = table.public_view()
    _, watched = request(links[None] + f"?lang={language}")
    assert 'class="hand"' not in watched
    seen = set(public_view.upper) | set(public_view.lower) | set(public_view.discard) | {
        card for player in public_view.players for card in player.play_area}
    taken = " ".join(text for _, _, text in table.history.moves)  # the moves name the cards they took
    public = {names[card] for card in seen} | _card_names(taken, set(names.values()))
    # what a trading card's price displaces, or needs: named from the rules and the play areas
    public |= {names[card] for offer in spectator_screen(table).offers for card in (*offer.needs, offer.over) if card}
    hands = {seat: {names[card] for card in table.game.view(seat).players[seat].hand or []}
             for seat in range(len(table.seats))}
    secret_seed = str(table.game.seed)
    assert not (_card_names(watched, set(names.values())) & set().union(*hands.values())) - public
    for seat, person in enumerate(table.seats):
        if person.computer:
            continue
        others = set().union(*(hand for other, hand in hands.items() if other != seat))
        for text in (request(links[person.name] + f"?lang={language}")[1],
                     first_frame(links[person.name] + f"/events?lang={language}")):
            extra = (_card_names(text, set(names.values())) & others) - public - hands[seat]
            assert not extra, f"{person.name}'s page names {extra} of another hand"
            assert table.game.is_over or secret_seed not in text
    assert table.game.is_over or secret_seed not in watched


@pytest.mark.parametrize("games", [2])
def test_no_page_or_frame_holds_another_hand_or_the_seed(server, compiled, games):
    _play_and_check(server, compiled, games, every=5)


@pytest.mark.slow
def test_no_page_or_frame_holds_another_hand_or_the_seed_over_200_games(server, compiled):
    _play_and_check(server, compiled, 200, every=7)


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
                _check_pages(server, game, names, language)
            seat = game.table.on_turn
            move = rng.choice(game.table.legal(seat))[0]
            status, _ = request(links[game.table.seats[seat].name] + "/move",
                                f"n={game.table.moves}&move={move}".encode(), JSON)
            assert status == 200
            step += 1
        _check_pages(server, game, names, language)


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
