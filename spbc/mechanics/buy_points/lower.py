"""The buy_points mechanic in the engine: the offers after a phase's scoring, and the points stage.

Each ability is an offer made right after its phase scores. end_phase() starts the phase's offers
(O_OFFER: the next offer, O_OFFER_TURN: the next seat in turn order) and seek_offer() finds the next
owner to decide; while one decides the stage is ``points``, whose moves points_moves() lists.

Offers after one phase come by rank, then in card declaration order (OFFERS). Points come in lots
(OFFER_LOT, printed only where a lot is more than 1 point), each lot for OFFER_PRICE rubles; an offer
may first pay an income (OFFER_INCOME, printed only where one has it), which the owner may spend on it:
"4 in any mix of rubles and points".

Its share of the move buffer, in the points stage: 0 up to the offer's most lots, max_points / lot,
times the card's copies when the points are per card owned. Per round each player decides at most
once per offer (MAX_GAME_MOVES).
"""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override

from spbc.engine.lower import LowerPart, Lowering, MechanicIR, StateField
from spbc.mechanics.buy_points.effect import BuyPoints


@dataclass(frozen=True)
class BuyPointsIR:
    index: int  # the offer's number, in card declaration order
    card: int
    price: int  # the rubles of one lot
    max_points: int
    per_card: bool
    after: int  # the phase after whose scoring it is offered
    origin: str
    lot: int = 1  # points bought together
    income: int = 0  # rubles received with the offer, before buying (per copy when per_card)
    rank: int = 0  # its place among the offers after its phase, before card declaration order


class Lower(LowerPart):
    """The buy_points mechanic's part in the engine: its abilities lowered to rows, fields and moves."""

    @override
    def lower(self, lowering: Lowering) -> MechanicIR:
        rows = tuple(
            BuyPointsIR(n, i, e.price, e.max_points, e.per == "card", lowering.phase[e.after],
                        lowering.origin(e.span), e.lot, e.income, e.rank)
            for n, (i, _, e) in enumerate(lowering.abilities(BuyPoints))
        )
        offer_start, offers = [0], list[int]()
        for phase in range(len(lowering.model.phases)):
            offers += [row.index for row in sorted(rows, key=lambda row: (row.rank, row.index)) if row.after == phase]
            offer_start.append(len(offers))
        lots = any(row.lot > 1 for row in rows)
        incomes = any(row.income for row in rows)
        tables = (
            ("OFFER_START", "int", tuple(offer_start)),
            ("OFFERS", "int", tuple(offers)),
            ("OFFER_CARD", "int", tuple(row.card for row in rows)),
            ("OFFER_PRICE", "int", tuple(row.price for row in rows)),
            ("OFFER_MAX", "int", tuple(row.max_points // row.lot for row in rows)),  # in lots
            ("OFFER_PER_CARD", "int", tuple(int(row.per_card) for row in rows)),
            *([("OFFER_LOT", "int", tuple(row.lot for row in rows))] if lots else []),
            *([("OFFER_INCOME", "int", tuple(row.income for row in rows))] if incomes else []),
        )
        most = max(row.max_points // row.lot * (lowering.cards[row.card].copies if row.per_card else 1) for row in rows)
        return MechanicIR(
            BuyPoints.kind, rows,
            fields=(StateField("offer", 1, "stage"), StateField("offer_turn", 1, "stage")),
            tables=tables, seek="seek_offer", problems=1,
            moves=(("points", 1 + most),),
            decisions_per_round=lowering.model.game.max_players * len(rows),
        )
