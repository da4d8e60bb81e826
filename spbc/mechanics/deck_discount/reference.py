"""The deck_discount mechanic in the rules reference: its line among the cost reductions."""

from __future__ import annotations

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.deck_discount.effect import DeckDiscount
from spbc.reference.language import either, say_of


def reductions(model: RulesModel, uses: list[tuple[Card, DeckDiscount]]) -> list[str]:
    names = {d.id: d.name for d in model.decks}
    return [say_of(model, DeckDiscount.kind, "reduction", card.name, effect.amount,
                   either(model, [names[d] for d in effect.decks]))
            for card, effect in uses]
