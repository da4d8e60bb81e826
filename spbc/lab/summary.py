"""A tally read as statistics: shares with intervals, means, the even-share test, and, for two rulesets,
every difference tested and corrected for their number (Holm). Card names come from the compiled rules."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from spbc.lab.run import Outcome
from spbc.lab.paired import Paired
from spbc.lab.stats import ALPHA, Z95, Mean, Share, even_share_test, holm, mean_difference, mean_of, mean_of_sums, \
    share_difference
from spbc.lab.tally import EVENTS, Tally
from spbc.lab.wealth import CardEffect, Group, card_effect
from spbc.play.game import Ruleset


@dataclass(frozen=True)
class CardFigures:
    id: str
    name: str
    rates: tuple[Mean, ...]  # per game, by event (EVENTS)
    owned: Share  # seat-games in which the seat owned the card, of all seat-games
    owners: Share  # games won by seats that owned it, of the seat-games in which it was owned
    others: Share  # the same for the seats that did not own it
    effect: CardEffect  # owners against non-owners as rich in the same round (spbc.lab.wealth)


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
    all_scores: Counter[int] = Counter()
    for counts in tally.scores:
        all_scores.update(counts)
    everyone = Group(n * players, sum(v * k for v, k in all_scores.items()),
                     sum(v * v * k for v, k in all_scores.items()), total_wins)
    cards = []
    for c, card_id in enumerate(ruleset.engine.CARD_IDS):
        rates = tuple(
            mean_of_sums(n, sum(tally.event(e, c, p) for p in range(players)), tally.squares[e * tally.cards + c])
            for e in range(len(EVENTS)))
        owners = sum(tally.owners[c * players:(c + 1) * players])
        owner_wins = sum(tally.owner_wins[c * players:(c + 1) * players])
        cards.append(CardFigures(card_id, names[card_id], rates, Share(owners, n * players),
                                 Share(owner_wins, owners), Share(total_wins - owner_wins, n * players - owners),
                                 card_effect(tally.wealth, c, everyone)))
    chi2, p = even_share_test(tally.wins)
    levels = tuple((level, Share(tally.level_wins[level], tally.level_seats[level]))
                   for level in dict.fromkeys(plan.seats)) if len(set(plan.seats)) > 1 else ()
    return Summary(
        ruleset.name, plan.seats, n, plan.games, "C loop" if plan.c_levels is not None and ruleset.engine.c_api() else "Game API",
        tuple(Share(w, n) for w in tally.wins), chi2, p, levels,
        mean_of(tally.rounds), mean_of(tally.moves), mean_of(tally.margins), mean_of(all_scores),
        tuple(mean_of(c) for c in tally.scores), tally.rounds, tally.moves, tally.margins, all_scores, tuple(cards))


@dataclass(frozen=True)
class Difference:
    """One figure of two runs compared: each run's figure as text, the difference (second - first) with its 95%
    interval and relative change, and the test's p-value, raw and Holm-corrected. ``paired``: tested game by
    game on the same seeds (spbc.lab.paired), else as independent samples; ``share``: a win share, its
    difference in percentage points."""

    what: str
    first: str
    second: str
    p: float
    adjusted: float  # Holm's, over every difference of the comparison
    estimate: float = math.nan
    low: float = math.nan
    high: float = math.nan
    relative: float = math.nan
    paired: bool = False
    share: bool = False

    @property
    def significant(self) -> bool:
        return not math.isnan(self.adjusted) and self.adjusted < ALPHA


def _share(s: Share) -> str:
    return f"{100 * s.value:.1f}%"


def _mean(m: Mean) -> str:
    return f"{m.mean:.2f}"


#: A pair of games, one of each run, from the same seed: their rows (spbc.lab.tally.Tally.rows).
Pair = tuple[tuple[int, ...], tuple[int, ...]]


def pairs_of(first: Tally, second: Tally) -> list[Pair]:
    """The games that both runs played, by game number, as pairs of rows."""
    return [(first.rows[g], second.rows[g]) for g in sorted(first.rows.keys() & second.rows.keys())]


def _paired(pairs: list[Pair], value: Callable[[tuple[int, ...]], int], scale: int = 1,
            share: bool = False) -> Paired:
    xs, ys = [value(a) for a, _ in pairs], [value(b) for _, b in pairs]
    diffs = [y - x for x, y in zip(xs, ys)]
    discordant = (diffs.count(-1), diffs.count(1)) if share else None
    return Paired(len(pairs), sum(xs), sum(diffs), sum(d * d for d in diffs), discordant, scale)


def _won(position: int) -> Callable[[tuple[int, ...]], int]:
    """A row's 1 when the seat at position won, else 0."""
    return lambda row: row[3] >> position & 1


