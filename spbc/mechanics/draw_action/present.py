"""The draw_action mechanic at the table: its moves in the notation (``observe worker``), why one is
refused, its lines on the screen and the check of a loaded state's drawn card."""

from __future__ import annotations

from collections.abc import Mapping

from spbc.lang.model import RulesModel
from spbc.mechanics.draw_action.effect import DrawAction
from spbc.play.hooks import GameLike, Known, Reader, either, offering
from spbc.play.moves import Move, MoveKind
from spbc.play.view import GameView

MOVE_KINDS = (MoveKind.USE,)
MIDDLE = "deck"
STAGE = "drawn"
#: The state fields it keeps, and drawn_by, which it kept until it was found never read.
FIELD_NAMES = ("drawn", "drawn_by")
RETIRED_FIELDS = ("drawn_by",)


def format_move(move: Move, verb: str) -> str:
    return f"{verb} {move.deck}"


def parse_move(reader: Reader, card_id: str, effect: DrawAction, verb: str, rest: list[str]) -> Move:
    if not rest:
        raise reader.malformed(f"expected a deck after {verb!r}: {', '.join(effect.decks)}")
    deck = reader.deck(" ".join(rest), verb, effect.decks)
    return reader.settle_move(MoveKind.USE, card=card_id, deck=deck)


def _name(game: GameLike, card_id: str) -> str:
    return game.ruleset.model.card(card_id).name


def refuse_use(game: GameLike, move: Move, effect: DrawAction) -> str:
    seat = game.current_player
    card = _name(game, move.card or "")
    owned = game.play_area(seat).get(move.card or "", 0)
    if not owned:
        return f"you have no {card}"
    if game.phase != effect.phase:
        phase = next(p.name for p in game.ruleset.model.phases if p.id == effect.phase)
        return f"{card} can only be used in the {phase}"
    if game.used(seat).get(move.card or "", 0) >= owned:
        return f"your {card} was already used this round"
    if move.deck not in effect.decks:
        return f"{card} draws from {either(list(effect.decks))}, not {move.deck}"
    left = game.deck_sizes().get(move.deck or "", 0)
    if left == 0:
        return f"the {move.deck} deck is empty"
    if left == 1 and effect.forbid_last_card:
        return f"the {move.deck} deck has only its last card left, which {card} may not draw"
    return f"{card} cannot be used now"


def _how(game: GameLike) -> str:
    """How the waiting card came to its owner: "drew", or as the mechanic whose move brought it says from
    the state (its ``drawn_how``: "took from the discard pile"), so a loaded game says it too."""
    for how in offering(game.ruleset.model, "drawn_how"):
        said = how(game)
        if said is not None:
            return str(said)
    return "drew"


def refuse_in_stage(game: GameLike, move: Move, known: Known) -> str | None:
    """While a drawn card waits: only a decision on it."""
    if move.row != "drawn":
        drawn = _name(game, game.drawn_card() or "")
        return f"first decide on the {drawn} you {_how(game)}: buy it, take it into your hand or discard it"
    return None


def refuse_elsewhere(game: GameLike, move: Move, known: Known) -> str | None:
    if move.row == "drawn" or move.kind is MoveKind.DISCARD:
        return "there is no drawn card to decide on"
    return None


def pending_card(game: GameLike) -> str | None:
    code = game.state_field("drawn")[0]
    return None if code < 0 else game.ruleset.model.cards[code].id


def summary(model: RulesModel, effect: DrawAction) -> str:
    return f"draws a card ({effect.verb})"


def summary_de(model: RulesModel, effect: DrawAction) -> str:
    return f"zieht eine Karte ({effect.verb})"


def summary_zh(model: RulesModel, effect: DrawAction) -> str:
    return f"抽一張卡 ({effect.verb})"


#: The screen's line while a drawn card waits, per language (the card's name is the ruleset's in it).
PROMPTS = {
    "en": "{name} drew {card}: buy it, take it or discard it",
    "de": "{name} hat {card} gezogen: kaufen, auf die Hand nehmen oder ablegen",
    "zh": "{name}抽到{card}：購買、拿入手牌或棄掉",
}


def prompt(game: GameLike, model: RulesModel, view: GameView, name: str, language: str) -> str | None:
    if view.drawn is None:
        return None
    return PROMPTS.get(language, PROMPTS["en"]).format(name=name, card=model.card(view.drawn).name)


def state_bounds(model: RulesModel, fields: Mapping[str, list[int]],
                 one: Mapping[str, int]) -> list[tuple[str, int, int, int]]:
    return [("drawn", one["drawn"], -1, len(model.cards) - 1)]


def state_problem(model: RulesModel, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> str | None:
    if (one["stage"] == model.stages.index(STAGE)) != (one["drawn"] >= 0):
        return "a drawn card must be pending exactly while the stage is 'drawn'"
    return None


def held_cards(fields: Mapping[str, list[int]], one: Mapping[str, int]) -> list[int]:
    return [one["drawn"]] if one["drawn"] >= 0 else []
