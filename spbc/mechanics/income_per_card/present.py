"""The income_per_card mechanic at the table: its line on the screen."""

from __future__ import annotations

from spbc.lang.model import RulesModel
from spbc.mechanics.income_per_card.effect import IncomePerCard


def summary(model: RulesModel, effect: IncomePerCard) -> str:
    colours = {c.id: c.name for c in model.colours}
    pays = " ".join(p for p in (f"{effect.rubles}r" if effect.rubles else "",
                                f"{effect.points}p" if effect.points else "") if p)
    return f"{pays} per {colours[effect.colour]}"
