"""The extra_actions mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.extra_actions.effect import ExtraActions
from spbc.reference.forms import NotationForm
from spbc.reference.hooks import ReferencePart
from spbc.reference.language import say_of


class Reference(ReferencePart[ExtraActions]):
    """The extra_actions mechanic's part in the rules reference."""

    @override
    def actions(self, model: RulesModel, uses: list[tuple[Card, ExtraActions]]) -> list[str]:
        return [say_of(model, ExtraActions.kind, "action", card.name, effect.verb) for card, effect in uses]

    @override
    def notation_forms(self, model: RulesModel, card: Card, effect: ExtraActions) -> list[NotationForm]:
        return [NotationForm(effect.verb, say_of(model, ExtraActions.kind, "notation", card.name, effect.actions),
                             effect.verb)]
