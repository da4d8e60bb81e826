"""Computer players. Each chooses a legal move from what its seat may know, and from nothing else.

The shape of every agent, for anything that seats a computer player (the terminal game, ``spb sim``,
play by email)::

    agent = make_agent("ai:easy", seed=7)         # "random", "easy", ...; "ai:" may be left out
    observation = observe(game, seat)             # spbc.play.observe: built by the play layer
    code = agent.choose(observation)              # an engine move code, one of observation.legal
    game.play_code(code)

An agent never receives a :class:`spbc.play.game.Game`: ``choose`` gets an
:class:`spbc.play.observe.Observation`, the seat's view and a state in which what the seat cannot
see (the other hands, the deck order, the others' secret rubles) is canonical. Two games the seat
cannot tell apart give equal observations, so every agent is honest by construction. An agent is
seeded once (``make_agent(level, seed)``) and draws its own random numbers with the engines'
generator, so a seeded game is the same on every machine; agents may be deep-copied (undo).

Levels (``LEVELS``):

- ``random``: a uniformly random legal move.
- ``easy``: a greedy beginner: the move after which its own position looks best, by the rules'
  numbers (final points now, plus what each scoring will pay it in the rounds left), with noise.
"""

from __future__ import annotations

from typing import Protocol

from spbc.ai.tables import rounds_left
from spbc.contract.rng import MASK64, rng_below
from spbc.play.game import Game
from spbc.play.observe import Observation

LEVELS = ("random", "easy")


class Agent(Protocol):
    name: str

    def choose(self, observation: Observation) -> int:
        """The engine code of the move to play, one of ``observation.legal``; called only on the
        observing seat's turn."""
        ...


class RandomAgent:
    """Plays a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = [seed & MASK64]  # the state of the engine's generator

    def choose(self, observation: Observation) -> int:
        codes = observation.legal
        return codes[rng_below(self.rng, len(codes))] if len(codes) > 1 else codes[0]


#: easy's noise: up to this many points added to each move's value.
EASY_NOISE = 2.0


def position_value(game: Game, seat: int, left: int) -> float:
    """What seat's position is worth in points: its final points if the game ended now, plus what each
    scoring phase would pay it, by the cards it owns, in the left rounds (this one included) it will
    still score; a ruble to come is worth more than at the end while there are rounds to spend it."""
    rules = game.ruleset.model.game
    worth = min(0.4, 1 / rules.rubles_per_point + 0.05 * left)
    value = float(game._engine.final_score(seat))
    current = game.ruleset.engine.PHASE_IDS.index(game.phase)
    for index, phase in enumerate(game.ruleset.model.phases):
        if phase.scores is None:
            continue
        times = left - 1 + (index >= current and not game.is_over)
        if times > 0:
            rubles, points = game.forecast(seat, phase.id)
            value += times * (points + rubles * worth)
    return value


class EasyAgent:
    """A greedy beginner: the move that leaves its position worth most (:func:`position_value`), with
    noise. It buys income early, since income pays for rounds to come, and keeps no cards in hand,
    since the hand penalty counts in the final points."""

    name = "easy"

    def __init__(self, seed: int, noise: float = EASY_NOISE) -> None:
        self.rng = [seed & MASK64]
        self.noise = noise

    def choose(self, observation: Observation) -> int:
        codes = observation.legal
        if len(codes) == 1:
            return codes[0]
        position = observation.position()
        seat = observation.seat
        best, best_value = codes[0], float("-inf")
        for code in codes:
            after = position.clone()
            after.play_code(code)
            value = position_value(after, seat, rounds_left(after.ruleset, after.state_values()))
            value += self.noise * rng_below(self.rng, 1 << 16) / (1 << 16)
            if value > best_value:
                best, best_value = code, value
        return best


def level_problem(level: str) -> str | None:
    """Why a level name is not one of LEVELS (with a setting such as ``hard@2s`` where one takes it),
    or None."""
    level = level.removeprefix("ai:")
    if level in LEVELS:
        return None
    return f"unknown computer level {level!r}; known: {', '.join(LEVELS)}"


def make_agent(level: str, seed: int) -> Agent:
    """An agent by level name (``ai:`` may lead it); ValueError naming the known levels for any other."""
    problem = level_problem(level)
    if problem is not None:
        raise ValueError(problem)
    level = level.removeprefix("ai:")
    if level == "easy":
        return EasyAgent(seed)
    return RandomAgent(seed)
