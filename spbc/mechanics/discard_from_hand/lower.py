"""The discard_from_hand mechanic in the engine: the plays of a special card in the player's hand, one per
other card in the hand that it may discard with it (the move's target), or one naming none.

A use (middle ROW_HAND) discards the card and its target from the hand. Its share of the move buffer in
a normal turn: per ability, one move per card of the hand (or the one play without); a hand holds at most
MAX_PLACES cards, which bounds it whatever raises the hand limit.
Both cards move hand -> discard, so each is an action of MAX_GAME_MOVES' count.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.contract.abi import MAX_PLACES
from spbc.engine.lower import LowerPart, Lowering, MechanicIR
from spbc.mechanics.discard_from_hand.effect import DiscardFromHand


@dataclass(frozen=True)
class DiscardIR:
    card: int
    origin: str


class Lower(LowerPart):
    """The discard_from_hand mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(DiscardIR(i, lowering.origin(e.span)) for i, _, e in lowering.abilities(DiscardFromHand))
        # a card of more than one copy counts its copies in the hand: it may discard another copy of itself
        counts = any(lowering.cards[row.card].copies > 1 for row in rows)
        return MechanicIR(DiscardFromHand.kind, rows, uses=tuple(dict.fromkeys(row.card for row in rows)),
                          moves=(("actions", len(rows) * MAX_PLACES),),
                          locals=(("action_moves", ("copies",)),) if counts else ())
