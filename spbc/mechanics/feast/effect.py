"""The feast effect: its parameters as rules files write them, and the check that it has cards to lie on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import override

from spbc.lang.decls import Decl, Declarations
from spbc.lang.model import Effect
from spbc.lang.schema import setting

#: The largest factor of a feast: one copy's income times it stays far inside a C int.
MAX_TIMES = 10


@dataclass(frozen=True)
class Feast(Effect):
    """Played from the hand (its card is special), as an action in any phase, onto a card in the player's
    play area that pays both rubles and points: the next time that card scores, one copy of it pays
    ``times`` its rubles and points; then the feast card goes to the discard pile (so does it when the
    last copy of that card leaves the play area first). ``verb`` is the word of the move (``feast Fur Shop``)."""

    kind: ClassVar[str] = "feast"
    order: ClassVar[int] = 63
    plays_special: ClassVar[bool] = True
    verb: str = setting()
    times: int = setting(minimum=2, default=2, cap=(MAX_TIMES, f"a feast multiplies by at most {MAX_TIMES}"))

    @override
    @classmethod
    def check(cls, checker: Declarations, card: Decl, ability: Decl) -> None:
        """A feast lies on a card that pays both rubles and points: without one it could never be played."""
        fitting = [other.id for other in checker.decls["card"].values()
                   if other.valid("rubles", "points", "special") and other.get("rubles", 0) > 0
                   and other.get("points", 0) > 0 and not other.get("special", False)]
        if not fitting:
            checker.report("SPB422", f"card '{card.id}' has a feast, but no card pays both rubles and points, "
                           "so it could never be played", ability.block.anchor,
                           hint="a feast lies on a card with rubles and points above 0; give one both")


EFFECT = Feast
