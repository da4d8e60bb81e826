"""What the lab counts over games: whole numbers only, so that tallies add up to the same in any order.

A run's games are split into batches; each batch is tallied where it is played (a local process, a cluster
worker) and the tallies are added as they come back. Since every field is a count (or a count of values),
the sum does not depend on how many workers played, nor in which order the batches finished.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from spbc.lab import wealth

#: The events counted per card and seat position, in this order.
EVENTS = ("bought", "taken", "played", "displaced")


@dataclass
class Tally:
    """Counts over games of one ruleset between the same seats (rotated); positions are seat positions
    (0 starts the game)."""

    players: int
    cards: int  # the ruleset's number of cards; card indices are the engine's
    games: int = 0
    wins: list[int] = field(default_factory=list)  # by position: games won (each of tied winners counts)
    level_seats: Counter[str] = field(default_factory=Counter)  # seat-games played by each level
    level_wins: Counter[str] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)  # a game's rounds -> games
    moves: Counter[int] = field(default_factory=Counter)
    margins: Counter[int] = field(default_factory=Counter)  # the winner's final points less the runner-up's
    scores: list[Counter[int]] = field(default_factory=list)  # by position: final points -> games
    events: list[int] = field(default_factory=list)  # by (event, card, position): (e * cards + c) * players + p
    squares: list[int] = field(default_factory=list)  # by (event, card): sum over games of a game's count squared
    owners: list[int] = field(default_factory=list)  # by (card, position): games in which the seat owned the card
    owner_wins: list[int] = field(default_factory=list)  # of those, the games that seat won
    #: the wealth strata's counts: owners of each card and every seat-round by round and rubles (spbc.lab.wealth)
    wealth: list[int] = field(default_factory=list)
    #: game number -> that game's row (moves, rounds, margin, winners as a bit mask by position, then the final
    #: points by position), for the paired comparison of two runs on the same seeds; not in the JSON, nor
    #: compared (a tally read back from JSON has none)
    rows: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        self.scores = self.scores or [Counter() for _ in range(self.players)]
        self.events = self.events or [0] * (len(EVENTS) * self.cards * self.players)
        self.squares = self.squares or [0] * (len(EVENTS) * self.cards)
        self.owners = self.owners or [0] * (self.cards * self.players)
        self.owner_wins = self.owner_wins or [0] * (self.cards * self.players)
        self.wealth = self.wealth or [0] * wealth.size(self.cards)

    def add(self, other: Tally) -> None:
        """Add another tally of the same ruleset and seats into this one."""
        if (other.players, other.cards) != (self.players, self.cards):
            raise ValueError(f"cannot add a tally of {other.players} seats and {other.cards} cards to one of "
                             f"{self.players} seats and {self.cards} cards")
        self.games += other.games
        for name in ("wins", "events", "squares", "owners", "owner_wins", "wealth"):
            mine, theirs = getattr(self, name), getattr(other, name)
            mine[:] = map(operator.add, mine, theirs)  # in place, at C speed (the strata are long)
        for name in ("level_seats", "level_wins", "rounds", "moves", "margins"):
            getattr(self, name).update(getattr(other, name))
        for mine_scores, their_scores in zip(self.scores, other.scores):
            mine_scores.update(their_scores)
        self.rows.update(other.rows)

    def add_game(self, levels: Sequence[str], moves: int, rounds: int, finals: Sequence[int],
                 winners: Sequence[bool], number: int | None = None) -> None:
        """One game's result: the level at each position, its length, final points and winners (its row kept
        under its game number, when given)."""
        self.games += 1
        self.moves[moves] += 1
        self.rounds[rounds] += 1
        ordered = sorted(finals, reverse=True)
        margin = ordered[0] - ordered[1] if len(ordered) > 1 else 0
        self.margins[margin] += 1
        if number is not None:
            mask = sum(1 << p for p, won in enumerate(winners) if won)
            self.rows[number] = (moves, rounds, margin, mask, *finals)
        for position, level in enumerate(levels):
            self.scores[position][finals[position]] += 1
            self.level_seats[level] += 1
            if winners[position]:
                self.wins[position] += 1
                self.level_wins[level] += 1

    def event(self, event: int, card: int, position: int) -> int:
        return self.events[(event * self.cards + card) * self.players + position]

    def to_json(self) -> dict[str, Any]:
        """The tally as JSON values (a report's raw data; :meth:`from_json` reads it back)."""
        return {
            "players": self.players, "cards": self.cards, "games": self.games, "wins": self.wins,
            "level_seats": dict(sorted(self.level_seats.items())), "level_wins": dict(sorted(self.level_wins.items())),
            "rounds": _sorted(self.rounds), "moves": _sorted(self.moves), "margins": _sorted(self.margins),
            "scores": [_sorted(c) for c in self.scores], "events": self.events, "squares": self.squares,
            "owners": self.owners, "owner_wins": self.owner_wins,
            "wealth": wealth.to_text(self.wealth),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        def counts(values: dict[str, int]) -> Counter[int]:
            return Counter({int(k): v for k, v in values.items()})

        return cls(
            data["players"], data["cards"], data["games"], list(data["wins"]), Counter(data["level_seats"]),
            Counter(data["level_wins"]), counts(data["rounds"]), counts(data["moves"]), counts(data["margins"]),
            [counts(c) for c in data["scores"]], list(data["events"]), list(data["squares"]),
            list(data["owners"]), list(data["owner_wins"]),
            wealth.from_text(data.get("wealth", [])),
        )


def _sorted(counts: Counter[int]) -> dict[str, int]:
    return {str(k): counts[k] for k in sorted(counts)}
