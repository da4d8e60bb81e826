"""The income_per_symbol mechanic at the table: its line on the screen."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.play.hooks import Presenter
from spbc.mechanics.income_per_symbol.effect import IncomePerSymbol


class Present(Presenter[IncomePerSymbol]):
    """The income_per_symbol mechanic's part at the table."""

    @override
    def summary(self, model: RulesModel, effect: IncomePerSymbol) -> str:
        pays = " ".join(p for p in (f"{effect.rubles}r" if effect.rubles else "",
                                    f"{effect.points}p" if effect.points else "") if p)
        return f"{pays} per {effect.symbol}"

    @override
    def summary_de(self, model: RulesModel, effect: IncomePerSymbol) -> str:
        pays = " ".join(p for p in (f"{effect.rubles} Rbl" if effect.rubles else "",
                                    f"{effect.points} Pkt" if effect.points else "") if p)
        return f"{pays} je {effect.symbol}"

    @override
    def summary_zh(self, model: RulesModel, effect: IncomePerSymbol) -> str:
        pays = " ".join(p for p in (f"{effect.rubles}盧布" if effect.rubles else "",
                                    f"{effect.points}分" if effect.points else "") if p)
        return f"每個{effect.symbol}{pays}"
