"""The hand_limit mechanic in the rules reference: the cards named in the paragraph on the hand."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.reference.hooks import ReferencePart
from spbc.mechanics.hand_limit.effect import HandLimit


class Reference(ReferencePart[HandLimit]):
    """The hand_limit mechanic's part in the rules reference."""

    @override
    def hand_raisers(self, model: RulesModel, uses: list[tuple[Card, HandLimit]]) -> list[str]:
        return [card.name for card, _ in uses]
