"""The reference's side of the mechanics: what a mechanic's ``reference.py`` may offer to the rules reference.

The reference names no ability kind: each section asks the mechanics a ruleset uses, in hook order,
for their sentences (written in their ``prose.<language>.j2``, see spbc.reference.language.say_of). The
model a hook gets is in the language of the reference being written (RulesModel.in_language): its names
are that language's, and ``say_of(model, kind, macro, ...)`` picks that language's prose.
A mechanic's reference module defines those of these functions that its kind has; ``uses`` is every
(card, effect) of its kind, in card declaration order:

==================  ==========================================================================
function            gives
==================  ==========================================================================
``round_step``      (model, uses, phase) -> sentences added to that phase's step of a round
``round_end``       (model, uses) -> steps of the end of a round, before the next round starts
``actions``         (model, uses) -> the extra actions it gives a turn
``reductions``      (model, uses) -> its cost reductions
``hand_raisers``    (model, uses) -> the names of the cards that raise the hand limit
``game_end``        (model, uses) -> sentences added to the end of the game
``income``          (model, uses) -> lines under "Income by phase": what it pays in a phase
``notation_forms``  (model, card, effect) -> its forms of move text (spbc.reference.forms)
==================  ==========================================================================

Every kind also has its paragraph under "Special abilities", the macro ``ability`` of its prose, and
its name in the card tables, the macro ``title``.
"""

from __future__ import annotations

from typing import Any

from spbc.contract import mechanics
from spbc.lang.model import Card, Effect, RulesModel


def uses(model: RulesModel, kind: str) -> list[tuple[Card, Effect]]:
    """Every (card, effect) of one kind, in card declaration order."""
    return [(card, effect) for card in model.cards for effect in card.abilities if effect.kind == kind]


def contributions(model: RulesModel, name: str, *args: Any) -> list[Any]:
    """What every mechanic the ruleset uses gives for ``name``, in hook order, one list."""
    kinds = {effect.kind for card in model.cards for effect in card.abilities}
    found: list[Any] = []
    for mechanic in mechanics.used_by(kinds):
        function = getattr(mechanic.part("reference"), name, None)
        if function is not None:
            found += function(model, uses(model, mechanic.kind), *args)
    return found


def notation_forms(model: RulesModel, card: Card, effect: Effect) -> list[Any]:
    """The forms of move text one ability adds to the notation."""
    function = getattr(mechanics.mechanic(effect.kind).part("reference"), "notation_forms", None)
    return list(function(model, card, effect)) if function is not None else []
