"""A computer level as a value: its name and, for a search level, what one decision may spend.

A level is written ``hard``, ``ai:medium`` or with a budget after ``@``: ``hard@2s``, ``hard@500ms`` (CPU time
a decision) or ``hard@5000it`` (a fixed number of iterations, so that a seeded game is the same on every
machine). It is parsed once, here, into a :class:`Level`; every caller that seats, validates or searches
takes the value (in the spirit of python-chess's ``Limit``), and ``str`` writes it back::

    >>> level = Level.parse("ai:hard@2s")
    >>> level.name, level.budget, str(level)
    ('hard', Budget(iterations=0, seconds=2.0), 'hard@2s')
    >>> str(Level.parse("medium").budget), str(Level.parse("hard@2000it")), Level.parse("easy").budget is None
    ('100it', 'hard@2000it', True)

Every search level's default budget is a number of iterations (ITERATIONS), so that a level is the same
player on a fast machine and on a busy one, and a seeded game with it is the same everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from typing_extensions import override

#: The computer levels, weakest first: a person climbing them meets a step of about 150 to 300 Elo at each
#: (their ratings are in the README, from benchmarks/ladder.py).
LEVELS = ("random", "novice", "easy", "casual", "medium", "skilled", "strong", "hard", "expert")
#: The levels that search, and so take a budget.
SEARCH_LEVELS = ("casual", "medium", "skilled", "strong", "hard", "expert")
#: Each search level's default budget: iterations of the search per decision. The levels are one search
#: given about three times the iterations from level to level (expert ten times hard's).
ITERATIONS = {"casual": 40, "medium": 100, "skilled": 300, "strong": 1000, "hard": 3000, "expert": 30000}
#: The most seconds a decision may be given.
SECONDS_MAX = 600.0
#: What leads a computer's name in a seat list: ``ai:hard``.
AI_PREFIX = "ai:"

_BUDGET = re.compile(r"(?P<number>\d+(?:\.\d+)?)(?P<unit>s|ms|it)")
_HOW = "written @2s, @500ms or @5000it (seconds, milliseconds or iterations per decision)"


@dataclass(frozen=True)
class Budget:
    """What a search may spend on one decision: ``iterations`` (reproducible), or else ``seconds`` of CPU time.
    Exactly one is given: at least 1 iteration, or 1 ms to SECONDS_MAX seconds; ValueError otherwise."""

    iterations: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.iterations < 0 or self.seconds < 0 or (self.iterations > 0 and self.seconds > 0):
            raise ValueError("a budget is a number of iterations or of seconds, one of them")
        if self.iterations == 0 and not 0.001 <= self.seconds <= SECONDS_MAX:
            raise ValueError(f"a budget is at least 1 iteration or 1 ms, and at most {SECONDS_MAX:g} s")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``2s``, ``500ms`` or ``5000it``; ValueError for anything else."""
        found = _BUDGET.fullmatch(text)
        if found is None:
            raise ValueError(f"bad budget {text!r}: {_HOW}")
        number, unit = float(found["number"]), found["unit"]
        if unit == "it":
            return cls(iterations=int(number))
        return cls(seconds=number / (1000 if unit == "ms" else 1))

    @override
    def __str__(self) -> str:
        if self.iterations:
            return f"{self.iterations}it"
        milliseconds = self.seconds * 1000
        if self.seconds < 1 and milliseconds == int(milliseconds):
            return f"{int(milliseconds)}ms"
        return f"{self.seconds:g}s"


@dataclass(frozen=True)
class Level:
    """A computer level (one of LEVELS) and, for a search level, its budget (None for the others)."""

    name: str
    budget: Budget | None = None

    def __post_init__(self) -> None:
        if self.name not in LEVELS:
            raise ValueError(f"unknown computer level {self.name!r}; known: {', '.join(LEVELS)}")
        if (self.budget is None) == self.searches:
            raise ValueError(f"the level {self.name} takes {'a' if self.searches else 'no'} budget")

    @property
    def searches(self) -> bool:
        """Whether the level searches (one of SEARCH_LEVELS): it then has a budget."""
        return self.name in SEARCH_LEVELS

    @classmethod
    def parse(cls, text: str) -> Level:
        """A level as written (``ai:`` may lead it, a budget may follow: ``hard@2s``), with its default
        budget when a search level is written without one; ValueError naming the known levels or saying
        how a budget is written."""
        name, at, written = text.removeprefix(AI_PREFIX).partition("@")
        if name not in LEVELS:
            raise ValueError(f"unknown computer level {name!r}; known: {', '.join(LEVELS)}")
        if at and name not in SEARCH_LEVELS:
            raise ValueError(f"bad computer level {text!r}: only the search levels "
                             f"({', '.join(SEARCH_LEVELS)}) take a budget, {_HOW}")
        if not at:
            return cls(name, Budget(iterations=ITERATIONS[name]) if name in SEARCH_LEVELS else None)
        try:
            return cls(name, Budget.parse(written))
        except ValueError as error:
            raise ValueError(f"bad computer level {text!r}: {error}") from None

    @override
    def __str__(self) -> str:
        """The level as written, without ``ai:``, its budget after ``@`` unless it is the default one
        (``hard``, ``hard@2s``): ``Level.parse(str(level)) == level``."""
        if self.budget is None or self.budget == Level.parse(self.name).budget:
            return self.name
        return f"{self.name}@{self.budget}"


#: The most iterations a decision a computer seat may have in a game a player makes (by mail, on the web
#: lobby's form) rather than the operator: expert's. A budget in seconds or beyond this would let one
#: player's game keep the server's CPU (and so every other game) for as long as they asked.
OFFERED_ITERATIONS = ITERATIONS["expert"]


def offered_problem(level: Level) -> str | None:
    """Why level may not sit in a game a player makes rather than the operator (a budget in seconds, or more
    iterations than OFFERED_ITERATIONS), or None when it may."""
    if level.budget is None or 0 < level.budget.iterations <= OFFERED_ITERATIONS:
        return None
    return (f"the computer level {level} is the operator's to seat: a game made here takes the levels "
            f"({', '.join(LEVELS)}) or a budget of at most {OFFERED_ITERATIONS}it, such as hard@1000it")
