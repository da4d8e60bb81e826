"""The draw_action mechanic in the engine: its use moves, and the drawn stage.

A use draws the top card of a deck into O_DRAWN (-1: none) and marks one copy used this round
(O_USED, which the core resets when the round ends); the stage is then ``drawn``, whose moves
drawn_moves() lists: buy the card, take it into the hand, or discard it.

Its share of the move buffer: in a normal turn 1 use per ability and deck it draws from; in the
drawn stage the drawn card's purchases (1, or 1 per card a trading card may displace), 1 take and
1 discard. A use draws a card, so it counts among the moves that move one (MAX_GAME_MOVES).
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR, StateField
from spbc.mechanics.draw_action.effect import DrawAction


@dataclass(frozen=True)
class DrawIR:
    card: int
    phase: int
    decks: tuple[int, ...]
    forbid_last_card: bool
    origin: str


class Lower(LowerPart):
    """The draw_action mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(
            DrawIR(i, lowering.phase[e.phase], tuple(lowering.deck[d] for d in e.decks), e.forbid_last_card,
                   lowering.origin(e.span))
            for i, _, e in lowering.abilities(DrawAction)
        )
        return MechanicIR(
            DrawAction.kind, rows,
            fields=(StateField("drawn", 1, "stage"),),
            uses=tuple(dict.fromkeys(row.card for row in rows)), problems=1,
            locals=(("apply_move", ("deck", "size")),),
            moves=(("actions", sum(len(row.decks) for row in rows)), ("drawn", lowering.purchases + 2)),
        )
