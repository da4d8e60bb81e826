"""The buy_points effect: its parameters as rules files write them, and the check of its engine limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import override

from spbc.contract.abi import MAX_POINTS_PER_OFFER, Stage
from spbc.lang.decls import Decl, Declarations
from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True, kw_only=True)  # a required parameter may follow those with defaults
class BuyPoints(Effect):
    """Right after ``after`` scores, the owner may buy up to ``max_points`` points.

    ``per`` is ``"card"`` (the cap, and the income, count once per copy owned) or ``"player"``.
    ``verb`` is the word of the move in the notation (``pub 3``). Points are bought in lots of ``lot``
    points (1: one by one), each lot for ``rubles_per_lot`` rubles, or ``lot`` times ``rubles_per_point``:
    a ruleset gives one of the two prices. ``income`` is rubles the owner receives with the offer, before
    buying: an income of 4 at 1 ruble a point, up to 4 points, is "4 in any mix of rubles and points".
    The offers after one phase come by ``rank``, lowest first, then in card declaration order.
    """

    kind: ClassVar[str] = "buy_points"
    order: ClassVar[int] = 40
    #: after a phase scores, each owner in turn decides how many points to buy (after the drawn stage)
    stages: ClassVar[tuple[Stage, ...]] = (Stage(20, "points"),)
    verb: str = setting()
    after: str = setting(refers_to="phase")
    rubles_per_point: int = setting(default=0)
    max_points: int = setting(minimum=1, cap=(MAX_POINTS_PER_OFFER,
                                               f"a move holds at most {MAX_POINTS_PER_OFFER} points"))
    per: str = setting(choices=("card", "player"), default="card")
    rubles_per_lot: int = setting(default=0)
    lot: int = setting(minimum=1, default=1)
    income: int = setting(default=0)
    rank: int = setting(default=0)

    @property
    def price(self) -> int:
        """The rubles of one lot."""
        return self.rubles_per_lot or self.lot * self.rubles_per_point

    @override
    @classmethod
    def check(cls, checker: Declarations, card: Decl, ability: Decl) -> None:
        """One price, a cap of whole lots, and one decision's points within a move code:
        at most MAX_POINTS_PER_OFFER (SPB411)."""
        per_point, per_lot = ability.get("rubles_per_point", 0), ability.get("rubles_per_lot", 0)
        if ability.valid("rubles_per_point", "rubles_per_lot") and (per_point > 0) == (per_lot > 0):
            both = per_point > 0
            where = ability.spans["rubles_per_lot"] if both else ability.block.anchor
            checker.report("SPB413", f"card '{card.id}' buys points at "
                           + ("two prices, rubles_per_point and rubles_per_lot" if both else "no price"), where,
                           hint="give one of rubles_per_point (rubles for each point) and rubles_per_lot "
                           "(rubles for each lot of 'lot' points), at least 1")
        lot, most = ability.get("lot", 1), ability.get("max_points")
        if ability.valid("lot", "max_points") and most is not None and most % lot:
            checker.report("SPB413", f"card '{card.id}' buys points in lots of {lot}, and its max_points {most} "
                           "is no whole number of lots", ability.spans["max_points"],
                           hint=f"make max_points a multiple of {lot}")
        copies = card.get("copies") if card.valid("copies") else None
        most = ability.get("max_points")
        if most is None or copies is None or not ability.valid("max_points", "per"):
            return
        points = most * copies if ability.get("per", "card") == "card" else most
        if points > MAX_POINTS_PER_OFFER:
            checker.report("SPB411", f"card '{card.id}' lets a player buy {points} points at once "
                           f"({most} for each of its {copies} copies); the engine allows at most "
                           f"{MAX_POINTS_PER_OFFER}", ability.spans["max_points"],
                           hint="lower max_points or copies, or write per = player")


EFFECT = BuyPoints
