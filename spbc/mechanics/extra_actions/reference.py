"""The extra_actions mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.extra_actions.effect import ExtraActions
from spbc.reference.forms import NotationForm
from spbc.reference.language import say_of


def actions(model: RulesModel, uses: list[tuple[Card, ExtraActions]]) -> list[str]:
    return [say_of(model, ExtraActions.kind, "action", card.name, effect.verb) for card, effect in uses]


def notation_forms(model: RulesModel, card: Card, effect: ExtraActions) -> list[NotationForm]:
    return [NotationForm(effect.verb, say_of(model, ExtraActions.kind, "notation", card.name, effect.actions),
                         effect.verb)]
