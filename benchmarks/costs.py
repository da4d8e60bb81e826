"""The costs a user feels at the command line, measured as CPU time (user + system) and max RSS of whole
processes: ``import spbc``, ``spb --version``, ``spb variants``, the fixed cost of ``spb balance`` (a run of
10 games, with and without the HTML page), the memory of ``spb sim`` as its games grow, and ``spb sim``'s games
per CPU-second with random, easy and medium seats (its games alone, in process: benchmarks/sim_costs.py).

    python benchmarks/costs.py                                  # this install: each figure and its target
    python benchmarks/costs.py --before ../main/.venv/bin/python    # and another install's, in alternation
    python benchmarks/costs.py --variants banquet,new_society       # and variant engines against base's
    python benchmarks/costs.py --only-sim-speed --before ../main/.venv/bin/python   # sim's games a CPU-second

Every figure is the median of --repeats runs; with --before, the two installs run in turn, run by run, so a
machine that gets busier mid-way weighs on both alike, and each ratio is before / after. A shared machine
makes single timings meaningless: read the medians and the ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import sim_costs


def _spb(*args: str) -> list[str]:
    """The argv of ``spb ARGS`` as its console script runs it (the entry point, not python -m)."""
    return ["-P", "-c", f"import sys; sys.argv = ['spb', *{list(args)!r}]\n"
            "from spbc.frontends.cli import main\nmain()"]


@dataclass(frozen=True)
class Figure:
    name: str
    args: list[str]
    target: float | None  # CPU seconds, or None
    after_only: bool = False  # an option the other install may not have


def _figures(out: Path, sim_games: list[int], balance: bool) -> list[Figure]:
    figures = [Figure("import spbc", ["-P", "-c", "import spbc"], 0.080),
               Figure("spb --version", _spb("--version"), 0.060),
               Figure("spb variants", _spb("variants"), 0.200)]
    if balance:
        games = ["balance", "base", "--games", "10", "--jobs", "1", "--out", str(out)]
        figures += [Figure("spb balance, 10 games, HTML page", _spb(*games), 1.5),
                    Figure("spb balance, 10 games, --no-html", _spb(*games, "--no-html"), 0.5, after_only=True)]
    figures += [Figure(f"spb sim, {n} random games", _spb("sim", "--games", str(n), "--seats", "random,random"),
                       None) for n in sim_games]
    return figures


def run(python: str, args: list[str]) -> tuple[float, int]:
    """CPU seconds (user + system) and max RSS in KiB of one process, its output discarded."""
    child = subprocess.Popen([python, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{python} {' '.join(args)} exited with {child.returncode}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable, help="the install measured (its python)")
    parser.add_argument("--before", help="another install's python, measured in turn with the first")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sim-games", default="1000,100000", help="spb sim runs whose max RSS is compared")
    parser.add_argument("--no-balance", action="store_true", help="leave out spb balance (needs the lab extra)")
    parser.add_argument("--only-sim-speed", action="store_true", help="only spb sim's games per CPU-second")
    parser.add_argument("--variants", default="", help="variants whose engine's instructions a move are compared "
                        "with base's under callgrind, e.g. banquet,new_society (in this install only)")
    options = parser.parse_args()
    pythons = {"after": options.python, **({"before": options.before} if options.before else {})}
    sim_games = [int(n) for n in options.sim_games.split(",") if n]
    if options.only_sim_speed:
        sim_costs.report(pythons, options.repeats)
        return
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        rss: dict[str, list[int]] = {who: [] for who in pythons}
        for figure in _figures(Path(folder) / "balance", sim_games, not options.no_balance):
            repeats = 1 if figure.name.startswith("spb sim") else options.repeats
            samples: dict[str, list[tuple[float, int]]] = {who: [] for who in pythons}
            for _ in range(repeats):
                for who, python in pythons.items():
                    if who == "after" or not figure.after_only:
                        samples[who].append(run(python, figure.args))
            _report(figure, samples, rss)
        for who, sizes in rss.items():
            if len(sizes) > 1:
                print(f"{who}: spb sim max RSS, {sim_games[-1]} games over {sim_games[0]}: "
                      f"{sizes[-1] / sizes[0]:.3f} x (flat: within 1.10 x)")
    sim_costs.report(pythons, options.repeats)
    if options.variants:  # last: importing the benchmark here would weigh on the max RSS of every process after
        _variant_instructions([v for v in options.variants.split(",") if v])


def _variant_instructions(variants: list[str], players: int = 2, games: int = 300) -> None:
    """Each variant's instructions a move of random games against base's, counted by callgrind."""
    from spbc.ai.bench import instructions_per_game

    base = instructions_per_game("base", players, games)
    print(f"base: {base.instructions / base.moves:.1f} instructions a move ({games} games, {players} players)")
    for variant in variants:
        found = instructions_per_game(variant, players, games)
        per_move = found.instructions / found.moves
        print(f"{variant}: {per_move:.1f} instructions a move, {per_move / (base.instructions / base.moves):.2f} x "
              "base's (target: within 1.15 x)", flush=True)


def _report(figure: Figure, samples: dict[str, list[tuple[float, int]]], rss: dict[str, list[int]]) -> None:
    medians = {who: statistics.median(cpu for cpu, _ in runs) for who, runs in samples.items() if runs}
    sizes = {who: max(size for _, size in runs) for who, runs in samples.items() if runs}
    line = f"{figure.name:<36}" + "".join(f"  {who} {cpu:6.3f} CPU-s {sizes[who] / 1024:6.1f} MiB"
                                          for who, cpu in medians.items())
    if figure.target is not None:
        line += f"  target <= {figure.target:g} CPU-s: {'met' if medians['after'] <= figure.target else 'NOT met'}"
    if "before" in medians and medians["after"] > 0:
        line += f"  before/after {medians['before'] / medians['after']:.2f} x"
    if figure.name.startswith("spb sim"):
        for who, size in sizes.items():
            rss[who].append(size)
    print(line, flush=True)


if __name__ == "__main__":
    main()
