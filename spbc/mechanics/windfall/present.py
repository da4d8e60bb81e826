"""The windfall mechanic at the table: its move in the notation (``cash``), why it is refused and its line
on the screen."""

from __future__ import annotations

from typing_extensions import override

from spbc.mechanics.windfall.effect import Windfall
from spbc.play.hooks import GameLike, Reader
from spbc.play.refusal import Refusal
from spbc.play.moves import Move
from spbc.play.special import SpecialCard


class Present(SpecialCard[Windfall]):
    """The windfall mechanic's part at the table: a special card played with its verb alone."""

    @override
    def announced_rubles(self, game: GameLike, move: Move, effect: Windfall) -> int:
        """The card's rubles, which everyone sees the player take."""
        return effect.rubles

    @override
    def parse_move(self, reader: Reader, card_id: str, effect: Windfall, verb: str, rest: list[str]) -> Move:
        if rest:
            raise reader.malformed(Refusal.of("nothing_after", verb=verb))
        return super().parse_move(reader, card_id, effect, verb, rest)
