"""Special cards at the table: what the mechanics that play a special card from the hand share in the
notation (``feast Fur Shop``) and in the reasons a play is refused. A special card is never bought: it
is taken into hand from the board, played from there by its ability (a use move), then discarded.

A mechanic of such a card presents it with a subclass of :class:`SpecialCard`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from typing_extensions import override

from spbc.play.hooks import E, GameLike, Known, Presenter, Reader
from spbc.play.moves import Move, MoveKind
from spbc.play.refusal import Refusal


def format_move(move: Move, verb: str) -> str:
    """The verb, and the id of the card the play names, if any (format_move_named names it)."""
    return f"{verb} {move.target}" if move.target is not None else verb


def format_move_named(move: Move, verb: str, names: Mapping[str, str]) -> str:
    """The verb, and the name of the card the play names, if any: ``feast Fur Shop``."""
    return f"{verb} {names[move.target]}" if move.target is not None else verb


def parse_move(reader: Reader, card_id: str, verb: str, rest: list[str], where: str) -> Move:
    """The play of ``card_id``: the words after the verb name the card it names (narrowed to those its
    legal plays name, where several fit: the cards in ``where``), or nothing when it names none or the
    situation leaves one."""
    if not rest:
        return reader.settle_move(MoveKind.USE, card=card_id)
    target = reader.card(" ".join(rest), card_id, where)
    return reader.settle_move(MoveKind.USE, card=card_id, target=target)


def name(game: GameLike, card_id: str | None) -> str:
    return game.ruleset.model.card(card_id or "").name


def not_in_hand(game: GameLike, move: Move, known: Known) -> Refusal | None:
    """Why the play is refused when the card is not in the hand, told without the hand to a reader who
    may not see it; None when it is in the hand."""
    card = move.card or ""
    if card in game.hand(game.current_player):
        return None
    if known.hand is None:
        return Refusal.of("special_hidden", player=game.current_player, card=card)
    return Refusal.of("special_not_in_hand", card=card)


def not_now(move: Move) -> Refusal:
    """A play refused for none of the reasons its mechanic knows."""
    return Refusal.of("special_not_now", card=move.card or "")


class SpecialCard(Presenter[E]):
    """The present part of a mechanic whose card is played from the hand: a use move, written as its verb
    and the card it names, if any (``feast Fur Shop``), read from the cards in :attr:`WHERE`."""

    MOVE_KINDS: ClassVar[tuple[MoveKind, ...]] = (MoveKind.USE,)
    #: Where the card a play names lies, as messages say it: ``"your hand"``, ``"your play area"``.
    WHERE: ClassVar[str] = "your hand"

    @override
    def format_move(self, move: Move, verb: str) -> str:
        return format_move(move, verb)

    @override
    def format_move_named(self, move: Move, verb: str, names: Mapping[str, str]) -> str:
        return format_move_named(move, verb, names)

    @override
    def parse_move(self, reader: Reader, card_id: str, effect: E, verb: str, rest: list[str]) -> Move:
        return parse_move(reader, card_id, verb, rest, self.WHERE)

    @override
    def refuse_play(self, game: GameLike, move: Move, effect: E, known: Known) -> Refusal:
        """Not in the hand (told without the hand to a reader who may not see it), else :meth:`refuse_in_hand`."""
        return not_in_hand(game, move, known) or self.refuse_in_hand(game, move, effect, known)

    def refuse_in_hand(self, game: GameLike, move: Move, effect: E, known: Known) -> Refusal:
        """Why the play of a card that is in the hand is refused: by default it names a card, which a card of
        this kind never does, or it cannot be played now."""
        if move.target is not None:
            return Refusal.of("special_names_nothing", card=move.card or "")
        return not_now(move)
