"""The load of spb serve on loopback: one server process, many concurrent games, every seat a person.

    python benchmarks/web_load.py                        # 100 games of 2-4 seats, at most 3000 moves or 60 s
    python benchmarks/web_load.py --games 20 --moves 500 --seconds 30
    python benchmarks/web_load.py --rate 100             # paced: 100 moves a second over all the games

The script starts ``spb serve`` on a fresh store, creates the games through the lobby, opens every
seat's live stream, and then plays each game from its seats' pages as they arrive: the seat whose
latest frame says it is on turn posts its first legal move. It prints the moves the server accepted
per second (wall time, and per CPU-second of the server process) and the time from each move's
request to the arrival of the new board on each other seat's stream (median, 99th percentile).
Without --rate the load is a closed loop: every game moves as soon as its last move's boards arrived, so
about 100 requests wait at the server at all times and the latency is mostly that queue (the games over
the throughput). With --rate R the moves are paced: the k-th move of the run is posted no earlier than
k / R seconds after the start, whichever game has a seat on turn, so the latency is the server's own at
that offered load (while R stays below the throughput; above it the pacing falls back to the closed loop).
Bounded by --moves and --seconds. With SPB_LOAD_PROFILE=file the server runs under cProfile and writes
its statistics (of its event loop's thread) to that file when it stops. Goals (issue 24): >= 500 moves/s, p99 < 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

NUMBER = re.compile(r'data-number="(\d+)"')
MOVE = re.compile(r'name="move" value="([^"]+)"')
# The server under cProfile: the statistics written when SIGTERM ends it (uvicorn raises the signal
# again once it has shut down, to the handler that was there before it).
PROFILED = """import cProfile, runpy, signal, sys
profile = cProfile.Profile()
def stop(*_):
    profile.disable(); profile.dump_stats(path); raise SystemExit(0)
signal.signal(signal.SIGTERM, stop)
path, sys.argv = sys.argv[1], sys.argv[2:]
profile.enable()
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


@dataclass
class Seat:
    link: str  # the path of the seat's link
    number: int = -1  # the move number of its latest board
    mine: bool = False
    moves: list[str] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Load:
    host: str
    port: int
    latencies: list[float] = field(default_factory=list)
    played: int = 0
    stop_at: float = 0.0
    limit: int = 0
    gap: float = 0.0  # seconds between paced moves (0: not paced)
    next_at: float = 0.0  # the time of the next paced move

    async def paced(self) -> None:
        """Wait for the next move's slot (at once when not paced or behind)."""
        if not self.gap:
            return
        now = time.monotonic()
        slot = max(self.next_at, now)
        self.next_at = slot + self.gap
        await asyncio.sleep(slot - now)


async def _request(load: Load, method: str, path: str, body: str = "") -> tuple[int, str]:
    reader, writer = await asyncio.open_connection(load.host, load.port)
    data = body.encode()
    head = (f"{method} {path} HTTP/1.1\r\nHost: {load.host}:{load.port}\r\nAccept: application/json\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n")
    writer.write(head.encode() + data)
    answer = await reader.read()
    writer.close()
    status = int(answer.split(b" ", 2)[1])
    return status, answer.split(b"\r\n\r\n", 1)[1].decode("utf-8", "replace")


async def _stream(load: Load, seat: Seat) -> None:
    """Follow one seat's live stream: its latest board's number, whether it is on turn, its moves."""
    reader, writer = await asyncio.open_connection(load.host, load.port)
    writer.write(f"GET {seat.link}/events HTTP/1.1\r\nHost: {load.host}\r\n\r\n".encode())
    await reader.readuntil(b"\r\n\r\n")
    frame: list[str] = []
    while True:
        line = (await reader.readline()).decode("utf-8", "replace")
        if not line:
            return
        if line.startswith(("data:", "id:", "event:")) or line.strip() and not line.startswith(":"):
            frame.append(line.rstrip("\r\n"))
            continue
        text = "\n".join(frame)
        frame = []
        found = NUMBER.search(text)
        if found:
            seat.number = int(found.group(1))
            seat.mine = 'class="state mine"' in text
            seat.moves = [html.unescape(move) for move in MOVE.findall(text)]
            seat.arrived.set()


