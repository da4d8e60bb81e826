"""The income_per_card mechanic at the table: its line on the screen and its share of a phase's income."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.mechanics.income_per_card.effect import IncomePerCard
from spbc.play.hooks import Presenter, screen_line


class Present(Presenter[IncomePerCard]):
    """The income_per_card mechanic's part at the table."""

    @override
    def pays_per_card(self, effect: IncomePerCard) -> tuple[str, str, int, int]:
        """(phase, colour, rubles, points): what the ability pays per card of the colour when the phase scores."""
        return effect.phase, effect.colour, effect.rubles, effect.points

    @override
    def summary(self, model: RulesModel, effect: IncomePerCard) -> str:
        """``1r per green``: the macro ``summary`` of its prose, given the colour's name."""
        colour = next(c.name for c in model.colours if c.id == effect.colour)
        return screen_line(model.language, effect.kind, "summary", effect, colour)
