"""The hand_limit effect: its parameters as rules files write them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spbc.contract.abi import MAX_PLACES
from spbc.lang.model import Effect
from spbc.lang.schema import PLACES, setting


@dataclass(frozen=True)
class HandLimit(Effect):
    """While the owner has this card, their hand limit is at least ``limit``."""

    kind: ClassVar[str] = "hand_limit"
    order: ClassVar[int] = 20
    limit: int = setting(minimum=1, cap=(MAX_PLACES, PLACES))


EFFECT = HandLimit
