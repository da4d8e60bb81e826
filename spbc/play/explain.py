"""Why a move is not legal now, in words a player can act on.

Called only after the engine has refused a move, so every message here explains a
refusal the engine made; the rules themselves are never re-implemented here beyond
reading costs, hand limits and card data from the engine and the model.

An explanation is told to a reader and uses only what that reader may know: the
player on turn is told their own rubles and hand; anyone else (another seat, or a
spectator such as the replay of a record) learns only what the table sees, as in
:func:`spbc.play.view.view_of`. A refusal that rests on a secret then says so without it:
"Observatory costs 6 after reductions, more than Anna has".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spbc.engine.lower import displace_targets
from spbc.play import hooks
from spbc.play.hooks import Known
from spbc.play.moves import Move, MoveKind
from spbc.play.refusal import Refusal, say
from spbc.play.view import view_of

if TYPE_CHECKING:
    from spbc.play.game import Game


def _known(game: Game, reader: int | None) -> Known:
    seat = game.current_player
    mover = view_of(game, reader).players[seat]
    return Known(game.players[seat], mover.rubles, mover.hand)




def explain_illegal(game: Game, move: Move, *, reader: int | None, language: str = "en") -> str:
    """One sentence in a language: why the current player may not make this move now, told to
    ``reader`` (see refusal_of)."""
    return say(refusal_of(game, move, reader=reader), game, language)


def refusal_of(game: Game, move: Move, *, reader: int | None) -> Refusal:
    """Why the current player may not make this move now, told to ``reader``: a Refusal whose fields
    are only what that reader may know (spbc.play.refusal says it in a language).

    ``reader`` is the seat that reads it (the player on turn, who typed the move, is
    told their rubles and hand) or None for a spectator (the replay of a record), who
    is told nothing that is secret at the table. Raises ValueError for a reader that
    is no seat of the game.
    """
    known = _known(game, reader)
    model = game.ruleset.model
    ids = {card.id for card in model.cards}
    for card_id in (move.card, move.target):
        if card_id is not None and card_id not in ids:
            return Refusal.of("no_such_card", card=card_id, rules=model.name)
    if game.is_over:
        return Refusal.of("game_over")
    refusal = _stage_refusal(game, move, known)
    if refusal:
        return refusal
    if move.kind is MoveKind.PASS:
        return Refusal.of("no_pass", phase=model.phases[0].id)
    if move.kind is MoveKind.USE:
        return _use_refusal(game, move, known)
    if move.kind is MoveKind.TAKE:
        return _where_refusal(game, move, known) or _hand_refusal(game) or Refusal.of("no_take")
    if move.kind in (MoveKind.BUY, MoveKind.PLAY):
        return _where_refusal(game, move, known) or _purchase_refusal(game, move, known)
    return Refusal.of("not_now")


def _stage_refusal(game: Game, move: Move, known: Known) -> Refusal | None:
    """Why the move does not fit the stage: the stage's mechanic says while its stage waits, and in
    a normal turn each mechanic says why a move of its own stage is refused (hooks)."""
    model = game.ruleset.model
    if game.stage != "actions":
        owner = hooks.stage_owner(model, game.stage)
        return owner.refuse_in_stage(game, move, known) if owner is not None else None
    for part in hooks.presenters(model):
        refusal = part.refuse_elsewhere(game, move, known)
        if refusal:
            return refusal
    return None


def _use_refusal(game: Game, move: Move, known: Known) -> Refusal:
    """Why a use is refused, as the mechanic of the card's ability says (a special card's play is told
    to a reader who may not know the hand: refuse_play)."""
    found = hooks.ability(game.ruleset.model, move.card or "", MoveKind.USE)
    if found is None:
        return Refusal.of("no_action", card=move.card or "")
    effect, part = found
    return part.refuse_play(game, move, effect, known)


def _where_refusal(game: Game, move: Move, known: Known) -> Refusal | None:
    card = move.card or ""
    if move.kind is MoveKind.PLAY:
        if known.hand is not None and move.card not in known.hand:
            return Refusal.of("not_in_hand", card=card)
        return None  # a secret hand: _purchase_refusal says what it may
    if move.row == "drawn":
        return None
    row = move.row or "upper"
    if move.card not in game.row(row):
        other = "lower" if row == "upper" else "upper"
        if move.card in game.row(other):
            return Refusal.of("other_row", card=card, row=row, other=other)
        return Refusal.of("not_on_board", card=card)
    return None


def _hand_refusal(game: Game) -> Refusal | None:
    seat = game.current_player
    size, limit = len(game.hand(seat)), game.hand_limit(seat)
    if size >= limit:
        return Refusal.of("hand_full", size=size)
    return None


def _displace_refusal(game: Game, move: Move) -> Refusal | None:
    """Why a trading card's purchase or play is refused for the card it displaces, or None."""
    seat = game.current_player
    model = game.ruleset.model
    card = model.card(move.card or "")
    area = game.play_area(seat)
    if not card.trading:
        return Refusal.of("not_trading", card=card.id) if move.target is not None else None
    targets = [model.cards[i] for i in displace_targets(model, card)]
    whole_colour = {c.id for c in model.cards if c.colour == card.displaces and not c.trading}
    # a whole colour of more than two cards is named as its colour, else the cards one by one
    colour = card.displaces if whole_colour == {t.id for t in targets} and len(targets) > 2 else None
    wanted: dict[str, Any] = {"colour": colour, "targets": [t.id for t in targets]}
    if move.target is None:
        have = [t.id for t in targets if area.get(t.id)]
        if not have:
            return Refusal.of("displace_none", card=card.id, **wanted)
        return Refusal.of("displace_which", card=card.id, have=have)
    target = model.card(move.target)
    if target.id not in {t.id for t in targets}:
        return Refusal.of("displace_wrong", card=card.id, target=target.id, **wanted)
    if not area.get(target.id):
        return Refusal.of("displace_missing", target=target.id)
    if game.used(seat).get(target.id, 0) >= area[target.id]:
        return Refusal.of("displace_used", target=target.id)
    return None


def _purchase_refusal(game: Game, move: Move, known: Known) -> Refusal:
    displaced = _displace_refusal(game, move)
    if displaced is not None:
        return displaced
    seat = game.current_player
    card = move.card or ""
    price = game.cost(move)
    # the secrets decide which reason is true; only what the reader may know is told
    short = price is not None and price > game.rubles(seat)
    if move.kind is MoveKind.PLAY and known.hand is None:
        if short or move.card not in game.hand(seat):
            return Refusal.of("play_hidden", player=seat, card=card, price=price)
        return Refusal.of("not_now")
    if short and known.rubles is None:
        return Refusal.of("costs_hidden", player=seat, card=card, price=price)
    if short:
        return Refusal.of("costs", card=card, price=price, rubles=known.rubles)
    return Refusal.of("not_now")
