"""The costs a user feels at the command line, measured as CPU time (user + system) and max RSS of whole
processes: ``import spbc``, ``spb --version``, ``spb variants``, the fixed cost of ``spb balance`` (a run of
10 games, with and without the HTML page), ``spb pbem receive`` of one mail through a pipe (a move, a bad
secret, a status request; without and with a resident receiver: benchmarks/mail_costs.py), the memory of
``spb sim`` as its games grow, and ``spb sim``'s games per CPU-second with random, easy and medium seats
(its games alone, in process: benchmarks/sim_costs.py).

    python benchmarks/costs.py                                  # this install: each figure and its target
    python benchmarks/costs.py --before ../main/.venv/bin/python    # and another install's, in alternation
    python benchmarks/costs.py --variants banquet,new_society       # and variant engines against base's
    python benchmarks/costs.py --only-sim-speed --before ../main/.venv/bin/python   # sim's games a CPU-second
    python benchmarks/costs.py --only pbem,variants --no-balance    # only the figures named so

Every figure is the median of --repeats runs (the run's first process keeps the checked models that the
others find, in a cache folder of the run's own; "nothing kept yet" runs each process with an empty one);
with --before, the two installs run in turn, run by run, so a machine that gets busier mid-way weighs on
both alike, and each ratio is before / after. A shared machine makes single timings meaningless: read the
medians and the ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import mail_costs
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
    #: for a piped mail: the working folder and the standard input of run k of an install ("after", "before")
    pipe: Callable[[str, int], tuple[Path, Path]] | None = None
    resident: bool = False  # a resident receiver of this install takes the mails (its CPU is told too)
    cold: bool = False  # each run with an empty cache folder of its own (no engine built, no model kept)


def _mail_figures(folder: Path, pythons: dict[str, str], repeats: int) -> list[Figure]:
    """spb pbem receive of each kind of mail, each run on a fresh copy of a store of the install's making;
    and of a move mail handed to a resident receiver (this install's), run k moving in game k."""
    for who, python in pythons.items():
        mail_costs.make_store(_spb, python, folder / who, repeats)

    def fresh(kind: str) -> Callable[[str, int], tuple[Path, Path]]:
        def pipe(who: str, _: int) -> tuple[Path, Path]:
            work = mail_costs.fresh_copy(folder / who, folder / f"work-{who}")
            return work, work / "mails" / f"{kind}-g0.eml"
        return pipe

    resident = mail_costs.fresh_copy(folder / "after", folder / "resident")

    def handed(who: str, run: int) -> tuple[Path, Path]:
        return resident, resident / "mails" / f"move-g{run}.eml"

    receive = _spb("pbem", "receive")
    return [*(Figure(f"spb pbem receive, a {kind} mail", receive, 0.15, pipe=fresh(kind))
              for kind in mail_costs.KINDS),
            Figure("spb pbem receive, a move, to spb pbem serve", receive, 0.15, after_only=True, pipe=handed,
                   resident=True)]


def _figures(out: Path, sim_games: list[int], balance: bool) -> list[Figure]:
    figures = [Figure("import spbc", ["-P", "-c", "import spbc"], 0.080),
               Figure("spb --version", _spb("--version"), 0.060),
               Figure("spb variants", _spb("variants"), 0.200),
               Figure("spb variants, nothing kept yet", _spb("variants"), None, cold=True)]
    if balance:
        games = ["balance", "base", "--games", "10", "--jobs", "1", "--out", str(out)]
        figures += [Figure("spb balance, 10 games, HTML page", _spb(*games), 1.5),
                    Figure("spb balance, 10 games, --no-html", _spb(*games, "--no-html"), 0.5, after_only=True)]
    figures += [Figure(f"spb sim, {n} random games", _spb("sim", "--games", str(n), "--seats", "random,random"),
                       None) for n in sim_games]
    return figures


def run(python: str, args: list[str], folder: Path | None = None, stdin: Path | None = None,
        cache: Path | None = None) -> tuple[float, int]:
    """CPU seconds (user + system) and max RSS in KiB of one process, its output discarded (in folder, reading
    the file stdin, with the cache folder cache, where given)."""
    environment = {**os.environ, **({"SPBC_CACHE_DIR": str(cache)} if cache is not None else {})}
    with open(stdin or os.devnull, "rb") as given:
        child = subprocess.Popen([python, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 cwd=folder, stdin=given, env=environment)
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
    parser.add_argument("--only", default="", help="only the figures whose names hold one of these comma "
                        "separated words, e.g. pbem,variants")
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
        os.environ["SPBC_CACHE_DIR"] = str(Path(folder) / "cache")  # kept models of the run's own, not the user's
        rss: dict[str, list[int]] = {who: [] for who in pythons}
        words = [word for word in options.only.split(",") if word]

        def wanted(name: str) -> bool:
            return not words or any(word in name for word in words)

        figures = _figures(Path(folder) / "balance", sim_games, not options.no_balance)
        sims = [figure for figure in figures if figure.name.startswith("spb sim")]
        mails = _mail_figures(Path(folder) / "pbem", pythons, options.repeats) if wanted("spb pbem receive") else []
        for figure in [f for f in figures if f not in sims] + mails + sims:
            if not wanted(figure.name):
                continue
            _report(figure, _measure(figure, pythons, 1 if figure.name.startswith("spb sim") else options.repeats),
                    rss)
        for who, sizes in rss.items():
            if len(sizes) > 1:
                print(f"{who}: spb sim max RSS, {sim_games[-1]} games over {sim_games[0]}: "
                      f"{sizes[-1] / sizes[0]:.3f} x (flat: within 1.10 x)")
    if wanted("spb sim games per CPU-second"):
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


def _measure(figure: Figure, pythons: dict[str, str], repeats: int) -> dict[str, list[tuple[float, int]]]:
    """CPU seconds and max RSS of each run of a figure, the installs in turn, run by run."""
    samples: dict[str, list[tuple[float, int]]] = {who: [] for who in pythons}
    residents = {who: mail_costs.Resident(_spb, pythons[who], figure.pipe(who, 0)[0])
                 for who in ("after",) if figure.resident and figure.pipe is not None}
    try:
        for index in range(repeats):
            for who, python in pythons.items():
                if who == "after" or not figure.after_only:
                    folder, stdin = figure.pipe(who, index) if figure.pipe is not None else (None, None)
                    cache = Path(tempfile.mkdtemp(prefix="cold-cache-")) if figure.cold else None
                    samples[who].append(run(python, figure.args, folder, stdin, cache))
                    if cache is not None:
                        shutil.rmtree(cache, ignore_errors=True)
    finally:
        for who, resident in residents.items():
            print(f"  (the resident receiver used {resident.used() / repeats:.3f} CPU-s a mail besides)", flush=True)
            resident.stop()
    return samples


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
