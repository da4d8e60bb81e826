"""Command: serve (the game in a web browser, spbc.frontends.web)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from spbc.frontends.options import complete_rules, integer

if TYPE_CHECKING:  # imported by the command when it runs, for a fast start of the others
    from spbc.frontends.web.keeping import Keeper
    from spbc.frontends.web.live import Hub
    from spbc.table.seats import Seat


def register(app: typer.Typer) -> None:
    """Add this module's commands to the spb app."""
    app.command("serve")(serve)


def serve(
    players: Optional[str] = typer.Option(
        None, "--players", metavar="SEATS",
        help="Start a game with these seats: names of people, ai:LEVEL for computers (e.g. Anna,Boris,ai:hard)."),
    rules: Optional[str] = typer.Option(None, "--rules", metavar="RULES", autocompletion=complete_rules,
                                        help="A shipped ruleset by name, or the path of a rules file (default: base)."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="INTEGER", parser=integer(),
                                       help="Seed of the deal (default: a random one, told at the end)."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="HOST",
                             help="The address to listen on (0.0.0.0 opens it to the network: put TLS in front)."),
    port: int = typer.Option(8000, "--port", metavar="PORT", parser=integer(0, 65535), help="The port to listen on (0: any free port)."),
    store: Path = typer.Option(Path("pbem.sqlite"), "--store", metavar="FILE",
                               help="The SQLite store the games are kept in, the mail server's too; every game in "
                                    "it is resumed on start."),
    pbem: Optional[Path] = typer.Option(
        None, "--pbem", metavar="CONFIG",
        help="The mail server's configuration: its games are played in the browser too, each seat through a link "
             "with its mail secret, and the store is its store."),
) -> None:
    """Serve games in a web browser: each person's secret link and a spectator link are printed."""
    import functools
    import sqlite3

    from spbc.frontends.common import fail, load_ruleset
    from spbc.frontends.game_cmds import deal_seed
    from spbc.frontends.web.keeping import Keeper
    from spbc.frontends.web.live import Hub
    from spbc.frontends.web.mailgame import mail_games
    from spbc.pbem.config import load_config
    from spbc.pbem.server import Server as PbemServer
    from spbc.frontends.web.serving import bind, origin_of, serve as run
    from spbc.pbem.schema import SchemaError
    from spbc.pbem.store import Store
    from spbc.table.seats import SeatError, parse_seats

    try:
        seats = parse_seats(players) if players is not None else None
        mail = PbemServer(load_config(pbem)) if pbem is not None else None
        keeper = Keeper(mail.store if mail is not None else Store(store), functools.cache(load_ruleset))
    except (SeatError, ValueError) as error:
        fail(str(error), code=2)
    except (SchemaError, sqlite3.Error) as error:
        fail(f"cannot open the store: {error}")
    hub = Hub(mail_games(mail) if mail is not None else None)
    for resumed in keeper.resume(hub):
        typer.echo(f"resumed game {resumed.id} at move {resumed.table.moves}", err=True)
    try:
        sock = bind(host, port)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}", code=2)
    origin = origin_of(sock, host)
    if seats is not None:
        _start_game(hub, keeper, rules or "base", seats, deal_seed(seed), origin)
    typer.echo(f"serving on {origin} (Ctrl-C stops)", err=True)
    run(hub, sock, keeper)


def _start_game(hub: Hub, keeper: Keeper, rules: str, seats: list[Seat], seed: int, origin: str) -> None:
    """The game of --players: made, its computers' first moves played, kept, its links printed."""
    from spbc.frontends.web.keeping import new_table
    from spbc.frontends.web.serving import game_links
    from spbc.lang.load import shipped_names

    kept = rules if rules in shipped_names() else str(Path(rules).resolve())  # found again from any folder
    game, tokens = hub.create(new_table(keeper.load(kept), seats, seed))
    game.table.advance()
    keeper.keep(game, kept)
    for name, link in game_links(game, tokens, origin):
        typer.echo(f"{name}: {link}" if name is not None else f"spectators: {link}")
