"""The extra_actions mechanic at the table: its move in the notation (``double``), why it is refused, its
line on the screen and the check of a loaded state's actions left."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.mechanics.extra_actions.effect import ExtraActions
from spbc.play.hooks import Reader
from spbc.play.refusal import Refusal
from spbc.play.moves import Move
from spbc.play.special import SpecialCard


def _most(model: RulesModel) -> int:
    return sum(effect.actions * card.copies for card in model.cards for effect in card.abilities
               if isinstance(effect, ExtraActions))


class Present(SpecialCard[ExtraActions]):
    """The extra_actions mechanic's part at the table: a special card played with its verb alone."""

    FIELD_NAMES: ClassVar[tuple[str, ...]] = ("extra",)

    @override
    def parse_move(self, reader: Reader, card_id: str, effect: ExtraActions, verb: str, rest: list[str]) -> Move:
        if rest:
            raise reader.malformed(Refusal.of("nothing_after", verb=verb))
        return super().parse_move(reader, card_id, effect, verb, rest)

    @override
    def state_bounds(self, model: RulesModel, fields: Mapping[str, list[int]],
                     one: Mapping[str, int]) -> list[tuple[str, int, int, int]]:
        return [("extra", one["extra"], 0, _most(model))]
