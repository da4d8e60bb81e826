"""The reference part shared by the mechanics whose ability is one extra action with a verb of its own
(extra_actions, windfall, discard_from_hand, feast): its line among a turn's actions and its one form of
move text, both said by the mechanic's prose (macros ``action`` and ``notation``).

A mechanic of this shape says only what differs: what the verb takes after it (:attr:`ARGUMENT`), the
card its example names (:meth:`example`) and the values its ``notation`` macro is given after the card's
name (:meth:`notation_values`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from typing_extensions import override

from spbc.lang.model import Card, Effect, RulesModel
from spbc.reference.forms import NotationForm
from spbc.reference.hooks import E, ReferencePart
from spbc.reference.language import say_of


def _verb(effect: Effect) -> str:
    return str(getattr(effect, "verb"))


class VerbAction(ReferencePart[E]):
    """An extra action written as its verb, then :attr:`ARGUMENT` (nothing by default)."""

    #: What the verb takes in the form of move text: ``"CARD"``, ``"[CARD]"``, or nothing.
    ARGUMENT: ClassVar[str] = ""

    @override
    def actions(self, model: RulesModel, uses: list[tuple[Card, E]]) -> list[str]:
        return [say_of(model, effect.kind, "action", card.name, _verb(effect)) for card, effect in uses]

    @override
    def notation_forms(self, model: RulesModel, card: Card, effect: E) -> list[NotationForm]:
        verb = _verb(effect)
        example = self.example(model, card)
        meaning = say_of(model, effect.kind, "notation", card.name, *self.notation_values(effect))
        return [NotationForm(f"{verb} {self.ARGUMENT}".rstrip(), meaning, f"{verb} {example}".rstrip())]

    def example(self, model: RulesModel, card: Card) -> str:
        """The name of the card the form's example takes (nothing: the verb alone)."""
        return ""

    def notation_values(self, effect: E) -> tuple[Any, ...]:
        """What the prose's ``notation`` macro is given after the card's name."""
        return ()
