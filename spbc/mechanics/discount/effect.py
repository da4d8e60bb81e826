"""The discount effect: its parameters as rules files write them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import override

from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True)
class Discount(Effect):
    """The owner pays ``amount`` less for every card of ``colour`` they buy or play."""

    kind: ClassVar[str] = "discount"
    order: ClassVar[int] = 10
    colour: str = setting(refers_to="colour")
    amount: int = setting(minimum=1, default=1)

    @override
    def reduction(self, colour: str) -> int:
        return self.amount if colour == self.colour else 0


EFFECT = Discount
