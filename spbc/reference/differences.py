"""The reference's section on what a variant changes, in the reference's language.

``spb diff`` prints the changes as rules files write them (:mod:`spbc.reference.diff`); the
reference says the same in the reader's language: the kind of each thing and its name in that
language, ``removed`` and ``added`` as words of the language, and a new card's deck, colour and
income counted the language's way. A setting that changed keeps its rules-file name and values
(``starting_rubles 25 -> 30``): that is how an author of any language writes it.
"""

from __future__ import annotations

from spbc.lang.model import Card, RulesModel
from spbc.reference.diff import TEXT_FIELDS, Change, show
from spbc.reference.language import say


def difference_lines(model: RulesModel, base: RulesModel, changes: list[Change]) -> list[str]:
    """One line per thing that changed (its changes joined), in ``model``'s language; ``base`` is the
    ruleset the variant extends, for the names of what the variant removed."""
    names = _names(base.in_language(model.language) if model.language in base.languages else base) | _names(model)
    lines: list[str] = []
    changed: list[str] = []
    for index, change in enumerate(changes):
        thing = say(model, "difference_thing", change.what, change.id, names.get((change.what, change.id), ""))
        if change.change == "removed":
            lines.append(say(model, "difference_removed", thing))
        elif change.change == "added":
            details = _details(model, model.card(change.id)) if change.what == "card" else ""
            lines.append(say(model, "difference_added", thing, details))
        else:
            quoted = change.field.split(" ")[-1] in TEXT_FIELDS
            note = f" ({say(model, 'old_name_stays')})" if change.note else ""
            changed.append(f"{change.field} {show(change.old, quoted)} -> {show(change.new, quoted)}{note}")
            following = changes[index + 1] if index + 1 < len(changes) else None
            if following is None or following.change != "changed" or change.what == "game" or \
                    (following.what, following.id) != (change.what, change.id):
                lines.append(say(model, "difference_changed", thing, changed))
                changed = []
    return lines


def _names(model: RulesModel) -> dict[tuple[str, str], str]:
    things = (("card", model.cards), ("deck", model.decks), ("colour", model.colours), ("phase", model.phases))
    return {(what, thing.id): thing.name for what, group in things for thing in group}


def _details(model: RulesModel, card: Card) -> str:
    deck = next(deck.name for deck in model.decks if deck.id == card.deck)
    colour = next(colour.name for colour in model.colours if colour.id == card.colour)
    extras = []
    if card.displace_value is not None and card.displace_value != card.cost:
        extras.append(f"displace_value {card.displace_value}")
    if card.special:
        extras.append("special")
    extras += [effect.kind for effect in card.abilities]
    return say(model, "card_details", deck, colour, card.cost, card.copies, card.rubles, card.points, extras)
