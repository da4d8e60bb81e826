"""The income_per_card mechanic in the engine: one row per ability, paid in its phase's scoring.

It adds to score_phase() for the phases its abilities name, and lists no moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR
from spbc.mechanics.income_per_card.effect import IncomePerCard


@dataclass(frozen=True)
class IncomeIR:
    card: int
    colour: int
    rubles: int
    points: int
    phase: int  # the phase whose scoring pays it
    origin: str


class Lower(LowerPart):
    """The income_per_card mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(
            IncomeIR(i, lowering.colour[e.colour], e.rubles, e.points, lowering.phase[e.phase], lowering.origin(e.span))
            for i, _, e in lowering.abilities(IncomePerCard)
        )
        return MechanicIR(IncomePerCard.kind, rows, scores=tuple(sorted({row.phase for row in rows})))
