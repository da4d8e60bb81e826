"""Headless games between computer players, and the engine benchmark."""

from __future__ import annotations

import datetime
from concurrent.futures import ProcessPoolExecutor
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spbc.ai.agents import make_agent
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


def play_game(ruleset: Ruleset, seats: list[str], seed: int,
              on_move: Callable[[Game, int], None] | None = None) -> tuple[Game, GameResult]:
    """Play one game between computer seats (level names) from seed; on_move sees each code before it is played."""
    game = ruleset.new_game([f"{level} {i + 1}" for i, level in enumerate(seats)], seed)
    agents = [make_agent(level, seed * 1_000_003 + seat) for seat, level in enumerate(seats)]
    moves = 0
    while not game.is_over:
        if moves >= ruleset.move_limit:
            raise GameTooLongError(f"the game of seed {seed} did not end within {ruleset.move_limit} moves, "
                                   "more than the rules allow any game: an engine bug")
        seat = game.current_player
        code = agents[seat].choose(observe(game, seat, moves))
        if on_move is not None:
            on_move(game, code)
        game.play_code(code)
        moves += 1
    by_seat = sorted(game.standings(), key=lambda s: s.seat)
    return game, GameResult(seed, moves, [s.final for s in by_seat], [s.rank for s in by_seat], game.round)


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


def _play_seeds(ruleset: Ruleset, seats: list[str], seeds: list[int],
                records: Path | None) -> list[GameResult]:
    if records is None:
        return [play_game(ruleset, seats, seed)[1] for seed in seeds]
    return [record_game(ruleset, seats, seed, records) for seed in seeds]


def _worker(source: str, backend: str, seats: list[str], seeds: list[int],
            records: Path | None) -> list[GameResult]:
    """One process's share of a simulation: it loads the rules itself (modules do not pickle)."""
    return _play_seeds(load_rules(source, backend), seats, seeds, records)


#: Games a process plays between two reports of progress.
CHUNK = 25


def simulate(ruleset: Ruleset, seats: list[str], games: int, seed: int, jobs: int = 1,
             records: Path | None = None, progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """games games from seeds seed, seed + 1, ..., on jobs processes; with records, each game's
    record is written into that folder. The results, in seed order, do not depend on jobs.
    ``progress`` is told how many games are done, every CHUNK games or so."""
    seeds = [seed + i for i in range(games)]
    chunks = [seeds[start:start + CHUNK] for start in range(0, games, CHUNK)]
    results: list[GameResult] = []
    if jobs <= 1 or games < 2:
        for chunk in chunks:
            results += _play_seeds(ruleset, seats, chunk, records)
            if progress is not None:
                progress(len(results))
        return results
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks))) as pool:
        parts = pool.map(_worker, [str(ruleset.source)] * len(chunks), [ruleset.backend] * len(chunks),
                         [seats] * len(chunks), chunks, [records] * len(chunks))
        for part in parts:
            results += part
            if progress is not None:
                progress(len(results))
    return sorted(results, key=lambda result: result.seed)
