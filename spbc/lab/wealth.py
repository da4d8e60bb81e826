"""Per-card effects adjusted for the seat's wealth: owners of a card against seats as rich in the same round.

Seats that own a card win more often in part because they were rich enough to buy it (with random or easy
seats, much of the raw difference for the dear cards). The lab therefore stratifies by cell: the round (0 ..
11, then 12 and later together) and the seat's rubles when it was to move (bins of 4: 0-3, 4-7, ..., 60 and
more), the shape of spbc.ai.fastplay.WEALTH. A seat-game that first owned a card (bought it, or played it
from its hand) sits in the cell of that turn, its rubles before it paid; the seats it is compared with are
every turn of every seat-game that never owned the card, each in its own cell (at each of its turns the seat
could have bought it and did not). Per cell, the owners' mean (final points, or wins) less the others'; over
the cells, weighted by the owners in each: what the owners got, against seats as rich in the same round that
did not own the card.

An association, not a cause: the cells hold the round and the rubles, not the rest (the board, the other
cards owned, the points so far, the seat's level or position), and a seat that owned the card may differ
from one that did not in other ways; nor is the card's own return separated from what its price bought
instead. The interval is the normal approximation with the cells taken as independent; a seat-game that
never owned the card stands in the cell of each of its turns, so the cells share seats and the interval is,
if anything, too narrow.

Counts (spbc.lab.tally.Tally.wealth), flat: by card ``c``, cell ``k`` and statistic ``s``,
``(c * CELLS + k) * STATS + s``: the owners' seat-games, their final points, those points squared, their wins
(0 .. 3); then the same four summed over every turn of those seat-games (4 .. 7); after the cards, every
seat-turn's four by cell (``cards * CELLS * STATS + 4 * k + s``). The non-owners of a card in a cell are every
seat-turn less its owners' turns. A seat's first MAX_TURNS turns of a game count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from spbc.ai.fastplay import WEALTH
from spbc.lab.stats import Z95

ROUNDS, BINS, STEP = WEALTH
CELLS, STATS = ROUNDS * BINS, 8
#: A seat's turns of a game counted (spbc.ai.fastplay's MAX_TURNS).
MAX_TURNS = 256


def size(cards: int) -> int:
    return (cards * STATS + 4) * CELLS


def cell(round_number: int, rubles: int) -> int:
    """The cell of a seat to move in that round with these rubles."""
    r = min(max(round_number, 0), ROUNDS - 1)
    return r * BINS + min(max(rubles // STEP, 0), BINS - 1)


def to_text(counts: Sequence[int]) -> list[str]:
    """The counts as JSON holds them (a report's raw data): a line of numbers by card, then the seat-turns'."""
    step = CELLS * STATS
    return [" ".join(map(str, counts[at:at + step])) for at in range(0, len(counts), step)]


def from_text(lines: Sequence[str]) -> list[int]:
    return [int(word) for line in lines for word in line.split()]


class GameStrata:
    """One game's cells, followed move by move as spbc.ai.fastplay follows them: told whose turn it is (before
    each move, forced ones too) and when that seat owns a card, then added to the counts."""

    def __init__(self, cards: int, players: int) -> None:
        self.cells: list[list[int]] = [[] for _ in range(players)]  # by seat: its cell at each of its turns
        self.got = [[-1] * players for _ in range(cards)]  # by card and seat: the turn it first owned it
        self.turn = -2

    def to_move(self, seat: int, round_number: int, rubles: int) -> None:
        mine = self.cells[seat]
        if len(mine) >= MAX_TURNS:
            self.turn = -2
            return
        mine.append(cell(round_number, rubles))
        self.turn = len(mine) - 1

    def owns(self, card: int, seat: int) -> None:
        if card < len(self.got) and self.got[card][seat] == -1:
            self.got[card][seat] = self.turn

    def add_to(self, counts: list[int], finals: Sequence[int], winners: Sequence[bool]) -> None:
        """Add the ended game (final points and winners by seat) to the counts."""
        every = len(self.got) * CELLS * STATS
        for p, (points, won) in enumerate(zip(finals, winners)):
            for k in self.cells[p]:
                _add(counts, every + 4 * k, points, int(won))
        for c, seats in enumerate(self.got):
            for p, i in enumerate(seats):
                if i < 0:
                    continue
                points, win = finals[p], int(winners[p])
                _add(counts, (c * CELLS + self.cells[p][i]) * STATS, points, win)
                for k in self.cells[p]:
                    _add(counts, (c * CELLS + k) * STATS + 4, points, win)


def _add(counts: list[int], at: int, points: int, won: int) -> None:
    counts[at] += 1
    counts[at + 1] += points
    counts[at + 2] += points * points
    counts[at + 3] += won


@dataclass(frozen=True)
class Group:
    """Seat-games (or seat-rounds) in a cell: how many, their final points summed, squared and summed, wins."""

    n: int
    points: int
    squares: int
    wins: int

    def mean(self, wins: bool) -> float:
        return (self.wins if wins else self.points) / self.n

    def sum_of_squares(self, wins: bool) -> float:
        """The sum of squared deviations from the mean (of the wins, a 0/1 value, its own square)."""
        total, squares = (self.wins, self.wins) if wins else (self.points, self.squares)
        return max(0.0, squares - total * total / self.n)


@dataclass(frozen=True)
class Effect:
    """A difference, owners less non-owners: raw, and adjusted over the cells; a share's as a fraction."""

    raw: float
    estimate: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        return not math.isnan(self.low) and (self.low > 0 or self.high < 0)


