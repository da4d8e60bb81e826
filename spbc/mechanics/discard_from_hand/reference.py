"""The discard_from_hand mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.discard_from_hand.effect import DiscardFromHand
from spbc.reference.action import VerbAction


class Reference(VerbAction[DiscardFromHand]):
    """The discard_from_hand mechanic's part in the rules reference, a verb action's."""

    ARGUMENT = "[CARD]"

    @override
    def example(self, model: RulesModel, card: Card) -> str:
        return next((c.name for c in model.cards if not c.special), card.name)
