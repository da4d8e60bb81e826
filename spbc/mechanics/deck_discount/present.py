"""The deck_discount mechanic at the table: its line on the screen."""

from __future__ import annotations

from spbc.lang.model import RulesModel
from spbc.mechanics.deck_discount.effect import DeckDiscount


def _decks(model: RulesModel, effect: DeckDiscount) -> str:
    return "/".join(deck.name for deck in model.decks if deck.id in effect.decks)


def summary(model: RulesModel, effect: DeckDiscount) -> str:
    return f"-{effect.amount} on {_decks(model, effect)}"


def summary_de(model: RulesModel, effect: DeckDiscount) -> str:
    return f"-{effect.amount} auf {_decks(model, effect)}"


def summary_zh(model: RulesModel, effect: DeckDiscount) -> str:
    return f"{_decks(model, effect)}減{effect.amount}"
