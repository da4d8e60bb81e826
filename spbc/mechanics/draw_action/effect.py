"""The draw_action effect: its parameters as rules files write them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import override

from spbc.contract.abi import Stage
from spbc.lang.model import Effect
from spbc.lang.schema import setting


@dataclass(frozen=True)
class DrawAction(Effect):
    """An action in ``phase``: draw the top card of one of ``decks``, then buy, take or discard it.

    Each copy can be used once per round. ``forbid_last_card`` forbids drawing a
    deck's last card; ``used_scores`` and ``used_displaceable`` say whether a used
    copy still pays its income and may still be displaced that round.
    """

    kind: ClassVar[str] = "draw_action"
    order: ClassVar[int] = 50
    #: after a use, the drawn card waits for its owner to buy, take or discard it
    stages: ClassVar[tuple[Stage, ...]] = (Stage(10, "drawn"),)
    verb: str = setting()
    phase: str = setting(refers_to="phase")
    decks: tuple[str, ...] = setting(refers_to="deck")
    forbid_last_card: bool = setting(default=True)
    used_scores: bool = setting(default=False)
    used_displaceable: bool = setting(default=False)

    @override
    @property
    def used_locks(self) -> bool:
        return not self.used_displaceable

    @override
    @property
    def used_idle(self) -> bool:
        return not self.used_scores


EFFECT = DrawAction
