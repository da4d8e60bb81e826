"""The differences of two rulesets, computed from their checked models (``spb diff``).

Only what changes the game counts: game settings, colours, decks, phases and cards
(every setting, every ability parameter), never a ruleset's name, title, edition,
files or digest. One :class:`Change` is one line of the text form::

    game: starting_rubles 25 -> 30
    card market (Market): points 1 -> 2
    card pub (Pub): ability buy_points per card -> player
    card observatory (Observatory): removed
    card tavern (Tavern): added (deck building, cost 4, 1 copy, 0 rubles, 1 point)

Nothing here knows a card: every id and name comes from the models.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any

from spbc.lang.model import Card, Effect, GameParams, RulesModel

#: Fields that follow from others (the phase that pays a card follows from its colour) or only locate a definition.
#: ``names`` holds ``name`` in every language: the English name is compared as ``name``, the others
#: are how readers of other languages name the same thing, no change to the game.
_DERIVED = frozenset({"span", "pays_in", "id", "names"})


@dataclass(frozen=True)
class Change:
    """One difference: ``change`` is "changed", "added" or "removed"; ``field`` names what changed
    ("" for a whole thing added or removed; ``ability KIND PARAM`` for an ability's parameter)."""

    what: str  # game, colour, deck, phase, card
    id: str  # "" for the game settings
    name: str  # the thing's name as players read it ("" for the game)
    change: str
    field: str = ""
    old: Any = None
    new: Any = None
    note: str = ""  # said after the values: "the old name stays an alias"

    def text(self) -> str:
        """The line of ``spb diff`` that says this change."""
        head = self.what if not self.id else f"{self.what} {self.id}" + (f" ({self.name})" if self.name else "")
        if self.change == "changed":
            quoted = self.field.split(" ")[-1] in TEXT_FIELDS
            note = f" ({self.note})" if self.note else ""
            return f"{head}: {self.field} {show(self.old, quoted)} -> {show(self.new, quoted)}{note}"
        if self.change == "added" and self.new:
            return f"{head}: added ({self.new})"
        return f"{head}: {self.change}"

    def as_json(self) -> dict[str, Any]:
        return {"what": self.what, "id": self.id, "name": self.name, "change": self.change,
                "field": self.field, "old": _plain(self.old), "new": _plain(self.new)}


#: Settings whose values are text, written in quotes (the others hold numbers, yes/no or ids).
TEXT_FIELDS = frozenset({"name", "aliases", "verb", "title", "edition"})


def show(value: Any, quoted: bool = False) -> str:
    """A value as rules files write it: ``yes``, ``[wood, gold]``, ``"Abbot"`` (``quoted``: text), ``-`` for none."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and re.fullmatch(r"\d+\.\.\d+", value):
        return value  # a range: players
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False) if quoted or not value.isidentifier() else value
    if isinstance(value, tuple):
        return "[" + ", ".join(show(item, quoted) for item in value) + "]"
    return str(value)


def _plain(value: Any) -> Any:
    return list(_plain(item) for item in value) if isinstance(value, tuple) else value


def _fields(value: Any) -> dict[str, Any]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.name not in _DERIVED}


def _game_fields(game: GameParams) -> dict[str, Any]:
    values = _fields(game)
    low, high = values.pop("min_players"), values.pop("max_players")
    return {"players": f"{low}..{high}", **values}


def _game(old: GameParams, new: GameParams) -> list[Change]:
    a, b = _game_fields(old), _game_fields(new)
    return [Change("game", "", "", "changed", key, a[key], b[key]) for key in a if a[key] != b[key]]


def _abilities(old: Card, new: Card) -> list[tuple[str, Any, Any]]:
    """(field, old, new) for every ability parameter that differs; a whole ability added or removed
    is its kind with ``-`` on the side that lacks it."""
    found: list[tuple[str, Any, Any]] = []
    a = {effect.kind: effect for effect in old.abilities}
    b = {effect.kind: effect for effect in new.abilities}
    for kind in [*a, *(k for k in b if k not in a)]:
        if kind not in a or kind not in b:
            found.append((f"ability {kind}", _summary(a.get(kind)), _summary(b.get(kind))))
            continue
        pa, pb = _fields(a[kind]), _fields(b[kind])
        found += [(f"ability {kind} {key}", pa[key], pb[key]) for key in pa if pa[key] != pb[key]]
    return found


def _summary(effect: Effect | None) -> str | None:
    if effect is None:
        return None
    return ", ".join(f"{key} {show(value)}" for key, value in _fields(effect).items())


def card_summary(card: Card) -> str:
    """A new card in a few words: its deck, cost, copies, income, and a displace value other than its cost."""
    parts = [f"deck {card.deck}", f"colour {card.colour}", f"cost {card.cost}",
             f"{card.copies} cop{'y' if card.copies == 1 else 'ies'}", f"{card.rubles} ruble{'' if card.rubles == 1 else 's'}",
             f"{card.points} point{'' if card.points == 1 else 's'}"]
    if card.displace_value is not None and card.displace_value != card.cost:
        parts.append(f"displace_value {card.displace_value}")
    if card.special:
        parts.append("special")
    if card.abilities:
        parts.append("abilities " + ", ".join(effect.kind for effect in card.abilities))
    return ", ".join(parts)


def _fold_derived(old: dict[str, Any], new: dict[str, Any], notes: dict[str, str]) -> None:
    """Leave out what follows from another change: a displace value that is the cost on both
    sides, and aliases that only keep a renamed card's old name (the name change says so)."""
    if old.get("displace_value") == old["cost"] and new.get("displace_value") == new["cost"]:
        new["displace_value"] = old["displace_value"]
    if old["name"] != new["name"] and \
            set(new["aliases"]) == (set(old["aliases"]) | {old["name"]}) - {new["name"]}:
        new["aliases"] = old["aliases"]
        notes["name"] = "the old name stays an alias"


def _things(what: str, old: tuple[Any, ...], new: tuple[Any, ...]) -> list[Change]:
    a, b = {x.id: x for x in old}, {x.id: x for x in new}
    changes: list[Change] = []
    for ident, thing in a.items():
        name = getattr(b.get(ident, thing), "name", "")
        if ident not in b:
            changes.append(Change(what, ident, thing.name, "removed"))
            continue
        fa, fb = _fields(thing), _fields(b[ident])
        fa.pop("abilities", None)
        fb.pop("abilities", None)
        notes: dict[str, str] = {}
        if what == "card":
            _fold_derived(fa, fb, notes)
        changes += [Change(what, ident, name, "changed", key, fa[key], fb[key], notes.get(key, ""))
                    for key in fa if fa[key] != fb[key]]
        if what == "card":
            changes += [Change(what, ident, name, "changed", key, x, y) for key, x, y in _abilities(thing, b[ident])]
    for ident, thing in b.items():
        if ident not in a:
            changes.append(Change(what, ident, thing.name, "added", new=card_summary(thing) if what == "card" else ""))
    return changes


def diff_models(old: RulesModel, new: RulesModel) -> list[Change]:
    """Every difference between two rulesets, game settings first, then colours, decks, phases, cards."""
    return [*_game(old.game, new.game), *_things("colour", old.colours, new.colours),
            *_things("deck", old.decks, new.decks), *_things("phase", old.phases, new.phases),
            *_things("card", old.cards, new.cards)]


def diff_lines(changes: list[Change]) -> list[str]:
    """The text form: one line per game setting, and the changes of one card (colour, deck, phase) joined on its line."""
    lines: list[str] = []
    last: tuple[str, str, str] | None = None
    for change in changes:
        key = (change.what, change.id, change.change)
        text = change.text()
        if change.change == "changed" and key == last and change.what != "game":
            lines[-1] += ", " + text.split(": ", 1)[1]
        else:
            lines.append(text)
        last = key
    return lines


def diff_json(old: RulesModel, new: RulesModel) -> str:
    """The differences as JSON: the two rulesets and a list of changes."""
    changes = [change.as_json() for change in diff_models(old, new)]
    return json.dumps({"from": old.name, "to": new.name, "changes": changes}, indent=2, ensure_ascii=False) + "\n"
