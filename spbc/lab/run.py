"""Playing a lab run: its games in batches, on local processes or on a Dask cluster, tallied as they come back.

Game i of a run (0, 1, ...) is dealt from seed + i with the seats rotated by i: position p holds
``seats[(p + i) % len(seats)]``, so every level sits in every position equally often. A batch is a range of
game numbers, fixed by the plan alone; its tally is the same wherever it is played, and tallies add up
in any order (spbc.lab.tally), so a run's result does not depend on the number of workers. A run sized by
precision (spbc.lab.precision) plays in rounds: every batch of a round finishes before the next round is
sized from the tallies, so the rounds, too, are the same on any number of workers. Seats that are
all ``random``, ``novice``, ``easy`` or search levels with a budget in iterations (``medium``, ``hard@200it``)
play on the engine's own C loop (spbc.ai.fastplay), every other seat list (a search for a time) through the Game API
(spbc.ai.sim.play_game): the same games, move for move (the C loop's easy and search seats decide as
spbc.ai.agents.EasyAgent and SearchAgent do, from the same observation and the same generator).
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import queue
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from spbc.ai import fastplay
from spbc.ai.agents import search_inputs
from spbc.ai.budget import Level
from spbc.ai.sim import c_budgets, c_levels, c_noises, play_game
from spbc.contract.abi import CARD_MASK, CARD_SHIFT, KIND_MASK, MOVE_KINDS, TARGET_SHIFT
from spbc.lab import wealth
from spbc.lab.tally import EVENTS, Tally
from spbc.lang.sent import SentRules, send_rules, sent_model
from spbc.play.game import Game, Ruleset, load_rules

_BUY, _TAKE, _PLAY = (MOVE_KINDS.index(kind) for kind in ("buy", "take", "play"))
_BOUGHT, _TAKEN, _PLAYED, _DISPLACED = range(len(EVENTS))
#: Games per batch: random seats on the C loop, easy seats (among random ones) on the C loop, search seats on the C
#: loop, and seats played through the Game API.
FAST_BATCH, EASY_BATCH, SEARCH_BATCH, AGENT_BATCH = 2000, 200, 25, 25


@dataclass(frozen=True)
class Plan:
    """The games of one ruleset in a run. ``source`` names the rules (a shipped name, or a path); ``rules`` are
    their texts with their digest (spbc.lang.sent), read from ``source`` when the plan is made unless given: a
    worker checks them and builds their engine from them (or finds it in its cache, by their digest) and reads
    no rules file, so cluster workers need no path in common with the client."""

    source: str
    backend: str
    seats: tuple[str, ...]
    games: int
    seed: int
    batch_size: int = 0  # games per batch; 0: FAST_BATCH, EASY_BATCH or SEARCH_BATCH on the C loop, else AGENT_BATCH
    fast: bool = True  # the seats on the C loop where it plays them (False: through the Game API, the same games)
    rules: SentRules | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.rules is None:
            object.__setattr__(self, "rules", send_rules(self.source))

    @property
    def c_levels(self) -> list[int] | None:
        """The seats as the C loop's level codes, or None when the games go through the Game API: a seat the
        C loop does not play, or told so (``fast``)."""
        return c_levels(self.seats) if self.fast else None

    @property
    def batch(self) -> int:
        levels = self.c_levels
        default = (AGENT_BATCH if levels is None else SEARCH_BATCH if any(c_budgets(self.seats))
                   else EASY_BATCH if any(levels) else FAST_BATCH)
        return self.batch_size or default

    def batches(self, start: int = 0, stop: int | None = None) -> list[tuple[int, int]]:
        """The run's batches as (first game number, games): of its games from ``start`` up to ``stop`` (at
        most its games, all of them by default)."""
        end = self.games if stop is None else min(stop, self.games)
        return [(first, min(self.batch, end - first)) for first in range(start, end, self.batch)]

    def levels(self, game: int) -> list[str]:
        """The level at each position in game number ``game``."""
        n = len(self.seats)
        return [self.seats[(position + game) % n] for position in range(n)]


@dataclass
class Outcome:
    """What a run gave for one plan: the tally of the batches that finished."""

    plan: Plan
    tally: Tally
    seconds: float = 0.0
    batches_done: int = 0

    @property
    def complete(self) -> bool:
        return self.tally.games == self.plan.games


#: A process's rulesets, by (backend, the rules' digest).
_LOADED: dict[tuple[str, str], Ruleset] = {}


def _rules(plan: Plan) -> Ruleset:
    """A worker's ruleset for a plan, made once per process (a module does not pickle) from the texts the plan
    carries: SentRulesError when they do not give their digest."""
    sent = plan.rules
    assert sent is not None  # set by Plan.__post_init__
    key = (plan.backend, sent.digest)
    if key not in _LOADED:
        _LOADED[key] = load_rules(plan.source, plan.backend, sent_model(sent))
    return _LOADED[key]


def new_tally(ruleset: Ruleset, plan: Plan) -> Tally:
    return Tally(len(plan.seats), len(ruleset.engine.CARD_IDS))


def play_batch(plan: Plan, first: int, count: int) -> Tally:
    """The tally of games first .. first + count - 1 of a plan (run in a worker process)."""
    ruleset = _rules(plan)
    levels = plan.c_levels
    capsule = ruleset.engine.c_api() if levels is not None else None
    if capsule is not None and levels is not None:
        return _fast_batch(ruleset, plan, capsule, levels, first, count)
    tally = new_tally(ruleset, plan)
    for game in range(first, first + count):
        _agent_game(ruleset, plan, game, tally)
    return tally


def _fast_batch(ruleset: Ruleset, plan: Plan, capsule: object, levels: list[int], first: int, count: int) -> Tally:
    tally = new_tally(ruleset, plan)
    budgets = c_budgets(plan.seats)
    rows, events, squares, owners, owner_wins, strata = fastplay.lab_games(
        capsule, levels, first, plan.seed + first, count, c_noises(plan.seats), budgets,
        search_inputs(ruleset) if any(budgets) else None)
    n, levels_won = len(levels), Counter[int]()
    width = 5 + 2 * n  # spbc.ai.fastplay.lab_games: the rows' fields, counted column by column
    tally.games = count
    tally.moves, tally.rounds = Counter(rows[0::width]), Counter(rows[1::width])
    tally.scores = [Counter(rows[2 + p::width]) for p in range(n)]
    tally.margins = Counter(rows[2 + 2 * n::width])
    for mask, games in Counter(rows[3 + 2 * n::width]).items():
        for p in range(n):
            tally.wins[p] += games if mask >> p & 1 else 0
    levels_won.update(rows[4 + 2 * n::width])
    for j, level in enumerate(plan.seats):
        tally.level_seats[level] += count
        won = sum(games for mask, games in levels_won.items() if mask >> j & 1)
        if won:
            tally.level_wins[level] += won
    tally.events, tally.squares, tally.owners, tally.owner_wins = events, squares, owners, owner_wins
    tally.wealth = strata
    for g in range(count):  # the rows as Tally.rows keeps them
        row = rows[g * width:(g + 1) * width]
        tally.rows[first + g] = (row[0], row[1], row[2 + 2 * n], row[3 + 2 * n], *row[2:2 + n])
    return tally


def _agent_game(ruleset: Ruleset, plan: Plan, game_number: int, tally: Tally) -> None:
    """One game through the Game API, its events counted from the moves as they are played."""
    levels = plan.levels(game_number)
    players, cards = len(levels), tally.cards
    counts = [0] * (len(EVENTS) * cards)
    owned = [False] * (cards * players)
    strata = wealth.GameStrata(cards, players)

    def note(game: Game, code: int) -> None:
        seat, kind = game.current_player, code & KIND_MASK
        card, target = (code >> CARD_SHIFT) & CARD_MASK, (code >> TARGET_SHIFT) & CARD_MASK
        found = [_BOUGHT] if kind == _BUY else [_TAKEN] if kind == _TAKE else [_PLAYED] if kind == _PLAY else []
        strata.to_move(seat, game.round, game.rubles(seat))
        if kind in (_BUY, _PLAY):
            owned[card * players + seat] = True
            strata.owns(card, seat)
        for event in found:
            counts[event * cards + card] += 1
            tally.events[(event * cards + card) * players + seat] += 1
        if kind in (_BUY, _PLAY) and target:
            counts[_DISPLACED * cards + target - 1] += 1
            tally.events[(_DISPLACED * cards + target - 1) * players + seat] += 1

    _, result = play_game(ruleset, levels, plan.seed + game_number, on_move=note)
    winners = [rank == 1 for rank in result.ranks]
    tally.add_game(levels, result.moves, result.rounds, result.scores, winners, game_number)
    strata.add_to(tally.wealth, result.scores, winners)
    for i, count in enumerate(counts):
        tally.squares[i] += count * count
    for i, was in enumerate(owned):
        if was:
            tally.owners[i] += 1
            tally.owner_wins[i] += winners[i % players]


def check_seats(seats: Iterable[str]) -> None:
    """ValueError naming the known levels for a seat that is none."""
    for level in seats:
        Level.parse(level)


#: progress(games done, games in all) after each batch.
Progress = Callable[[int, int], None]
#: rounds(the outcomes so far) -> the games each plan is to have played when the next round ends (its plan's
#: games at most), or None: the run is done. A round's batches all finish before it is called again, so what it
#: sees (and the games a run plays) depends on the plans and on it alone, not on the number of workers.
Rounds = Callable[[list[Outcome]], int | None]


@dataclass
class _Run:
    plans: list[Plan]
    outcomes: list[Outcome] = field(default_factory=list)
    began: float = field(default_factory=time.perf_counter)
    total: int = 0  # the games of every plan that the run is to play, as the progress counts them

    def jobs(self, stop: int | None = None) -> list[tuple[int, int, int]]:
        """(plan index, first, count) of every batch from the games each plan played up to ``stop`` (all of its
        games by default), the plans' batches interleaved."""
        lists = [plan.batches(o.tally.games, stop) for plan, o in zip(self.plans, self.outcomes)]
        return [(k, *batches[i]) for i in range(max(map(len, lists), default=0))
                for k, batches in enumerate(lists) if i < len(batches)]

    def take(self, k: int, tally: Tally, progress: Progress | None) -> None:
        outcome = self.outcomes[k]
        outcome.tally.add(tally)
        outcome.batches_done += 1
        outcome.seconds = time.perf_counter() - self.began
        if progress is not None:
            progress(sum(o.tally.games for o in self.outcomes), self.total)


