"""The draw_action mechanic in the rules reference: its extra action, its reset at the end of a round, the
last card it may not draw, and its notation forms."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.draw_action.effect import DrawAction
from spbc.reference.forms import NotationForm
from spbc.reference.hooks import ReferencePart
from spbc.reference.language import either, say_of


class Reference(ReferencePart[DrawAction]):
    """The draw_action mechanic's part in the rules reference."""

    @override
    def actions(self, model: RulesModel, uses: list[tuple[Card, DrawAction]]) -> list[str]:
        phases = {p.id: p.name for p in model.phases}
        return [say_of(model, DrawAction.kind, "action", card.name, effect.verb, phases[effect.phase])
                for card, effect in uses]

    @override
    def round_end(self, model: RulesModel, uses: list[tuple[Card, DrawAction]]) -> list[str]:
        drawers = list(dict.fromkeys(card.name for card, _ in uses))
        return [say_of(model, DrawAction.kind, "round_end", drawers)] if drawers else []

    @override
    def game_end(self, model: RulesModel, uses: list[tuple[Card, DrawAction]]) -> list[str]:
        forbid = list(dict.fromkeys(card.name for card, effect in uses if effect.forbid_last_card))
        return [say_of(model, DrawAction.kind, "game_end", forbid)] if forbid else []

    @override
    def notation_forms(self, model: RulesModel, card: Card, effect: DrawAction) -> list[NotationForm]:
        return [
            NotationForm(f"{effect.verb} DECK", say_of(model, DrawAction.kind, "notation_draw", card.name,
                                                       either(model, list(effect.decks))),
                         f"{effect.verb} {effect.decks[0]}"),
            NotationForm("buy|take|discard [CARD]", say_of(model, DrawAction.kind, "notation_decide", card.name),
                         "discard", "b, t, d"),
        ]
