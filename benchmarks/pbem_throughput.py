"""Mails a second of ``spb pbem receive --maildir`` and its CPU time a mail, this install against another (the
"before"), at ``synchronous`` FULL and NORMAL, with few and many games in the store.

    python benchmarks/pbem_throughput.py --before /work/base23/.venv/bin/python
    python benchmarks/pbem_throughput.py --before OTHER/.venv/bin/python --before-path OTHER
    python benchmarks/pbem_throughput.py --games 1,1000 --playing 1 --mails 190 --synchronous FULL,NORMAL

For each number of games and install a server folder and a Maildir are made once, by that install (its
store is of its own version; tests/pbem_speed.py's ``prepare``:
``--playing`` of the games get the mails, each a legal move of the player on turn; the others only fill the
store). Each run copies them and times one ``receive --maildir`` process over every mail, and one over the
first ``--warm`` mails alone; the CPU a mail is the difference of the two runs' CPU time (user + system) over
the difference of their mails, so that neither the process's start nor the loading of the rules is in it.
The installs run in turn, repeat by repeat, so a machine that gets busier weighs on both alike; every figure
is the median of ``--repeats`` runs, and each ratio is after / before for mails a second and before / after
for CPU a mail (above 1: this install is faster). ``--before-path`` is the PYTHONPATH of the before's runs
(a checkout whose code it should run); the after's runs keep this process's environment.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: tests/pbem_speed.py's ``prepare`` makes each install's server folder and mails, run by that install.
TESTS = Path(__file__).resolve().parent.parent / "tests"


#: The environment of each install's processes, by the install's name (set in main from --before-path).
ENVIRONMENTS: dict[str, dict[str, str]] = {}


def run_once(python: str, work: Path, source: Path, synchronous: str, mails: int,
             env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one receive process over the first mails of a fresh copy of source."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(source / "server", work / "server")
    config = work / "server" / "pbem.toml"
    config.write_text(config.read_text().replace('synchronous = "FULL"', f'synchronous = "{synchronous}"'))
    for sub in ("new", "cur", "tmp"):
        (work / "inbox" / sub).mkdir(parents=True)
    for name in sorted(os.listdir(source / "inbox" / "new"))[:mails]:
        shutil.copy(source / "inbox" / "new" / name, work / "inbox" / "new" / name)
    command = [python, "-P", "-m", "spbc.frontends.cli", "pbem", "receive", "--maildir", str(work / "inbox"),
               "--config", str(config)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=env)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or os.listdir(work / "inbox" / "new"):
        sys.exit(f"{python}: {done.stderr.decode()[-2000:]}")
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def prepared(python: str, source: Path, games: int, mails: int, playing: int,
             env: dict[str, str] | None = None) -> Path:
    """The server folder and Maildir of an install, made by that install (its store is of its own version)."""
    if not source.exists():
        script = (f"import sys\nsys.path.insert(0, {str(TESTS)!r})\nfrom pathlib import Path\n"
                  f"from pbem_speed import prepare\nprepare(Path({str(source)!r}), {games}, {mails}, 'FULL', {playing})\n")
        done = subprocess.run([python, "-P", "-c", script], capture_output=True, env=env)
        if done.returncode != 0:
            sys.exit(f"{python}: {done.stderr.decode()[-2000:]}")
    return source


def measure(installs: dict[str, str], sources: dict[str, Path], synchronous: str, repeats: int, warm: int,
            scratch: Path) -> dict[str, tuple[float, float, float]]:
    """For each install: the medians of (mails a second, CPU seconds of the whole run, CPU ms a mail)."""
    count = len(os.listdir(sources["after"] / "inbox" / "new"))
    rates: dict[str, list[float]] = {name: [] for name in installs}
    cpus: dict[str, list[float]] = {name: [] for name in installs}
    per_mail: dict[str, list[float]] = {name: [] for name in installs}
    for _ in range(repeats):
        for name, python in installs.items():
            env = ENVIRONMENTS.get(name)
            seconds, cpu = run_once(python, scratch / name, sources[name], synchronous, count, env)
            _, warm_cpu = run_once(python, scratch / name, sources[name], synchronous, warm, env)
            rates[name].append(count / seconds)
            cpus[name].append(cpu)
            per_mail[name].append((cpu - warm_cpu) / (count - warm) * 1000)
    return {name: (statistics.median(rates[name]), statistics.median(cpus[name]), statistics.median(per_mail[name]))
            for name in installs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=None, help="the python of the install to compare with")
    parser.add_argument("--before-path", default=None, help="the PYTHONPATH of the before's processes")
    parser.add_argument("--mails", type=int, default=190)
    parser.add_argument("--games", default="1,1000", help="games in the store, a run of each")
    parser.add_argument("--playing", type=int, default=1, help="games that get the mails (at most --games)")
    parser.add_argument("--synchronous", default="FULL,NORMAL")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--warm", type=int, default=10, help="mails of the run whose CPU is subtracted")
    parser.add_argument("--folder", type=Path, default=None)
    options = parser.parse_args()
    folder = options.folder or Path(tempfile.mkdtemp(prefix="pbem-throughput-"))
    installs = {"after": sys.executable} | ({"before": options.before} if options.before else {})
    if options.before and options.before_path is not None:
        ENVIRONMENTS["before"] = dict(os.environ) | {"PYTHONPATH": options.before_path}
    print(f"{os.cpu_count()} CPUs, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}; medians of "
          f"{options.repeats} runs; CPU a mail without the process's start and the rules' loading")
    for games in (int(text) for text in options.games.split(",")):
        sources = {name: prepared(python, folder / f"{name}-games-{games}", games, options.mails,
                                  min(options.playing, games), ENVIRONMENTS.get(name))
                   for name, python in installs.items()}
        count = len(os.listdir(sources["after"] / "inbox" / "new"))
        for synchronous in options.synchronous.split(","):
            found = measure(installs, sources, synchronous, options.repeats, options.warm, folder / "scratch")
            line = f"{games:>5} games, {count} mails, {synchronous:<6}:"
            for name, (rate, cpu, ms) in found.items():
                line += f"  {name} {rate:5.0f} mails/s, {cpu:5.2f} CPU-s, {ms:5.2f} ms CPU a mail;"
            if "before" in found:
                line += (f"  mails/s x{found['after'][0] / found['before'][0]:.2f},"
                         f" CPU a mail x{found['before'][2] / found['after'][2]:.2f}")
            print(line, flush=True)


if __name__ == "__main__":
    main()