#: play(run, its batches to play, progress): plays them and takes each into the run as it finishes.
_Player = Callable[[_Run, list[tuple[int, int, int]], Progress | None], None]


def run_plans(plans: list[Plan], jobs: int = 1, cluster: str | None = None,
              progress: Progress | None = None, connect_seconds: float = 20.0,
              rounds: Rounds | None = None) -> list[Outcome]:
    """Play every plan's games (on ``jobs`` local processes, or on the Dask cluster at address ``cluster``,
    ClusterError when it cannot be reached within connect_seconds) and return their outcomes. With ``rounds``,
    the games are played round by round, each round's length set by it from what the rounds before gave, up
    to the plans' games; when it ends the run, each outcome's plan holds the games played. A
    KeyboardInterrupt stops the run: the batches that finished are returned, each outcome saying how many
    games it holds."""
    run = _Run(plans)
    run.outcomes = [Outcome(plan, new_tally(_rules(plan), plan)) for plan in plans]
    try:
        with _player(jobs, cluster, connect_seconds) as play:
            stop = rounds(run.outcomes) if rounds is not None else None  # None without rounds: every game
            batches = run.jobs(stop) if rounds is None or stop is not None else []
            while batches:
                run.total = sum(p.games if stop is None else min(p.games, stop) for p in plans)
                play(run, batches, progress)
                stop = rounds(run.outcomes) if rounds is not None else None
                batches = run.jobs(stop) if stop is not None else []
        for outcome in run.outcomes if rounds is not None else ():
            outcome.plan = dataclasses.replace(outcome.plan, games=outcome.tally.games)
    except KeyboardInterrupt:
        pass
    return run.outcomes


