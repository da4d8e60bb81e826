"""spb serve in a real browser: headless Chromium (the distribution's) driven by Playwright clicks and
types through whole games, two seats at once (one in German), against a computer, as a spectator, through
a lost connection, and at desktop and phone width."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from spbc.play.record import read_record

from webserver import Running, after as _after, launched_browser, open_page as _open, request, running


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with launched_browser() as launched:
        yield launched


@pytest.fixture
def server() -> Iterator[Running]:
    with running() as serving:
        yield serving


def _number(page) -> int:
    return int(page.locator(".board").get_attribute("data-number"))


def _click_a_move(page, rng: random.Random) -> int:
    """Click one of the legal moves' buttons at random; the move number it was chosen at."""
    number = _number(page)
    buttons = page.locator("button.move")
    buttons.nth(rng.randrange(buttons.count())).click()
    return number


def test_two_people_play_a_whole_game_by_clicking_one_in_german(browser, server, compiled):
    game = server.add_game(compiled, "Anna,Boris", seed=8_137_264_501_923)
    links = server.links(game)
    pages = {0: _open(browser, links["Anna"]), 1: _open(browser, links["Boris"] + "?lang=de")}
    watcher = _open(browser, links[None])
    assert pages[1].locator("html").get_attribute("lang") == "de"
    rng = random.Random(3)
    seed = str(game.table.game.seed)
    while pages[0].locator(".final").count() == 0:
        mine = [page for page in pages.values() if page.locator(".state.mine").count()]
        assert len(mine) == 1, "exactly one page says it is that seat's turn"
        number = _click_a_move(mine[0], rng)
        for page in (*pages.values(), watcher):
            _after(page, number)
            assert page.locator(".final").count() or seed not in page.content()
    assert game.table.game.is_over
    assert "Endwertung im Einzelnen" in pages[1].inner_text(".final h2")
    assert pages[0].inner_text(".final h2") == "Final breakdown"
    for page in (*pages.values(), watcher):
        assert seed in page.inner_text(".final .seed")  # told once the game is over
    assert watcher.locator(".hand").count() == 0


def test_a_game_against_ai_easy_to_the_end_typing_and_clicking(browser, server, compiled):
    game = server.add_game(compiled, "Anna,ai:easy", seed=5)
    page = _open(browser, server.links(game)["Anna"])
    page.wait_for_selector(".state.mine")
    number = _number(page)
    page.fill("#notation", "buy nothing-of-the-sort")  # refused, and why
    page.press("#notation", "Enter")
    page.wait_for_selector("#problem:not(:empty)")
    assert "nothing-of-the-sort" in page.inner_text("#problem") and _number(page) == number
    page.fill("#notation", page.locator("button.move").first.get_attribute("value") or "pass")
    page.fill("#notation", page.locator("form:has(button.move) input[name=move]").first.input_value())
    page.press("#notation", "Enter")  # the keyboard alone plays a move
    _after(page, number)
    rng = random.Random(8)
    while True:
        page.wait_for_selector(".state.mine, .final")
        if page.locator(".final").count():
            break
        _after(page, _click_a_move(page, rng))
    assert game.table.game.is_over and page.locator(".final tbody tr").count() == 2
    status, record = request(server.links(game)["Anna"] + "/record")  # the export, which spb replay reads
    replayed = read_record(record, compiled)
    assert status == 200 and replayed.game.standings() == game.table.game.standings()


def test_the_spectator_page_shows_the_board_and_no_hand(browser, server, compiled):
    game = server.add_game(compiled, "Anna,Boris,ai:random", seed=21)
    page = _open(browser, server.links(game)[None] + "?lang=zh")
    assert page.locator(".hand").count() == 0 and page.locator("button.move").count() == 0
    assert page.locator(".mat").count() == 3 and page.locator(".phases tbody tr").count() >= 3
    hands = {card for seat in (0, 1) for card in game.table.game.view(seat).players[seat].hand or []}
    names = {card.name for card in game.table.game.ruleset.model.in_language("zh").cards if card.id in hands}
    board_names = set(page.inner_text(".rows") .split())
    assert not {name for name in names if name in page.content()} - board_names - set(page.inner_text(".mats").split())


def test_a_lost_connection_reconnects_and_catches_up(browser, compiled):
    with running() as first:
        game = first.add_game(compiled, "Anna,Boris", seed=4)
        links = first.links(game)
        mover = game.table.seats[game.table.on_turn].name
        page = _open(browser, links["Boris" if mover == "Anna" else "Anna"])
        hub, port = first.hub, int(first.origin.rsplit(":", 1)[1])
    page.wait_for_function("s => document.getElementById('status').textContent === s",
                           arg="connection lost, reconnecting…")
    with running(hub, port) as again:
        number = game.table.moves
        move = game.table.legal(game.table.on_turn)[0][0]
        status, _ = request(links[mover] + "/move", f"n={number}&move={move}".encode(),
                            {"Accept": "application/json"})
        assert status == 200
        _after(page, number)  # the reconnected stream brought the move made while it was away
        assert page.inner_text("#status") == "live" and again.hub is hub


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_screenshots_at_desktop_and_phone_width_fit_the_screen(browser, server, compiled, tmp_path, width, height):
    game = server.add_game(compiled, "Anna,ai:random", seed=9)
    page = _open(browser, server.links(game)["Anna"], width, height)
    rng = random.Random(1)
    for _ in range(12):  # a few moves in, so the mats hold cards
        page.wait_for_selector(".state.mine, .final")
        if page.locator(".final").count():
            break
        _after(page, _click_a_move(page, rng))
    folder = Path(os.environ.get("SPBC_WEB_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"board-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scrolling"
    page.keyboard.press("Tab")  # the keyboard reaches the controls
    assert page.evaluate("document.activeElement.tagName") in ("A", "BUTTON", "INPUT")


def test_hint_and_undo_against_a_computer(browser, server, compiled):
    game = server.add_game(compiled, "Anna,ai:random", seed=6)
    page = _open(browser, server.links(game)["Anna"])
    page.wait_for_selector(".state.mine")
    if game.table.moves == 0:  # nothing of Anna's to take back yet: undo says so
        page.click("button.undo")
        page.wait_for_selector("#problem:not(:empty)")
    page.click("button.hint")
    page.wait_for_function("() => document.getElementById('note').textContent.includes('ai:hard')")
    before = game.table.moves
    page.locator("button.move").last.click()
    page.wait_for_selector(f'.board:not([data-number="{before}"]) .state.mine, .final')
    page.click("button.undo")
    page.wait_for_function("() => document.getElementById('note').textContent.length > 0")
    page.wait_for_selector(f'.board[data-number="{before}"]')
    assert game.table.moves == before and "took back" in page.inner_text("#note")
