"""Use abilities at the table: what the mechanics share whose card, lying in a play area, is used as an
action in one phase, once per copy and round (draw_action's ``observe worker``, take_discard's
``prison Market``): the reasons such a use is refused before the mechanic's own."""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

from typing_extensions import override

from spbc.play.hooks import E, GameLike, Presenter
from spbc.play.moves import Move, MoveKind
from spbc.play.refusal import Refusal


@runtime_checkable
class Phased(Protocol):
    """An effect used in one phase: every use ability's has its ``phase``."""

    @property
    def phase(self) -> str: ...


class UseAbility(Presenter[E]):
    """The present part of a use ability; its effect has a ``phase``. A mechanic adds its own reasons in
    :meth:`refuse_further`."""

    MOVE_KINDS: ClassVar[tuple[MoveKind, ...]] = (MoveKind.USE,)

    @override
    def refuse_use(self, game: GameLike, move: Move, effect: E) -> Refusal:
        """Why the use is refused: the player has no such card, it is not its phase, every copy was used
        this round, or as :meth:`refuse_further` says."""
        assert isinstance(effect, Phased), f"{effect.kind} is a use ability without a phase"
        seat = game.current_player
        card = move.card or ""
        owned = game.play_area(seat).get(card, 0)
        if not owned:
            return Refusal.of("use_not_owned", card=card)
        if game.phase != effect.phase:
            return Refusal.of("use_phase", card=card, phase=effect.phase)
        if game.used(seat).get(card, 0) >= owned:
            return Refusal.of("use_used", card=card)
        return self.refuse_further(game, move, effect) or Refusal.of("use_not_now", card=card)

    def refuse_further(self, game: GameLike, move: Move, effect: E) -> Refusal | None:
        """The mechanic's own reason to refuse a use that its owner may make now, or None."""
        return None
