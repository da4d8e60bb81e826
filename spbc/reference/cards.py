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
    german: str | None
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
        german=card.german,
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
    """A column of a card table. An ``optional`` column is dropped when it is empty for every card."""

    title: str
    numeric: bool
    optional: bool
    value: Callable[[Card], str]


def ability_kinds(card: Card) -> str:
    """The kinds of a card's abilities as words: ``"buy points"``; empty without abilities."""
    return ", ".join(dict.fromkeys(effect.kind.replace("_", " ") for effect in card.abilities))


def card_columns(model: RulesModel, *, deck: bool = False, names: bool = True) -> list[Column]:
    """The columns of a card table: with a Deck column when ``deck`` is true, without the
    German name and aliases when ``names`` is false."""
    colours = {colour.id: colour.name for colour in model.colours}
    decks = {d.id: d.name for d in model.decks}

    def displace_value(card: Card) -> str:
        differs = card.displace_value is not None and card.displace_value != card.cost
        return str(card.displace_value) if differs else NO_VALUE

    def or_none(text: str | None) -> str:
        return text or NO_VALUE

    columns = [Column("Card", False, False, lambda c: c.name)]
    if deck:
        columns.append(Column("Deck", False, False, lambda c: decks[c.deck]))
    columns += [
        Column("Colour", False, not deck, lambda c: colours[c.colour] if deck or c.trading else NO_VALUE),
        Column("Cost", True, False, lambda c: str(c.cost)),
        Column("Copies", True, False, lambda c: str(c.copies)),
        Column("Rubles", True, False, lambda c: str(c.rubles)),
        Column("Points", True, False, lambda c: str(c.points)),
        Column("Symbol", False, True, lambda c: or_none(c.symbol)),
        Column("Displace value", True, True, displace_value),
        Column("Ability", False, True, lambda c: or_none(ability_kinds(c))),
    ]
    if names:
        columns += [
            Column("German", False, True, lambda c: or_none(c.german)),
            Column("Also known as", False, True, lambda c: or_none(", ".join(c.aliases))),
        ]
    return columns


def card_table(
    model: RulesModel, cards: Sequence[Card] | None = None, *, deck: bool = False, names: bool = True
) -> tuple[list[Column], list[list[str]]]:
    """The columns and the rows of text of a card table (all cards by default).

    Optional columns that would show nothing for any of the cards are left out.
    """
    cards = list(model.cards if cards is None else cards)
    kept: list[Column] = []
    cells: list[list[str]] = []
    for column in card_columns(model, deck=deck, names=names):
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
