"""The search's inner loops in CPU time: determinized playouts through the engine's C functions
(spbc.ai.playouts) and the search's iterations (spbc.ai.search, a fixed number of iterations a decision),
from the same mid-game states, on this install and, with --before, another one in turn.

    python benchmarks/playouts.py                                   # this install: CPU-s and rates
    python benchmarks/playouts.py --before ../before/.venv/bin/python   # both in turn: medians and ratios

Each install runs in a process of its own; the figures are CPU time (user + system of the loop, by
time.process_time), the median of --repeats runs, the installs taking turns run by run. Each line also
says whether the two installs computed the same: the playouts' scores and the search's visit counts,
which a faster engine that plays every game as before leaves unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import spbc
import spbc.ai.playouts as c_playouts
from spbc.ai.agents import SearchAgent
from spbc.ai.bench import mid_game_states
from spbc.ai.budget import Budget
from spbc.play.observe import observe


def figures(rules: str, players: int, states: int, repeats: int, iterations: int) -> dict[str, object]:
    """This install's figures at one player count: playouts (count, CPU-s, digest of their scores) and the
    search's iterations (count, CPU-s, digest of every decision's root children)."""
    ruleset = spbc.load_rules(rules, backend="compiled")
    games = mid_game_states(ruleset, players, states)
    flat = [value for game in games for value in game.state_values()]
    began = time.process_time()
    scores = c_playouts.determinized_playouts(ruleset.engine.c_api(), flat, repeats, 1)
    playout_seconds = time.process_time() - began
    searched = games[:10]
    children = []
    began = time.process_time()
    for i, game in enumerate(searched):
        decision = SearchAgent("hard", 1 + i, Budget(iterations=iterations)).decide(observe(game, game.current_player))
        children.append([[c.code, c.visits] for c in decision.choices])
    search_seconds = time.process_time() - began
    return {"playouts": len(games) * repeats, "playout_seconds": playout_seconds,
            "playout_digest": hashlib.sha256(json.dumps(scores).encode()).hexdigest()[:16],
            "iterations": len(searched) * iterations, "search_seconds": search_seconds,
            "search_digest": hashlib.sha256(json.dumps(children).encode()).hexdigest()[:16]}


def _run(python: str, args: argparse.Namespace, players: int) -> dict[str, object]:
    """figures() in a process of python's install."""
    argv = [python, str(Path(__file__).resolve()), "--rules", args.rules, "--players", str(players), "--states",
            str(args.states), "--playouts", str(args.playouts), "--iterations", str(args.iterations), "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise SystemExit(f"{python} could not run {Path(__file__).name}:\n{done.stderr[-2000:]}")
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _median(runs: list[dict[str, object]], key: str) -> float:
    return statistics.median(float(str(run[key])) for run in runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="base")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    parser.add_argument("--states", type=int, default=1000, help="mid-game states")
    parser.add_argument("--playouts", type=int, default=20, help="playouts from each state")
    parser.add_argument("--iterations", type=int, default=5000, help="the search's iterations a decision "
                        "(from 10 of the states)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each install")
    parser.add_argument("--before", help="the python of another install, run in turn with this one")
    parser.add_argument("--json", action="store_true", help="one run at one player count, as JSON")
    args = parser.parse_args(argv)
    counts = [int(text) for text in args.players.split(",")]
    if args.json:
        print(json.dumps(figures(args.rules, counts[0], args.states, args.playouts, args.iterations)))
        return 0
    differ = 0
    for players in counts:
        after, before = [], []
        for _ in range(args.repeats):
            if args.before:
                before.append(_run(args.before, args, players))
            after.append(_run(sys.executable, args, players))
        for what, count, seconds, digest in (("playouts", "playouts", "playout_seconds", "playout_digest"),
                                             ("search iterations", "iterations", "search_seconds", "search_digest")):
            rate = float(str(after[0][count])) / max(_median(after, seconds), 1e-9)
            line = f"{args.rules} {players} players  {what:18} {rate:10,.0f} /CPU-s"
            if before:
                old = float(str(before[0][count])) / max(_median(before, seconds), 1e-9)
                same = before[0][digest] == after[0][digest]
                differ |= not same
                line += f"  before {old:10,.0f} /CPU-s  after/before {rate / old:5.2f}x  " \
                        f"results {'identical' if same else 'DIFFERENT'}"
            print(line)
    return differ


if __name__ == "__main__":
    sys.exit(main())
