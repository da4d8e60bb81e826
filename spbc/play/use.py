"""Use abilities at the table: what the mechanics share whose card, lying in a play area, is used as an
action in one phase, once per copy and round (draw_action's ``observe worker``, take_discard's
``prison Market``): the reasons such a use is refused before the mechanic's own."""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

from typing_extensions import override

from spbc.play.hooks import E, GameLike, Presenter
from spbc.play.moves import Move, MoveKind


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
    def refuse_use(self, game: GameLike, move: Move, effect: E) -> str:
        """Why the use is refused: the player has no such card, it is not its phase, every copy was used
        this round, or as :meth:`refuse_further` says."""
        assert isinstance(effect, Phased), f"{effect.kind} is a use ability without a phase"
        model = game.ruleset.model
        seat = game.current_player
        card = model.card(move.card or "").name
        owned = game.play_area(seat).get(move.card or "", 0)
        if not owned:
            return f"you have no {card}"
        if game.phase != effect.phase:
            phase = next(p.name for p in model.phases if p.id == effect.phase)
            return f"{card} can only be used in the {phase}"
        if game.used(seat).get(move.card or "", 0) >= owned:
            return f"your {card} was already used this round"
        return self.refuse_further(game, move, effect) or f"{card} cannot be used now"

    def refuse_further(self, game: GameLike, move: Move, effect: E) -> str | None:
        """The mechanic's own reason to refuse a use that its owner may make now, or None."""
        return None
