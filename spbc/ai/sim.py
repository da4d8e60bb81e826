"""Headless games between computer players: tournaments with every level in every position.

Game i of a run plays from seed ``seed + i`` with the levels rotated by i places (seat s plays
``levels[(s + i) % n]``), so over n games every level sits at every position. Each seat's agent is
seeded from the game's seed and the seat, so the results, in game order, are the same on one process
or several (for the search levels in fixed-iterations mode, ``hard@5000it``; a time budget depends on
the machine's speed).

Seats that are all ``random``, ``novice``, ``easy`` or search levels with a budget in iterations (``medium``,
``hard@200it``) play on the compiled engine's C loop (spbc.ai.fastplay, the balance lab's loop too) unless
records are written: the same games as :func:`play_game`'s, move for move, many times faster. Records, the Python twin and every other seat list go through the Game API
(:func:`play_game`). On either path a seat's time per decision is the monotonic clock's around its choice,
its observation included: through the Game API ``observe`` and the agent's ``choose``, on the C loop the
choice in C.
"""

from __future__ import annotations

import datetime
import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from spbc.ai import fastplay
from spbc.ai.agents import NOISES, make_agent, search_inputs
from spbc.ai.budget import Level
from spbc.ai.seeds import agent_seed
from spbc.play.game import Game, GameTooLongError, Ruleset, load_rules
from spbc.play.observe import observe
from spbc.play.record import RECORD_EXTENSION, RecordWriter
from spbc.source.files import write_text_atomic


@dataclass(frozen=True)
class GameResult:
    """One game of a run: its outcome, and per seat how its decisions went (sums, not one entry a decision:
    a run of a million games holds a few games' worth at a time)."""

    seed: int
    moves: int
    scores: list[int]  # final points by seat
    ranks: list[int]  # by seat, 1 is best
    rounds: int
    levels: list[str] = field(default_factory=list)  # the level of each seat
    decisions: list[int] = field(default_factory=list)  # each seat's decisions (a move it had to make is none)
    searched: list[int] = field(default_factory=list)  # each seat's decisions that searched (iterations > 0)
    iterations: list[int] = field(default_factory=list)  # each seat's search iterations, all decisions together
    # each seat's seconds over its decisions (observation included) and its longest decision: what the
    # machine took, so no part of a result's equality
    seconds: list[float] = field(default_factory=list, compare=False)
    slowest: list[float] = field(default_factory=list, compare=False)


def play_game(ruleset: Ruleset, seats: list[str], seed: int,
              on_move: Callable[[Game, int], None] | None = None) -> tuple[Game, GameResult]:
    """Play one game between computer seats (level names) from seed; on_move sees each code before it is played.
    A forced move (one legal move) is played without asking the seat: every agent plays it without drawing on
    its generator, and it is no decision."""
    game = ruleset.new_game([f"{level} {i + 1}" for i, level in enumerate(seats)], seed)
    agents = [make_agent(level, agent_seed(seed, seat)) for seat, level in enumerate(seats)]
    decisions, searched, iterations = [0] * len(seats), [0] * len(seats), [0] * len(seats)
    seconds, slowest = [0.0] * len(seats), [0.0] * len(seats)
    moves, limit = 0, ruleset.move_limit
    while not game.is_over:
        if moves >= limit:
            raise GameTooLongError(f"the game of seed {seed} did not end within {limit} moves, "
                                   "more than the rules allow any game: an engine bug")
        legal = game.legal_codes()
        if len(legal) == 1:
            code = legal[0]
        else:
            seat = game.current_player
            began = time.perf_counter()
            code = agents[seat].choose(observe(game, seat, moves))
            took = time.perf_counter() - began
            decisions[seat] += 1
            seconds[seat] += took
            if took > slowest[seat]:
                slowest[seat] = took
            last = getattr(agents[seat], "last", None)
            if last is not None and last.iterations > 0:
                searched[seat] += 1
                iterations[seat] += last.iterations
        if on_move is not None:
            on_move(game, code)
        game.play_code(code)
        moves += 1
    by_seat = sorted(game.standings(), key=lambda s: s.seat)
    return game, GameResult(seed, moves, [s.final for s in by_seat], [s.rank for s in by_seat], game.round,
                            list(seats), decisions, searched, iterations, seconds, slowest)


_T = TypeVar("_T")

#: The levels the C loop plays (spbc.ai.fastplay.LEVELS), by the codes it takes: a search level with a budget in
#: iterations is a ``search`` seat.
C_LEVELS = {level: code for code, level in enumerate(fastplay.LEVELS)}
#: The seeds the C loop takes (a C long long); a run beyond them plays through the Game API.
_C_SEEDS = range(-(1 << 63), 1 << 63)


def _c_seat(level: str) -> tuple[int, int]:
    """A seat as the C loop's (level code, iterations), or (-1, 0) for one it does not play: a search with a
    time budget, or no level."""
    try:
        parsed = Level.parse(level)
    except ValueError:
        return -1, 0
    if parsed.budget is None:
        return C_LEVELS["easy" if parsed.name in NOISES else parsed.name], 0
    return (C_LEVELS["search"], parsed.budget.iterations) if parsed.budget.iterations > 0 else (-1, 0)


