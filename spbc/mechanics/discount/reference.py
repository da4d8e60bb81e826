"""The discount mechanic in the rules reference: its line among the cost reductions."""

from __future__ import annotations

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.discount.effect import Discount
from spbc.reference.language import say_of


def reductions(model: RulesModel, uses: list[tuple[Card, Discount]]) -> list[str]:
    colours = {c.id: c.name for c in model.colours}
    return [say_of(model, Discount.kind, "reduction", card.name, effect.amount, colours[effect.colour])
            for card, effect in uses]
