"""The checked model of a ruleset: what the checker produces and every later stage reads.

Every value is a frozen dataclass; names are already resolved to ids (``"green"``,
``"observatory"``) that are guaranteed to exist in the same :class:`RulesModel`.
Tuples keep declaration order, which is the order of everything generated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

from spbc.source.span import NO_SPAN, Span


def generated_name(ident: str) -> str:
    """The part of a name in generated code that an id gives: ``gold_miner`` -> ``GOLD_MINER``.

    Two ids of one kind that give the same part would be one name in the engine, so the
    checker refuses them (SPB208); lowering prefixes it (``CARD_GOLD_MINER``).
    """
    return re.sub(r"[^0-9A-Za-z]+", "_", ident).strip("_").upper()


# Span and NO_SPAN come from spbc.source.span (diagnostics point with them too).



# --- the effect vocabulary -------------------------------------------------------------
#
# A card ability is one of these. Each kind has a prose template in
# spbc/reference/templates/effects/<kind>.md.j2 and engine code in the engine templates;
# the compiler refuses a kind that lacks either.


@dataclass(frozen=True)
class Effect:
    """Base of every ability effect. ``kind`` is the name used in rules files."""

    kind: ClassVar[str] = ""
    span: Span = field(default=NO_SPAN, compare=False, kw_only=True)


@dataclass(frozen=True)
class Discount(Effect):
    """The owner pays ``amount`` less for every card of ``colour`` they buy or play."""

    kind: ClassVar[str] = "discount"
    colour: str
    amount: int = 1


@dataclass(frozen=True)
class HandLimit(Effect):
    """While the owner has this card, their hand limit is at least ``limit``."""

    kind: ClassVar[str] = "hand_limit"
    limit: int


@dataclass(frozen=True)
class IncomePerCard(Effect):
    """When ``phase`` scores, pays rubles and points per card of ``colour`` the owner has."""

    kind: ClassVar[str] = "income_per_card"
    colour: str
    phase: str
    rubles: int = 0
    points: int = 0


@dataclass(frozen=True)
class BuyPoints(Effect):
    """Right after ``after`` scores, the owner may buy up to ``max_points`` points.

    ``per`` is ``"card"`` (the cap counts once per copy owned) or ``"player"``.
    ``verb`` is the word of the move in the notation (``pub 3``).
    """

    kind: ClassVar[str] = "buy_points"
    verb: str
    after: str
    rubles_per_point: int
    max_points: int
    per: str = "card"


@dataclass(frozen=True)
class DrawAction(Effect):
    """An action in ``phase``: draw the top card of one of ``decks``, then buy, take or discard it.

    Each copy can be used once per round. ``forbid_last_card`` forbids drawing a
    deck's last card; ``used_scores`` and ``used_displaceable`` say whether a used
    copy still pays its income and may still be displaced that round.
    """

    kind: ClassVar[str] = "draw_action"
    verb: str
    phase: str
    decks: tuple[str, ...]
    forbid_last_card: bool = True
    used_scores: bool = False
    used_displaceable: bool = False


EFFECT_KINDS: dict[str, type[Effect]] = {
    cls.kind: cls for cls in (Discount, HandLimit, IncomePerCard, BuyPoints, DrawAction)
}


# --- the ruleset -----------------------------------------------------------------------


@dataclass(frozen=True)
class Colour:
    id: str
    name: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    colour: str | None  # None: each card names its own colour (the trading deck)
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    deck: str  # the deck that refills the board when this phase starts
    scores: str | None  # the colour paid when the phase ends, or None
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    german: str | None
    aliases: tuple[str, ...]
    deck: str
    colour: str
    cost: int
    copies: int
    rubles: int
    points: int
    pays_in: str | None  # the phase whose scoring pays this card (derived from colour)
    symbol: str | None  # a name from GameParams.symbols, or "any"
    displaces: str | None  # trading cards: the colour they displace; None otherwise
    displace_value: int | None  # what it is worth when displaced; None for trading cards
    abilities: tuple[Effect, ...]
    span: Span = field(default=NO_SPAN, compare=False)

    @property
    def trading(self) -> bool:
        return self.displaces is not None

    def can_displace(self, target: Card) -> bool:
        """Whether this trading card may displace target: its colour, never a trading card,
        and where this card has a symbol, the same symbol or the wildcard "any" on either."""
        if not self.trading or target.trading or target.colour != self.displaces:
            return False
        return self.symbol is None or "any" in (self.symbol, target.symbol) or target.symbol == self.symbol


@dataclass(frozen=True)
class GameParams:
    min_players: int
    max_players: int
    starting_rubles: int
    open_rubles: bool
    opening_deck: str
    opening_per_player: int
    board_size: int
    hand_limit: int
    hand_penalty: int
    rubles_per_point: int
    minimum_cost: int
    same_card_discount: int
    lower_row_discount: int
    marker_shift: int
    noble_colour: str
    noble_bonus: tuple[int, ...]
    tie_break: str  # "rubles" or "none"
    symbols: tuple[str, ...]
    first_phase_must_buy: bool = False  # 2nd edition: no pass or take in the first worker phase
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True)
class RulesModel:
    """A whole checked ruleset."""

    name: str
    title: str
    edition: str
    files: tuple[str, ...]  # every source file, relative, in the order read
    digest: str  # sha256 of the source texts, in the order read
    game: GameParams
    colours: tuple[Colour, ...]
    decks: tuple[Deck, ...]
    phases: tuple[Phase, ...]
    cards: tuple[Card, ...]
    cost_example: tuple[str, ...] = ()  # card ids: a trading card, the card it displaces, a discount card

    def card(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)
