"""The windfall mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.windfall.effect import Windfall
from spbc.reference.forms import NotationForm
from spbc.reference.hooks import ReferencePart
from spbc.reference.language import say_of


class Reference(ReferencePart[Windfall]):
    """The windfall mechanic's part in the rules reference."""

    @override
    def actions(self, model: RulesModel, uses: list[tuple[Card, Windfall]]) -> list[str]:
        return [say_of(model, Windfall.kind, "action", card.name, effect.verb) for card, effect in uses]

    @override
    def notation_forms(self, model: RulesModel, card: Card, effect: Windfall) -> list[NotationForm]:
        return [NotationForm(effect.verb, say_of(model, Windfall.kind, "notation", card.name, effect.rubles),
                             effect.verb)]
