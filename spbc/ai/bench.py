"""The engine benchmark: every figure ``spb bench`` prints, each measured as a ratio in one run.

- random full games on the compiled engine and on its twin, in turn (``engine_rates``);
- the same against a hand-written C engine given by path, in turn, pair by pair (``reference_rates``);
- random playouts from saved mid-game states after determinizing for the player to move, the inner loop
  of a search: through the public Game API and through the engines' C interface (``playout_rates``);
- instructions per game under ``valgrind --tool=callgrind``, repeatable on a noisy machine
  (``instructions_per_game``);
- the search of ``ai:hard`` (spbc/ai/search.pyx) from mid-game states at 2 and 4 players (as the rules
  allow): iterations and playouts per second on one core, and the time and iterations of one decision at
  hard's default budget (``search_figures``).

The machines are shared and noisy, so every figure is the median of several samples, and ratios are
taken sample by sample between runs made one right after the other.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from spbc.ai.agents import SearchAgent, make_agent
from spbc.ai.budget import Budget
from spbc.contract.protocol import EngineModule
from spbc.play.game import Game, Ruleset
from spbc.play.observe import observe

import spbc.ai.playouts as c_playouts  # the search's C loops, built with spbc (setup.py)


@dataclass(frozen=True)
class Rates:
    """Samples of two things measured in turn, and their ratios sample by sample."""

    first: list[float]
    second: list[float]

    @property
    def first_median(self) -> float:
        return statistics.median(self.first)

    @property
    def second_median(self) -> float:
        return statistics.median(self.second)

    @property
    def ratio_median(self) -> float:
        """The median of first/second, pair by pair (a drift of the machine's speed cancels)."""
        return statistics.median(a / b for a, b in zip(self.first, self.second))


def _alternate(first: Callable[[], float], second: Callable[[], float], repeats: int) -> Rates:
    a, b = [], []
    for _ in range(repeats):
        a.append(first())
        b.append(second())
    return Rates(a, b)


def _games_per_second(engine: EngineModule, players: int, games: int, seed: int) -> float:
    start = time.perf_counter()
    engine.random_games(players, games, seed)
    return games / max(time.perf_counter() - start, 1e-9)


def _batch(engine: EngineModule, players: int, seconds: float, seed: int) -> int:
    """How many games fill about ``seconds`` on this engine."""
    return max(3, int(seconds * _games_per_second(engine, players, 3, seed)))


def engine_rates(compiled: Ruleset, python: Ruleset, players: int, seconds: float = 1.0,
                 repeats: int = 5, seed: int = 1) -> Rates:
    """Random full games per second: the compiled engine (first) and its twin (second), in turn."""
    fast, slow = _batch(compiled.engine, players, seconds, seed), _batch(python.engine, players, seconds, seed)
    return _alternate(lambda: _games_per_second(compiled.engine, players, fast, seed),
                      lambda: _games_per_second(python.engine, players, slow, seed), repeats)


class ReferenceEngineError(RuntimeError):
    """The reference engine could not be run or did not print games_per_s."""


def _reference_games_per_second(path: Path, players: int, games: int, seed: int) -> float:
    done = subprocess.run([str(path), str(players), str(games), str(seed)], capture_output=True, text=True,
                          check=False, timeout=600)
    found = re.search(r"games_per_s=([0-9.]+)", done.stdout)
    if done.returncode != 0 or not found:
        raise ReferenceEngineError(f"{path} {players} {games} {seed} printed no games_per_s "
                              f"(exit {done.returncode}): {(done.stderr or done.stdout).strip()[-300:]}")
    return float(found.group(1))


def reference_rates(compiled: Ruleset, reference: Path, players: int, seconds: float = 1.0,
                    repeats: int = 5, seed: int = 1) -> Rates:
    """Random full games per second: the compiled engine (first) and a C engine (second), in turn.

    ``reference`` is a program called as ``PROGRAM PLAYERS GAMES SEED`` that prints
    ``games_per_s=N``, such as the hand-written engine the project measures itself against.
    Both play the same number of games per sample, from the same first seed.
    """
    games = _batch(compiled.engine, players, seconds, seed)
    return _alternate(lambda: _games_per_second(compiled.engine, players, games, seed),
                      lambda: _reference_games_per_second(reference, players, games, seed), repeats)


def mid_game_states(ruleset: Ruleset, players: int, count: int = 1000, seed: int = 1) -> list[Game]:
    """``count`` games stopped at a random point between their 10th move and their end, each saved
    and loaded back: the positions a search starts from."""
    rng = random.Random(seed)
    games: list[Game] = []
    while len(games) < count:
        game = ruleset.new_game(players, seed=rng.getrandbits(64))
        stop = rng.randrange(10, 150 + 40 * players)
        for _ in range(stop):
            if game.is_over:
                break
            codes = game.legal_codes()
            game.play_code(codes[rng.randrange(len(codes))])
        if not game.is_over:
            games.append(ruleset.game_from_json(game.to_json()))
    return games


def api_playouts_per_second(games: list[Game], seed: int = 1) -> float:
    """Through the public Game API: determinize each state for the player to move, play it out at
    random to the end and read every seat's final score."""
    start = time.perf_counter()
    for i, game in enumerate(games):
        game.determinized(game.current_player, seed + i).playout(seed + i)
    return len(games) / max(time.perf_counter() - start, 1e-9)


def c_playouts_per_second(ruleset: Ruleset, games: list[Game], repeats: int = 20, seed: int = 1) -> float:
    """Through the engine's C interface (spbc/ai/playouts.pyx on ``engine.c_api()``): the same
    determinized playouts as :func:`api_playouts_per_second`, ``repeats`` from each state, in C without the GIL.

    RuntimeError when the C loops or the compiled engine are not available (the twin has no C interface).
    """
    capsule = ruleset.engine.c_api()
    if capsule is None:
        raise RuntimeError("the C interface needs the compiled engine; the twin has none")
    flat = [value for game in games for value in game.state_values()]
    done, seconds = c_playouts.playouts_per_second(capsule, flat, repeats, seed)
    return float(done) / max(float(seconds), 1e-9)


@dataclass(frozen=True)
class Instructions:
    """Instructions callgrind counted for a run of ``games`` random games, less an empty run."""

    games: int
    moves: int
    instructions: int

    @property
    def per_game(self) -> float:
        return self.instructions / self.games

    @property
    def per_move(self) -> float:
        return self.instructions / self.moves


CALLGRIND_PROGRAM = (
    "import sys, spbc; e = spbc.load_rules(sys.argv[1], backend='compiled').engine; "
    "print('moves', e.random_games(int(sys.argv[2]), int(sys.argv[3]), 1))"
)


#: The function callgrind counts in (--toggle-collect): the compiled engine's random_games, whose C name is
#: __pyx_pf_<module path>_6engine_random_games (and a suffix where the compiler specialised it).
COUNTED = "__pyx_pf_*engine_random_games*"


def _callgrind(source: str, players: int, games: int) -> tuple[int, int]:
    """(instructions, moves) of one run of the program above under callgrind, counting inside the engine's
    random_games only: Python's start and the rules' loading, which vary from run to run (a module compiled
    on the first run, a cache written), are not counted."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--toggle-collect={COUNTED}", f"--callgrind-out-file={out}",
             sys.executable, "-c",
             CALLGRIND_PROGRAM, source, str(players), str(games)],
            capture_output=True, text=True, check=False, env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        summary = re.search(r"^summary:\s*([0-9]+)", out.read_text() if out.is_file() else "", re.M)
        moves = re.search(r"^moves ([0-9]+)", done.stdout, re.M)
        if done.returncode != 0 or not summary or not moves:
            raise RuntimeError(f"callgrind did not run: {done.stderr.strip()[-400:]}")
        return int(summary.group(1)), int(moves.group(1))


def instructions_per_game(source: str, players: int, games: int = 300) -> Instructions:
    """Instructions per game of the compiled engine, counted by callgrind inside its random_games only
    (COUNTED), less a run of none (the call itself, a few hundred), so only the games are counted.

    The same as running by hand, twice (GAMES and 0)::

        valgrind --tool=callgrind --toggle-collect='<COUNTED>' python -c "<CALLGRIND_PROGRAM>" base 2 GAMES
    """
    if shutil.which("valgrind") is None:
        raise RuntimeError("valgrind is not installed (apt-get install valgrind)")
    full, moves = _callgrind(source, players, games)
    empty, _ = _callgrind(source, players, 0)
    return Instructions(games, moves, full - empty)


@dataclass(frozen=True)
class SearchFigures:
    """The search at one player count: medians over mid-game states. Each iteration plays one playout,
    so the two rates agree; a decision is one of ``ai:hard`` at its default budget, observation included."""

    players: int
    iterations_per_s: float
    playouts_per_s: float
    decision_seconds: float
    decision_iterations: int


def search_figures(ruleset: Ruleset, players: int, seconds: float = 1.0, repeats: int = 5,
                   seed: int = 1) -> SearchFigures:
    """The search from ``repeats`` mid-game states of players seats, ``seconds`` each, on one core;
    then one decision of ``ai:hard`` (its default budget) from the first of them.
    RuntimeError when the rules run on the twin (the search needs the compiled engine)."""
    if ruleset.engine.c_api() is None:
        raise RuntimeError("the search needs the compiled engine; the twin has none")
    games = mid_game_states(ruleset, players, repeats, seed)
    rates, playout_rates = [], []
    for i, game in enumerate(games):
        agent = SearchAgent("hard", seed + i, Budget(seconds=seconds))
        decision = agent.decide(observe(game, game.current_player))
        rates.append(decision.iterations / max(decision.seconds, 1e-9))
        playout_rates.append(decision.playouts / max(decision.seconds, 1e-9))
    hard = make_agent("hard", seed)
    game = next((game for game in games if len(game.legal_codes()) > 1), games[0])
    began = time.perf_counter()
    hard.choose(observe(game, game.current_player))
    took = time.perf_counter() - began
    last = getattr(hard, "last", None)
    return SearchFigures(players, statistics.median(rates), statistics.median(playout_rates), took,
                         last.iterations if last is not None else 0)


@dataclass
class BenchReport:
    """What ``spb bench`` prints: every figure a median of samples taken in one run."""

    ruleset: str
    players: int
    engines: Rates
    reference: Rates | None = None
    api_playouts: float | None = None
    c_playouts: float | None = None
    instructions: Instructions | None = None
    search: list[SearchFigures] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def run_bench(compiled: Ruleset, python: Ruleset, players: int, seconds: float = 1.0, repeats: int = 5,
              reference: Path | None = None, states: int = 1000, instructions: bool = False,
              search: bool = True) -> BenchReport:
    """Every figure of ``spb bench`` for one ruleset and player count (see the module's docstring);
    the search's at 2 and 4 players whatever ``players`` is (those the rules allow)."""
    report = BenchReport(compiled.name, players, engine_rates(compiled, python, players, seconds, repeats))
    if reference is not None:
        report.reference = reference_rates(compiled, reference, players, seconds, repeats)
    if states:
        games = mid_game_states(compiled, players, states)
        report.api_playouts = statistics.median(api_playouts_per_second(games, seed) for seed in range(3))
        try:
            # at least 3 samples, as for the Game API: one sample of a few states lasts milliseconds,
            # and one preemption on a busy machine would be the figure
            report.c_playouts = statistics.median(c_playouts_per_second(compiled, games, 20, seed)
                                                  for seed in range(max(repeats, 3)))
        except RuntimeError as error:
            report.notes.append(str(error))
    if instructions:
        try:
            report.instructions = instructions_per_game(str(compiled.source), players)
        except RuntimeError as error:
            report.notes.append(str(error))
    if search:
        rules = compiled.model.game
        for count in (2, 4):
            if rules.min_players <= count <= rules.max_players:
                try:
                    report.search.append(search_figures(compiled, count, seconds, repeats))
                except RuntimeError as error:
                    report.notes.append(str(error))
    return report
