"""What the scoring pays and how the final points come about, as data a frontend draws.

:func:`phase_income` says what a phase's scoring pays each player with what they own now,
and which cards pay it ("Anna +9 rubles (Lumberjack x2, Gold Miner)"); its totals are the
engine's own forecast, so a line never disagrees with what the engine pays.
:func:`final_scores` breaks every player's final points down into the points on the
track, the noble bonus, the rubles converted and the hand penalty, and says how many
rubles are left over to break a tie. Both read only the rules model and public parts of
the game (play areas, hand sizes), except the rubles of the final breakdown, which the end
of the game makes public.

Nothing here knows a card or an ability by name: the cards that pay are the cards of the
colour the phase scores, and the abilities whose parameters say they pay per card of a
colour in the phase.

>>> [(i.name, i.rubles) for i in phase_income(game, "worker")]     # doctest: +SKIP
[('Anna', 9), ('Boris', 3)]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spbc.engine.lower import lower
from spbc.lang.model import RulesModel
from spbc.play import hooks

if TYPE_CHECKING:
    from spbc.play.game import Game, Ruleset


@dataclass(frozen=True)
class IncomePart:
    """What one card pays a player when a phase scores.

    ``copies`` are the player's copies that pay; for a card that pays per card of a colour,
    ``counted`` is how many cards of ``per`` (a colour name) it counts. ``card`` is None for
    a remainder the breakdown cannot name (an ability of a kind it does not know).
    """

    card: str | None
    name: str
    copies: int
    rubles: int
    points: int
    per: str | None = None
    counted: int = 0


@dataclass(frozen=True)
class Income:
    """What a phase's scoring pays one player, in all and card by card."""

    seat: int
    name: str
    rubles: int
    points: int
    parts: tuple[IncomePart, ...]


@dataclass(frozen=True)
class FinalScore:
    """One player's final points, part by part: ``total`` is what the engine scores (``final``).

    ``rubles_left`` is what remains of the rubles after every full ``rubles_per_point`` became
    a point: the rubles that break a tie when the rules break ties by rubles (``breaks_ties``).
    """

    seat: int
    name: str
    rank: int
    final: int
    points: int  # on the track
    nobles: int  # distinct cards of the noble colour in the play area
    noble_bonus: int
    rubles: int  # before converting
    rubles_points: int
    rubles_left: int
    hand_cards: int
    hand_penalty: int  # points lost for the cards left in hand
    breaks_ties: bool

    @property
    def total(self) -> int:
        return self.points + self.noble_bonus + self.rubles_points - self.hand_penalty


@dataclass(frozen=True)
class EndBonus:
    """What the end of the game will add for a play area and a hand as they are now (all public)."""

    nobles: int
    noble_bonus: int
    hand_cards: int
    hand_penalty: int


# --- a phase's income ----------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _idle_when_used(ruleset: Ruleset) -> frozenset[str]:
    """The cards whose copies used this round pay nothing that round (as the engine lowers them)."""
    return frozenset(card.id for card in lower(ruleset.model).cards if card.used_skips_income)


def _colour_name(model: RulesModel, colour_id: str) -> str:
    return next(colour.name for colour in model.colours if colour.id == colour_id)


def income_parts(game: Game, seat: int, phase_id: str) -> list[IncomePart]:
    """The cards of seat that the scoring of phase would pay now, each with what it pays."""
    model = game.ruleset.model
    phase = next(p for p in model.phases if p.id == phase_id)
    area = game.play_area(seat)
    used = game.used(seat)
    idle = _idle_when_used(game.ruleset)
    counts: dict[str, int] = {}
    for card_id, copies in area.items():
        colour = model.card(card_id).colour
        counts[colour] = counts.get(colour, 0) + copies
    parts = []
    for card_id, owned in area.items():
        card = model.card(card_id)
        if phase.scores is not None and card.colour == phase.scores and (card.rubles or card.points):
            copies = owned - (used.get(card_id, 0) if card_id in idle else 0)
            if copies > 0:
                parts.append(IncomePart(card_id, card.name, copies, copies * card.rubles, copies * card.points))
        for effect in card.abilities:
            pays = hooks.pays_per_card(effect)
            if pays is None or pays[0] != phase_id or not counts.get(pays[1]):
                continue
            counted = counts[pays[1]]
            parts.append(IncomePart(card_id, card.name, owned, owned * counted * pays[2], owned * counted * pays[3],
                                    per=_colour_name(model, pays[1]), counted=counted))
    return parts


