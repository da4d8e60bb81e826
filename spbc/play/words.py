"""The words of the notation: card names as players type them, ability verbs and deck names.

Names are compared in a normal form (no case, apostrophes, periods or hyphens;
umlauts also spelled without dots or as ae/oe/ue), by English name, the name in
every other language of the ruleset (``Sternwarte``, ``天文台``), alias or any unique
beginning of those.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from spbc.lang.model import Effect, RulesModel
from spbc.play import hooks
from spbc.play.game import Ruleset



def normalize(text: str) -> str:
    """The form names are compared in: lower case, no apostrophes or periods, single spaces.

    >>> normalize("  Potjomkin's-Village ")
    'potjomkins village'
    """
    text = text.casefold().replace("ß", "ss")
    text = re.sub(r"['’`.]", "", text)
    text = re.sub(r"[-_,;:/]+", " ", text)
    return " ".join(text.split())


def _fold_umlauts(text: str) -> set[str]:
    """Spellings of a normalized name without umlauts: "sekretär" -> "sekretar", "sekretaer"."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    spelled = text.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    return {text, plain, spelled}


@dataclass(frozen=True)
class Vocabulary:
    """Every word a ruleset adds to the notation, normalized for lookup."""

    names: dict[str, str]  # card id -> English name
    primary: dict[str, frozenset[str]]  # English name or id form -> card ids
    secondary: dict[str, frozenset[str]]  # a name in another language or an alias, normalized -> card ids
    abilities: dict[str, tuple[str, Effect]]  # verb -> (card id, effect): abilities with moves of their own
    verb_of: dict[str, str]  # ability card id -> its verb
    decks: dict[str, str]  # deck id or English name form -> deck id
    other_decks: dict[str, str]  # a deck's name in another language, normalized -> deck id
    deck_ids: tuple[str, ...]


def _index(pairs: list[tuple[str, str]]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for form, card_id in pairs:
        for spelling in _fold_umlauts(normalize(form)):
            if spelling:
                found.setdefault(spelling, set()).add(card_id)
    return {form: frozenset(ids) for form, ids in found.items()}


def vocabulary(model: RulesModel) -> Vocabulary:
    """The notation's words for one ruleset: card names, ability verbs and deck names."""
    primary = [(c.name, c.id) for c in model.cards] + [(c.id, c.id) for c in model.cards]
    secondary = [(name, c.id) for c in model.cards for language, name in c.names.texts if language != "en"]
    secondary += [(alias, c.id) for c in model.cards for alias in c.aliases]
    abilities: dict[str, tuple[str, Effect]] = {}
    for card in model.cards:
        for effect in card.abilities:
            verb = hooks.verb(effect)
            if verb is not None:
                abilities[normalize(verb)] = (card.id, effect)
    decks = {normalize(d.name): d.id for d in model.decks}
    decks.update({normalize(d.id): d.id for d in model.decks})
    other_decks = {normalize(name): d.id for d in model.decks for language, name in d.names.texts
                   if language != "en" and normalize(name) not in decks}
    return Vocabulary(
        names={c.id: c.name for c in model.cards},
        primary=_index(primary),
        secondary=_index(secondary),
        abilities=abilities,
        verb_of={card_id: hooks.verb(effect) or "" for _, (card_id, effect) in abilities.items()},
        decks=decks,
        other_decks=other_decks,
        deck_ids=tuple(d.id for d in model.decks),
    )


@functools.lru_cache(maxsize=16)
def vocabulary_of(ruleset: Ruleset) -> Vocabulary:
    return vocabulary(ruleset.model)


def find_cards(phrase: str, words: Vocabulary) -> list[str]:
    """The cards a (normalized) phrase may name: exact English names first, then other
    exact names, then the cards with any name starting with the phrase. Ids in rules order."""
    order = list(words.names)
    for table in (words.primary, words.secondary):
        if phrase in table:
            return sorted(table[phrase], key=order.index)
    found: set[str] = set()
    for table in (words.primary, words.secondary):
        for form, ids in table.items():
            if form.startswith(phrase):
                found |= ids
    return sorted(found, key=order.index)
