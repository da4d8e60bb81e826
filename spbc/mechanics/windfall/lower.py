"""The windfall mechanic in the engine: one use move per special card in the player's hand.

A use (middle ROW_HAND) takes the card out of the hand onto the discard pile and pays the rubles;
then the turn ends as after any action (hooks.turn_over). Its share of the move buffer in a normal
turn: 1 per ability. The use moves a card (hand -> discard), so it counts among MAX_GAME_MOVES' actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR
from spbc.mechanics.windfall.effect import Windfall


@dataclass(frozen=True)
class WindfallIR:
    card: int
    rubles: int
    origin: str


class Lower(LowerPart):
    """The windfall mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(WindfallIR(i, e.rubles, lowering.origin(e.span)) for i, _, e in lowering.abilities(Windfall))
        return MechanicIR(Windfall.kind, rows, uses=tuple(dict.fromkeys(row.card for row in rows)),
                          moves=(("actions", len(rows)),))