def phase_income(game: Game, phase_id: str) -> tuple[Income, ...]:
    """What the scoring of a phase would pay every player now, in seat order, with the cards
    that pay it. The totals are the engine's forecast; should the cards not add up to it (an
    ability of a kind this breakdown does not know), the rest is a part without a card."""
    incomes = []
    for seat, name in enumerate(game.players):
        rubles, points = game.forecast(seat, phase_id)
        parts = income_parts(game, seat, phase_id)
        rest_rubles = rubles - sum(part.rubles for part in parts)
        rest_points = points - sum(part.points for part in parts)
        if rest_rubles or rest_points:
            parts.append(IncomePart(None, "other", 0, rest_rubles, rest_points))
        incomes.append(Income(seat, name, rubles, points, tuple(parts)))
    return tuple(incomes)


def scored_phase(before: Game, after: Game) -> str | None:
    """The phase whose scoring the move from ``before`` to ``after`` set off, or None (see :func:`ends_phase`)."""
    return before.phase if ends_phase((before.round, before.phase, before.stage), after) else None


def ends_phase(when: tuple[int, str, str], after: Game) -> bool:
    """Whether a move from (round, phase, stage) ``when`` to the game ``after`` set off the scoring of the
    phase of ``when``. A phase scores once its actions end: the game then moves on to the next phase, to
    the next round, to the end, or to the offers made right after the scoring (stage "points"); a move
    in those offers, or at the end, sets off none."""
    if when[2] in ("points", "over"):
        return False
    return (after.round, after.phase) != when[:2] or after.stage == "points" or after.is_over


# --- the end of the game ---------------------------------------------------------------------


def penalized(model: RulesModel, hand: list[str] | None, hand_size: int) -> int:
    """The cards of a hand that the hand penalty counts: all but the special cards. A hand the reader
    may not see (None) counts whole: which of its cards are special is its owner's secret."""
    if hand is None:
        return hand_size
    return sum(1 for card in hand if not model.card(card).special)


def end_bonus(model: RulesModel, play_area: dict[str, int], hand_cards: int) -> EndBonus:
    """The noble bonus and the hand penalty the end of the game would score now."""
    game = model.game
    nobles = sum(1 for card_id, copies in play_area.items()
                 if copies > 0 and model.card(card_id).colour == game.noble_colour)
    bonus = game.noble_bonus[min(nobles, len(game.noble_bonus) - 1)]
    return EndBonus(nobles, bonus, hand_cards, game.hand_penalty * hand_cards)


def final_scores(game: Game) -> tuple[FinalScore, ...]:
    """Every player's final points (as if the game ended now) broken down, in the order of the
    standings (:meth:`spbc.play.game.Game.standings`); each ``total`` equals its ``final``."""
    model = game.ruleset.model
    per_point = model.game.rubles_per_point
    scores = []
    for standing in game.standings():
        seat = standing.seat
        bonus = end_bonus(model, game.play_area(seat), penalized(model, game.hand(seat), standing.hand_size))
        scores.append(FinalScore(
            seat=seat, name=standing.name, rank=standing.rank, final=standing.final,
            points=standing.points, nobles=bonus.nobles, noble_bonus=bonus.noble_bonus,
            rubles=standing.rubles, rubles_points=standing.rubles // per_point,
            rubles_left=standing.rubles % per_point, hand_cards=bonus.hand_cards,
            hand_penalty=bonus.hand_penalty, breaks_ties=model.game.tie_break == "rubles",
        ))
    return tuple(scores)
