"""A tally read as statistics: shares with intervals, means, the even-share test, and, for two rulesets,
every difference tested and corrected for their number (Holm). Card names come from the compiled rules."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from spbc.lab.run import Outcome
from spbc.lab.stats import ALPHA, Mean, Share, even_share_test, holm, mean_difference, mean_of, mean_of_sums, \
    share_difference
from spbc.lab.tally import EVENTS
from spbc.play.game import Ruleset


@dataclass(frozen=True)
class CardFigures:
    id: str
    name: str
    rates: tuple[Mean, ...]  # per game, by event (EVENTS)
    owned: Share  # seat-games in which the seat owned the card, of all seat-games
    owners: Share  # games won by seats that owned it, of the seat-games in which it was owned
    others: Share  # the same for the seats that did not own it


@dataclass(frozen=True)
class Summary:
    """The figures of one ruleset's run."""

    ruleset: str
    seats: tuple[str, ...]  # the computer levels, rotated from game to game
    games: int  # the games that finished
    planned: int  # the games asked for: more when the run was interrupted
    mode: str  # "C loop" or "Game API"
    positions: tuple[Share, ...]  # wins by seat position (0 starts)
    even_chi2: float
    even_p: float
    levels: tuple[tuple[str, Share], ...]  # wins by level, when the seats differ
    rounds: Mean
    moves: Mean
    margin: Mean
    score: Mean  # every seat's final points
    scores: tuple[Mean, ...]  # by position
    round_counts: Counter[int]
    move_counts: Counter[int]
    margin_counts: Counter[int]
    score_counts: Counter[int]
    cards: tuple[CardFigures, ...]


def summarize(ruleset: Ruleset, outcome: Outcome) -> Summary:
    tally, plan = outcome.tally, outcome.plan
    n, players = tally.games, tally.players
    names = {card.id: card.name for card in ruleset.cards}
    total_wins = sum(tally.wins)
    cards = []
    for c, card_id in enumerate(ruleset.engine.CARD_IDS):
        rates = tuple(
            mean_of_sums(n, sum(tally.event(e, c, p) for p in range(players)), tally.squares[e * tally.cards + c])
            for e in range(len(EVENTS)))
        owners = sum(tally.owners[c * players:(c + 1) * players])
        owner_wins = sum(tally.owner_wins[c * players:(c + 1) * players])
        cards.append(CardFigures(card_id, names[card_id], rates, Share(owners, n * players),
                                 Share(owner_wins, owners), Share(total_wins - owner_wins, n * players - owners)))
    chi2, p = even_share_test(tally.wins)
    levels = tuple((level, Share(tally.level_wins[level], tally.level_seats[level]))
                   for level in dict.fromkeys(plan.seats)) if len(set(plan.seats)) > 1 else ()
    all_scores: Counter[int] = Counter()
    for counts in tally.scores:
        all_scores.update(counts)
    return Summary(
        ruleset.name, plan.seats, n, plan.games, "C loop" if plan.c_levels is not None and ruleset.engine.c_api() else "Game API",
        tuple(Share(w, n) for w in tally.wins), chi2, p, levels,
        mean_of(tally.rounds), mean_of(tally.moves), mean_of(tally.margins), mean_of(all_scores),
        tuple(mean_of(c) for c in tally.scores), tally.rounds, tally.moves, tally.margins, all_scores, tuple(cards))


@dataclass(frozen=True)
class Difference:
    what: str
    first: str  # the figure of each ruleset, as text
    second: str
    p: float
    adjusted: float  # Holm's, over every difference of the comparison

    @property
    def significant(self) -> bool:
        return not math.isnan(self.adjusted) and self.adjusted < ALPHA


def _share(s: Share) -> str:
    return f"{100 * s.value:.1f}%"


def _mean(m: Mean) -> str:
    return f"{m.mean:.2f}"


def compare(a: Summary, b: Summary) -> list[Difference]:
    """Every figure of two runs tested for a difference, in the order of the report; Holm-corrected."""
    raw: list[tuple[str, str, str, float]] = []
    for p, (x, y) in enumerate(zip(a.positions, b.positions)):
        raw.append((f"win share of seat {p + 1}", _share(x), _share(y), share_difference(x, y)))
    for label, first, second in (("rounds per game", a.rounds, b.rounds), ("moves per game", a.moves, b.moves),
                                 ("final points", a.score, b.score), ("winner's margin", a.margin, b.margin)):
        raw.append((label, _mean(first), _mean(second), mean_difference(first, second)))
    theirs = {card.id: card for card in b.cards}
    for card in a.cards:
        other = theirs.get(card.id)
        if other is None:
            continue
        for e, event in enumerate(EVENTS):
            raw.append((f"{card.name}: {event} per game", _mean(card.rates[e]), _mean(other.rates[e]),
                        mean_difference(card.rates[e], other.rates[e])))
        raw.append((f"{card.name}: owners' win share", _share(card.owners), _share(other.owners),
                    share_difference(card.owners, other.owners)))
    adjusted = holm([r[3] for r in raw])
    return [Difference(w, f, s, p, q) for (w, f, s, p), q in zip(raw, adjusted)]
