"""The web server's routes (Starlette): each viewer's page, its live stream, and the moves it posts.

A link is ``/game/<id>/<token>``: the id names the game, the token whose seat it is (or the
spectators'); an unknown game and a wrong token get the same refusal. The layer is thin: a page is
the Table's view drawn (spbc.frontends.web.page), a move is text handed to the Table. Requests that
change a game must come from the game's own page (no cross-site origin), be small, and name the move
number the page showed, which makes a second submit of the same click harmless.
"""

from __future__ import annotations

import asyncio
import functools
import html
from collections.abc import AsyncIterator, Awaitable, Callable
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response,
                                 StreamingResponse)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from spbc.play.game import load_rules
from spbc.table.table import Table, UndoRefused
from spbc.frontends.words import LANGUAGES
from spbc.frontends.web.keeping import Keeper, RulesLoader, record_text
from spbc.frontends.web.live import Hub, Refusal, WebGame
from spbc.frontends.web.lobby import Lobby
from spbc.frontends.web.links import Viewer
from spbc.table.phrases import hint_text
from spbc.frontends.web.page import PageWords, page_words, render_board, render_page, session_say, undo_refusal

HINT_LEVEL = "hard"  # the level a hint asks, as the terminal's hint command
Outcome = tuple[str | None, str | None]  # what a change answers: why it was refused, or a note (a hint)
BODY_LIMIT = 2048  # bytes of a posted form: a move in the notation is short
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; "
                               "base-uri 'none'",
    "Referrer-Policy": "same-origin",  # the link is the secret: never sent on to another site
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


class Refused(Exception):
    """A request refused before it reaches a game: the page's word key and the HTTP status."""

    def __init__(self, key: str, status: int) -> None:
        super().__init__(key)
        self.key, self.status = key, status


def language_of(request: Request) -> str:
    """The viewer's language: ``?lang=``, else the first of the browser's that the table speaks."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


def _found(hub: Hub, request: Request) -> tuple[WebGame, Viewer]:
    found = hub.find(str(request.path_params["game"]), str(request.path_params["token"]))
    if found is None:
        raise Refused("no_link", 404)
    return found


def _base(request: Request) -> str:
    return f"/game/{request.path_params['game']}/{request.path_params['token']}"


def _same_origin(request: Request) -> None:
    """Refuse a request another site's page made (the browser says so in its headers)."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise Refused("cross_site", 403)
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
        raise Refused("cross_site", 403)


