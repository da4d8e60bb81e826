"""The upkeep effect: its parameters as rules files write them, and the check that its card is scored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import override

from spbc.lang.decls import Decl, Declarations
from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True)
class Upkeep(Effect):
    """When the phase that scores its card's colour ends, the owner pays ``rubles`` for each copy,
    after that phase's income; for every copy they cannot pay for, one copy is discarded."""

    kind: ClassVar[str] = "upkeep"
    order: ClassVar[int] = 90  # after every income of the phase: the owner pays with it
    rubles: int = setting(minimum=1)

    @override
    @classmethod
    def check(cls, checker: Declarations, card: Decl, ability: Decl) -> None:
        """Upkeep is due when the card's colour scores: a colour no phase scores would never charge it."""
        deck = checker.decls["deck"].get(card.get("deck") or "")
        colour = card.get("colour") or (deck.get("colour") if deck is not None else None)
        scored = {phase.get("scores") for phase in checker.decls["phase"].values()}
        if colour is not None and colour not in scored:
            checker.report("SPB304", f"card '{card.id}' has upkeep, but no phase scores its colour '{colour}'",
                           ability.block.anchor, hint="give the card a colour that a phase scores")


EFFECT = Upkeep
