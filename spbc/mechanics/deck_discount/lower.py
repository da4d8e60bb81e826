"""The deck_discount mechanic in the engine: one row per ability, taken off the seat's prices when they are
computed.

reprice() computes a seat's prices (O_PRICE) from the colours' reductions (cost_context), then each row takes
its amount, times the copies of its card the seat owns, off every card of its decks (hook ``reprice``). Its
cards are among those whose coming and going reprices the seat (reprices), so O_PRICE follows them; a loaded
state's prices are computed anew (derive_prices). It keeps no state and lists no moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from spbc.engine.lower import Lowering, MechanicIR
from spbc.mechanics.deck_discount.effect import DeckDiscount


@dataclass(frozen=True)
class DeckDiscountIR:
    card: int
    decks: tuple[int, ...]
    amount: int
    origin: str


def lower(lowering: Lowering) -> MechanicIR:
    rows = tuple(
        DeckDiscountIR(i, tuple(lowering.deck[d] for d in e.decks), e.amount, lowering.origin(e.span))
        for i, _, e in lowering.abilities(DeckDiscount)
    )
    return MechanicIR(DeckDiscount.kind, rows, reprices=tuple(sorted({row.card for row in rows})))