def adjusted(cells: Sequence[tuple[Group, Group]], wins: bool) -> tuple[float, float, float]:
    """The stratified difference over cells of (owners, non-owners), weighted by the owners in each cell, with
    its 95% interval: (estimate, low, high), nan without a cell that holds both. The owners' variance is pooled
    over the cells (a cell often holds one owner), the non-owners' is each cell's own."""
    kept = [(a, b) for a, b in cells if a.n and b.n > 1]
    weight = sum(a.n for a, _ in kept)
    if not weight:
        return math.nan, math.nan, math.nan
    estimate = sum(a.n * (a.mean(wins) - b.mean(wins)) for a, b in kept) / weight
    free = sum(a.n - 1 for a, _ in kept)
    pooled = sum(a.sum_of_squares(wins) for a, _ in kept) / free if free > 0 else math.nan
    variance = sum(a.n * a.n * (pooled / a.n + b.sum_of_squares(wins) / (b.n - 1) / b.n) for a, b in kept)
    half = Z95 * math.sqrt(variance) / weight
    return estimate, estimate - half, estimate + half


@dataclass(frozen=True)
class CardEffect:
    """One card's owners against non-owners: final points and win share (a fraction), raw and adjusted."""

    owners: int  # seat-games that owned it (in the rounds counted)
    matched: int  # of those, in a cell that holds non-owners
    points: Effect
    wins: Effect


def card_cells(counts: Sequence[int], card: int) -> list[tuple[Group, Group]]:
    """The card's (owners, non-owners) by cell."""
    every = len(counts) - 4 * CELLS
    found = []
    for k in range(CELLS):
        at = (card * CELLS + k) * STATS
        a, traj, total = counts[at:at + 4], counts[at + 4:at + 8], counts[every + 4 * k:every + 4 * k + 4]
        found.append((Group(*a), Group(*(t - u for t, u in zip(total, traj)))))
    return found


def card_effect(counts: Sequence[int], card: int, everyone: Group) -> CardEffect:
    """A card's effects from the counts; ``everyone``: every seat-game of the run (less the card's owners, the
    raw comparison's non-owners)."""
    cells = card_cells(counts, card)
    owners = Group(*(sum(getattr(a, name) for a, _ in cells) for name in ("n", "points", "squares", "wins")))
    others = Group(everyone.n - owners.n, everyone.points - owners.points, everyone.squares - owners.squares,
                   everyone.wins - owners.wins)
    matched = sum(a.n for a, b in cells if a.n and b.n > 1)

    def effect(wins: bool) -> Effect:
        raw = owners.mean(wins) - others.mean(wins) if owners.n and others.n else math.nan
        return Effect(raw, *adjusted(cells, wins))

    return CardEffect(owners.n, matched, effect(False), effect(True))
