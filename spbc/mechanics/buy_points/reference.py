"""The buy_points mechanic in the rules reference: its step after a phase, and its notation form."""

from __future__ import annotations

from spbc.lang.model import Card, Phase, RulesModel
from spbc.mechanics.buy_points.effect import BuyPoints
from spbc.reference.forms import NotationForm
from spbc.reference.language import say_of


def round_step(model: RulesModel, uses: list[tuple[Card, BuyPoints]], phase: Phase) -> list[str]:
    after = [card.name for card, effect in uses if effect.after == phase.id]
    return [say_of(model, BuyPoints.kind, "round_step", phase.name, after)] if after else []


def notation_forms(model: RulesModel, card: Card, effect: BuyPoints) -> list[NotationForm]:
    return [NotationForm(f"{effect.verb} N", say_of(model, BuyPoints.kind, "notation", card.name),
                         f"{effect.verb} 3")]
