"""The windfall effect: its parameters as rules files write them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spbc.contract.abi import MAX_NUMBER
from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True)
class Windfall(Effect):
    """Played from the hand (its card is special), as an action in any phase: the player takes ``rubles``
    from the bank; the card goes to the discard pile. ``verb`` is the word of the move (``cash``)."""

    kind: ClassVar[str] = "windfall"
    order: ClassVar[int] = 60
    plays_special: ClassVar[bool] = True
    verb: str = setting()
    rubles: int = setting(minimum=1, cap=(MAX_NUMBER, f"a setting takes at most {MAX_NUMBER}"))


EFFECT = Windfall