@contextmanager
def _player(jobs: int, cluster: str | None, connect_seconds: float) -> Iterator[_Player]:
    """The function that plays batches: on the Dask cluster, on a pool of ``jobs`` processes, or here."""
    if cluster is not None:
        with _cluster(cluster, connect_seconds) as play:
            yield play
    elif jobs <= 1:
        def here(run: _Run, batches: list[tuple[int, int, int]], progress: Progress | None) -> None:
            for k, first, count in batches:
                run.take(k, play_batch(run.plans[k], first, count), progress)
        yield here
    else:
        with _processes(jobs) as play:
            yield play


@contextmanager
def _processes(jobs: int) -> Iterator[_Player]:
    """Batches played on a pool of local processes, taken as they finish. However the run ends (done, an
    interrupt, an error), the pool's processes are terminated: the batches under way or queued are dropped,
    so an interrupted run exits at once."""
    pool = multiprocessing.Pool(jobs, initializer=_worker_signals)

    def play(run: _Run, batches: list[tuple[int, int, int]], progress: Progress | None) -> None:
        finished: queue.SimpleQueue[tuple[int, Tally | BaseException]] = queue.SimpleQueue()
        for k, first, games in batches:
            pool.apply_async(play_batch, (run.plans[k], first, games), callback=_put(finished, k),
                             error_callback=_put(finished, k))
        for _ in batches:
            while True:
                try:  # a short wait, so that Ctrl-C reaches this process promptly
                    k, result = finished.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            if isinstance(result, BaseException):
                raise result
            run.take(k, result, progress)

    try:
        yield play
    finally:
        pool.terminate()
        pool.join()


