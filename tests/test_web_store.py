"""spb serve keeps its games in the store: killed with kill -9 and started again, it resumes every
game where it was (nothing lost, no move applied twice), an open page reconnects and catches up, and
the lobby creates games and hands out their links."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from webserver import after, launched_browser, open_page, request

JSON = {"Accept": "application/json"}


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with launched_browser() as launched:
        yield launched


def _serve(store: Path, *options: str) -> tuple[subprocess.Popen[str], dict[str, str], str]:
    """spb serve started on a store; its printed links by name and where it serves."""
    process = subprocess.Popen([sys.executable, "-P", "-m", "spbc.frontends.cli", "serve", "--store", str(store), *options],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None and process.stdout is not None
    links = {}
    for line in process.stderr:
        if line.startswith("serving on "):
            origin = line.split()[2]
            break
    else:
        raise AssertionError(f"spb serve stopped: {process.wait()}")
    if "--players" in options:
        for line in process.stdout:
            name, link = line.strip().split(": ", 1)
            links[name] = link
            if name == "spectators":
                break
    return process, links, origin


def _turn(links: dict[str, str]) -> tuple[str, int, str]:
    """Whose turn it is (by their page), the move number the page shows, and its first legal move."""
    for name, link in links.items():
        page = request(link)[1]
        if 'class="state mine"' in page:
            number = int(re.search(r'name="n" value="(\d+)"', page).group(1))
            move = re.search(r'name="move" value="([^"]+)"', page).group(1)
            return name, number, move
    raise AssertionError("nobody's page says it is their turn")


def _stored(store: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(store) as db:
        return [(int(seat), str(text)) for seat, text in db.execute("SELECT seat, text FROM web_moves ORDER BY ply")]


def test_a_server_killed_with_kill_9_resumes_every_game_and_the_page_catches_up(browser, tmp_path):
    store = tmp_path / "pbem.sqlite"
    process, links, origin = _serve(store, "--players", "Anna,Boris", "--seed", "9", "--port", "0")
    people = {name: link for name, link in links.items() if name != "spectators"}
    page = open_page(browser, links["spectators"])
    try:
        for _ in range(6):
            name, number, move = _turn(people)
            assert request(people[name] + "/move", f"n={number}&move={move}".encode(), JSON)[0] == 200
        last = (people[name] + "/move", f"n={number}&move={move}".encode())
        after(page, 5)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    before = _stored(store)
    assert len(before) == 6
    page.wait_for_function("() => document.getElementById('status').textContent !== 'live'")
    again, _, _ = _serve(store, "--port", origin.rsplit(":", 1)[1])
    try:
        page.wait_for_function("() => document.getElementById('status').textContent === 'live'")
        assert page.locator(".board").get_attribute("data-number") == "6"  # where it was
        assert request(*last, JSON)[0] == 200  # the last request again (its answer was lost): played once
        assert _stored(store) == before
        name, number, move = _turn(people)
        assert number == 6 and request(people[name] + "/move", f"n={number}&move={move}".encode(), JSON)[0] == 200
        after(page, 6)
        assert _stored(store)[:6] == before and len(_stored(store)) >= 7
    finally:
        again.terminate()
        again.wait(30)


def test_the_lobby_lists_games_creates_one_and_hands_out_its_links(browser, tmp_path):
    store = tmp_path / "pbem.sqlite"
    process, _, origin = _serve(store, "--port", "0")
    try:
        page = browser.new_context().new_page()
        page.goto(origin + "/?lang=de")
        assert page.locator("html").get_attribute("lang") == "de"
        page.select_option("#rules", "base")
        page.fill("#seats", "Anna,ai:easy")
        page.click("form button[type=submit]")
        page.wait_for_selector(".links")
        anna = page.locator(".links a").filter(has_text="Anna").get_attribute("href")
        assert anna and page.locator(".games tbody tr").count() == 1
        page.fill("#seats", "Anna,Anna")  # refused, and why
        page.click("form button[type=submit]")
        assert "Anna" in page.inner_text("#problem") and page.locator(".games tbody tr").count() == 1
        game = open_page(browser, anna)
        game.wait_for_selector(".state.mine")
        assert "Anna" in game.inner_text(".mats")
    finally:
        process.terminate()
        process.wait(30)
