"""A play-by-email game watched and played in the browser through a seat's secret link: a move made on
the page is booked by the mail server's path and mailed to the others, a move made by mail shows on
the page, and the page of one seat never shows another's hand."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from spbc.frontends.web.links import Viewer
from spbc.frontends.web.mailgame import mail_games
from spbc.pbem.config import ConfigError
from spbc.pbem.server import NewGame, SeatSpec

from pbem_mail import mail, make_server, outbox, secret_of, three_and_a_computer
from webserver import after, launched_browser, open_page, request


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with launched_browser() as launched:
        yield launched


def test_a_mail_game_is_played_on_the_page_and_by_mail_and_each_shows_the_other(browser, tmp_path):
    server = make_server(tmp_path)
    people = {"Anna": "anna@a.test", "Boris": "boris@b.test"}
    server.new_game(NewGame([SeatSpec(name, address) for name, address in people.items()], seed=8_112_340_567,
                            game_id="g1"))
    secrets = {name: secret_of(outbox(tmp_path), address) for name, address in people.items()}
    process = subprocess.Popen([sys.executable, "-P", "-m", "spbc.frontends.cli", "serve", "--pbem",
                                str(tmp_path / "pbem.toml"), "--port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        origin = next(line.split()[2] for line in process.stderr if line.startswith("serving on "))
        pages = {name: open_page(browser, f"{origin}/game/g1/{secret}") for name, secret in secrets.items()}
        assert request(f"{origin}/game/g1/aaaa-bbbb-cccc-dddd")[0] == 404  # a wrong secret: as no game
        assert request(f"{origin}/game/g9/{secrets['Anna']}")[0] == 404
        for _ in range(2):  # one move on a page, one by mail, whoever is on turn
            table = server.sitting("g1").table
            name = table.seats[table.on_turn].name
            number = table.moves
            if number % 2 == 0:
                sent = len(outbox(tmp_path))
                pages[name].locator("button.move").first.click()
                after(pages[name], number)
                assert server.store.move_count("g1") == number + 1  # booked in the mail server's store
                other = next(a for n, a in people.items() if n != name)
                assert any(m.recipient == other for m in outbox(tmp_path, sent))  # and mailed to the other
            else:
                move = table.legal(table.on_turn)[0][0]
                outcome = server.receive(mail(people[name], ["game g1", f"secret {secrets[name]}", f"move {number + 1}",
                                                             move]))
                assert outcome.applied == 1, outbox(tmp_path)[-1].body
                assert server.store.move_count("g1") == number + 1
            for page in pages.values():
                after(page, number)  # both pages show it
        hands = {name: server.sitting("g1").table.game.view(seat).players[seat].hand or []
                 for seat, name in enumerate(people)}
        model = server.sitting("g1").table.game.ruleset.model
        for name, page in pages.items():
            shown = page.inner_text(".hand") if page.locator(".hand").count() else ""
            assert all(model.card(card).name in shown for card in hands[name])
    finally:
        process.terminate()
        process.wait(30)
        server.close()


BASE = "https://spb.example.org/play"


def test_each_players_mails_carry_their_own_web_link_and_no_one_elses(tmp_path):
    server = make_server(tmp_path, f'[web]\nbase_url = "{BASE}/"\n')
    created = three_and_a_computer(server, admin="host@h.test")
    people = {"Anna": "anna@a.test", "Boris": "boris@b.test", "Clara": "clara@c.test"}
    for _ in range(3):  # a few moves by mail, so every person has updates besides the welcome
        table = server.sitting("g1").table
        name = table.seats[table.on_turn].name
        lines = ["game g1", f"secret {created.secrets[name]}", f"move {table.moves + 1}",
                 table.legal(table.on_turn)[0][0]]
        assert server.receive(mail(people[name], lines)).applied >= 1
    links = {name: f"{BASE}/game/g1/{secret}" for name, secret in created.secrets.items()}
    games = mail_games(server)
    for seat, name in enumerate(people):  # each link opens its own seat's page
        assert games("g1").viewer(links[name].rsplit("/", 1)[1]) == Viewer(seat)
    sent = outbox(tmp_path)
    assert {m.recipient for m in sent} >= {*people.values(), "host@h.test"}
    for message in sent:
        shown = set(re.findall(re.escape(BASE) + r"/\S+", message.body))
        owner = next((name for name, address in people.items() if address == message.recipient), None)
        assert shown <= ({links[owner]} if owner else set()), (message.recipient, shown)
        assert not any(secret in message.body for name, secret in created.secrets.items() if name != owner)
    for name, address in people.items():
        welcome = next(m for m in sent if m.recipient == address)
        assert links[name] in welcome.body


def test_without_a_web_base_url_no_mail_holds_a_web_link(tmp_path):
    server = make_server(tmp_path)
    three_and_a_computer(server)
    assert all("/game/g1/" not in m.body and "web browser" not in m.body for m in outbox(tmp_path))
    (tmp_path / "bad").mkdir()
    with pytest.raises(ConfigError, match="web.base_url"):  # not a web address: refused when the server starts
        make_server(tmp_path / "bad", '[web]\nbase_url = "spb.example.org?x=1"\n')
