"""The discard_from_hand mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.discard_from_hand.effect import DiscardFromHand
from spbc.reference.forms import NotationForm
from spbc.reference.hooks import ReferencePart
from spbc.reference.language import say_of


class Reference(ReferencePart[DiscardFromHand]):
    """The discard_from_hand mechanic's part in the rules reference."""

    @override
    def actions(self, model: RulesModel, uses: list[tuple[Card, DiscardFromHand]]) -> list[str]:
        return [say_of(model, DiscardFromHand.kind, "action", card.name, effect.verb) for card, effect in uses]

    @override
    def notation_forms(self, model: RulesModel, card: Card, effect: DiscardFromHand) -> list[NotationForm]:
        example = next((c.name for c in model.cards if not c.special), card.name)
        return [NotationForm(f"{effect.verb} [CARD]", say_of(model, DiscardFromHand.kind, "notation", card.name),
                             f"{effect.verb} {example}")]
