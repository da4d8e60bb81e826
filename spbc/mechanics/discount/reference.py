"""The discount mechanic in the rules reference: its line among the cost reductions."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.reference.hooks import ReferencePart
from spbc.mechanics.discount.effect import Discount
from spbc.reference.language import say_of


class Reference(ReferencePart[Discount]):
    """The discount mechanic's part in the rules reference."""

    @override
    def reductions(self, model: RulesModel, uses: list[tuple[Card, Discount]]) -> list[str]:
        colours = {c.id: c.name for c in model.colours}
        return [say_of(model, Discount.kind, "reduction", card.name, effect.amount, colours[effect.colour])
                for card, effect in uses]
