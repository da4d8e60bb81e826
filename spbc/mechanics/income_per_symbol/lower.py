"""The income_per_symbol mechanic in the engine: one row per ability, paid in its phase's scoring.

It adds to score_phase() for the phases its abilities name, and lists no moves. The cards that
count are found when lowering (those of the symbol, and the wildcards when they count).
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR
from spbc.mechanics.income_per_symbol.effect import IncomePerSymbol


@dataclass(frozen=True)
class SymbolIncomeIR:
    card: int
    counted: tuple[int, ...]  # the indices of the cards that count
    rubles: int
    points: int
    phase: int
    origin: str


class Lower(LowerPart):
    """The income_per_symbol mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        def counted(effect: IncomePerSymbol) -> tuple[int, ...]:
            wanted = {effect.symbol, "any"} if effect.wildcards else {effect.symbol}
            return tuple(i for i, card in enumerate(lowering.model.cards) if card.symbol in wanted)

        rows = tuple(
            SymbolIncomeIR(i, counted(e), e.rubles, e.points, lowering.phase[e.phase], lowering.origin(e.span))
            for i, _, e in lowering.abilities(IncomePerSymbol)
        )
        return MechanicIR(IncomePerSymbol.kind, rows, scores=tuple(sorted({row.phase for row in rows})))
