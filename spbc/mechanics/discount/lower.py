"""The discount mechanic in the engine: one row per discount ability, and the discounts of every play area.

O_DISCOUNT holds, per seat and colour, what the seat's cards take off every card of that colour;
place() keeps it as cards come and go and reprices the seat for its cards (reprices), cost_context() reads it
for the seat's prices (O_PRICE), and the state check recomputes it.
The mechanic lists no moves, so it adds nothing to the move buffer.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR, StateField
from spbc.mechanics.discount.effect import Discount


@dataclass(frozen=True)
class DiscountIR:
    card: int
    colour: int
    amount: int
    origin: str


class Lower(LowerPart):
    """The discount mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(
            DiscountIR(i, lowering.colour[e.colour], e.amount, lowering.origin(e.span))
            for i, _, e in lowering.abilities(Discount)
        )
        game, colours = lowering.model.game, len(lowering.model.colours)
        return MechanicIR(
            Discount.kind, rows,
            fields=(StateField("discount", game.max_players * colours, "area"),),
            locals=(("areas_problem", ("discount",)),),
            reprices=tuple(sorted({row.card for row in rows})),  # what p takes off a colour changes with them
        )
