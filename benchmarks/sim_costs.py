"""spb sim's games per CPU-second, by seat list, in the process that plays them (the start of the command is
benchmarks/costs.py's own figure): each install in turn, sample by sample, the medians and the ratio. Run by
benchmarks/costs.py (``--only-sim-speed`` for these alone).
"""

from __future__ import annotations

import statistics
import subprocess

#: spb sim's games, measured in the process that plays them: games of SEATS (argv 1) from seed 1 on, through
#: play_games and summarize as the command runs them (argv 3 "api": game by game through the Game API,
#: spbc.ai.sim.play_game, the path of records and of the search levels), in batches until SECONDS (argv 2) of
#: CPU time have gone; prints the games and their CPU seconds (the rules' loading and a first game left out).
_SIM_SPEED = """
import sys, time
from spbc.ai.sim import play_game, play_games, rotated, summarize
from spbc.play.game import load_rules
ruleset, seats, budget = load_rules("base", "compiled"), sys.argv[1].split(","), float(sys.argv[2])
batch = 2 if any(level.startswith(("medium", "hard")) for level in seats) else 200

def played(games, seed):
    if sys.argv[3] != "api":
        return play_games(ruleset, seats, games, seed)
    return (play_game(ruleset, rotated(seats, i), seed + i)[1] for i in range(games))

summarize(played(1, 0))
games, began = 0, time.process_time()
while time.process_time() - began < budget:
    summarize(played(batch, 1 + games))
    games += batch
print(games, time.process_time() - began)
"""
#: The seats whose games per CPU-second are compared, the CPU seconds each sample plays, and the path: as spb sim
#: runs them, or through the Game API (medium@20it: a search small enough for the per-move plumbing to show).
SIM_SPEEDS = (("random,random", 1.0, "sim"), ("easy,easy", 1.0, "sim"), ("easy,easy", 1.0, "api"),
              ("medium,medium", 3.0, "sim"), ("medium@20it,medium@20it", 2.0, "sim"))


def report(pythons: dict[str, str], repeats: int) -> None:
    """spb sim's games per CPU-second by seat list, each install in turn, sample by sample; the medians and
    the ratio after / before (above 1: faster)."""
    for seats, budget, path in SIM_SPEEDS:
        rates: dict[str, list[float]] = {who: [] for who in pythons}
        for _ in range(repeats):
            for who, python in pythons.items():
                done = subprocess.run([python, "-P", "-c", _SIM_SPEED, seats, str(budget), path],
                                      capture_output=True, text=True, check=True)
                games, cpu = done.stdout.split()
                rates[who].append(int(games) / float(cpu))
        medians = {who: statistics.median(samples) for who, samples in rates.items()}
        name = f"{seats}{', Game API' if path == 'api' else ''}"
        line = f"spb sim {name:<28}" + "".join(f"  {who} {rate:10,.1f} games/CPU-s" for who, rate in medians.items())
        if "before" in medians:
            line += f"  after/before {medians['after'] / medians['before']:.2f} x"
        print(line, flush=True)
