"""The feast mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.feast.effect import Feast
from spbc.reference.forms import NotationForm
from spbc.reference.hooks import ReferencePart
from spbc.reference.language import say_of


class Reference(ReferencePart[Feast]):
    """The feast mechanic's part in the rules reference."""

    @override
    def actions(self, model: RulesModel, uses: list[tuple[Card, Feast]]) -> list[str]:
        return [say_of(model, Feast.kind, "action", card.name, effect.verb) for card, effect in uses]

    @override
    def notation_forms(self, model: RulesModel, card: Card, effect: Feast) -> list[NotationForm]:
        example = next((c.name for c in model.cards if c.rubles > 0 and c.points > 0 and not c.special), card.name)
        return [NotationForm(f"{effect.verb} CARD", say_of(model, Feast.kind, "notation", card.name),
                             f"{effect.verb} {example}")]
