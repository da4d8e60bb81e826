"""The seats of a game: who plays each place, a person or a computer player of a level."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spbc.ai.agents import level_problem
from spbc.play.names import names_problem

AI_PREFIX = "ai:"


class SeatError(ValueError):
    """A list of seats that cannot be played: duplicate names, an unknown computer level."""


@dataclass(frozen=True)
class Seat:
    """One place at the table: a human (``level`` None) or a computer player of a level."""

    name: str
    level: str | None = None

    @property
    def computer(self) -> bool:
        return self.level is not None


def parse_seats(spec: str) -> list[Seat]:
    """Seats from a comma list such as ``"Anna,ai:random"``; SeatError for a bad list.

    Computer seats are written ``ai:<level>``; several of one level are numbered
    (``ai:random``, ``ai:random 2``). Human names must be unique.

    >>> parse_seats("Anna,ai:random")
    [Seat(name='Anna', level=None), Seat(name='ai:random', level='random')]
    """
    entries = [entry.strip() for entry in spec.split(",")]
    if not entries or any(not entry for entry in entries):
        raise SeatError(f"bad seat list {spec!r}: give names separated by commas, e.g. you,ai:random")
    levels = [entry[len(AI_PREFIX):] for entry in entries if entry.startswith(AI_PREFIX)]
    for level in levels:
        problem = level_problem(level)
        if problem is not None:
            raise SeatError(problem)
    seats, counts = [], {level: 0 for level in levels}
    for entry in entries:
        if not entry.startswith(AI_PREFIX):
            seats.append(Seat(entry))
            continue
        level = entry[len(AI_PREFIX):]
        counts[level] += 1
        name = entry if counts[level] == 1 else f"{entry} {counts[level]}"
        seats.append(Seat(name, level))
    names = [seat.name for seat in seats]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise SeatError(f"seat names must be unique; {', '.join(twice)} is given more than once")
    problem = names_problem(names)
    if problem:
        raise SeatError(f"bad seat name: {problem}")
    return seats


def seats_of(names: Sequence[str]) -> list[Seat]:
    """The seats of a saved game, from its player names: ``ai:<level>`` names are computers."""
    seats = []
    for name in names:
        if name.startswith(AI_PREFIX):
            level = name[len(AI_PREFIX):].split(" ")[0]
            problem = level_problem(level)
            if problem is not None:
                raise SeatError(f"the saved seat {name!r} is a computer of an unknown level: {problem}")
            seats.append(Seat(name, level))
        else:
            seats.append(Seat(name))
    return seats
