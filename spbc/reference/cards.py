"""The cards of a ruleset as a table and as exported JSON.

One list of columns serves every table of cards: ``spb cards``, its plain-text
form and the card tables of the rules reference. The JSON export goes through
pydantic models, so what leaves the library has a declared shape.

>>> print(format_card_table(model))         # doctest: +SKIP
Card        Deck    Colour  Cost  Copies  ...
Lumberjack  worker  green      3       6  ...
"""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from spbc.lang.model import Card, Effect, RulesModel

NO_VALUE = "–"


# --- exported JSON ---------------------------------------------------------------------


class AbilityRecord(BaseModel):
    """One ability effect: its ``kind`` and, beside it, that kind's parameters."""

    model_config = ConfigDict(extra="allow", frozen=True)

    kind: str


class CardRecord(BaseModel):
    """One distinct card as ``spb cards --json`` exports it; ids refer to the same ruleset."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    deck: str
    colour: str
    cost: int
    copies: int
    rubles: int
    points: int
    names: dict[str, str]  # language -> name, in every language of the ruleset
    translated: list[str]  # the languages whose name is the rules author's own translation
    aliases: list[str]
    symbol: str | None
    displaces: str | None
    displace_value: int | None
    pays_in: str | None
    abilities: list[AbilityRecord]


def ability_record(effect: Effect) -> AbilityRecord:
    """An effect as ``{"kind": ..., **parameters}``; tuples become lists, the span is left out."""
    params: dict[str, Any] = {}
    for item in dataclasses.fields(effect):
        if item.name == "span":
            continue
        value = getattr(effect, item.name)
        params[item.name] = list(value) if isinstance(value, tuple) else value
    return AbilityRecord(kind=effect.kind, **params)


def card_record(card: Card) -> CardRecord:
    """The exported form of one card."""
    return CardRecord(
        id=card.id,
        name=card.name,
        deck=card.deck,
        colour=card.colour,
        cost=card.cost,
        copies=card.copies,
        rubles=card.rubles,
        points=card.points,
        names=dict(card.names.texts),
        translated=list(card.names.translated),
        aliases=list(card.aliases),
        symbol=card.symbol,
        displaces=card.displaces,
        displace_value=card.displace_value,
        pays_in=card.pays_in,
        abilities=[ability_record(effect) for effect in card.abilities],
    )


def card_records(model: RulesModel) -> list[CardRecord]:
    """Every distinct card of the ruleset, in declaration order."""
    return [card_record(card) for card in model.cards]


def cards_json(model: RulesModel) -> str:
    """The cards as a JSON list, indented, keys in declaration order, ending in a newline."""
    data = [record.model_dump(mode="json") for record in card_records(model)]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# --- tables ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """A column of a card table. An ``optional`` column is dropped when it is empty for every card.
    ``key`` names it for a reader's language (the reference's labels); ``title`` is its English title."""

    key: str
    title: str
    numeric: bool
    optional: bool
    value: Callable[[Card], str]


#: The English titles of the columns, by key (``spb cards``; the reference has its own labels).
TITLES = {"card": "Card", "deck": "Deck", "colour": "Colour", "cost": "Cost", "copies": "Copies",
          "rubles": "Rubles", "points": "Points", "symbol": "Symbol", "displace_value": "Displace value",
          "ability": "Ability", "name_de": "German", "name_zh": "Chinese", "name_en": "English",
          "aliases": "Also known as"}


def ability_kinds(card: Card) -> str:
    """The kinds of a card's abilities as words: ``"buy points"``; empty without abilities."""
    return ", ".join(dict.fromkeys(effect.kind.replace("_", " ") for effect in card.abilities))


def card_columns(model: RulesModel, *, deck: bool = False, names: bool = True,
                 ability: Callable[[Card], str] = ability_kinds, mark: str = "",
                 any_symbol: str = "any") -> list[Column]:
    """The columns of a card table: with a Deck column when ``deck`` is true, without the names in
    the model's other languages and the aliases when ``names`` is false. ``ability`` gives the
    Ability cell; ``mark`` follows a name that is the rules author's own translation; ``any_symbol``
    is how the wildcard symbol reads."""
    colours = {colour.id: colour.name for colour in model.colours}
    decks = {d.id: d.name for d in model.decks}

    def displace_value(card: Card) -> str:
        differs = card.displace_value is not None and card.displace_value != card.cost
        return str(card.displace_value) if differs else NO_VALUE

    def or_none(text: str | None) -> str:
        return text or NO_VALUE

    def name_in(language: str) -> Callable[[Card], str]:
        def value(card: Card) -> str:
            name = card.names.get(language)
            return name + mark if name and mark and language in card.names.translated else or_none(name)
        return value

    def column(key: str, numeric: bool, optional: bool, value: Callable[[Card], str]) -> Column:
        return Column(key, TITLES[key], numeric, optional, value)

    columns = [column("card", False, False, name_in(model.language) if mark else lambda c: c.name)]
    if deck:
        columns.append(column("deck", False, False, lambda c: decks[c.deck]))
    columns += [
        column("colour", False, not deck, lambda c: colours[c.colour] if deck or c.trading else NO_VALUE),
        column("cost", True, False, lambda c: str(c.cost)),
        column("copies", True, False, lambda c: str(c.copies)),
        column("rubles", True, False, lambda c: str(c.rubles)),
        column("points", True, False, lambda c: str(c.points)),
        column("symbol", False, True,
               lambda c: any_symbol if c.symbol == "any" else or_none(c.symbol and model.symbol_name(c.symbol))),
        column("displace_value", True, True, displace_value),
        column("ability", False, True, lambda c: or_none(ability(c))),
    ]
    if names:
        columns += [column(f"name_{language}", False, True, name_in(language))
                    for language in model.languages if language != model.language]
        columns.append(column("aliases", False, True, lambda c: or_none(", ".join(c.aliases))))
    return columns


def card_table(
    model: RulesModel, cards: Sequence[Card] | None = None, *, deck: bool = False, names: bool = True,
    ability: Callable[[Card], str] = ability_kinds, mark: str = "", any_symbol: str = "any",
) -> tuple[list[Column], list[list[str]]]:
    """The columns and the rows of text of a card table (all cards by default).

    Optional columns that would show nothing for any of the cards are left out.
    """
    cards = list(model.cards if cards is None else cards)
    kept: list[Column] = []
    cells: list[list[str]] = []
    for column in card_columns(model, deck=deck, names=names, ability=ability, mark=mark, any_symbol=any_symbol):
        values = [column.value(card) for card in cards]
        if column.optional and all(value == NO_VALUE for value in values):
            continue
        kept.append(column)
        cells.append(values)
    rows = [[values[i] for values in cells] for i in range(len(cards))]
    return kept, rows


def format_card_table(model: RulesModel) -> str:
    """Every card in plain text, one line each, columns aligned with spaces; ends in a newline."""
    columns, rows = card_table(model, deck=True)
    lines = [[column.title for column in columns], *rows]
    widths = [max(_width(line[i]) for line in lines) for i in range(len(columns))]
    out = []
    for line in lines:
        parts = [
            " " * (width - _width(text)) + text if column.numeric else text + " " * (width - _width(text))
            for text, width, column in zip(line, widths, columns)
        ]
        out.append("  ".join(parts).rstrip())
    return "\n".join(out) + "\n"


def _width(text: str) -> int:
    """Terminal columns of a text: East Asian wide characters take two, combining marks none."""
    return sum(0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
               for char in text)
