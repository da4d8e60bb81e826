"""What the compiled rules say about each card and the game's length, as numbers a computer player weighs.

Every figure comes from the rules model and the engine's state layout, never from a card's name, so a
house-rule variant gets the same reasoning with no new code. Used by the heuristic levels in Python and
handed, as arrays, to the search written in Cython.
"""

from __future__ import annotations

import math
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


def rounds_left(ruleset: Ruleset, state: tuple[int, ...] | list[int]) -> int:
    """A guess at how many rounds remain, this one included: 1 in the last round, else the fewest
    rounds any deck lasts if each phase draws about as many cards per round as there are players
    and one more (the game ends in the round a deck runs out)."""
    fields = ruleset._fields
    if state[fields["last_round"][0]]:
        return 1
    players = state[fields["players"][0]]
    sizes = state[fields["deck_size"][0]: fields["deck_size"][0] + len(ruleset.engine.DECK_IDS)]
    refilled = {ruleset.engine.DECK_IDS.index(phase.deck) for phase in ruleset.model.phases}
    per_round = players + 1
    return 1 + min(math.ceil(sizes[deck] / per_round) for deck in refilled)
