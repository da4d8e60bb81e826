"""The reference's side of the mechanics: the base class of what a mechanic's ``reference.py`` offers to the
rules reference.

The reference names no ability kind: each section asks the mechanics a ruleset uses, in hook order,
for their sentences (written in their ``prose.<language>.j2``, see spbc.reference.language.say_of). The
model a hook gets is in the language of the reference being written (RulesModel.in_language): its names
are that language's, and ``say_of(model, kind, macro, ...)`` picks that language's prose. A mechanic's
reference module defines ``class Reference(ReferencePart[ItsEffect])`` and overrides (``@override``)
those methods its kind has; ``uses`` is every (card, effect) of its kind, in card declaration order.

Every kind also has its paragraph under "Special abilities", the macro ``ability`` of its prose, and
its name in the card tables, the macro ``title``. The hooks, as the table below (printed from
ReferencePart itself) lists them:
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from spbc.contract import mechanics
from spbc.contract.parts import describe
from spbc.lang.model import Card, Effect, Phase, RulesModel

E = TypeVar("E", bound=Effect)


@dataclass(frozen=True)
class NotationForm:
    """One form of move text, as the README, the rules reference and the play help list them
    (spbc.reference.forms gathers them)."""

    form: str
    meaning: str
    example: str
    short: str = ""  # the short form of its verb, if any


class ReferencePart(Generic[E]):
    """The reference's part of one mechanic, for abilities of its effect class ``E``; every default says nothing."""

    def round_step(self, model: RulesModel, uses: list[tuple[Card, E]], phase: Phase) -> list[str]:
        """Sentences added to that phase's step of a round."""
        return []

    def round_end(self, model: RulesModel, uses: list[tuple[Card, E]]) -> list[str]:
        """Steps of the end of a round, before the next round starts."""
        return []

    def actions(self, model: RulesModel, uses: list[tuple[Card, E]]) -> list[str]:
        """The extra actions it gives a turn."""
        return []

    def reductions(self, model: RulesModel, uses: list[tuple[Card, E]]) -> list[str]:
        """Its cost reductions."""
        return []

    def hand_raisers(self, model: RulesModel, uses: list[tuple[Card, E]]) -> list[str]:
        """The names of the cards that raise the hand limit."""
        return []

    def game_end(self, model: RulesModel, uses: list[tuple[Card, E]]) -> list[str]:
        """Sentences added to the end of the game."""
        return []

    def income(self, model: RulesModel, uses: list[tuple[Card, E]]) -> list[str]:
        """Lines under "Income by phase": what it pays in a phase."""
        return []

    def notation_forms(self, model: RulesModel, card: Card, effect: E) -> list[NotationForm]:
        """Its forms of move text (spbc.reference.forms)."""
        return []


#: The hooks :func:`contributions` gathers: each a method of ReferencePart given (model, uses, *args).
Contribution = Literal["round_step", "round_end", "actions", "reductions", "hand_raisers", "game_end", "income"]


def reference_part(kind: str) -> ReferencePart[Any] | None:
    """The reference part of one kind's mechanic, None if it has none."""
    return mechanics.mechanic(kind).part("reference", ReferencePart)


def uses(model: RulesModel, kind: str) -> list[tuple[Card, Effect]]:
    """Every (card, effect) of one kind, in card declaration order."""
    return [(card, effect) for card in model.cards for effect in card.abilities if effect.kind == kind]


def contributions(model: RulesModel, name: Contribution, *args: Any) -> list[str]:
    """What every mechanic the ruleset uses gives for the hook ``name`` (a method of ReferencePart), in hook
    order, one list."""
    kinds = {effect.kind for card in model.cards for effect in card.abilities}
    found: list[str] = []
    for mechanic in mechanics.used_by(kinds):
        part = mechanic.part("reference", ReferencePart)
        if part is not None:
            found += getattr(part, name)(model, uses(model, mechanic.kind), *args)
    return found


def notation_forms(model: RulesModel, card: Card, effect: Effect) -> list[NotationForm]:
    """The forms of move text one ability adds to the notation."""
    part = reference_part(effect.kind)
    return list(part.notation_forms(model, card, effect)) if part is not None else []


__doc__ = f"{__doc__}\n{describe(ReferencePart)}\n"
