"""Computer players. Each chooses a legal move from what its seat may know.

Today there is one level, ``random``: a uniformly random legal move, drawn with the
engine's own generator so that a seeded game is the same on every machine and
with either engine. Stronger levels will plug in through the same ``Agent`` shape:
``choose(game, seat) -> engine move code``.
"""

from __future__ import annotations

from typing import Protocol

from spbc.play.game import Game

MASK64 = 0xFFFFFFFFFFFFFFFF
LEVELS = ("random",)


class SplitMix64:
    """The engine's generator (SplitMix64), for choices made outside the engine."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in 0..n-1, as the engine's rng_below computes it."""
        return ((self.next() >> 32) * n) >> 32


class Agent(Protocol):
    name: str

    def choose(self, game: Game, seat: int) -> int:
        """The engine code of the move to play; called only when it is seat's turn."""
        ...


class RandomAgent:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, game: Game, seat: int) -> int:
        codes = game.legal_codes()
        return codes[self.rng.below(len(codes))] if len(codes) > 1 else codes[0]


def make_agent(level: str, seed: int) -> Agent:
    """An agent by level name; ValueError naming the known levels for any other."""
    level = level.removeprefix("ai:")
    if level == "random":
        return RandomAgent(seed)
    raise ValueError(f"unknown computer level {level!r}; known: {', '.join(LEVELS)}")
