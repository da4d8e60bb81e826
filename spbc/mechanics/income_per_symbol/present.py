"""The income_per_symbol mechanic at the table: its line on the screen."""

from __future__ import annotations

from spbc.lang.model import RulesModel
from spbc.mechanics.income_per_symbol.effect import IncomePerSymbol


def summary(model: RulesModel, effect: IncomePerSymbol) -> str:
    pays = " ".join(p for p in (f"{effect.rubles}r" if effect.rubles else "",
                                f"{effect.points}p" if effect.points else "") if p)
    return f"{pays} per {effect.symbol}"
