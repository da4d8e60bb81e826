"""The income_per_card mechanic in the rules reference: its paragraph (prose.<lang>.j2), and its line
under the income of the phase it pays in."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.reference.hooks import ReferencePart
from spbc.mechanics.income_per_card.effect import IncomePerCard
from spbc.reference.language import say_of


class Reference(ReferencePart[IncomePerCard]):
    """The income_per_card mechanic's part in the rules reference."""

    @override
    def income(self, model: RulesModel, uses: list[tuple[Card, IncomePerCard]]) -> list[str]:
        colours = {c.id: c.name for c in model.colours}
        phases = {p.id: p.name for p in model.phases}
        return [say_of(model, IncomePerCard.kind, "income", card.name, effect, colours[effect.colour],
                       phases[effect.phase]) for card, effect in uses]