def c_levels(seats: Sequence[str]) -> list[int] | None:
    """The seats (level names, ``ai:`` allowed) as the C loop's level codes, or None when one of them is a level
    the C loop does not play (a search level with a time budget: only iterations are reproducible)."""
    levels = [_c_seat(level)[0] for level in seats]
    return None if -1 in levels else levels


def c_noises(seats: Sequence[str]) -> list[float]:
    """The seats' noise as the C loop takes it (an easy or a novice seat's, NOISES; 0 for the others)."""
    return [NOISES.get(Level.parse(level).name, 0.0) for level in seats]


def c_budgets(seats: Sequence[str]) -> list[int]:
    """The seats' search iterations a decision, as the C loop takes them (0 for a seat that does not search)."""
    return [_c_seat(level)[1] for level in seats]


def ranks(finals: Sequence[int], ties: Sequence[int]) -> list[int]:
    """By seat, the rank of final points with tie-break values (1 is best, equal pairs share a rank), as
    :meth:`spbc.play.game.Game.standings` ranks them."""
    keys = list(zip(finals, ties))
    return [1 + sum(other > key for other in keys) for key in keys]


def _c_games(ruleset: Ruleset, seats: list[str], levels: list[int], seeds: range, first: int) -> list[GameResult]:
    """The games of seeds on the C loop (the first is game number first of the run), as play_game gives them.
    GameTooLongError as play_game raises it."""
    budgets = c_budgets(seats)
    search = search_inputs(ruleset) if any(budgets) else None
    rows, times, stuck = fastplay.sim_games(ruleset.engine.c_api(), levels, first, seeds.start, len(seeds),
                                            c_noises(seats), budgets, search)
    n = len(seats)
    width, clocks = 5 + 3 * n, 2 * n  # spbc.ai.fastplay.sim_games: each game's row and its times
    results = []
    for g in range(len(rows) // width):
        row, clock = rows[g * width:(g + 1) * width], times[g * clocks:(g + 1) * clocks]
        finals, ties, decisions = row[2:2 + n], row[2 + n:2 + 2 * n], row[5 + 2 * n:]
        iterations = rotated(budgets, first + g)  # each search decision runs its budget's iterations exactly
        results.append(GameResult(seeds[g], row[0], finals, ranks(finals, ties), row[1], rotated(seats, first + g),
                                  decisions, [d if i else 0 for d, i in zip(decisions, iterations)],
                                  [d * i for d, i in zip(decisions, iterations)], clock[:n], clock[n:]))
    if stuck >= 0:
        raise GameTooLongError(f"the game of seed {seeds[stuck]} did not end within {ruleset.move_limit} "
                               "moves, more than the rules allow any game: an engine bug")
    return results


def rotated(levels: Sequence[_T], game: int) -> list[_T]:
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


def c_loop(ruleset: Ruleset, seats: Sequence[str], records: Path | None = None, seeds: range = range(0)) -> bool:
    """Whether a run of these seats plays on the C loop: all random, easy or searching for iterations, a compiled
    engine, no records, and
    seeds that fit the C loop's (64-bit signed)."""
    return (records is None and c_levels(seats) is not None and ruleset.engine.c_api() is not None
            and seeds.start in _C_SEEDS and seeds.stop in _C_SEEDS)


def _play_seeds(ruleset: Ruleset, seats: list[str], seeds: range, first: int,
                records: Path | None) -> list[GameResult]:
    """The games of seeds, the first of which is game number first of the run: on the C loop where
    :func:`c_loop` says so, else through the Game API."""
    codes = c_levels(seats)
    if codes is not None and c_loop(ruleset, seats, records, seeds):
        return _c_games(ruleset, seats, codes, seeds, first)
    results = []
    for number, seed in enumerate(seeds, start=first):
        levels = rotated(seats, number)
        results.append(play_game(ruleset, levels, seed)[1] if records is None
                       else record_game(ruleset, levels, seed, records))
    return results


def _worker(source: str, backend: str, seats: list[str], seeds: range, first: int,
            records: Path | None) -> list[GameResult]:
    """One process's share of a simulation: it loads the rules itself (modules do not pickle)."""
    return _play_seeds(load_rules(source, backend), seats, seeds, first, records)


#: Games a process plays between two reports of progress: through the Game API, on the C loop, and on the C loop
#: with search seats.
CHUNK, C_CHUNK, SEARCH_CHUNK = 25, 1000, 20
#: Chunks handed to each process ahead of the one it plays, so that none waits for work.
AHEAD = 2


def play_games(ruleset: Ruleset, seats: list[str], games: int, seed: int, jobs: int = 1,
               records: Path | None = None, progress: Callable[[int], None] | None = None) -> Iterator[GameResult]:
    """games games from seeds seed, seed + 1, ..., the levels of seats rotated game by game (see
    :func:`rotated`), on jobs processes; with records, each game's record is written into that folder.
    The results come in seed order, the same on any number of jobs, as the games finish: a run keeps a few
    chunks of games at a time, whatever its length. ``progress`` is told how many games are done, every
    CHUNK games or so (C_CHUNK on the C loop, fewer for the search levels, whose games are slower)."""
    looped = c_loop(ruleset, seats, records, range(seed, seed + games))
    searching = any(c_budgets(seats)) or c_levels(seats) is None
    size = (SEARCH_CHUNK if searching else C_CHUNK) if looped else 2 if searching else CHUNK
    chunks = ((start, range(seed + start, seed + min(start + size, games))) for start in range(0, games, size))
    done = 0
    if jobs <= 1 or games < 2:
        for start, chunk in chunks:
            part = _play_seeds(ruleset, seats, chunk, start, records)
            done += len(part)
            yield from part
            if progress is not None:
                progress(done)
        return
    workers = min(jobs, -(-games // size))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[list[GameResult]]] = deque()
        for start, chunk in chunks:
            pending.append(pool.submit(_worker, str(ruleset.source), ruleset.backend, seats, chunk, start, records))
            while len(pending) > workers * AHEAD or (pending and len(chunk) + start >= games):
                part = pending.popleft().result()
                done += len(part)
                yield from part
                if progress is not None:
                    progress(done)


def simulate(ruleset: Ruleset, seats: list[str], games: int, seed: int, jobs: int = 1,
             records: Path | None = None, progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """Every result of :func:`play_games`, in seed order (a list: for a long run, summarize play_games's
    results as they come instead)."""
    return list(play_games(ruleset, seats, games, seed, jobs, records, progress))


@dataclass(frozen=True)
class LevelSummary:
    """How one level did over a run: its share of the wins (ties shared; with several seats of the
    level, their shares together) with a 95% interval, the share an even table would give it, its seats'
    mean final points and mean margin over the best other seat, and its time per decision (the mean: a
    median would need every decision's time kept)."""

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
    mean_seconds: float
    max_seconds: float
    mean_iterations: float


def _interval(total: float, n: int, z: float = 1.959963984540054) -> tuple[float, float, float]:
    """The mean of n per-game win shares (total their sum in game order; a tied win counts a part) and its 95%
    interval: Wilson's score interval for a share of total out of n, which stays inside [0, 1] and does not
    shrink to nothing near 0 or 1 as the normal approximation does."""
    mean = total / n
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(0.0, mean * (1 - mean)) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mean, max(0.0, min(mean, centre - half)), min(1.0, max(mean, centre + half))


@dataclass
class _LevelTally:
    """A level's figures over the games seen so far: running sums, never one entry a game or a decision."""

    level: str
    seats: int = 0
    share_total: float = 0  # their sum in game order
    points: int = 0
    margins: int = 0
    seated: int = 0  # seats of the level over all games
    decisions: int = 0
    searched: int = 0
    iterations: int = 0
    seconds: float = 0.0
    slowest: float = 0.0

    def add(self, result: GameResult) -> None:
        winners = result.ranks.count(1)
        mine = [seat for seat, name in enumerate(result.levels) if name == self.level]
        self.seats = len(mine)
        share = sum(1 / winners for seat in mine if result.ranks[seat] == 1)
        self.share_total += share
        for seat in mine:
            self.seated += 1
            self.points += result.scores[seat]
            self.margins += result.scores[seat] - max(score for other, score in enumerate(result.scores)
                                                      if other != seat)
            if result.decisions:
                self.decisions += result.decisions[seat]
                self.searched += result.searched[seat]
                self.iterations += result.iterations[seat]
            if result.seconds:
                self.seconds += result.seconds[seat]
                self.slowest = max(self.slowest, result.slowest[seat])


def summarize(results: Iterable[GameResult]) -> list[LevelSummary]:
    """Per level (in the order the levels first appear): see :class:`LevelSummary`. Reads the results once,
    as they come (:func:`play_games`), in memory that does not grow with their number."""
    tallies: dict[str, _LevelTally] = {}
    games, players = 0, 0
    for result in results:
        games, players = games + 1, len(result.scores)
        for level in result.levels:
            if level not in tallies:
                tallies[level] = _LevelTally(level)
        for tally in tallies.values():
            tally.add(result)
    return [_summary(tally, games, players) for tally in tallies.values()]


def _summary(tally: _LevelTally, games: int, players: int) -> LevelSummary:
    share, low, high = _interval(tally.share_total, games)
    seated = max(tally.seated, 1)
    return LevelSummary(
        tally.level, tally.seats, games, share, low, high, tally.seats / players, tally.points / seated,
        tally.margins / seated, tally.decisions,
        tally.seconds / tally.decisions if tally.decisions else 0.0, tally.slowest,
        tally.iterations / tally.searched if tally.searched else 0.0)
