"""The income_per_card effect: its parameters as rules files write them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True)
class IncomePerCard(Effect):
    """When ``phase`` scores, pays rubles and points per card of ``colour`` the owner has."""

    kind: ClassVar[str] = "income_per_card"
    order: ClassVar[int] = 30
    colour: str = setting(refers_to="colour")
    phase: str = setting(refers_to="phase")
    rubles: int = setting(default=0)
    points: int = setting(default=0)


EFFECT = IncomePerCard
