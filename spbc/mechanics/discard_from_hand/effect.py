"""The discard_from_hand effect: its parameters as rules files write them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True)
class DiscardFromHand(Effect):
    """Played from the hand (its card is special), as an action in any phase: the player discards one
    more card of their choice from the hand, if they hold another; both go to the discard pile.
    ``verb`` is the word of the move (``away Lumberjack``)."""

    kind: ClassVar[str] = "discard_from_hand"
    order: ClassVar[int] = 62
    plays_special: ClassVar[bool] = True
    verb: str = setting()


EFFECT = DiscardFromHand
