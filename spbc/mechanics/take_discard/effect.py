"""The take_discard effect: its parameters as rules files write them, and the check that the ruleset has
the drawn stage it leads into."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import override

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
    decks (none named: any card); a special card is never taken. ``used_scores`` and ``used_displaceable``
    say whether a used copy still pays its income and may still be displaced that round.

    With ``from_hand`` (the banquet ruleset uses it) the card is special instead: it is played from the
    hand as an action in any phase (it names no ``phase``), goes to the discard pile, and the card taken
    then waits in the drawn stage as above.
    """

    kind: ClassVar[str] = "take_discard"
    order: ClassVar[int] = 55  # after draw_action, whose drawn stage it leads into
    plays_special: ClassVar[bool] = True  # with from_hand
    verb: str = setting()
    phase: str = setting(refers_to="phase", default="")  # required unless from_hand (SPB413)
    decks: tuple[str, ...] = setting(refers_to="deck", default=())
    used_scores: bool = setting(default=False)
    used_displaceable: bool = setting(default=False)
    from_hand: bool = setting(default=False)

    @override
    @property
    def played(self) -> bool:
        return self.from_hand

    @override
    @property
    def used_locks(self) -> bool:
        return not self.used_displaceable and not self.from_hand

    @override
    @property
    def used_idle(self) -> bool:
        return not self.used_scores and not self.from_hand

    @override
    @classmethod
    def check(cls, checker: Declarations, card: Decl, ability: Decl) -> None:
        """The card taken waits in the drawn stage, which a ruleset has when a card draws (draw_action); a use
        in a phase names it, a play from the hand names none (SPB413)."""
        if ability.valid("phase", "from_hand", "used_scores", "used_displaceable"):
            from_hand, phase = ability.get("from_hand", False), ability.get("phase")
            if not from_hand and phase is None:
                checker.report("SPB413", f"card '{card.id}' takes a card from the discard pile but names no phase "
                               "to use it in", ability.block.anchor,
                               hint="add phase = <a phase>, or from_hand = yes for a special card played from the hand")
            elif from_hand:
                extra = [key for key in ("phase", "used_scores", "used_displaceable") if key in ability.values]
                if extra:
                    checker.report("SPB413", f"card '{card.id}' is played from the hand in any phase and never "
                                   f"lies in a play area, so '{extra[0]}' does not apply", ability.spans[extra[0]],
                                   hint=f"remove {extra[0]}")
        drawers = [other.id for other in checker.decls["card"].values()
                   for found in other.abilities if found.id == DRAWN_STAGE_KIND]
        if not drawers:
            checker.report("SPB413", f"card '{card.id}' takes a card from the discard pile, which then waits "
                           f"for its owner's decision in the drawn stage, and no card of the ruleset has an "
                           f"ability {DRAWN_STAGE_KIND}, which brings that stage", ability.block.anchor,
                           hint=f"keep a card with an ability {DRAWN_STAGE_KIND} (the base game's Observatory) "
                           "in the ruleset")


EFFECT = TakeDiscard
