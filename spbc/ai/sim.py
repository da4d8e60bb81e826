"""Headless games between computer players: tournaments with every level in every position.

Game i of a run plays from seed ``seed + i`` with the levels rotated by i places (seat s plays
``levels[(s + i) % n]``), so over n games every level sits at every position. Each seat's agent is
seeded from the game's seed and the seat, so the results, in game order, are the same on one process
or several (for the search levels in fixed-iterations mode, ``hard@5000it``; a time budget depends on
the machine's speed).
"""

from __future__ import annotations

import datetime
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from spbc.ai.agents import make_agent
from spbc.ai.seeds import agent_seed
from spbc.play.game import Game, GameTooLongError, Ruleset, load_rules
from spbc.play.observe import observe
from spbc.play.record import RECORD_EXTENSION, RecordWriter
from spbc.source.files import write_text_atomic


@dataclass(frozen=True)
class GameResult:
    seed: int
    moves: int
    scores: list[int]  # final points by seat
    ranks: list[int]  # by seat, 1 is best
    rounds: int
    levels: list[str] = field(default_factory=list)  # the level of each seat
    # each seat's search iterations per decision (a move it had to make is none; 0: it does not search)
    iterations: list[list[int]] = field(default_factory=list)
    # each seat's seconds per decision, observation included: what the machine took, so no part of a result's equality
    seconds: list[list[float]] = field(default_factory=list, compare=False)


def play_game(ruleset: Ruleset, seats: list[str], seed: int,
              on_move: Callable[[Game, int], None] | None = None) -> tuple[Game, GameResult]:
    """Play one game between computer seats (level names) from seed; on_move sees each code before it is played."""
    game = ruleset.new_game([f"{level} {i + 1}" for i, level in enumerate(seats)], seed)
    agents = [make_agent(level, agent_seed(seed, seat)) for seat, level in enumerate(seats)]
    iterations: list[list[int]] = [[] for _ in seats]
    seconds: list[list[float]] = [[] for _ in seats]
    moves = 0
    while not game.is_over:
        if moves >= ruleset.move_limit:
            raise GameTooLongError(f"the game of seed {seed} did not end within {ruleset.move_limit} moves, "
                                   "more than the rules allow any game: an engine bug")
        seat = game.current_player
        began = time.perf_counter()
        observation = observe(game, seat, moves)
        code = agents[seat].choose(observation)
        if len(observation.legal) > 1:  # a decision: a forced move is none
            seconds[seat].append(time.perf_counter() - began)
            last = getattr(agents[seat], "last", None)
            iterations[seat].append(last.iterations if last is not None else 0)
        if on_move is not None:
            on_move(game, code)
        game.play_code(code)
        moves += 1
    by_seat = sorted(game.standings(), key=lambda s: s.seat)
    return game, GameResult(seed, moves, [s.final for s in by_seat], [s.rank for s in by_seat], game.round,
                            list(seats), iterations, seconds)


def rotated(levels: Sequence[str], game: int) -> list[str]:
    """The seats of game number ``game`` of a run (0 first): the levels rotated by that many places."""
    return [levels[(seat + game) % len(levels)] for seat in range(len(levels))]


def record_game(ruleset: Ruleset, levels: list[str], seed: int, folder: Path) -> GameResult:
    """Play one game between computer levels and write its record to ``folder/game-<seed>.spbr``.

    The record is written in one step (:func:`spbc.source.files.write_text_atomic`);
    :class:`spbc.source.files.FileWriteError` when it cannot be.
    """
    writers: list[RecordWriter] = []

    def note(game: Game, code: int) -> None:
        if not writers:
            writers.append(RecordWriter(game, datetime.date.today().isoformat()))
        writers[0].add(ruleset.decode(code))

    _, result = play_game(ruleset, levels, seed, on_move=note)
    write_text_atomic(Path(folder) / f"game-{seed}{RECORD_EXTENSION}", writers[0].text())
    return result


def _play_seeds(ruleset: Ruleset, seats: list[str], seeds: list[int], first: int,
                records: Path | None) -> list[GameResult]:
    """The games of seeds, the first of which is game number first of the run."""
    results = []
    for number, seed in enumerate(seeds, start=first):
        levels = rotated(seats, number)
        results.append(play_game(ruleset, levels, seed)[1] if records is None
                       else record_game(ruleset, levels, seed, records))
    return results


