"""The upkeep mechanic at the table: its line on the screen."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.play.hooks import Presenter
from spbc.mechanics.upkeep.effect import Upkeep


class Present(Presenter[Upkeep]):
    """The upkeep mechanic's part at the table."""

    @override
    def summary(self, model: RulesModel, effect: Upkeep) -> str:
        return f"costs {effect.rubles}r"

    @override
    def summary_de(self, model: RulesModel, effect: Upkeep) -> str:
        return f"kostet {effect.rubles} Rbl"

    @override
    def summary_zh(self, model: RulesModel, effect: Upkeep) -> str:
        return f"花費{effect.rubles}盧布"
