"""The take_discard mechanic at the table: its moves in the notation (``prison Market``), why one is
refused and its line on the screen. The card taken then waits in the drawn stage, which the draw_action
mechanic presents (the prompt, the refusals while it waits, the check of a loaded state)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.mechanics.take_discard.effect import TakeDiscard
from spbc.play import special
from spbc.play.hooks import GameLike, Known, Reader, screen_line
from spbc.play.moves import Move, MoveKind
from spbc.play.refusal import Refusal
from spbc.play.use import UseAbility
from spbc.play.view import GameView


KIND = TakeDiscard.kind


def _discarded(game: GameLike) -> list[str]:
    model = game.ruleset.model
    return [card.id for card, copies in zip(model.cards, game.state_field("discard")) if copies > 0]


def _waiting(game: GameLike) -> bool:
    """Whether the card waiting in the drawn stage is one taken from the discard pile (the state says)."""
    return game.stage == "drawn" and game.state_field("taken")[0] == 1


class Present(UseAbility[TakeDiscard]):
    """The take_discard mechanic's part at the table: a use that names the card it takes from the discard
    pile (``prison Market``), or the play of a special card that does."""

    MIDDLE: ClassVar[str | None] = None  # the card taken travels as the move's target
    SHOWS_DISCARD: ClassVar[bool] = True  # its moves take from the discard pile: the screen lists what lies there
    #: The state field it keeps: 1 while the card waiting in the drawn stage is one it took (saved games
    #: from before it kept it load with 0: "drew").
    FIELD_NAMES: ClassVar[tuple[str, ...]] = ("taken",)
    FIELD_DEFAULTS: ClassVar[Mapping[str, int]] = {"taken": 0}

    @override
    def format_move_named(self, move: Move, verb: str, names: Mapping[str, str]) -> str:
        return f"{verb} {names[move.target or '']}"

    @override
    def format_move(self, move: Move, verb: str) -> str:
        return f"{verb} {move.target}"

    @override
    def parse_move(self, reader: Reader, card_id: str, effect: TakeDiscard, verb: str, rest: list[str]) -> Move:
        if not rest:
            raise reader.malformed(Refusal.of("card_expected", kind=KIND, verb=verb))
        taken = reader.card(" ".join(rest), card_id, "the discard pile")
        return reader.settle_move(MoveKind.USE, card=card_id, target=taken)

    @override
    def refuse_further(self, game: GameLike, move: Move, effect: TakeDiscard) -> Refusal | None:
        """No card named, one not in the discard pile, or one of a deck it does not take from."""
        card = move.card or ""
        if move.target is None:
            return Refusal.of("name_it", kind=KIND, card=card)
        if move.target not in _discarded(game):
            return Refusal.of("not_discarded", kind=KIND, target=move.target)
        model = game.ruleset.model
        if effect.decks and model.card(move.target).deck not in effect.decks:
            decks = [d.id for d in model.decks if d.id in effect.decks]
            return Refusal.of("other_deck", kind=KIND, card=card, decks=decks, target=move.target)
        return None

    @override
    def refuse_play(self, game: GameLike, move: Move, effect: TakeDiscard, known: Known) -> Refusal:
        """Why a use is refused: for a special card played from the hand, without telling a reader who may not
        see the hand what it holds; for a card in a play area, as self.refuse_use says."""
        if not effect.from_hand:
            return self.refuse_use(game, move, effect)
        missing = special.not_in_hand(game, move, known)
        if missing:
            return missing
        card = move.card or ""
        if move.target is None:
            return Refusal.of("name_it", kind=KIND, card=card)
        if game.ruleset.model.card(move.target).special:
            return Refusal.of("special", kind=KIND, card=card, target=move.target)
        if move.target not in _discarded(game):
            return Refusal.of("not_discarded", kind=KIND, target=move.target)
        return special.not_now(move)

    @override
    def drawn_prompt(self, game: GameLike, model: RulesModel, view: GameView, name: str, language: str) -> str | None:
        """While the card taken from the discard pile waits: where it came from."""
        if view.drawn is None or not _waiting(game):
            return None
        return screen_line(language, TakeDiscard.kind, "drawn_prompt", name, model.card(view.drawn).name)

    @override
    def drawn_how(self, game: GameLike) -> Refusal | None:
        """The drawn stage's refusals: "first decide on the Market you took from the discard pile"."""
        return Refusal.of("how", kind=KIND) if _waiting(game) else None

    @override
    def state_bounds(self, model: RulesModel, fields: Mapping[str, list[int]],
                     one: Mapping[str, int]) -> list[tuple[str, int, int, int]]:
        return [("taken", one["taken"], 0, 1)]

    @override
    def state_problem(self, model: RulesModel, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> str | None:
        if one["taken"] and one["stage"] != model.stages.index("drawn"):
            return "a card is marked taken from the discard pile outside the drawn stage"
        return None
