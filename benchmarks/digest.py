"""Whether an engine still plays every seeded game as before: a digest of each of many seeded games (its move
codes, the round it ended in, every seat's final score and tie-break), one combined digest per player count.

    python benchmarks/digest.py                               # 20,000 random games at 2, 3 and 4 players
    python benchmarks/digest.py --save before.json            # ... and keep the digests (those of the
                                                              # one-way agent seeds: digests-agentseeds-RULES.json)
    python benchmarks/digest.py --compare before.json         # ... and compare them: exit 1 on any difference
    ../before/.venv/bin/python benchmarks/digest.py --save before.json   # the same games on another install
    python benchmarks/digest.py --before ../before/.venv/bin/python        # both installs in turn: CPU ratios

The games are played in C through the compiled engine's C functions (benchmarks/digestloop.pyx, built here
on first use against the engine_api.pxd of the install that runs this script, into a cache folder of that
install, with the agents' seeds of this checkout's spbc/ai/seeds.pxi, so that every install plays the same
games), as spbc.ai.sim.play_game plays them: random seats each drawing from its own generator, and a few
hundred games of easy seats. Each line says how many games, how long they took in CPU time, and the digest:
the SHA-256 of the games' digests in seed order. A saved file also keeps a digest per block of BLOCK games,
so a difference is narrowed to a block (run that block alone with --seed and --games to find the game).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import spbc
from spbc.ai.agents import EASY_NOISE

HERE = Path(__file__).resolve().parent
LOOP = HERE / "digestloop.pyx"
#: The agents' seeds in C, from this checkout (not the install's): the same games on any install.
SEEDS = HERE.parent / "spbc" / "ai" / "seeds.pxi"
BLOCK = 1000

_BUILD = """
import sys
from setuptools import Distribution, Extension
from Cython.Build import cythonize
ext = cythonize([Extension("digestloop", ["digestloop.pyx"], extra_compile_args=["-O2"])],
                language_level=3, quiet=True, include_path=[sys.argv[1]])
dist = Distribution({"ext_modules": ext, "script_args": ["build_ext", "--inplace", "--build-temp", "tmp"]})
dist.parse_command_line()
dist.run_commands()
"""


def _package_root() -> Path:
    """The folder holding this install's spbc package (where Cython finds spbc/contract/engine_api.pxd)."""
    return Path(spbc.__file__).resolve().parent.parent


def build_loop() -> ModuleType:
    """The digest loop built against this install's engine contract, from a cache folder of its own."""
    root = _package_root()
    contract = (root / "spbc" / "contract" / "engine_api.pxd").read_bytes()
    key = hashlib.sha256(LOOP.read_bytes() + SEEDS.read_bytes() + contract + str(root).encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"spbc-digest-{os.getuid()}" / key
    built = sorted(folder.glob("digestloop*.so")) if folder.is_dir() else []
    if not built:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as private:
            shutil.copy(LOOP, private)
            shutil.copy(SEEDS, private)
            done = subprocess.run([sys.executable, "-c", _BUILD, str(root)], cwd=private, capture_output=True,
                                  text=True, check=False)
            made = sorted(Path(private).glob("digestloop*.so"))
            if done.returncode != 0 or not made:
                raise SystemExit(f"could not build {LOOP.name}:\n{(done.stderr or done.stdout)[-2000:]}")
            os.replace(made[0], folder / made[0].name)
        built = sorted(folder.glob("digestloop*.so"))
    spec = importlib.util.spec_from_file_location("digestloop", built[0])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(loop: ModuleType, capsule: object, players: int, games: int, seed: int, easy: bool) -> dict[str, object]:
    """One line's figures: the games' combined digest, its digest per block, the CPU seconds they took."""
    began = time.process_time()
    digests: list[int] = loop.game_digests(capsule, players, seed, games, easy, EASY_NOISE)
    took = time.process_time() - began
    stuck = [seed + i for i, value in enumerate(digests) if value == 0]
    if stuck:
        raise SystemExit(f"the games of seeds {stuck[:5]} did not end within the engine's bound")
    blocks = [hashlib.sha256(b"".join(d.to_bytes(8, "little") for d in digests[i:i + BLOCK])).hexdigest()[:16]
              for i in range(0, len(digests), BLOCK)]
    whole = hashlib.sha256(b"".join(d.to_bytes(8, "little") for d in digests)).hexdigest()
    return {"games": games, "seed": seed, "digest": whole, "blocks": blocks, "cpu_seconds": took}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="base")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=20_000, help="random games per player count")
    parser.add_argument("--easy-games", type=int, default=300, help="easy-seat games per player count")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--save", type=Path, help="write the digests to this JSON file")
    parser.add_argument("--compare", type=Path, help="compare with the digests of this JSON file")
    parser.add_argument("--before", help="the python of another install: play the same games on it, in turn")
    parser.add_argument("--repeats", type=int, default=5, help="with --before: runs of each install")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    if args.before:
        return _against(args, argv if argv is not None else sys.argv[1:])
    lines = _lines(args)
    if args.json:
        print(json.dumps(lines))
        return 0
    for name, line in lines.items():
        print(f"{name:28} {line['games']:6} games {line['cpu_seconds']:7.2f} CPU-s  {line['digest']}")
    if args.save:
        args.save.write_text(json.dumps(lines, indent=1, sort_keys=True) + "\n")
    if args.compare:
        return _compare(lines, json.loads(args.compare.read_text()))
    return 0