def _worker(source: str, backend: str, seats: list[str], seeds: list[int], first: int,
            records: Path | None) -> list[GameResult]:
    """One process's share of a simulation: it loads the rules itself (modules do not pickle)."""
    return _play_seeds(load_rules(source, backend), seats, seeds, first, records)


#: Games a process plays between two reports of progress.
CHUNK = 25


def simulate(ruleset: Ruleset, seats: list[str], games: int, seed: int, jobs: int = 1,
             records: Path | None = None, progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """games games from seeds seed, seed + 1, ..., the levels of seats rotated game by game (see
    :func:`rotated`), on jobs processes; with records, each game's record is written into that folder.
    The results, in seed order, do not depend on jobs. ``progress`` is told how many games are done,
    every CHUNK games or so (fewer for the search levels, whose games are slower)."""
    seeds = [seed + i for i in range(games)]
    size = CHUNK if all(level.removeprefix("ai:") in ("random", "easy") for level in seats) else 2
    starts = list(range(0, games, size))
    chunks = [seeds[start:start + size] for start in starts]
    results: list[GameResult] = []
    if jobs <= 1 or games < 2:
        for start, chunk in zip(starts, chunks):
            results += _play_seeds(ruleset, seats, chunk, start, records)
            if progress is not None:
                progress(len(results))
        return results
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks))) as pool:
        parts = pool.map(_worker, [str(ruleset.source)] * len(chunks), [ruleset.backend] * len(chunks),
                         [seats] * len(chunks), chunks, starts, [records] * len(chunks))
        for part in parts:
            results += part
            if progress is not None:
                progress(len(results))
    return sorted(results, key=lambda result: result.seed)


@dataclass(frozen=True)
class LevelSummary:
    """How one level did over a run: its share of the wins (ties shared; with several seats of the
    level, their shares together) with a 95% interval, the share an even table would give it, its seats'
    mean final points and mean margin over the best other seat, and its time per decision."""

    level: str
    seats: int  # seats of this level in each game
    games: int
    win_share: float
    low: float
    high: float
    even_share: float
    mean_points: float
    mean_margin: float
    decisions: int
    median_seconds: float
    max_seconds: float
    mean_iterations: float


def _interval(shares: list[float]) -> tuple[float, float, float]:
    """The mean of per-game shares and its 95% interval (normal approximation; Wilson's for 0 or 1)."""
    n = len(shares)
    mean = sum(shares) / n
    if n < 2 or statistics.pstdev(shares) == 0:
        z = 1.96  # Wilson's interval for a proportion of all or nothing
        centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return mean, max(0.0, centre - half), min(1.0, centre + half)
    half = 1.96 * statistics.stdev(shares) / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def summarize(results: Sequence[GameResult]) -> list[LevelSummary]:
    """Per level (in the order the levels first appear): see :class:`LevelSummary`."""
    levels = list(dict.fromkeys(level for result in results for level in result.levels))
    summaries = []
    for level in levels:
        shares, points, margins, times, iterations = [], [], [], [], []
        seats = 0
        for result in results:
            winners = result.ranks.count(1)
            mine = [seat for seat, name in enumerate(result.levels) if name == level]
            seats = len(mine)
            shares.append(sum(1 / winners for seat in mine if result.ranks[seat] == 1))
            for seat in mine:
                points.append(result.scores[seat])
                margins.append(result.scores[seat] - max(score for other, score in enumerate(result.scores)
                                                         if other != seat))
                times += result.seconds[seat] if result.seconds else []
                iterations += [n for n in result.iterations[seat] if n > 0] if result.iterations else []
        share, low, high = _interval(shares)
        summaries.append(LevelSummary(
            level, seats, len(results), share, low, high, seats / len(results[0].scores),
            statistics.fmean(points), statistics.fmean(margins), len(times),
            statistics.median(times) if times else 0.0, max(times) if times else 0.0,
            statistics.fmean(iterations) if iterations else 0.0))
    return summaries
