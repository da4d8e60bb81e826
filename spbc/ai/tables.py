"""What the compiled rules say about each card, as numbers a computer player weighs.

Every figure comes from the rules model, never from a card's name, so a house-rule variant gets the same
reasoning with no new code (what a state says of the game's length is the engine's: Engine.rounds_left).
Handed, as arrays, to the search written in Cython.
"""

from __future__ import annotations

from dataclasses import dataclass

from spbc.play.game import Ruleset


@dataclass(frozen=True)
class CardTables:
    """Per card index (the engine's card order): base cost, rubles and points it pays each time its
    phase scores, that phase's index (-1: never paid), whether it is a noble (counts toward the bonus)."""

    cost: tuple[int, ...]
    rubles: tuple[int, ...]
    points: tuple[int, ...]
    pays_in: tuple[int, ...]
    noble: tuple[int, ...]
    card_deck: tuple[int, ...]


def card_tables(ruleset: Ruleset) -> CardTables:
    model = ruleset.model
    phases = {phase: index for index, phase in enumerate(ruleset.engine.PHASE_IDS)}
    decks = {deck: index for index, deck in enumerate(ruleset.engine.DECK_IDS)}
    cards = [model.card(card) for card in ruleset.engine.CARD_IDS]
    return CardTables(
        cost=tuple(card.cost for card in cards),
        rubles=tuple(card.rubles for card in cards),
        points=tuple(card.points for card in cards),
        pays_in=tuple(phases.get(card.pays_in, -1) if card.pays_in else -1 for card in cards),
        noble=tuple(int(card.colour == model.game.noble_colour) for card in cards),
        card_deck=tuple(decks[card.deck] for card in cards),
    )