def _lines(args: argparse.Namespace) -> dict[str, dict[str, object]]:
    """Every line's figures, by its name: the random games and the easy ones at each player count."""
    capsule = spbc.load_rules(args.rules, backend="compiled").engine.c_api()
    loop = build_loop()
    lines: dict[str, dict[str, object]] = {}
    for players in (int(text) for text in args.players.split(",")):
        for level, games in (("random", args.games), ("easy", args.easy_games)):
            if games > 0:
                lines[f"{args.rules} {players} players {level}"] = run(loop, capsule, players, games, args.seed,
                                                                       level == "easy")
    return lines


def _figures_of(python: str, argv: list[str]) -> dict[str, dict[str, object]]:
    """The lines of this script run by another install's python (its own spbc and engines)."""
    done = subprocess.run([python, str(Path(__file__).resolve()), *argv, "--json"], capture_output=True,
                          text=True, check=False, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise SystemExit(f"{python} could not run {Path(__file__).name}:\n{done.stderr[-2000:]}")
    figures: dict[str, dict[str, object]] = json.loads(done.stdout)
    return figures


def _against(args: argparse.Namespace, argv: list[str]) -> int:
    """Run both installs in turn, --repeats times each, and print per line the medians of their CPU
    seconds, the ratio (before / this one: games per CPU-second of this install over the other's) and
    whether the digests agree; 1 if any differs."""
    own = [arg for i, arg in enumerate(argv) if arg != "--before" and (i == 0 or argv[i - 1] != "--before")
           and not arg.startswith("--before=")]
    before: list[dict[str, dict[str, object]]] = []
    after: list[dict[str, dict[str, object]]] = []
    for _ in range(args.repeats):
        before.append(_figures_of(args.before, own))
        after.append(_figures_of(sys.executable, own))
    differ = 0
    for name in after[0]:
        old = statistics.median(float(str(run[name]["cpu_seconds"])) for run in before)
        new = statistics.median(float(str(run[name]["cpu_seconds"])) for run in after)
        same = before[0][name]["digest"] == after[0][name]["digest"]
        differ |= not same
        print(f"{name:28} {after[0][name]['games']:6} games  CPU-s before {old:6.3f}  after {new:6.3f}  "
              f"games/CPU-s after/before {old / max(new, 1e-9):5.2f}x  digests {'identical' if same else 'DIFFERENT'}")
    return differ


def _compare(lines: dict[str, dict[str, object]], saved: dict[str, dict[str, object]]) -> int:
    """Print each line's agreement with the saved digests (and its CPU time's ratio); 1 if any differs."""
    differ = 0
    for name, line in lines.items():
        old = saved.get(name)
        if old is None or (old["games"], old["seed"]) != (line["games"], line["seed"]):
            print(f"{name:28} not in the saved file with the same games")
            differ = 1
            continue
        same = old["digest"] == line["digest"]
        first = next((i for i, (a, b) in enumerate(zip(old["blocks"], line["blocks"])) if a != b), None)
        ratio = float(old["cpu_seconds"]) / max(float(line["cpu_seconds"]), 1e-9)
        where = "" if same or first is None else f", first in the games of block {first} ({BLOCK} a block)"
        print(f"{name:28} {'identical' if same else 'DIFFERENT' + where}  (saved run's CPU time / this one's:"
              f" {ratio:.2f}x)")
        differ |= not same
    return differ


if __name__ == "__main__":
    sys.exit(main())
