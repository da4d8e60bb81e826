"""The take_discard mechanic in the rules reference: its extra action, its reset at the end of a round, and
its notation forms."""

from __future__ import annotations

from typing_extensions import override

from spbc.lang.model import Card, RulesModel
from spbc.mechanics.take_discard.effect import TakeDiscard
from spbc.reference.forms import NotationForm
from spbc.reference.hooks import ReferencePart
from spbc.reference.language import say_of


class Reference(ReferencePart[TakeDiscard]):
    """The take_discard mechanic's part in the rules reference."""

    @override
    def actions(self, model: RulesModel, uses: list[tuple[Card, TakeDiscard]]) -> list[str]:
        phases = {p.id: p.name for p in model.phases}
        return [say_of(model, TakeDiscard.kind, "played", card.name, effect.verb) if effect.from_hand else
                say_of(model, TakeDiscard.kind, "action", card.name, effect.verb, phases[effect.phase])
                for card, effect in uses]

    @override
    def round_end(self, model: RulesModel, uses: list[tuple[Card, TakeDiscard]]) -> list[str]:
        takers = list(dict.fromkeys(card.name for card, effect in uses if not effect.from_hand))
        return [say_of(model, TakeDiscard.kind, "round_end", takers)] if takers else []

    @override
    def notation_forms(self, model: RulesModel, card: Card, effect: TakeDiscard) -> list[NotationForm]:
        example = next((c.name for c in model.cards if not c.special and (not effect.decks or c.deck in effect.decks)),
                       card.name)
        macro = "notation_play" if effect.from_hand else "notation_take"
        return [
            NotationForm(f"{effect.verb} CARD", say_of(model, TakeDiscard.kind, macro, card.name),
                         f"{effect.verb} {example}"),
        ]
