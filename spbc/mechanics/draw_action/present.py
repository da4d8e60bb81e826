"""The draw_action mechanic at the table: its moves in the notation (``observe worker``), why one is
refused, its lines on the screen and the check of a loaded state's drawn card."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.mechanics.draw_action.effect import DrawAction
from spbc.play.hooks import GameLike, Known, Reader, presenters, screen_line
from spbc.play.moves import Move, MoveKind
from spbc.play.refusal import Refusal
from spbc.play.use import UseAbility
from spbc.play.view import GameView


def _how(game: GameLike) -> Refusal | None:
    """How the waiting card came to its owner: None, drew it, or as the mechanic whose move brought it says
    from the state (its ``drawn_how``: "took from the discard pile"), so a loaded game says it too."""
    for part in presenters(game.ruleset.model):
        said = part.drawn_how(game)
        if said is not None:
            return said
    return None


KIND = DrawAction.kind


class Present(UseAbility[DrawAction]):
    """The draw_action mechanic's part at the table: a use that names a deck (``observe worker``), and the
    drawn stage, where the card drawn waits."""

    MIDDLE: ClassVar[str | None] = "deck"
    #: The state fields it keeps, and drawn_by, which it kept until it was found never read.
    FIELD_NAMES: ClassVar[tuple[str, ...]] = ("drawn", "drawn_by")
    RETIRED_FIELDS: ClassVar[tuple[str, ...]] = ("drawn_by",)

    @override
    def format_move(self, move: Move, verb: str) -> str:
        return f"{verb} {move.deck}"

    @override
    def parse_move(self, reader: Reader, card_id: str, effect: DrawAction, verb: str, rest: list[str]) -> Move:
        if not rest:
            raise reader.malformed(Refusal.of("deck_expected", kind=KIND, verb=verb, decks=effect.decks))
        deck = reader.deck(" ".join(rest), verb, effect.decks)
        return reader.settle_move(MoveKind.USE, card=card_id, deck=deck)

    @override
    def refuse_further(self, game: GameLike, move: Move, effect: DrawAction) -> Refusal | None:
        """A deck it does not draw from, an empty one, or the last card it may not draw."""
        card, deck = move.card or "", move.deck or ""
        if deck not in effect.decks:
            return Refusal.of("other_deck", kind=KIND, card=card, decks=effect.decks, deck=deck)
        left = game.deck_sizes().get(deck, 0)
        if left == 0:
            return Refusal.of("deck_empty", kind=KIND, deck=deck)
        if left == 1 and effect.forbid_last_card:
            return Refusal.of("last_card", kind=KIND, card=card, deck=deck)
        return None

    @override
    def refuse_in_stage(self, game: GameLike, move: Move, known: Known) -> Refusal | None:
        """While a drawn card waits: only a decision on it."""
        if move.row != "drawn":
            return Refusal.of("decide_first", kind=KIND, card=game.drawn_card() or "", how=_how(game))
        return None

    @override
    def refuse_elsewhere(self, game: GameLike, move: Move, known: Known) -> Refusal | None:
        if move.row == "drawn" or move.kind is MoveKind.DISCARD:
            return Refusal.of("nothing_drawn", kind=KIND)
        return None

    @override
    def pending_card(self, game: GameLike) -> str | None:
        code = game.state_field("drawn")[0]
        return None if code < 0 else game.ruleset.model.cards[code].id

    @override
    def prompt(self, game: GameLike, model: RulesModel, view: GameView, name: str, language: str) -> str | None:
        if view.drawn is None:
            return None
        return screen_line(language, DrawAction.kind, "prompt", name, model.card(view.drawn).name)

    @override
    def state_bounds(self, model: RulesModel, fields: Mapping[str, list[int]],
                     one: Mapping[str, int]) -> list[tuple[str, int, int, int]]:
        return [("drawn", one["drawn"], -1, len(model.cards) - 1)]

    @override
    def state_problem(self, model: RulesModel, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> str | None:
        if (one["stage"] == model.stages.index("drawn")) != (one["drawn"] >= 0):
            return "a drawn card must be pending exactly while the stage is 'drawn'"
        return None

    @override
    def held_cards(self, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> list[int]:
        return [one["drawn"]] if one["drawn"] >= 0 else []
