"""The buy_points mechanic in the rules reference: its step after a phase, and its notation form."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, Phase, RulesModel
from spbc.mechanics.buy_points.effect import BuyPoints
from spbc.reference.forms import NotationForm
from spbc.reference.hooks import ReferencePart
from spbc.reference.language import say_of


class Reference(ReferencePart[BuyPoints]):
    """The buy_points mechanic's part in the rules reference."""

    @override
    def round_step(self, model: RulesModel, uses: list[tuple[Card, BuyPoints]], phase: Phase) -> list[str]:
        after = [card.name for card, effect in sorted(uses, key=lambda use: use[1].rank) if effect.after == phase.id]
        return [say_of(model, BuyPoints.kind, "round_step", phase.name, after)] if after else []

    @override
    def notation_forms(self, model: RulesModel, card: Card, effect: BuyPoints) -> list[NotationForm]:
        example = max(effect.lot, min(3, effect.max_points) // effect.lot * effect.lot)
        mix = effect.income and effect.price == effect.lot and effect.max_points == effect.income
        meaning = (say_of(model, BuyPoints.kind, "notation_mix", card.name, effect.income) if mix
                   else say_of(model, BuyPoints.kind, "notation", card.name))
        return [NotationForm(f"{effect.verb} N", meaning, f"{effect.verb} {example}")]
