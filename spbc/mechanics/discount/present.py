"""The discount mechanic at the table: its line on the screen and the check of a loaded state's discounts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from typing_extensions import override

from spbc.lang.model import RulesModel
from spbc.mechanics.discount.effect import Discount
from spbc.play.hooks import Presenter, screen_line


class Present(Presenter[Discount]):
    """The discount mechanic's part at the table."""

    #: The state field it keeps.
    FIELD_NAMES: ClassVar[tuple[str, ...]] = ("discount",)

    @override
    def summary(self, model: RulesModel, effect: Discount) -> str:
        """``-1 on blue``: the macro ``summary`` of its prose, given the colour's name."""
        colour = next(c.name for c in model.colours if c.id == effect.colour)
        return screen_line(model.language, effect.kind, "summary", effect, colour)

    @override
    def area_problem(self, model: RulesModel, fields: Mapping[str, list[int]], seat: int, colour: int) -> str | None:
        """Whether the seat's discount on one colour is what the discount cards of its play area give."""
        ncards, colour_id = len(model.cards), model.colours[colour].id
        area = fields["owned"][seat * ncards:(seat + 1) * ncards]
        discount = sum(n * effect.reduction(colour_id) for n, card in zip(area, model.cards)
                       for effect in card.abilities if isinstance(effect, Discount))
        if fields["discount"][seat * len(model.colours) + colour] != discount:
            return f"the {colour_id} discount of seat {seat + 1} does not match its cards"
        return None
