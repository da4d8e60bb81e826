"""How many mails a second `spb pbem receive --maildir` handles with the SQLite store.

    python tests/pbem_speed.py --mails 1000 [--games 10] [--playing N] [--synchronous FULL|NORMAL]
                               [--outbox maildir|smtp] [--folder DIR]

Sets up a server with --games games of three people and a computer, works out --mails moves by mail on a
copy of it (each mail one legal move of the player on turn, the games taken in turn), puts those mails
into a Maildir, and times one `spb pbem receive --maildir` process over them (the process's start and the
loading of the rules included). Prints the mails, the seconds and the mails per second, and the CPU time the
process used (on a busy machine the wall-clock figure says more about the other processes).

The replies go where the server's configuration sends them: into the outbox Maildir (``--outbox maildir``, the
default configuration, a new file for each mail), or by SMTP (``--outbox smtp``) to a server on loopback that
this script runs (aiosmtpd, in a thread of this process, which takes every mail and keeps none): a host's
setup with a mail server beside it. A new file costs this machine's disk some hundreds of microseconds.
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pbem_mail import make_server, mail, outbox, secret_of  # noqa: E402
from spbc.pbem.server import NewGame, SeatSpec  # noqa: E402


def prepare(folder: Path, games: int, mails: int, synchronous: str, playing: int | None = None) -> Path:
    """The server folder and a Maildir of mails for it (for the first ``playing`` games, all when None; the
    others only fill the store); returns the Maildir."""
    server_dir = folder / "server"
    server_dir.mkdir(parents=True)
    extra = f'synchronous = "{synchronous}"\n'
    server = make_server(server_dir, extra)
    people = []
    for index in range(games):
        addresses = [f"p{index}-{n}@x.test" for n in range(3)]
        server.new_game(NewGame([SeatSpec(f"P{n}", a) for n, a in enumerate(addresses)] + [SeatSpec("ai:random")],
                                seed=1000 + index, game_id=f"b{index}"))
        people.append(addresses)
    server.close()
    sent = outbox(server_dir)
    secrets = {a: secret_of(sent, a) for addresses in people for a in addresses}
    work = folder / "work"
    shutil.copytree(server_dir, work)
    copy = make_server(work, 'synchronous = "NORMAL"\n')
    inbox = folder / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    rng = random.Random(1)
    made = 0
    open_games = list(range(games if playing is None else playing))
    while made < mails and open_games:
        for index in list(open_games):
            context = copy.sitting(f"b{index}")
            if context.game.is_over:
                open_games.remove(index)
                continue
            seat = context.game.current_player
            address = people[index][seat]
            moves = context.legal(context.game.current_player)
            data = mail(address, [f"game b{index}", f"secret {secrets[address]}", f"move {context.moves + 1}",
                                  rng.choice(moves)[0]])
            copy.handle(data)
            (inbox / "new" / f"{made:06d}.mail").write_bytes(data)
            made += 1
            if made == mails:
                break
    copy.close()
    return inbox


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL")
    parser.add_argument("--outbox", choices=["maildir", "smtp"], default="maildir")
    parser.add_argument("--folder", type=Path, default=None)
    parser.add_argument("--playing", type=int, default=None, help="the mails go to this many of the games "
                        "(the others only fill the store); all by default")
    options = parser.parse_args()
    folder = options.folder or Path(tempfile.mkdtemp(prefix="pbem-speed-"))
    inbox = prepare(folder, options.games, options.mails, options.synchronous, options.playing)
    count = len(list((inbox / "new").iterdir()))
    sink = None
    if options.outbox == "smtp":
        sink = smtp_sink()
        with open(folder / "server" / "pbem.toml", "a", encoding="utf-8") as config:
            config.write(f'\n[mail]\ntransport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {sink.port}\n')
    command = [sys.executable, "-P", "-m", "spbc.frontends.cli", "pbem", "receive", "--maildir", str(inbox),
               "--config", str(folder / "server" / "pbem.toml")]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if sink is not None:
        sink.stop()
    if done.returncode != 0:
        sys.exit(done.stderr.decode())
    handled = done.stderr.decode().count(" moves applied")
    print(f"{count} mails ({handled} with a move applied) in {seconds:.2f} s: {count / seconds:.0f} mails/s "
          f"(synchronous {options.synchronous}, outbox {options.outbox}); the process used {cpu:.2f} s of CPU: "
          f"{count / cpu:.0f} mails per CPU second"
          + ("" if sink is None else f"; {sink.handler.taken} replies taken by SMTP"))


class _Sink:
    """An SMTP server's handler that takes every mail and counts them."""

    def __init__(self) -> None:
        self.taken = 0

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 (aiosmtpd's name)
        self.taken += 1
        return "250 OK"


def smtp_sink():
    """A running aiosmtpd Controller on a free loopback port, its handler a _Sink."""
    import socket

    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(_Sink(), hostname="127.0.0.1", port=port)
    controller.start()
    return controller


if __name__ == "__main__":
    main()
