"""Commands: spb pbem (new, receive, poll, tick, status, export, games, ratings, admin, flush, outbox): the play-by-email server."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from spbc.frontends.common import fail
from spbc.frontends.options import complete_rules, integer, number
from spbc.pbem.relay import CONFIG_ENV, DEFAULT_CONFIG as DEFAULT_CONFIG_NAME, EX_TEMPFAIL

if TYPE_CHECKING:
    from spbc.pbem.server import Server

pbem = typer.Typer(
    name="pbem",
    help="Play by email: a game server that reads players' mails and answers each with their view.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

ConfigOption = Annotated[Path, typer.Option(
    "--config", metavar="FILE", envvar=CONFIG_ENV,
    help="The server's configuration file (TOML); without one, the defaults in this folder.")]
DEFAULT_CONFIG = Path(DEFAULT_CONFIG_NAME)


def register(app: typer.Typer) -> None:
    """Add spb pbem and its commands to the spb app."""
    app.add_typer(pbem, name="pbem")


def _server(config: Path, now: float | None = None) -> Server:
    import logging
    import sqlite3

    from spbc.pbem.config import Config, ConfigError, load_config
    from spbc.pbem.server import Server

    try:
        if config == DEFAULT_CONFIG and not config.exists():
            loaded = Config(base=Path.cwd())
        else:
            loaded = load_config(config)
    except ConfigError as error:
        fail(str(error))
    handler: logging.Handler = logging.StreamHandler(sys.stderr)
    if loaded.server.log:
        try:
            handler = logging.FileHandler(loaded.path(loaded.server.log), encoding="utf-8")
        except OSError as error:  # a log file in a folder that is not there, or not writable
            fail(f"cannot open the log file {loaded.path(loaded.server.log)}: {error.strerror or error}")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger = logging.getLogger("spbc.pbem")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        return Server(loaded, clock=(lambda: now) if now is not None else __import__("time").time)
    except sqlite3.OperationalError as error:  # locked for longer than busy_seconds, or the disk failing
        fail(f"the store {loaded.store_path} cannot be opened now ({error}); nothing was changed, try again "
             "later", code=EX_TEMPFAIL)
    except OSError as error:
        fail(f"cannot open the store {loaded.store_path}: {error}")
    except Exception as error:  # sqlite3.Error: a file that is no database
        fail(f"cannot open the store {loaded.store_path}: {error}")


@pbem.command("new")
def new(
    players: Annotated[str, typer.Option(
        metavar="SEATS", help="Comma list of seats: NAME=ADDRESS for a person, ai:LEVEL for a computer.")],
    config: ConfigOption = DEFAULT_CONFIG,
    rules: Annotated[str, typer.Option(metavar="RULES", autocompletion=complete_rules, help="A shipped ruleset or a rules file.")] = "base",
    seed: Annotated[Optional[int], typer.Option(parser=integer(), metavar="INTEGER", help="Seed of the deal (default: a random one).")] = None,
    game_id: Annotated[Optional[str], typer.Option("--id", metavar="ID", help="The game's id (default: a random one).")] = None,
    admin: Annotated[Optional[str], typer.Option(metavar="ADDRESS", help="The administrator's address (default: the first player's).")] = None,
    deadline: Annotated[Optional[float], typer.Option(parser=number(), metavar="HOURS", help="Hours a player has for a turn; 0: none.")] = None,
    remind: Annotated[Optional[float], typer.Option(parser=number(), metavar="HOURS", help="Hours before the deadline of the reminder.")] = None,
    policy: Annotated[Optional[str], typer.Option(metavar="POLICY", help="At a deadline: wait, pass, or ai:LEVEL plays the turn.")] = None,
    mail: Annotated[Optional[str], typer.Option(metavar="[move|phase]", help="A mail per move, or a digest per phase.")] = None,
    hints: Annotated[Optional[bool], typer.Option("--hints/--no-hints", help="Whether players may ask for a hint.")] = None,
    resign: Annotated[Optional[str], typer.Option(metavar="POLICY", help="Who plays a resigned seat: pass, or ai:LEVEL (default ai:easy).")] = None,
) -> None:
    """Create a game and mail each player a welcome with their secret, the rules and how to move."""
    from spbc.pbem.rules import RulesFileError
    from spbc.pbem.server import NewGame, PbemError, SeatSpec

    seats = []
    for entry in players.split(","):
        name, _, address = entry.strip().partition("=")
        seats.append(SeatSpec(name.strip(), address.strip() or None))
    if mail is not None and mail not in ("move", "phase"):
        fail(f"--mail is move or phase, not {mail!r}", code=2)
    from spbc.pbem.seat import check_resign_policy, set_resign_policy
    try:
        check_resign_policy(resign)
    except PbemError as error:
        fail(str(error), code=2)
    server = _server(config)
    try:
        created = server.new_game(NewGame(seats, rules, seed, game_id, admin, deadline, remind, policy, mail, hints))
        if resign is not None:
            with server.store.transaction():
                set_resign_policy(server.store, created.game_id, resign)
    except RulesFileError as error:  # an error in the input (the rules), not in the usage
        fail(str(error))
    except PbemError as error:
        fail(str(error), code=2)
    finally:
        server.close()
    typer.echo(f"game {created.game_id} created; the welcome mails hold the secrets")


@pbem.command("receive")
def receive(
    config: ConfigOption = DEFAULT_CONFIG,
    maildir: Annotated[Optional[Path], typer.Option(metavar="DIR", help="Handle every new message of this Maildir (else one message on standard input).")] = None,
) -> None:
    """Handle one mail from standard input (an MTA pipe, procmail, .forward) or a Maildir's new mails, then send the replies.

    Exit 75 (EX_TEMPFAIL: the MTA delivers the mail again later) when the store cannot take it now.
    """
    import sqlite3

    from spbc.pbem.inbox import StoreBusy, busy_answer, receive_maildir, receive_stdin

    server = _server(config)
    try:
        if maildir is not None:
            if not (maildir / "new").is_dir():
                fail(f"{maildir} is no Maildir: it has no new/ folder")
            outcomes = receive_maildir(server, maildir)
            typer.echo(f"{len(outcomes)} mails handled")
        else:
            data = sys.stdin.buffer.read(server.config.limits.max_bytes + 1)
            receive_stdin(server, data)
    except (StoreBusy, sqlite3.OperationalError) as error:  # the store stayed locked, or the disk failed
        fail(busy_answer(server, error), code=EX_TEMPFAIL)
    finally:
        server.close()


@pbem.command("poll")
def poll(
    config: ConfigOption = DEFAULT_CONFIG,
    once: Annotated[bool, typer.Option("--once", help="Look once, handle what is there, and stop (from cron).")] = False,
) -> None:
    """Take the server's mail from the IMAP mailbox of [imap] (TLS or STARTTLS), each mail once, until stopped."""
    import signal
    import threading

    from spbc.pbem.imap import ImapError, open_inbox, poll_once
    from spbc.pbem.imap import poll as poll_mailbox
    from spbc.pbem.inbox import StoreBusy

    server = _server(config)
    try:
        if once:
            box = open_inbox(server.config)
            try:
                outcomes = poll_once(server, box)
            finally:
                box.close()
            typer.echo(f"{len(outcomes)} mails handled")
            return
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        poll_mailbox(server, stop)
    except ImapError as error:
        fail(str(error))
    except StoreBusy as error:
        typer.echo(f"the store cannot take mail now: {error}; the mail stays in the mailbox", err=True)
        raise typer.Exit(EX_TEMPFAIL) from None
    finally:
        server.close()


