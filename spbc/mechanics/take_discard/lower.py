"""The take_discard mechanic in the engine: its use moves, which lead into the drawn stage.

A use names the card taken in the move's target bits (the card + 1, as a displaced card): it takes
one copy off the discard pile (O_DISCARD) into O_DRAWN and marks one copy of the using card used this
round (O_USED, which the core resets when the round ends), or, for a special card played from the hand
(from_hand), moves that card from the hand to the discard pile; the stage is then ``drawn``, which the
draw_action mechanic keeps (its check makes sure the ruleset has it): buy the card, take it into the
hand, or discard it again. O_TAKEN is 1 while the card it took waits there (the decision clears it), so
that the state itself says where the waiting card came from.

Its share of the move buffer: in a normal turn 1 use per ability and card it may take. Its tables:
PICK_START (per ability, where its cards begin in PICK_CARDS) and PICK_CARDS, the cards each ability
may take. A card taken from the discard pile may move three times again (taken, then played, or
bought), so each copy of its cards adds 3 actions to a round's bound (MAX_GAME_MOVES).
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR, StateField
from spbc.mechanics.take_discard.effect import TakeDiscard


@dataclass(frozen=True)
class TakeDiscardIR:
    index: int  # the ability's number, in card declaration order: its part of PICK_CARDS
    card: int
    phase: int  # -1 for a special card played from the hand, in any phase
    cards: tuple[int, ...]  # the cards it may take from the discard pile (never a special card)
    origin: str
    from_hand: bool = False


class Lower(LowerPart):
    """The take_discard mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(
            TakeDiscardIR(n, i, -1 if e.from_hand else lowering.phase[e.phase],
                          tuple(c.index for c in lowering.cards if not c.special
                                and (not e.decks or c.deck in {lowering.deck[d] for d in e.decks})),
                          lowering.origin(e.span), e.from_hand)
            for n, (i, _, e) in enumerate(lowering.abilities(TakeDiscard))
        )
        start = [0]
        for row in rows:
            start.append(start[-1] + len(row.cards))
        tables = (
            ("PICK_START", "int", tuple(start)),
            ("PICK_CARDS", "int", tuple(c for row in rows for c in row.cards) or (0,)),
        )
        copies = sum(lowering.cards[card].copies for card in dict.fromkeys(row.card for row in rows))
        return MechanicIR(
            TakeDiscard.kind, rows, tables=tables, uses=tuple(dict.fromkeys(row.card for row in rows)),
            fields=(StateField("taken", 1, "stage"),), problems=1,
            moves=(("actions", sum(len(row.cards) for row in rows)),),
            actions_per_round=3 * copies,
        )
