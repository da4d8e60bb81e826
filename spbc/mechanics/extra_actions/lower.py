"""The extra_actions mechanic in the engine: one use move per special card in the player's hand, and
O_EXTRA, the actions its player has left.

A use (middle ROW_HAND) discards the card from the hand and adds its actions to O_EXTRA; end_turn
(its hook keep_turn) then keeps the player on turn while O_EXTRA is above 0, taking one off per
action; a pass ends them (pass_turn). Its share of the move buffer in a normal turn: 1 per ability.
Each extra action is an action like any other (it moves a card, or is a pass), so MAX_GAME_MOVES holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR, StateField
from spbc.mechanics.extra_actions.effect import ExtraActions


@dataclass(frozen=True)
class ExtraIR:
    card: int
    actions: int
    most: int  # the most O_EXTRA its copies can hold: actions times copies
    origin: str


class Lower(LowerPart):
    """The extra_actions mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(ExtraIR(i, e.actions, e.actions * lowering.cards[i].copies, lowering.origin(e.span))
                     for i, _, e in lowering.abilities(ExtraActions))
        return MechanicIR(ExtraActions.kind, rows, fields=(StateField("extra", 1, "stage"),),
                          uses=tuple(dict.fromkeys(row.card for row in rows)), moves=(("actions", len(rows)),))
