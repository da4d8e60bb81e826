"""The discard_from_hand mechanic at the table: its move in the notation (``away Lumberjack``), why it is
refused and its line on the screen."""

from __future__ import annotations

from typing_extensions import override

from spbc.mechanics.discard_from_hand.effect import DiscardFromHand
from spbc.play import special
from spbc.play.hooks import GameLike, Known
from spbc.play.moves import Move
from spbc.play.refusal import Refusal
from spbc.play.special import SpecialCard

KIND = DiscardFromHand.kind


class Present(SpecialCard[DiscardFromHand]):
    """The discard_from_hand mechanic's part at the table: a special card that names the card of the hand it
    discards (``away Lumberjack``)."""

    @override
    def refuse_in_hand(self, game: GameLike, move: Move, effect: DiscardFromHand, known: Known) -> Refusal:
        card = move.card or ""
        hand = list(game.hand(game.current_player))
        hand.remove(card)
        if move.target is None:
            return Refusal.of("name_discarded", kind=KIND, card=card, hand=list(dict.fromkeys(hand)))
        if move.target not in hand:
            if known.hand is None:
                return Refusal.of("hidden", kind=KIND, player=game.current_player, card=card)
            return Refusal.of("no_other", kind=KIND, target=move.target)
        return special.not_now(move)

