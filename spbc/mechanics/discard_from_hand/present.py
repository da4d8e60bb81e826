"""The discard_from_hand mechanic at the table: its move in the notation (``away Lumberjack``), why it is
refused and its line on the screen."""

from __future__ import annotations

from typing_extensions import override

from spbc.mechanics.discard_from_hand.effect import DiscardFromHand
from spbc.play import special
from spbc.play.hooks import GameLike, Known
from spbc.play.moves import Move
from spbc.play.special import SpecialCard


class Present(SpecialCard[DiscardFromHand]):
    """The discard_from_hand mechanic's part at the table: a special card that names the card of the hand it
    discards (``away Lumberjack``)."""

    @override
    def refuse_play(self, game: GameLike, move: Move, effect: DiscardFromHand, known: Known) -> str:
        missing = special.not_in_hand(game, move, known)
        if missing:
            return missing
        card = special.name(game, move.card)
        hand = list(game.hand(game.current_player))
        hand.remove(move.card or "")
        if move.target is None:
            return f"name the card {card} discards with it: {', '.join(special.name(game, c) for c in dict.fromkeys(hand))}"
        if move.target not in hand:
            if known.hand is None:
                return f"{known.name} can discard only a card of their hand with {card}"
            return f"you have no other {special.name(game, move.target)} in your hand to discard"
        return f"{card} cannot be played now"