async def _play(load: Load, seats: list[Seat], rng: random.Random) -> None:
    """Play one game from its seats' streams until it ends or the load is over."""
    while time.monotonic() < load.stop_at and load.played < load.limit:
        mover = next((seat for seat in seats if seat.mine and seat.moves), None)
        if mover is None:
            waits = [asyncio.ensure_future(seat.arrived.wait()) for seat in seats]
            done, pending = await asyncio.wait(waits, timeout=5, return_when=asyncio.FIRST_COMPLETED)
            for task in pending:
                task.cancel()
            for seat in seats:
                seat.arrived.clear()
            if not done:
                return  # the game is over (no seat on turn any more)
            continue
        await load.paced()
        number, move = mover.number, rng.choice(mover.moves)
        others = [seat for seat in seats if seat is not mover]
        started = time.perf_counter()
        mover.mine = False
        status, _ = await _request(load, "POST", mover.link + "/move",
                                   f"n={number}&move={urllib.parse.quote(move)}")
        if status != 200:
            raise RuntimeError(f"move refused: {status}")
        load.played += 1
        for seat in others:
            while seat.number <= number:
                seat.arrived.clear()
                await seat.arrived.wait()
            load.latencies.append(time.perf_counter() - started)


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _peak_mib(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MiB."""
    line = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


async def _run(args: argparse.Namespace, port: int, pid: int) -> None:
    load = Load("127.0.0.1", port, limit=args.moves, gap=1 / args.rate if args.rate else 0.0)
    rng = random.Random(args.seed)
    games = []
    for number in range(args.games):
        people = ",".join(f"P{index}" for index in range(rng.choice((2, 3, 4))))
        status, page = await _request(load, "POST", "/games", f"rules=base&seats={people}")
        assert status == 200, page[:200]
        links = [urllib.parse.urlsplit(url).path for url in re.findall(r"<code>([^<]+)</code>", page)]
        games.append([Seat(link) for link in links[1:]])  # the first is the spectators'
    streams = [asyncio.ensure_future(_stream(load, seat)) for seats in games for seat in seats]
    # the clock starts once every seat's stream has brought its first board (the server draws them all as
    # the streams open: that burst is the load's start, not a move's time)
    while any(seat.number < 0 for seats in games for seat in seats):
        await asyncio.wait([asyncio.ensure_future(seat.arrived.wait())
                            for seats in games for seat in seats if seat.number < 0])
    cpu, wall = _cpu(pid), time.perf_counter()
    load.next_at = time.monotonic()  # the first paced move's slot
    load.stop_at = load.next_at + args.seconds
    await asyncio.gather(*(_play(load, seats, random.Random(rng.random())) for seats in games))
    cpu, wall = _cpu(pid) - cpu, time.perf_counter() - wall
    for stream in streams:
        stream.cancel()
    latencies = sorted(load.latencies)

    def quantile(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000 if latencies else float("nan")
    paced = f", paced at {args.rate:g} moves/s" if args.rate else ", closed loop"
    print(f"{args.games} games{paced}, {load.played} moves in {wall:.1f} s: {load.played / wall:.0f} moves/s "
          f"(goal >= 500); the server used {cpu:.1f} CPU-s, {load.played / max(cpu, 1e-9):.0f} moves per CPU-s")
    print(f"move to the other seats' update, {len(latencies)} updates: median "
          f"{statistics.median(latencies) * 1000:.1f} ms, p90 {quantile(0.9):.1f} ms, p99 {quantile(0.99):.1f} ms "
          f"(goal < 50 ms), the slowest {quantile(1.0):.1f} ms; the server's peak resident memory "
          f"{_peak_mib(pid):.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.0, help="moves a second over all games (0: closed loop)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        start = ["-c", PROFILED, os.environ["SPB_LOAD_PROFILE"]] if os.environ.get("SPB_LOAD_PROFILE") else ["-m"]
        server = subprocess.Popen([sys.executable, *start, "spbc.frontends.cli", "serve", "--port", "0", "--store",
                                   str(Path(folder) / "load.sqlite")], stderr=subprocess.PIPE, text=True)
        try:
            assert server.stderr is not None
            origin = next(line.split()[2] for line in server.stderr if line.startswith("serving on "))
            asyncio.run(_run(args, int(origin.rsplit(":", 1)[1]), server.pid))
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
