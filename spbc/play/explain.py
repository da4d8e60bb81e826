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

from typing import TYPE_CHECKING

from spbc.engine.lower import displace_targets
from spbc.play import hooks
from spbc.play.hooks import Known
from spbc.play.moves import Move, MoveKind
from spbc.play.view import view_of

if TYPE_CHECKING:
    from spbc.play.game import Game


def _known(game: Game, reader: int | None) -> Known:
    seat = game.current_player
    mover = view_of(game, reader).players[seat]
    return Known(game.players[seat], mover.rubles, mover.hand)




def _a(name: str) -> str:
    """The name with its indefinite article: "a Ship Builder", "an Author"."""
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def explain_illegal(game: Game, move: Move, *, reader: int | None) -> str:
    """One sentence: why the current player may not make this move now, told to ``reader``.

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
            return f"there is no card {card_id!r} in the rules of {model.name}"
    if game.is_over:
        return "the game is over"
    refusal = _stage_refusal(game, move, known)
    if refusal:
        return refusal
    if move.kind is MoveKind.PASS:
        return "you may not pass now: in the first worker phase you must buy while you can"
    if move.kind is MoveKind.USE:
        return _use_refusal(game, move, known)
    if move.kind is MoveKind.TAKE:
        return _where_refusal(game, move, known) or _hand_refusal(game) or "you may not take that card now"
    if move.kind in (MoveKind.BUY, MoveKind.PLAY):
        return _where_refusal(game, move, known) or _purchase_refusal(game, move, known)
    return "that move is not allowed now"


def _name(game: Game, card_id: str) -> str:
    return game.ruleset.model.card(card_id).name


def _stage_refusal(game: Game, move: Move, known: Known) -> str | None:
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


def _use_refusal(game: Game, move: Move, known: Known) -> str:
    """Why a use is refused, as the mechanic of the card's ability says (a special card's play is told
    to a reader who may not know the hand: refuse_play)."""
    found = hooks.ability(game.ruleset.model, move.card or "", MoveKind.USE)
    if found is None:
        return f"{_name(game, move.card or '')} has no action to use"
    effect, part = found
    return part.refuse_play(game, move, effect, known)


def _where_refusal(game: Game, move: Move, known: Known) -> str | None:
    card = _name(game, move.card or "")
    if move.kind is MoveKind.PLAY:
        if known.hand is not None and move.card not in known.hand:
            return f"you have no {card} in your hand"
        return None  # a secret hand: _purchase_refusal says what it may
    if move.row == "drawn":
        return None
    row = move.row or "upper"
    if move.card not in game.row(row):
        other = "lower" if row == "upper" else "upper"
        if move.card in game.row(other):
            return f"there is no {card} in the {row} row, only in the {other} row"
        return f"there is no {card} on the board"
    return None


def _hand_refusal(game: Game) -> str | None:
    seat = game.current_player
    size, limit = len(game.hand(seat)), game.hand_limit(seat)
    if size >= limit:
        return f"your hand is full ({size} cards)"
    return None


def _purchase_refusal(game: Game, move: Move, known: Known) -> str:
    seat = game.current_player
    model = game.ruleset.model
    card = model.card(move.card or "")
    area = game.play_area(seat)
    if not card.trading and move.target is not None:
        return f"{card.name} is not a trading card; it displaces nothing"
    if card.trading:
        targets = [model.cards[i] for i in displace_targets(model, card)]
        names = [t.name for t in targets]
        whole_colour = {c.id for c in model.cards if c.colour == card.displaces and not c.trading}
        wanted = (f"a {card.displaces} card" if whole_colour == {t.id for t in targets}
                  and len(targets) > 2 else _a(hooks.either(names)))
        if move.target is None:
            have = [t.name for t in targets if area.get(t.id)]
            if not have:
                none = "neither" if len(names) == 2 else "none"
                return f"{card.name} must displace {wanted}; you have {none}"
            return f"{card.name} must name the card it displaces: {hooks.either(have)}"
        target = model.card(move.target)
        if target.id not in {t.id for t in targets}:
            return f"{card.name} cannot displace {target.name}; it displaces {wanted}"
        if not area.get(target.id):
            return f"you have no {target.name} to displace"
        if game.used(seat).get(target.id, 0) >= area[target.id]:
            return f"your {target.name} was used this round and cannot be displaced"
    price = game.cost(move)
    # the secrets decide which reason is true; only what the reader may know is told
    short = price is not None and price > game.rubles(seat)
    if move.kind is MoveKind.PLAY and known.hand is None:
        if short or move.card not in game.hand(seat):
            return (f"{known.name} cannot play {card.name} now: it is not in their hand, "
                    f"or it costs {price} after reductions, more than {known.name} has")
        return "that move is not allowed now"
    if short and known.rubles is None:
        return f"{card.name} costs {price} after reductions, more than {known.name} has"
    if short:
        return f"{card.name} costs {price} after reductions, you have {known.rubles} rubles"
    return "that move is not allowed now"
