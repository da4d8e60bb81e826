"""The feast mechanic in the engine: the plays of a special card onto a card of the player's, and O_FEAST,
the feast cards lying on each seat's cards.

O_FEAST holds, per ability, seat and card (as O_OWNED), how many of the ability's card lie on that card.
A use (middle ROW_HAND, target the card it lies on) moves the feast card from the hand there; the
scoring of that card's phase (score) pays ``times - 1`` copies' income more for each feast lying on a
copy that scores, and discards those feasts; place() discards the feasts of a card whose last copy
leaves the play area. Its share of the move buffer in a normal turn: one move per card it may lie on.
Its card moves hand -> play area (lying on a card) -> discard: two moves of MAX_GAME_MOVES' count.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR, StateField
from spbc.mechanics.feast.effect import Feast


@dataclass(frozen=True)
class FeastIR:
    index: int  # its place in O_FEAST: the ability's number
    card: int
    times: int
    copies: int
    targets: tuple[int, ...]  # the cards it may lie on: those paying rubles and points
    origin: str


class Lower(LowerPart):
    """The feast mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        targets = tuple(c.index for c in lowering.cards if c.rubles > 0 and c.points > 0 and not c.special)
        rows = tuple(FeastIR(n, i, e.times, lowering.cards[i].copies, targets, lowering.origin(e.span))
                     for n, (i, _, e) in enumerate(lowering.abilities(Feast)))
        game, ncards = lowering.model.game, len(lowering.model.cards)
        scored = {c.index: lowering.phase[lowering.model.cards[c.index].pays_in or ""]
                  for c in lowering.cards if c.index in targets and lowering.model.cards[c.index].pays_in}
        return MechanicIR(
            Feast.kind, rows,
            fields=(StateField("feast", len(rows) * game.max_players * ncards, "area"),),
            tables=(("FEAST_ON", "int", tuple(int(c.index in targets) for c in lowering.cards)),),
            uses=tuple(dict.fromkeys(row.card for row in rows)), scores=tuple(sorted(set(scored.values()))),
            problems=1, locals=(("score_phase", ("f",)),),
            moves=(("actions", len(rows) * len(targets)),),
        )
