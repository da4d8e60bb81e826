"""Starting a web server: the games it begins with, the links it prints, the socket it serves on.

The socket is bound before the links are printed (port 0 takes a free port), so every link printed
names the port that answers; uvicorn then serves the app on that socket until it is stopped.
"""

from __future__ import annotations

import gc
import socket
from typing_extensions import override

import uvicorn

from spbc.frontends.web.keeping import Keeper
from spbc.frontends.web.live import Hub, WebGame
from spbc.frontends.web.server import make_app


#: The collector's thresholds while serving (Python's default: 700, 10, 10). Drawing a board makes many
#: short-lived objects and almost no cycles, so the default runs the youngest generation's collection a few
#: hundred times a second under load and the whole heap's (every game, every kept part) every few seconds, a
#: pause of tens of milliseconds each: about 8% of the server's CPU in benchmarks/web_load.py. A cycle is
#: still collected, after 20,000 allocations instead of 700.
THRESHOLDS = (20_000, 20, 20)


def game_links(game: WebGame, tokens: dict[int | None, str], origin: str) -> list[tuple[str | None, str]]:
    """Each person's secret link by name, then the spectators' (name None)."""
    links: list[tuple[str | None, str]] = [
        (game.table.seats[seat].name, f"{origin}/game/{game.id}/{token}")
        for seat, token in tokens.items() if seat is not None]
    links.append((None, f"{origin}/game/{game.id}/{tokens[None]}"))
    return links


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host and port (0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def origin_of(sock: socket.socket, host: str) -> str:
    """The address a browser reaches a bound socket at: http://127.0.0.1:8000."""
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class WebServer(uvicorn.Server):
    """uvicorn's server for a hub: stopping, it first ends the live streams, which never end by
    themselves, so that the open connections close at once."""

    def __init__(self, hub: Hub, keeper: Keeper | None = None) -> None:
        super().__init__(uvicorn.Config(make_app(hub, keeper), log_level="warning", access_log=False, lifespan="off",
                                        timeout_graceful_shutdown=2))
        self.hub = hub

    @override
    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self.hub.reopen()
        await super().startup(sockets)

    @override
    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.hub.close()
        await super().shutdown(sockets)


def serve(hub: Hub, sock: socket.socket, keeper: Keeper | None = None) -> None:
    """Serve the hub's games on a bound socket until the process is stopped (the process's own collector
    tuned for it, see THRESHOLDS)."""
    before = gc.get_threshold()
    gc.freeze()  # what is loaded now (modules, rules, the games resumed) is not looked at again
    gc.set_threshold(*THRESHOLDS)
    try:
        WebServer(hub, keeper).run(sockets=[sock])
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
