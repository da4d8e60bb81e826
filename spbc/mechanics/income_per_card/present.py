"""The income_per_card mechanic at the table: its line on the screen and its share of a phase's income."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.play.hooks import Presenter
from spbc.mechanics.income_per_card.effect import IncomePerCard


class Present(Presenter[IncomePerCard]):
    """The income_per_card mechanic's part at the table."""

    @override
    def pays_per_card(self, effect: IncomePerCard) -> tuple[str, str, int, int]:
        """(phase, colour, rubles, points): what the ability pays per card of the colour when the phase scores."""
        return effect.phase, effect.colour, effect.rubles, effect.points

    @override
    def summary(self, model: RulesModel, effect: IncomePerCard) -> str:
        colours = {c.id: c.name for c in model.colours}
        pays = " ".join(p for p in (f"{effect.rubles}r" if effect.rubles else "",
                                    f"{effect.points}p" if effect.points else "") if p)
        return f"{pays} per {colours[effect.colour]}"

    @override
    def summary_de(self, model: RulesModel, effect: IncomePerCard) -> str:
        colours = {c.id: c.name for c in model.colours}
        pays = " ".join(p for p in (f"{effect.rubles} Rbl" if effect.rubles else "",
                                    f"{effect.points} Pkt" if effect.points else "") if p)
        return f"{pays} je {colours[effect.colour]}"

    @override
    def summary_zh(self, model: RulesModel, effect: IncomePerCard) -> str:
        colours = {c.id: c.name for c in model.colours}
        pays = " ".join(p for p in (f"{effect.rubles}盧布" if effect.rubles else "",
                                    f"{effect.points}分" if effect.points else "") if p)
        return f"每張{colours[effect.colour]}卡{pays}"