@pbem.command("serve")
def serve(config: ConfigOption = DEFAULT_CONFIG) -> None:
    """The resident receiver for an MTA: keep the server loaded and take the mails that spb pbem receive hands it.

    It listens at the configuration file's name with .sock (pbem.toml: pbem.sock), for its own user only;
    a receive from standard input with the same --config hands its mail over and exits with the answer,
    and handles the mail itself when no receiver runs. SIGTERM or SIGINT stops it after the mail in hand.
    """
    from spbc.pbem.relay import socket_path
    from spbc.pbem.resident import Receiver, ReceiverError

    server = _server(config)
    receiver = Receiver(server, socket_path(config))
    try:
        receiver.listen()
    except ReceiverError as error:
        server.close()
        fail(str(error))
    try:
        receiver.run(ready=lambda: typer.echo(f"listening at {receiver.path}"))
    finally:
        receiver.close()
        server.close()
    typer.echo(f"stopped after {receiver.handled} mails")


@pbem.command("tick")
def tick(
    config: ConfigOption = DEFAULT_CONFIG,
    now: Annotated[Optional[str], typer.Option(metavar="TIME", help="The time to act at, as 2026-12-01T12:00:00Z (default: now).")] = None,
) -> None:
    """Deadlines (from cron or a timer): a reminder before, a notice to the others after, the policy at the deadline."""
    import datetime

    at = None
    if now is not None:
        try:
            at = datetime.datetime.fromisoformat(now.replace("Z", "+00:00")).timestamp()
        except ValueError:
            fail(f"--now takes a time such as 2026-12-01T12:00:00Z, not {now!r}", code=2)
    server = _server(config, at)
    try:
        for line in server.tick():
            typer.echo(line)
    finally:
        server.close()


