"""The income_per_symbol mechanic at the table: its line on the screen."""

from __future__ import annotations

from spbc.lang.model import RulesModel
from spbc.mechanics.income_per_symbol.effect import IncomePerSymbol


def summary(model: RulesModel, effect: IncomePerSymbol) -> str:
    pays = " ".join(p for p in (f"{effect.rubles}r" if effect.rubles else "",
                                f"{effect.points}p" if effect.points else "") if p)
    return f"{pays} per {effect.symbol}"


def summary_de(model: RulesModel, effect: IncomePerSymbol) -> str:
    pays = " ".join(p for p in (f"{effect.rubles} Rbl" if effect.rubles else "",
                                f"{effect.points} Pkt" if effect.points else "") if p)
    return f"{pays} je {effect.symbol}"


def summary_zh(model: RulesModel, effect: IncomePerSymbol) -> str:
    pays = " ".join(p for p in (f"{effect.rubles}盧布" if effect.rubles else "",
                                f"{effect.points}分" if effect.points else "") if p)
    return f"每個{effect.symbol}{pays}"