def _put(finished: queue.SimpleQueue[tuple[int, Any]], k: int) -> Callable[[Any], None]:
    """A pool callback that queues (plan index, the batch's tally or its error) for the parent's loop."""
    def put(result: Any) -> None:
        finished.put((k, result))
    return put


def _worker_signals() -> None:
    """A worker process leaves Ctrl-C to the parent, which stops the run and keeps what finished, and dies
    at once when the parent terminates it (SIGTERM, not the parent's handler that stops a run)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def _cluster(address: str, seconds: float) -> Iterator[_Player]:
    """Batches played on a Dask cluster: each round's submitted at once, taken as they finish (the scheduler
    spreads them)."""
    try:
        import distributed
    except ImportError as error:
        raise ClusterError("--cluster needs Dask distributed: pip install 'spbc[lab]'") from error
    dask: Any = distributed  # untyped
    try:
        client = dask.Client(address, timeout=seconds)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from error
    futures: list[Any] = []
    scattered: list[Any] = []

    def play(run: _Run, batches: list[tuple[int, int, int]], progress: Progress | None) -> None:
        if not scattered:  # each plan (with the texts of its rules) goes to the workers once, not with every batch
            scattered.extend(client.scatter(plan, broadcast=True, hash=False) for plan in run.plans)
        owner: dict[str, int] = {}
        futures.clear()
        for k, first, count in batches:
            future = client.submit(play_batch, scattered[k], first, count, pure=False)
            owner[future.key] = k
            futures.append(future)
        for future in dask.as_completed(futures):
            run.take(owner[future.key], future.result(), progress)

    try:
        yield play
    finally:
        client.cancel(futures)
        client.close()


class ClusterError(RuntimeError):
    """The cluster cannot be used: Dask is missing or its scheduler cannot be reached."""