def _column(index: int) -> Callable[[tuple[int, ...]], int]:
    return lambda row: row[index]


def _headline(a: Summary, b: Summary, pairs: list[Pair]) -> list[Difference]:
    """The headline figures (win share by seat, length, points, margin), paired game by game."""
    def diff(what: str, first: str, second: str, paired: Paired, share: bool = False) -> Difference:
        low, high = paired.interval
        return Difference(what, first, second, paired.p, math.nan, paired.estimate, low, high, paired.relative,
                          True, share)

    found = [diff(f"win share of seat {p + 1}", _share(x), _share(y),
                  _paired(pairs, _won(p), share=True), True)
             for p, (x, y) in enumerate(zip(a.positions, b.positions))]
    for label, index, x, y in (("rounds per game", 1, a.rounds, b.rounds), ("moves per game", 0, a.moves, b.moves),
                               ("winner's margin", 2, a.margin, b.margin)):
        found.append(diff(label, _mean(x), _mean(y), _paired(pairs, _column(index))))
    players = len(a.positions)
    every_seat = _paired(pairs, lambda row: sum(row[4:]), players)
    found.append(diff("final points", _mean(a.score), _mean(b.score), every_seat))
    found += [diff(f"final points of seat {p + 1}", _mean(x), _mean(y), _paired(pairs, _column(4 + p)))
              for p, (x, y) in enumerate(zip(a.scores, b.scores))]
    return found


def _unpaired_mean(what: str, x: Mean, y: Mean) -> Difference:
    half = Z95 * math.sqrt(x.variance / x.n + y.variance / y.n) if x.n > 1 and y.n > 1 else math.nan
    d = y.mean - x.mean
    return Difference(what, _mean(x), _mean(y), mean_difference(x, y), math.nan, d, d - half, d + half,
                      d / x.mean if x.mean else math.nan)


def _unpaired_share(what: str, x: Share, y: Share) -> Difference:
    spread = math.sqrt(x.value * (1 - x.value) / x.n + y.value * (1 - y.value) / y.n) if x.n and y.n else math.nan
    d = y.value - x.value
    return Difference(what, _share(x), _share(y), share_difference(x, y), math.nan, d, d - Z95 * spread,
                      d + Z95 * spread, d / x.value if x.value else math.nan, share=True)


def figures(rulesets: list[Ruleset], outcomes: list[Outcome]) -> tuple[list[Summary], list[Difference] | None]:
    """The summary of each run and, for two runs, their differences: paired game by game when they played the
    same games (the same seed and seats)."""
    summaries = [summarize(r, o) for r, o in zip(rulesets, outcomes)]
    if len(summaries) != 2:
        return summaries, None
    first, second = (o.plan for o in outcomes)
    same_games = (first.seed, first.seats) == (second.seed, second.seats)  # game i dealt alike in both
    pairs = pairs_of(outcomes[0].tally, outcomes[1].tally) if same_games else None
    return summaries, compare(summaries[0], summaries[1], pairs)


def compare(a: Summary, b: Summary, pairs: list[Pair] | None = None) -> list[Difference]:
    """Every figure of two runs tested for a difference, in the order of the report; Holm-corrected over all.
    The headline figures are paired game by game when ``pairs`` holds the games both runs played (runs on
    the same seeds), else tested as independent samples; the per-card figures (counted over whole runs, not
    kept game by game) are always tested as independent samples, which is conservative for runs on the same
    seeds."""
    found = _headline(a, b, pairs) if pairs else _unpaired_headline(a, b)
    theirs = {card.id: card for card in b.cards}
    for card in a.cards:
        other = theirs.get(card.id)
        if other is None:
            continue
        found += [_unpaired_mean(f"{card.name}: {event} per game", card.rates[e], other.rates[e])
                  for e, event in enumerate(EVENTS)]
        found.append(_unpaired_share(f"{card.name}: owners' win share", card.owners, other.owners))
    adjusted = holm([d.p for d in found])
    return [dataclasses.replace(d, adjusted=q) for d, q in zip(found, adjusted)]


def _unpaired_headline(a: Summary, b: Summary) -> list[Difference]:
    found = [_unpaired_share(f"win share of seat {p + 1}", x, y)
             for p, (x, y) in enumerate(zip(a.positions, b.positions))]
    found += [_unpaired_mean(label, x, y) for label, x, y in (
        ("rounds per game", a.rounds, b.rounds), ("moves per game", a.moves, b.moves),
        ("winner's margin", a.margin, b.margin), ("final points", a.score, b.score))]
    return found + [_unpaired_mean(f"final points of seat {p + 1}", x, y)
                    for p, (x, y) in enumerate(zip(a.scores, b.scores))]