async def read_form(request: Request) -> dict[str, str]:
    """A small form-encoded body, each field once; Refused for anything else."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
        raise Refused("bad_request", 415)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_LIMIT:
            raise Refused("too_large", 413)
    try:
        fields = parse_qs(body.decode("utf-8"), strict_parsing=bool(body), max_num_fields=8)
    except (UnicodeDecodeError, ValueError):
        raise Refused("bad_request", 400) from None
    if any(len(values) != 1 for values in fields.values()):
        raise Refused("bad_request", 400)
    return {key: values[0] for key, values in fields.items()}


def _number(form: dict[str, str]) -> int:
    text = form.get("n", "")
    if not text.isdigit() or len(text) > 6:
        raise Refused("bad_request", 400)
    return int(text)


def _say(words: PageWords, refusal: Refusal) -> str:
    return refusal.said if refusal.said is not None else words(refusal.key, **refusal.values)


class WebApp:
    """The routes of one server over a hub of games (kept in a store by ``keeper``, when given)."""

    def __init__(self, hub: Hub, keeper: Keeper | None = None, load: RulesLoader = load_rules) -> None:
        self.hub = hub
        self.lobby = Lobby(hub, keeper, functools.cache(load))

    def routes(self) -> list[Route | Mount]:
        return [
            Route("/", self.lobby_page, methods=["GET"]),
            Route("/games", self.create, methods=["POST"]),
            Route("/game/{game}/{token}/record", self.record, methods=["GET"]),
            Route("/game/{game}/{token}", self.page, methods=["GET"]),
            Route("/game/{game}/{token}/events", self.events, methods=["GET"]),
            Route("/game/{game}/{token}/move", self.move, methods=["POST"]),
            Route("/game/{game}/{token}/undo", self.undo, methods=["POST"]),
            Route("/game/{game}/{token}/hint", self.hint, methods=["POST"]),
            Mount("/static", StaticFiles(packages=[("spbc.frontends.web", "static")]), name="static"),
        ]

    async def _board(self, game: WebGame, viewer: Viewer, words: PageWords, base: str) -> tuple[int, str]:
        """The game's version and the viewer's board fragment, read between moves (drawn once a version
        for each link and language: the link names the viewer)."""
        key = (base, viewer.seat, words.language, game.undo)

        def draw(table: Table) -> tuple[int, str]:
            board = game.boards.get(key)
            if board is None:
                board = game.boards[key] = render_board(table, viewer, words, base, game.undo, game.parts)
            return game.version, board

        return await game.read(draw)

    async def page(self, request: Request) -> Response:
        game, viewer = _found(self.hub, request)
        words = page_words(language_of(request), game.table)
        _, board = await self._board(game, viewer, words, _base(request))
        return HTMLResponse(render_page(game.table, viewer, words, _base(request), board), headers=HEADERS)

    async def lobby_page(self, request: Request) -> Response:
        return HTMLResponse(self.lobby.render(page_words(language_of(request), None)), headers=HEADERS)

    async def create(self, request: Request) -> Response:
        """A game made by the lobby's form: the page with its links."""
        words = page_words(language_of(request), None)
        try:
            _same_origin(request)
            form = await read_form(request)
        except Refused as refused:
            return HTMLResponse(self.lobby.render(words, words(refused.key)), refused.status, headers=HEADERS)
        text, status = await self.lobby.create(form, words, f"{request.url.scheme}://{request.headers.get('host', '')}")
        return HTMLResponse(text, status, headers=HEADERS)

    async def record(self, request: Request) -> Response:
        """The game's record so far (spb replay reads it); the seed withheld until the game is over."""
        game, _ = _found(self.hub, request)
        text = await game.read(record_text)
        headers = dict(HEADERS, **{"Content-Disposition": f'attachment; filename="spb-{game.id}.spbr"'})
        return PlainTextResponse(text, headers=headers)

    async def events(self, request: Request) -> Response:
        """The live stream: the viewer's whole board now, and again after every change."""
        game, viewer = _found(self.hub, request)
        words = page_words(language_of(request), game.table)
        base = _base(request)

        async def frames() -> AsyncIterator[str]:
            seen = -1
            while not game.closed:
                if game.version == seen:
                    try:
                        await asyncio.wait_for(game.wait_change(seen), game.poll_seconds)
                    except TimeoutError:
                        if not await game.refresh():
                            yield ": still here\n\n"
                        continue
                if game.closed:
                    return
                seen, board = await self._board(game, viewer, words, base)
                yield f"event: board\nid: {seen}\nretry: 1000\n{sse_data(board)}\n"

        headers = dict(HEADERS, **{"X-Accel-Buffering": "no"})
        return StreamingResponse(frames(), media_type="text/event-stream", headers=headers)

    async def move(self, request: Request) -> Response:
        return await self._change(request, self._play)

    async def undo(self, request: Request) -> Response:
        return await self._change(request, self._take_back)

    async def hint(self, request: Request) -> Response:
        return await self._change(request, self._hint)

    async def _play(self, game: WebGame, viewer: Viewer, form: dict[str, str], words: PageWords) -> Outcome:
        text = form.get("move", "").strip()
        if not text or viewer.seat is None:
            raise Refused("bad_request", 400)
        refusal = await game.submit(viewer.seat, text, _number(form), words.language)
        return (None if refusal is None else _say(words, refusal)), None

    async def _take_back(self, game: WebGame, viewer: Viewer, form: dict[str, str], words: PageWords) -> Outcome:
        if viewer.seat is None or not game.undo:
            raise Refused("bad_request", 400)
        if _number(form) != game.table.moves:
            return words("stale"), None
        try:
            taken = await game.take_back()
        except UndoRefused as refused:
            return undo_refusal(refused, words), None
        return None, session_say(words)("took_back", moves="; ".join(taken))

    async def _hint(self, game: WebGame, viewer: Viewer, form: dict[str, str], words: PageWords) -> Outcome:
        """What the search would play for the person on turn (one person against computers only)."""
        if viewer.seat is None or not game.undo:
            raise Refused("bad_request", 400)
        if _number(form) != game.table.moves or game.table.on_turn != viewer.seat:
            return words("stale"), None
        say = session_say(words)
        try:
            found = await game.hint(HINT_LEVEL)
        except RuntimeError as error:  # the pure-Python engine has no search
            return say("no_hint", error=error), None
        return None, hint_text(found, say, words.language)

    async def _change(self, request: Request, action: Callable[..., Awaitable[Outcome]]) -> Response:
        """A request that changes a game: checked, done, answered as JSON (scripts) or as the page."""
        words = page_words(language_of(request), None)
        try:
            _same_origin(request)
            game, viewer = _found(self.hub, request)
            words = page_words(words.language, game.table)
            form = await read_form(request)
            problem, note = await action(game, viewer, form, words)
        except Refused as refused:
            return _answer(request, words(refused.key), None, None, refused.status)
        _, board = await self._board(game, viewer, words, _base(request))
        status = 200 if problem is None else 422
        if "application/json" not in request.headers.get("accept", ""):
            if problem is None and note is None:
                return RedirectResponse(f"{_base(request)}?lang={words.language}", 303, headers=HEADERS)
            return HTMLResponse(render_page(game.table, viewer, words, _base(request), board, problem, note),
                                status, headers=HEADERS)
        return _answer(request, problem, note, board, status)


def sse_data(text: str) -> str:
    """Text as the data lines of a server-sent event: each of its lines after "data: ", ended by a line
    break (CR LF, CR and LF all end a line there; a browser joins the lines again with LF)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").removesuffix("\n")
    return "data: " + lines.replace("\n", "\ndata: ") + "\n"


def _answer(request: Request, problem: str | None, note: str | None, board: str | None, status: int) -> Response:
    """A change's answer: JSON for the page's script, a short page for a browser without one."""
    if "application/json" in request.headers.get("accept", ""):
        return JSONResponse({"ok": problem is None, "problem": problem, "note": note, "board": board}, status,
                            headers=HEADERS)
    return HTMLResponse(f"<!DOCTYPE html><p role=\"alert\">{html.escape(problem or '')}</p>", status,
                        headers=HEADERS)


async def _refused(request: Request, error: Exception) -> Response:
    """A request refused before it reached a game (an unknown game or link): said in the viewer's language."""
    assert isinstance(error, Refused)
    return _answer(request, page_words(language_of(request), None)(error.key), None, None, error.status)


def make_app(hub: Hub, keeper: Keeper | None = None) -> Starlette:
    """The server's application over a hub of games (kept in a store by keeper, when given)."""
    return Starlette(routes=WebApp(hub, keeper).routes(), exception_handlers={Refused: _refused})
