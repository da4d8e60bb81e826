"""Computer players. Each chooses a legal move from what its seat may know.

Today there is one level, ``random``: a uniformly random legal move, drawn with the
engine's own generator so that a seeded game is the same on every machine and
with either engine. Stronger levels will plug in through the same ``Agent`` shape:
``choose(game, seat) -> engine move code``.
"""

from __future__ import annotations

from typing import Protocol

from spbc.contract.rng import MASK64, rng_below
from spbc.play.game import Game

LEVELS = ("random",)


class Agent(Protocol):
    name: str

    def choose(self, game: Game, seat: int) -> int:
        """The engine code of the move to play; called only when it is seat's turn."""
        ...


class RandomAgent:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = [seed & MASK64]  # the state of the engine's generator

    def choose(self, game: Game, seat: int) -> int:
        codes = game.legal_codes()
        return codes[rng_below(self.rng, len(codes))] if len(codes) > 1 else codes[0]


def make_agent(level: str, seed: int) -> Agent:
    """An agent by level name; ValueError naming the known levels for any other."""
    level = level.removeprefix("ai:")
    if level == "random":
        return RandomAgent(seed)
    raise ValueError(f"unknown computer level {level!r}; known: {', '.join(LEVELS)}")
