"""What both engines of a ruleset offer to Python: the compiled ``engine`` module and its pure-Python
``twin`` (printed from the same templates, spbc/engine/templates/api.j2), as typing Protocols.

The Game API, the backend that loads engines and everything above them type against these, so mypy
checks each use of an engine instead of a test run finding a missing attribute. The modules are loaded
from files at run time (spbc.engine.backend), where the loader asserts that they match:

>>> from spbc.engine.backend import load_engine            # doctest: +SKIP
>>> module, backend = load_engine(model)                   # doctest: +SKIP
>>> game = module.Engine.new(2, seed=7)                    # doctest: +SKIP
>>> game.playout(1), game.final_score(0)                   # doctest: +SKIP

The members are read-only (properties on the module), as the generated modules never change them.
Move codes, rows and stages are those of :mod:`spbc.contract.abi`; a state is a list of ints laid
out as ``FIELDS`` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class Engine(Protocol):
    """One game's state and the operations on it (the generated class ``Engine``).

    Seats, cards, rows and phases are indices; a method given one that the game does not have
    raises IndexError (``seat``, ``cost``, ``forecast``, ``get``) instead of reading past the state.
    """

    def legal_moves(self) -> list[int]:
        """The legal moves now, as move codes (empty once the game is over)."""
        ...

    def play(self, move: int) -> None:
        """Play a move code; ValueError if it is not legal now."""
        ...

    def clone(self) -> Engine:
        """An independent copy."""
        ...

    def state(self) -> list[int]:
        """The whole state array, STATE_SIZE ints."""
        ...

    def load(self, values: list[int]) -> None:
        """Replace the state by STATE_SIZE ints; ValueError (state unchanged) for one the engine cannot
        play safely."""
        ...

    def get(self, offset: int) -> int:
        """One value of the state array; IndexError outside it."""
        ...

    def seat(self, player: int) -> int:
        """player, if it is a seat of this game; IndexError otherwise."""
        ...

    def cost(self, player: int, card: int, row: int, target: int) -> int:
        """What player would pay for card from row, displacing target (-1: none)."""
        ...

    def hand_limit(self, player: int) -> int:
        """How many cards player may hold now."""
        ...

    def final_score(self, player: int) -> int:
        """Player's final points if the game ended now."""
        ...

    def tie_break(self, player: int) -> int:
        """What breaks a tie in final points: the larger wins."""
        ...

    def forecast(self, player: int, phase: int) -> tuple[int, int]:
        """The (rubles, points) that phase's scoring would pay player now."""
        ...

    def determinized(self, observer: int, seed: int) -> Engine:
        """A copy in which what observer cannot see is dealt anew from seed."""
        ...

    def playout(self, seed: int, limit: int = ...) -> int:
        """Random legal moves from seed, in place, to the end or limit moves; the moves made.
        RuntimeError if the game outlasts MAX_GAME_MOVES (an engine bug)."""
        ...

    # the computer players' kernels (spbc/engine/templates/kernels.j2), which the C loops reach through EngineApi

    def observed(self, observer: int, rubles: Sequence[int]) -> Engine:
        """A copy in which what observer cannot see is canonical (spbc.play.observe); rubles are the others'
        rubles as the public history gives them, one per seat, used where the rules keep rubles secret.
        ValueError for a count of the wrong length or outside the engine's values."""
        ...

    def rounds_left(self) -> int:
        """A guess at how many rounds remain, this one included."""
        ...

    def disc_to_come(self, player: int, left: int) -> int:
        """The points the disc will still bring player in the left rounds to come (0 without a disc)."""
        ...

    def position_value(self, player: int, left: int) -> float:
        """What player's position is worth to the easy player, in points, with left rounds to come."""
        ...

    def easy_choice(self, moves: Sequence[int], player: int, x: list[int], noise: float) -> int:
        """The easy player's choice among moves (legal now), its noise of up to noise points drawn from the
        generator state x (advanced in place); ValueError for a move that is not legal now."""
        ...


class EngineClass(Protocol):
    """The class ``Engine`` itself: ``Engine()`` holds no game until ``load``; ``Engine.new`` deals one."""

    def __call__(self) -> Engine: ...

    def new(self, players: int, seed: int) -> Engine:
        """A new game for players seats, shuffled from seed; ValueError for a count the rules do not allow."""
        ...


@runtime_checkable
class EngineModule(Protocol):
    """A generated engine module: the compiled ``engine`` or the ``twin``."""

    @property
    def RULESET(self) -> str:
        """The name of the ruleset the module was generated from."""
        ...

    @property
    def RULES_DIGEST(self) -> str:
        """The digest of the rules' source text (spbc.lang.model.RulesModel.digest)."""
        ...

    @property
    def CARD_IDS(self) -> tuple[str, ...]:
        """Card ids by card index."""
        ...

    @property
    def COLOUR_IDS(self) -> tuple[str, ...]: ...

    @property
    def DECK_IDS(self) -> tuple[str, ...]: ...

    @property
    def PHASE_IDS(self) -> tuple[str, ...]: ...

    @property
    def FIELDS(self) -> tuple[tuple[str, int, int], ...]:
        """The parts of the state array: (name, offset, size)."""
        ...

    @property
    def LIMITS(self) -> tuple[tuple[str, int], ...]:
        """Sizes a caller needs, by name: max_moves, state_size, hand_max, game_moves."""
        ...

    @property
    def SAFETY_PROBLEMS(self) -> tuple[str, ...]:
        """What Engine.load may find wrong with a state, by number."""
        ...

    @property
    def STATE_SIZE_(self) -> int: ...

    @property
    def MAX_MOVES_(self) -> int: ...

    @property
    def NCARDS_(self) -> int: ...

    @property
    def Engine(self) -> EngineClass: ...

    def random_games(self, players: int, games: int, seed: int) -> int:
        """Set up and play out games random games from seeds seed, seed + 1, ...; the moves made in all."""
        ...

    def c_api(self) -> object | None:
        """The compiled engine's C functions as a capsule (spbc/contract/engine_api.pxd); None for the twin."""
        ...
