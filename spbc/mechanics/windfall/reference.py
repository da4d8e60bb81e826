"""The windfall mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.windfall.effect import Windfall
from spbc.reference.forms import NotationForm
from spbc.reference.language import say_of


def actions(model: RulesModel, uses: list[tuple[Card, Windfall]]) -> list[str]:
    return [say_of(model, Windfall.kind, "action", card.name, effect.verb) for card, effect in uses]


def notation_forms(model: RulesModel, card: Card, effect: Windfall) -> list[NotationForm]:
    return [NotationForm(effect.verb, say_of(model, Windfall.kind, "notation", card.name, effect.rubles),
                         effect.verb)]
