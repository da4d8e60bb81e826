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
- ``novice``: easy's greedy choice with much more noise (NOVICE_NOISE), so that it often misjudges.
- ``easy``: a greedy beginner: the move after which its own position looks best, by the rules'
  numbers (final points now, plus what each scoring will pay it in the rounds left), with noise.
- ``casual``, ``medium``, ``skilled``, ``strong``, ``hard``, ``expert``: information-set Monte Carlo tree
  search in C (spbc.ai.search), with a default budget of iterations a decision (spbc.ai.budget.ITERATIONS:
  40, 100, 300, 1,000, 3,000 and 30,000), so that each is the same player on any machine, a busy one included.

A search level takes a budget after ``@``: ``hard@5000it`` (a number of iterations, so that a seeded game
is the same on every machine) or ``hard@2s``, ``hard@500ms`` (CPU time a decision, the deciding thread's);
spbc.ai.budget parses a level once into a Level with its Budget, which make_agent also takes.
An agent also offers ``last``, a :class:`Decision` with the figures of its last choice
(None for the levels that do not search).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from spbc.ai import search
from spbc.ai.budget import ITERATIONS, LEVELS, Budget, Level
from spbc.ai.tables import card_tables
from spbc.contract.rng import MASK64, rng_below, rng_next
from spbc.play.game import Ruleset
from spbc.play.observe import Observation

#: The share of a time budget the search may take: the rest is left for the observation and the answer,
#: so that a decision keeps within its budget of CPU time.
TIME_SHARE = 0.95


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
#: novice's: about midway in Elo between random and easy (in 400 games of each pair, 2 players, base: 80%
#: over random, 24% against easy).
NOVICE_NOISE = 18.0
#: The levels that choose as easy does, each with its noise.
NOISES = {"novice": NOVICE_NOISE, "easy": EASY_NOISE}


class EasyAgent:
    """A greedy beginner: the move that leaves its position worth most, with noise. A position's worth is
    its final points if the game ended now, plus what each scoring phase would pay it, by the cards it
    owns, in the rounds left (this one included) it will still score, plus the points the disc will bring
    it; a ruble to come is worth more than at the end while there are rounds to spend it. It buys income
    early, since income pays for rounds to come, and keeps no cards in hand, since the hand penalty counts
    in the final points. The engine computes it (Engine.easy_choice, spbc/engine/templates/kernels.j2),
    the same function the balance lab's C loop calls for its easy seats."""

    def __init__(self, seed: int, noise: float = EASY_NOISE, name: str = "easy") -> None:
        self.rng = [seed & MASK64]
        self.noise = noise
        self.name = name

    def choose(self, observation: Observation) -> int:
        codes = observation.legal
        if len(codes) == 1:
            return codes[0]
        return observation.engine().easy_choice(codes, observation.seat, self.rng, self.noise)


@dataclass(frozen=True)
class Choice:
    """One move the search weighed at the root: how often it was tried, and what it won there."""

    code: int
    visits: int
    reward: float  # the mean reward (win share blended with the score margin)
    win: float  # the mean share of the win (ties shared): the estimated win chance


@dataclass(frozen=True)
class Decision:
    """What a search found for one decision: its moves, best first, and what it cost. ``rows`` are the
    search's own (code, visits, reward, win) of each move; ``choices`` makes them Choices when first asked for
    (a game only needs the best code: a Choice a move would cost a medium decision more than its search's
    own plumbing)."""

    rows: tuple[tuple[int, int, float, float], ...]
    iterations: int
    playouts: int
    nodes: int
    seconds: float  # the search's CPU time (its thread's)
    line: tuple[int, ...] = ()  # the principal line: the most visited move at each node from the root
    played: int = -1  # the move a search seat plays (spbc.ai.search's _played_move); -1: best

    @cached_property
    def choices(self) -> tuple[Choice, ...]:
        """The moves weighed, best (most visited) first."""
        return tuple(Choice(*row) for row in self.rows)

    @property
    def best(self) -> int:
        """The code of the move chosen: the most visited."""
        return self.rows[0][0]


@dataclass(frozen=True)
class Settings:
    """How the search weighs: the share of the score margin in a reward, the margin that counts
    fully, UCB's exploration constant, the playouts (spbc.ai.search.ROLLOUTS). The margin is squashed smoothly
    (issue 26: a clamped margin left every move of a decided game worth the same): against CLAMPED, 2 players,
    seats rotated, 200 games each, it won 47.0% (95% Wilson 40-54%) at 500 iterations and 51.2% (44-58%) at
    1000, by a mean margin of +16 and +32 points. The light playouts (random until the last round, then hand
    cards played and scoring buys), with a hand card played rather than a pass at the root in the last round,
    are the default: at 500 iterations, 600 games each (benchmarks/rollouts.py, before that root rule), they
    won 58.7% (54.7-62.5%) against random playouts by +12.2 points and 55.5% (51.5-59.4%) against CLAMPED by
    +30.9, ending with a hand card in 28% and 30% of seat-games (random 61%, CLAMPED 71%), at some 5-9% fewer
    iterations a CPU second; with the root rule, 400 games each: 59.8% (54.9-64.4%) by +11.9 and 58.2%
    (53.4-63.0%) by +31.4, a hand card at the end in 19% and 16% of seat-games. The "policy" playouts measured
    weaker (41.7% of 60 games against random). Since the light policy's last round counts a card's income
    only while its phase has still to score, and a new noble's share of the final bonus (spbc/ai/playout.pxi
    _scores), it won 344 of 600 games (57.3%) at 1,000 iterations against the light policy before, by +5.6
    points a game. UCB's constant scaled by each node's deviation of rewards (``deviation``: in a decided game
    the rewards of every move lay within a few hundredths, and a constant of 0.7 tried them all alike, so a
    won last round spent its rubles on cards worth nothing rather than play a hand card worth 5 points) with a
    constant of 1.2 won 204 of 400 games (51.0%) at 3,000 iterations against the search before, by +6.7 points
    a game, and 214 of 400 (53.5%) by +8.9 at 1,000."""

    margin_weight: float = 0.3
    margin_scale: float = 40.0
    exploration: float = 1.2
    rollout: str = "light"  # the playouts: "light", "random" (the engine's) or "policy" (spbc.ai.search.ROLLOUTS)
    squash: bool = True  # the margin m as m / (|m| + margin_scale); False: m / margin_scale clamped at +-1
    deviation: float = 0.01  # > 0: UCB's constant times each node's reward deviation (at least this); 0: not


#: The weighing before issue 26: 0.1 of the margin, clamped at 30 points (flat once a game is decided).
CLAMPED = Settings(margin_weight=0.1, margin_scale=30.0, squash=False, rollout="random", exploration=0.7, deviation=0.0)


#: The per-card tables the search is handed: cost, rubles, points, the phase paying each, whether a noble; and
#: the bonus of different nobles by their number.
_Tables = tuple[tuple[int, ...], ...]


def search_inputs(ruleset: Ruleset, settings: Settings = Settings()
                  ) -> tuple[_Tables, dict[str, int], dict[str, float]]:
    """What the search is handed for these rules: the card tables, the state layout, the settings (a
    SearchAgent's, and the C loop's search seats', spbc.ai.fastplay)."""
    tables = card_tables(ruleset)
    game = ruleset.model.game
    offsets = {name: offset for name, offset, _ in ruleset.engine.FIELDS}  # the others: EngineApi's
    layout = {"hand_limit": game.hand_limit, "hand_penalty": game.hand_penalty,
              "rubles_per_point": game.rubles_per_point,
              "o_phase": offsets["phase"], "o_current": offsets["current"], "o_owned": offsets["owned"]}
    weighing = {
        "margin_weight": settings.margin_weight, "margin_scale": settings.margin_scale,
        "exploration": settings.exploration, "rollout": search.ROLLOUTS[settings.rollout],
        "squash": int(settings.squash), "deviation": settings.deviation,
    }
    return (tables.cost, tables.rubles, tables.points, tables.pays_in, tables.noble, game.noble_bonus), layout, weighing


class SearchAgent:
    """Information-set Monte Carlo tree search on the compiled engine (spbc.ai.search), from the
    observation's state: every iteration deals the unseen cards anew from the agent's own generator.
    A budget (spbc.ai.budget.Budget) of iterations (fixed: reproducible) or else seconds per decision: CPU
    seconds of the deciding thread (time.thread_time, and the search's own clock in C), so that time the
    machine gave to others is not taken from the decision. ``clock`` replaces both (a test's clock)."""

    def __init__(self, name: str, seed: int, budget: Budget = Budget(iterations=ITERATIONS["hard"]),
                 settings: Settings = Settings(), clock: Callable[[], float] | None = None) -> None:
        self.name = name
        self.rng = [seed & MASK64]
        self.budget = budget
        self.settings = settings
        self.clock = clock
        self.last: Decision | None = None
        self._prepared: tuple[Ruleset, _Tables, dict[str, int], dict[str, float]] | None = None

    def decide(self, observation: Observation) -> Decision:
        """Search the observation (even a forced move) and give what was found. With a time budget,
        the search stops so that the whole decision keeps within TIME_SHARE of it, in CPU time."""
        now = time.thread_time if self.clock is None else self.clock
        began = now()
        ruleset = observation.ruleset
        capsule = ruleset.engine.c_api()
        if capsule is None:
            raise RuntimeError(f"ai:{self.name} searches on the compiled engine, and these rules run on the "
                               "Python twin (no C compiler, or SPBC_BACKEND=python); choose ai:easy or ai:random")
        if self._prepared is None or self._prepared[0] is not ruleset:
            self._prepared = (ruleset, *self._prepare(ruleset))
        _, tables, layout, settings = self._prepared
        seed = rng_next(self.rng)
        seconds = 0.0
        if self.budget.iterations <= 0:
            seconds = max(0.0005, self.budget.seconds * TIME_SHARE - (now() - began))
        children, iterations, playouts, nodes, took, line, played = search.search(
            capsule, observation.state, observation.seat, self.budget.iterations, seconds, seed,
            tables, layout, settings, self.clock)
        self.last = Decision(tuple(children), iterations, playouts, nodes, took, tuple(line), played)
        return self.last

    def _prepare(self, ruleset: Ruleset) -> tuple[_Tables, dict[str, int], dict[str, float]]:
        return search_inputs(ruleset, self.settings)

    def __deepcopy__(self, memo: dict[int, object]) -> SearchAgent:
        """A copy that draws on from the same generator state (the terminal game's undo keeps one per
        move): the generator is copied, the prepared tables of the rules (which hold the engine module)
        and the last decision (frozen) are shared."""
        twin = copy.copy(self)
        twin.rng = list(self.rng)
        return twin

    def choose(self, observation: Observation) -> int:
        codes = observation.legal
        if len(codes) == 1:
            self.last = Decision(((codes[0], 0, 0.0, 0.0),), 0, 0, 0, 0.0)
            return codes[0]
        decision = self.decide(observation)  # with light playouts, a last round's pass gives way to a hand card
        return decision.played if decision.played >= 0 else decision.best


def level_problem(level: str) -> str | None:
    """Why a level name is not one of LEVELS (with a budget such as ``hard@2s`` where one takes it),
    or None (spbc.ai.budget.Level.parse)."""
    try:
        Level.parse(level)
    except ValueError as error:
        return str(error)
    return None


def make_agent(level: str | Level, seed: int) -> Agent:
    """An agent by level (a Level, or its name: ``ai:`` may lead it, a budget may follow: ``hard@2s``);
    ValueError naming the known levels for any other name."""
    parsed = Level.parse(level) if isinstance(level, str) else level
    if parsed.name in NOISES:
        return EasyAgent(seed, NOISES[parsed.name], parsed.name)
    if parsed.budget is not None:
        return SearchAgent(str(parsed), seed, parsed.budget)
    return RandomAgent(seed)
