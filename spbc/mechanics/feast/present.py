"""The feast mechanic at the table: its move in the notation (``feast Fur Shop``), why it is refused, its
line on the screen and the check of a loaded state's feast cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.feast.effect import Feast
from spbc.play.hooks import GameLike, Known
from spbc.play.moves import Move
from spbc.play.refusal import Refusal
from spbc.play.special import SpecialCard

KIND = Feast.kind


def carries(card: Card) -> bool:
    """Whether a feast may lie on the card: it pays both rubles and points."""
    return card.rubles > 0 and card.points > 0 and not card.special


def _rows(model: RulesModel) -> list[int]:
    """The card index of each feast ability, in the engine's order."""
    return [i for i, card in enumerate(model.cards) for effect in card.abilities if isinstance(effect, Feast)]


class Present(SpecialCard[Feast]):
    """The feast mechanic's part at the table: a special card that names the card of the play area it lies on
    (``feast Fur Shop``)."""

    WHERE: ClassVar[str] = "your play area"
    FIELD_NAMES: ClassVar[tuple[str, ...]] = ("feast",)

    @override
    def refuse_in_hand(self, game: GameLike, move: Move, effect: Feast, known: Known) -> Refusal:
        card = move.card or ""
        model = game.ruleset.model
        area = game.play_area(game.current_player)
        fitting = [c.id for c in model.cards if carries(c) and area.get(c.id)]
        if move.target is None:
            if not fitting:
                return Refusal.of("none_to_lie_on", kind=KIND, card=card)
            return Refusal.of("name_lain_on", kind=KIND, card=card, fitting=fitting)
        if not carries(model.card(move.target)):
            return Refusal.of("not_carrying", kind=KIND, card=card, target=move.target)
        return Refusal.of("no_target", kind=KIND, card=card, target=move.target)

    @override
    def state_bounds(self, model: RulesModel, fields: Mapping[str, list[int]],
                     one: Mapping[str, int]) -> list[tuple[str, int, int, int]]:
        rows, ncards = _rows(model), len(model.cards)
        size = len(fields["feast"]) // max(len(rows), 1)
        return [("feast", value, 0, model.cards[rows[i // size]].copies) for i, value in enumerate(fields["feast"])
                if size and i // size < len(rows)]

    @override
    def state_problem(self, model: RulesModel, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> str | None:
        ncards = len(model.cards)
        for i, value in enumerate(fields["feast"]):
            seat_card = i % (len(fields["owned"]))
            card = model.cards[seat_card % ncards]
            if value > 0 and (not fields["owned"][seat_card] or not carries(card)):
                return f"a feast card lies on {card.name} of seat {seat_card // ncards + 1}, which it may not lie on"
        return None

    @override
    def held_cards_in(self, model: RulesModel, fields: Mapping[str, list[int]], one: Mapping[str, int]) -> list[int]:
        """The feast cards lying on cards: one place per copy."""
        rows = _rows(model)
        size = len(fields["feast"]) // max(len(rows), 1)
        return [rows[i // size] for i, value in enumerate(fields["feast"]) if size for _ in range(max(value, 0))]

    @override
    def lying_on(self, game: GameLike, seat: int) -> list[tuple[str, str]]:
        """(feast card, the card it lies on) of every feast card on the seat's cards, one pair per copy."""
        model = game.ruleset.model
        rows, ncards = _rows(model), len(model.cards)
        feast = game.state_field("feast")
        size = len(feast) // max(len(rows), 1)
        return [(model.cards[card].id, model.cards[c].id) for r, card in enumerate(rows) for c in range(ncards)
                for _ in range(feast[r * size + seat * ncards + c])]
