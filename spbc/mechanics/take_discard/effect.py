"""The take_discard effect: its parameters as rules files write them, and the check that the ruleset has
the drawn stage it leads into."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from spbc.lang.decls import Decl, Declarations
from spbc.lang.model import Effect
from spbc.lang.schema import setting

#: The ability kind whose mechanic keeps the drawn stage a card taken from the discard pile waits in.
DRAWN_STAGE_KIND = "draw_action"


@dataclass(frozen=True)
class TakeDiscard(Effect):
    """An action in ``phase``: take one card of the player's choice from the discard pile, then buy it at its
    normal cost, take it into hand or discard it again, as a card an ability drew.

    Each copy can be used once per round. ``decks`` limits the cards that may be taken to those of some
    decks (none named: any card). ``used_scores`` and ``used_displaceable`` say whether a used copy still
    pays its income and may still be displaced that round.
    """

    kind: ClassVar[str] = "take_discard"
    order: ClassVar[int] = 55  # after draw_action, whose drawn stage it leads into
    verb: str = setting()
    phase: str = setting(refers_to="phase")
    decks: tuple[str, ...] = setting(refers_to="deck", default=())
    used_scores: bool = setting(default=False)
    used_displaceable: bool = setting(default=False)

    @property
    def used_locks(self) -> bool:
        return not self.used_displaceable

    @property
    def used_idle(self) -> bool:
        return not self.used_scores

    @classmethod
    def check(cls, checker: Declarations, card: Decl, ability: Decl) -> None:
        """The card taken waits in the drawn stage, which a ruleset has when a card draws (draw_action)."""
        drawers = [other.id for other in checker.decls["card"].values()
                   for found in other.abilities if found.id == DRAWN_STAGE_KIND]
        if not drawers:
            checker.report("SPB413", f"card '{card.id}' takes a card from the discard pile, which then waits "
                           f"for its owner's decision in the drawn stage, and no card of the ruleset has an "
                           f"ability {DRAWN_STAGE_KIND}, which brings that stage", ability.block.anchor,
                           hint=f"keep a card with an ability {DRAWN_STAGE_KIND} (the base game's Observatory) "
                           "in the ruleset")


EFFECT = TakeDiscard
