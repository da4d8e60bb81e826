"""The hand_limit mechanic at the table: its line on the screen."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.play.hooks import Presenter
from spbc.mechanics.hand_limit.effect import HandLimit


class Present(Presenter[HandLimit]):
    """The hand_limit mechanic's part at the table."""

    @override
    def summary(self, model: RulesModel, effect: HandLimit) -> str:
        return f"hand {effect.limit}"

    @override
    def summary_de(self, model: RulesModel, effect: HandLimit) -> str:
        return f"Hand {effect.limit}"

    @override
    def summary_zh(self, model: RulesModel, effect: HandLimit) -> str:
        return f"手牌上限{effect.limit}"
