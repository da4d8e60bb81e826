"""The feast mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.feast.effect import Feast
from spbc.reference.action import VerbAction


class Reference(VerbAction[Feast]):
    """The feast mechanic's part in the rules reference, a verb action's."""

    ARGUMENT = "CARD"

    @override
    def example(self, model: RulesModel, card: Card) -> str:
        return next((c.name for c in model.cards if c.rubles > 0 and c.points > 0 and not c.special), card.name)
