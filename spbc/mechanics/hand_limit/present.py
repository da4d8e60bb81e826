"""The hand_limit mechanic at the table: its line on the screen."""

from __future__ import annotations

from spbc.lang.model import RulesModel
from spbc.mechanics.hand_limit.effect import HandLimit


def summary(model: RulesModel, effect: HandLimit) -> str:
    return f"hand {effect.limit}"


def summary_de(model: RulesModel, effect: HandLimit) -> str:
    return f"Hand {effect.limit}"


def summary_zh(model: RulesModel, effect: HandLimit) -> str:
    return f"手牌上限{effect.limit}"
