"""A play-by-email game watched and played in the browser through a seat's secret link: a move made on
the page is booked by the mail server's path and mailed to the others, a move made by mail shows on
the page, and the page of one seat never shows another's hand."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from spbc.pbem.server import NewGame, SeatSpec

from pbem_mail import mail, make_server, outbox, secret_of
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
