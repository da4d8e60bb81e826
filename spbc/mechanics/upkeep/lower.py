"""The upkeep mechanic in the engine: one row per ability, charged in the scoring of its card's colour.

It adds to score_phase() after every income of that phase (its order is high): the copies its
owner cannot pay for are discarded one by one, then the rest is paid. It lists no moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR
from spbc.mechanics.upkeep.effect import Upkeep


@dataclass(frozen=True)
class UpkeepIR:
    card: int
    rubles: int
    phase: int  # the phase that scores the card's colour
    origin: str


class Lower(LowerPart):
    """The upkeep mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(
            UpkeepIR(i, e.rubles, lowering.phase[card.pays_in], lowering.origin(e.span))
            for i, card, e in lowering.abilities(Upkeep) if card.pays_in is not None
        )
        return MechanicIR(Upkeep.kind, rows, scores=tuple(sorted({row.phase for row in rows})))
