"""The discard_from_hand mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.discard_from_hand.effect import DiscardFromHand
from spbc.reference.forms import NotationForm
from spbc.reference.language import say_of


def actions(model: RulesModel, uses: list[tuple[Card, DiscardFromHand]]) -> list[str]:
    return [say_of(model, DiscardFromHand.kind, "action", card.name, effect.verb) for card, effect in uses]


def notation_forms(model: RulesModel, card: Card, effect: DiscardFromHand) -> list[NotationForm]:
    example = next((c.name for c in model.cards if not c.special), card.name)
    return [NotationForm(f"{effect.verb} [CARD]", say_of(model, DiscardFromHand.kind, "notation", card.name),
                         f"{effect.verb} {example}")]