@pbem.command("status")
def status(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game's id.")],
    config: ConfigOption = DEFAULT_CONFIG,
) -> None:
    """A game's state of play, seats and addresses, as the operator sees them (no hands, no rubles)."""
    from spbc.pbem.server import PbemError

    server = _server(config)
    try:
        typer.echo(server.status(game))
    except PbemError as error:
        fail(str(error))
    finally:
        server.close()


@pbem.command("export")
def export(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game's id.")],
    config: ConfigOption = DEFAULT_CONFIG,
    output: Annotated[Optional[Path], typer.Option(metavar="FILE", help="Write the record to this file (default: standard output).")] = None,
    with_seed: Annotated[bool, typer.Option("--with-seed", help="Write the seed of a game not yet over (it tells every deck's order).")] = False,
) -> None:
    """The game record, as spb replay reads it (the seed withheld until the game is over)."""
    from spbc.pbem.server import PbemError
    from spbc.source.files import write_text_atomic

    server = _server(config)
    try:
        text = server.export(game, with_seed)
    except PbemError as error:
        fail(str(error))
    finally:
        server.close()
    if output is None:
        typer.echo(text, nl=False)
    else:
        try:
            write_text_atomic(output, text)
        except OSError as error:
            fail(str(error))


@pbem.command("games")
def games(config: ConfigOption = DEFAULT_CONFIG) -> None:
    """Every game of the server, one a line."""
    server = _server(config)
    try:
        for line in server.games():
            typer.echo(line)
    finally:
        server.close()


@pbem.command("ratings")
def ratings(
    config: ConfigOption = DEFAULT_CONFIG,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ratings as JSON.")] = False,
) -> None:
    """Every person's and computer level's rating per ruleset, from the finished games (Weng-Lin, openskill)."""
    import json

    from spbc.pbem.ratings import rating_lines, store_ratings

    server = _server(config)
    try:
        found = store_ratings(server.store, server.loader)
    finally:
        server.close()
    if as_json:
        typer.echo(json.dumps({"rules": {rules: [{"name": row.name, "rating": round(row.ordinal, 4),
                                                   "mu": round(row.mu, 4), "sigma": round(row.sigma, 4),
                                                   "games": row.games, "wins": row.wins} for row in rows]
                                          for rules, rows in found.by_rules.items()},
                               "left_out": found.left_out}, ensure_ascii=False, indent=2))
        return
    for line in rating_lines(found):
        typer.echo(line)


@pbem.command("admin")
def admin(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game's id.")],
    action: Annotated[list[str], typer.Argument(metavar="ACTION", help="pause, resume, abort, address SEAT ADDRESS, replace SEAT ADDRESS.")],
    config: ConfigOption = DEFAULT_CONFIG,
) -> None:
    """Administer a game: pause, resume, abort, a player's new address, a new player for a seat."""
    from spbc.pbem.server import PbemError

    server = _server(config)
    try:
        typer.echo(server.admin(game, action))
    except PbemError as error:
        fail(str(error))
    finally:
        server.close()


@pbem.command("flush")
def flush(config: ConfigOption = DEFAULT_CONFIG) -> None:
    """Send every mail still queued (after a crash, or when the SMTP server was away)."""
    server = _server(config)
    try:
        typer.echo(f"{server.flush()} mails sent")
    finally:
        server.close()


@pbem.command("outbox")
def outbox(
    config: ConfigOption = DEFAULT_CONFIG,
    failed: Annotated[bool, typer.Option("--failed", help="Only the mails set aside (refused for good).")] = False,
    retry: Annotated[Optional[int], typer.Option(parser=integer(), metavar="N", help="Put mail N back in line and send the outbox.")] = None,
    drop: Annotated[Optional[int], typer.Option(parser=integer(), metavar="N", help="Give mail N up: it is never sent.")] = None,
) -> None:
    """The mails not yet sent and those set aside, with why; --retry N or --drop N acts on one."""
    from spbc.pbem import outbox as mails

    if retry is not None and drop is not None:
        fail("--retry or --drop, not both", code=2)
    server = _server(config)
    try:
        if retry is not None:
            typer.echo(mails.retry(server.store, retry))
            typer.echo(f"{server.flush()} mails sent")
        elif drop is not None:
            typer.echo(mails.drop(server.store, drop))
        else:
            for line in mails.listing(server.store, failed):
                typer.echo(line)
    except mails.OutboxError as error:
        fail(str(error))
    finally:
        server.close()
