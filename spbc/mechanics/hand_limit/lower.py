"""The hand_limit mechanic in the engine: one row per ability; hand_limit() raises the limit for their owners.

Its largest limit sizes every hand in the state (HAND_MAX); it lists no moves of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR
from spbc.mechanics.hand_limit.effect import HandLimit


@dataclass(frozen=True)
class HandLimitIR:
    card: int
    limit: int
    origin: str


class Lower(LowerPart):
    """The hand_limit mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(HandLimitIR(i, e.limit, lowering.origin(e.span)) for i, _, e in lowering.abilities(HandLimit))
        return MechanicIR(HandLimit.kind, rows, hand_max=max(row.limit for row in rows))
