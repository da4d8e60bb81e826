"""The hand_limit mechanic in the rules reference: the cards named in the paragraph on the hand."""

from __future__ import annotations

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.hand_limit.effect import HandLimit


def hand_raisers(model: RulesModel, uses: list[tuple[Card, HandLimit]]) -> list[str]:
    return [card.name for card, _ in uses]
