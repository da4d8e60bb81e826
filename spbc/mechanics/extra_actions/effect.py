"""The extra_actions effect: its parameters as rules files write them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spbc.lang.model import Effect
from spbc.lang.schema import setting

#: The most extra actions one play gives: the state keeps what is left in one small number.
MAX_EXTRA_ACTIONS = 10


@dataclass(frozen=True)
class ExtraActions(Effect):
    """Played from the hand (its card is special), as an action in any phase: the player takes
    ``actions`` more actions at once before the next seat's turn (a pass ends them); the card goes to
    the discard pile. ``verb`` is the word of the move (``double``)."""

    kind: ClassVar[str] = "extra_actions"
    order: ClassVar[int] = 61
    plays_special: ClassVar[bool] = True
    verb: str = setting()
    actions: int = setting(minimum=1, default=2,
                           cap=(MAX_EXTRA_ACTIONS, f"one play gives at most {MAX_EXTRA_ACTIONS} more actions"))


EFFECT = ExtraActions
