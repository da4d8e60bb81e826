"""Helpers of the web tests: a server on loopback run in this process (its games readable by the test),
plain HTTP requests to it, the live stream read frame by frame, and headless Chromium through Playwright.

Chromium is the distribution's (/usr/bin/chromium, which .ci/run installs); Playwright drives it
through its executable path, so nothing is downloaded at run time.
"""

from __future__ import annotations

import os
import shutil
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn

from spbc.frontends.web.live import Hub, WebGame
from spbc.frontends.web.keeping import new_table
from spbc.frontends.web.serving import WebServer, bind, game_links, origin_of
from spbc.play.game import Ruleset
from spbc.table.seats import parse_seats


STEP = 30_000  # ms a page may take to show a change (a computer's move included)


@contextmanager
def launched_browser() -> Iterator[Any]:
    """Headless Chromium (the distribution's) under Playwright, for one module's tests."""
    sync_api = pytest.importorskip("playwright.sync_api")
    path = chromium_path()
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


def open_page(browser: Any, url: str, width: int = 1280, height: int = 900) -> Any:
    """A new browser page at url, once its live stream is open."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.set_default_timeout(STEP)
    page.goto(url)
    page.wait_for_selector("#status:not(:empty)")
    return page


def after(page: Any, number: int) -> None:
    """Wait until a page shows a board later than move number ``number``."""
    page.wait_for_function("n => Number(document.querySelector('.board').dataset.number) > n", arg=number)


def chromium_path() -> str:
    """The distribution's Chromium; skipped where it is missing, and a failure on CI, which installs it."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run installs it (apt-get install -y chromium)")
        pytest.skip("no chromium here (apt-get install -y chromium)")
    return found


@dataclass
class Running:
    """A server on loopback serving a hub; ``origin`` is where a browser reaches it."""

    hub: Hub
    origin: str
    server: uvicorn.Server
    thread: threading.Thread
    tokens: dict[str, dict[int | None, str]] = field(default_factory=dict)  # game id -> its links' tokens

    def links(self, game: WebGame) -> dict[str | None, str]:
        return dict(game_links(game, self.tokens[game.id], self.origin))

    def add_game(self, ruleset: Ruleset, seats: str, seed: int) -> WebGame:
        """A new game on the server, its computers' opening moves played."""
        game, tokens = self.hub.create(new_table(ruleset, parse_seats(seats), seed))
        game.table.advance()
        self.tokens[game.id] = tokens
        return game

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@contextmanager
def running(hub: Hub | None = None, port: int = 0) -> Iterator[Running]:
    """Serve a hub (a new one by default) in a thread of this process until the block ends."""
    hub = hub if hub is not None else Hub()
    sock = bind("127.0.0.1", port)
    server = WebServer(hub)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    started = threading.Event()
    while not server.started and thread.is_alive():
        started.wait(0.01)
    serving = Running(hub, origin_of(sock, "127.0.0.1"), server, thread)
    try:
        yield serving
    finally:
        serving.stop()
        sock.close()


def request(url: str, data: bytes | None = None, headers: dict[str, str] | None = None,
            method: str | None = None) -> tuple[int, str]:
    """The status and body of one HTTP request (an error status is returned, not raised)."""
    given = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})} if data is not None else \
        dict(headers or {})
    req = urllib.request.Request(url, data=data, headers=given, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def first_frame(url: str) -> str:
    """The first frame of a live stream (the whole board as it is now)."""
    with urllib.request.urlopen(url, timeout=30) as stream:
        lines = []
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if not line and any(part.startswith("data:") for part in lines):
                return "\n".join(lines)
            lines.append(line)
    raise AssertionError("the stream ended before its first frame")
