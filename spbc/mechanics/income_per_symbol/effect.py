"""The income_per_symbol effect: its parameters as rules files write them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import override

from spbc.lang.decls import Decl, Declarations
from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True)
class IncomePerSymbol(Effect):
    """When ``phase`` scores, pays rubles and points per card with ``symbol`` the owner has;
    with ``wildcards`` (the default) cards of the symbol ``any`` count too."""

    kind: ClassVar[str] = "income_per_symbol"
    order: ClassVar[int] = 31
    symbol: str = setting(refers_to="symbol")
    phase: str = setting(refers_to="phase")
    rubles: int = setting(default=0)
    points: int = setting(default=0)
    wildcards: bool = setting(default=True)

    @override
    @classmethod
    def check(cls, checker: Declarations, card: Decl, ability: Decl) -> None:
        """A symbol of its own is counted; 'any' would count only the wildcards, which is no rule anyone plays."""
        if ability.valid("symbol") and ability.get("symbol") == "any":
            checker.report("SPB304", "income_per_symbol counts the cards of one symbol, not 'any'",
                           ability.spans["symbol"], hint="name a symbol of the game's symbols list")


EFFECT = IncomePerSymbol
