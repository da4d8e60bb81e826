"""The upkeep mechanic at the table: its line on the screen."""

from __future__ import annotations

from spbc.lang.model import RulesModel
from spbc.mechanics.upkeep.effect import Upkeep


def summary(model: RulesModel, effect: Upkeep) -> str:
    return f"costs {effect.rubles}r"


def summary_de(model: RulesModel, effect: Upkeep) -> str:
    return f"kostet {effect.rubles} Rbl"


def summary_zh(model: RulesModel, effect: Upkeep) -> str:
    return f"花費{effect.rubles}盧布"
