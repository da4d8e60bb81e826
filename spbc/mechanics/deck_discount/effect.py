"""The deck_discount effect: its parameters as rules files write them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True)
class DeckDiscount(Effect):
    """The owner pays ``amount`` less for every card of one of ``decks`` they buy or play, whatever its
    colour (the discount mechanic takes off a colour, trading cards of that colour included)."""

    kind: ClassVar[str] = "deck_discount"
    order: ClassVar[int] = 11  # after discount: prices are the colours' first, then the decks'
    decks: tuple[str, ...] = setting(refers_to="deck")
    amount: int = setting(minimum=1, default=1)


EFFECT = DeckDiscount
