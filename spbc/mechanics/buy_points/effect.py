"""The buy_points effect: its parameters as rules files write them, and the check of its engine limit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spbc.contract.abi import MAX_POINTS_PER_OFFER
from spbc.lang.decls import Decl, Declarations
from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True)
class BuyPoints(Effect):
    """Right after ``after`` scores, the owner may buy up to ``max_points`` points.

    ``per`` is ``"card"`` (the cap counts once per copy owned) or ``"player"``.
    ``verb`` is the word of the move in the notation (``pub 3``).
    """

    kind: ClassVar[str] = "buy_points"
    order: ClassVar[int] = 40
    verb: str = setting()
    after: str = setting(refers_to="phase")
    rubles_per_point: int = setting(minimum=1)
    max_points: int = setting(minimum=1, cap=(MAX_POINTS_PER_OFFER,
                                               f"a move holds at most {MAX_POINTS_PER_OFFER} points"))
    per: str = setting(choices=("card", "player"), default="card")

    @classmethod
    def check(cls, checker: Declarations, card: Decl, ability: Decl) -> None:
        """One decision's points travel in a move code: at most MAX_POINTS_PER_OFFER (SPB411)."""
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
