"""The income_per_card mechanic in the engine: one row per ability, paid in its phase's scoring.

It adds to score_phase() for the phases its abilities name, and lists no moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from spbc.engine.lower import Lowering, MechanicIR
from spbc.mechanics.income_per_card.effect import IncomePerCard


@dataclass(frozen=True)
class IncomeIR:
    card: int
    colour: int
    rubles: int
    points: int
    phase: int  # the phase whose scoring pays it
    origin: str


def lower(lowering: Lowering) -> MechanicIR:
    rows = tuple(
        IncomeIR(i, lowering.colour[e.colour], e.rubles, e.points, lowering.phase[e.phase], lowering.origin(e.span))
        for i, _, e in lowering.abilities(IncomePerCard)
    )
    return MechanicIR(IncomePerCard.kind, rows, scores=tuple(sorted({row.phase for row in rows})))
