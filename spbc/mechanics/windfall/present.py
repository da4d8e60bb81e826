"""The windfall mechanic at the table: its move in the notation (``cash``), why it is refused and its line
on the screen."""

from __future__ import annotations

from spbc.lang.model import RulesModel
from spbc.mechanics.windfall.effect import Windfall
from spbc.play import special
from spbc.play.hooks import Reader
from spbc.play.moves import Move, MoveKind

MOVE_KINDS = (MoveKind.USE,)
MIDDLE = None

format_move = special.format_move
format_move_named = special.format_move_named
refuse_play = special.refuse_play


def parse_move(reader: Reader, card_id: str, effect: Windfall, verb: str, rest: list[str]) -> Move:
    if rest:
        raise reader.malformed(f"{verb!r} takes nothing after it")
    return special.parse_move(reader, card_id, verb, rest, "your hand")


def summary(model: RulesModel, effect: Windfall) -> str:
    return f"play: +{effect.rubles}r ({effect.verb})"


def summary_de(model: RulesModel, effect: Windfall) -> str:
    return f"ausspielen: +{effect.rubles} Rbl ({effect.verb})"


def summary_zh(model: RulesModel, effect: Windfall) -> str:
    return f"打出：+{effect.rubles}盧布 ({effect.verb})"
