"""The extra_actions mechanic at the table: its move in the notation (``double``), why it is refused, its
line on the screen and the check of a loaded state's actions left."""

from __future__ import annotations

from collections.abc import Mapping

from spbc.lang.model import RulesModel
from spbc.mechanics.extra_actions.effect import ExtraActions
from spbc.play import special
from spbc.play.hooks import Reader
from spbc.play.moves import Move, MoveKind
from spbc.play.view import GameView

MOVE_KINDS = (MoveKind.USE,)
MIDDLE = None
FIELD_NAMES = ("extra",)

format_move = special.format_move
format_move_named = special.format_move_named
refuse_play = special.refuse_play


def parse_move(reader: Reader, card_id: str, effect: ExtraActions, verb: str, rest: list[str]) -> Move:
    if rest:
        raise reader.malformed(f"{verb!r} takes nothing after it")
    return special.parse_move(reader, card_id, verb, rest, "your hand")


def summary(model: RulesModel, effect: ExtraActions) -> str:
    return f"play: {effect.actions} more actions ({effect.verb})"


def summary_de(model: RulesModel, effect: ExtraActions) -> str:
    return f"ausspielen: {effect.actions} weitere Aktionen ({effect.verb})"


def summary_zh(model: RulesModel, effect: ExtraActions) -> str:
    return f"打出：再做{effect.actions}個行動 ({effect.verb})"


def prompt(game: object, model: RulesModel, view: GameView, name: str, language: str) -> str | None:
    return None


def _most(model: RulesModel) -> int:
    return sum(effect.actions * card.copies for card in model.cards for effect in card.abilities
               if isinstance(effect, ExtraActions))


def state_bounds(model: RulesModel, fields: Mapping[str, list[int]],
                 one: Mapping[str, int]) -> list[tuple[str, int, int, int]]:
    return [("extra", one["extra"], 0, _most(model))]
