"""Why a move is refused, as a value, and the words that say it in a language.

A :class:`Refusal` is a key naming the reason and its fields: ids of the ruleset (cards, decks,
phases, colours), seats, numbers, and the words the player typed. It holds no display name and no
English: the sentence is a Jinja macro named by the key, one template per language, and the names are
the ruleset's own in that language (``RulesModel.in_language``):

=======================================  =================================================================
template                                 holds
=======================================  =================================================================
``play/refusals.<lang>.j2``              the play layer's own refusals (notation, explanations) and the
                                         words around every refusal: who, which round and phase
``mechanics/<kind>/prose.<lang>.j2``     a mechanic's refusals, as macros ``refusal_<key>``
=======================================  =================================================================

Every macro is called with a :class:`Speaker` first (the names, lists and quotes of its language) and
the refusal's fields by name, so a field the macro does not expect, or one it needs and is not given,
fails at once. What a refusal tells is decided where it is made (:mod:`spbc.play.explain` asks what the
reader may know); saying it in another language tells nothing more.

>>> say(Refusal.of("hand_full", size=4), game, "de")             # doctest: +SKIP
'deine Hand ist voll (4 Karten)'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from spbc.engine import render
from spbc.lang.kept import per_model
from spbc.lang.model import RulesModel
from spbc.reference.language import has_prose, line_of

#: The languages every refusal can be said in; English is the model the others follow.
LANGUAGES = ("en", "de", "zh")


@dataclass(frozen=True)
class Refusal:
    """A reason a move is refused: ``key`` names its macro, ``kind`` the mechanic whose prose holds it
    (None: the play layer's own), ``fields`` its values by name (ids, seats, numbers, typed words)."""

    key: str
    fields: tuple[tuple[str, Any], ...] = ()
    kind: str | None = None

    @classmethod
    def of(cls, key: str, kind: str | None = None, **fields: Any) -> Refusal:
        """``Refusal.of("hand_full", size=4)``; a list field is kept as a tuple, the fields in the order of
        their names (so two refusals of the same fields are equal)."""
        values = tuple((name, tuple(value) if isinstance(value, list) else value)
                       for name, value in sorted(fields.items()))
        return cls(key, values, kind)

    def get(self, name: str) -> Any:
        """A field's value; KeyError for a field it has not."""
        return dict(self.fields)[name]


@dataclass(frozen=True)
class Situation:
    """Who was to move and when a move was refused: a seat, a round and a phase id."""

    seat: int
    round: int
    phase: str


class TableLike(Protocol):
    """What saying a refusal needs of a game: its rules and its players' names."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def ruleset(self) -> Any: ...


class Speaker:
    """The words a refusal's macro is given in one language: names by id, lists, quotes."""

    def __init__(self, model: RulesModel, players: Sequence[str], language: str) -> None:
        self.model = model
        self.language = language
        self.players = tuple(players)
        self._grammar = _grammar(language)

    def card(self, card_id: str) -> str:
        """A card's name in the language; an id the rules lack as it is."""
        found = [card.name for card in self.model.cards if card.id == card_id]
        return found[0] if found else card_id

    def cards(self, card_ids: Sequence[str]) -> list[str]:
        return [self.card(card_id) for card_id in card_ids]

    def deck(self, deck_id: str) -> str:
        return next((deck.name for deck in self.model.decks if deck.id == deck_id), deck_id)

    def decks(self, deck_ids: Sequence[str]) -> list[str]:
        return [self.deck(deck_id) for deck_id in deck_ids]

    def phase(self, phase_id: str) -> str:
        return next((phase.name for phase in self.model.phases if phase.id == phase_id), phase_id)

    def colour(self, colour_id: str) -> str:
        return next((colour.name for colour in self.model.colours if colour.id == colour_id), colour_id)

    def player(self, seat: int) -> str:
        return self.players[seat]

    def either(self, items: Sequence[str]) -> str:
        """``a, b or c`` in the language."""
        return str(self._grammar.either(list(items)))

    def both(self, items: Sequence[str]) -> str:
        """``a, b and c`` in the language."""
        return str(self._grammar.both(list(items)))

    def say(self, refusal: Refusal) -> str:
        """Another refusal (a part of this one) in the same language."""
        return say_with(refusal, self)

    def q(self, text: str) -> str:
        """The words a player typed, quoted as Python quotes them: ``'obs'``."""
        return repr(text)

    def a(self, name: str) -> str:
        """An English name with its indefinite article: ``a Ship Builder``, ``an Author``."""
        return ("an " if name[:1].lower() in "aeiou" else "a ") + name


@functools.cache
def _core(language: str) -> Any:
    """The play layer's own refusals in a language (play/refusals.<lang>.j2)."""
    return render.environment().get_template(f"play/refusals.{language}.j2").make_module()


@functools.cache
def _grammar(language: str) -> Any:
    return render.environment().get_template(f"reference/words.{language}.j2").make_module()


@per_model
def local_model(model: RulesModel, language: str) -> RulesModel:
    """The model with its names in language (:meth:`RulesModel.in_language`), or the model itself when it
    has no names in it; made once a model and language (a screen asks for it in every language)."""
    return model.in_language(language) if language in model.languages else model


def speaker(game: TableLike, language: str) -> Speaker:
    """The words of one language for a game's refusals (names the ruleset lacks in it: its English)."""
    if language not in LANGUAGES:
        raise ValueError(f"refusals are said in {', '.join(LANGUAGES)}, not {language!r}")
    return Speaker(local_model(game.ruleset.model, language), game.players, language)


def say(refusal: Refusal, game: TableLike, language: str = "en") -> str:
    """The refusal in a language, with the names of the game's rules in it.

    Raises ValueError for a language not in :data:`LANGUAGES`, AttributeError for a key no macro
    says, TypeError for a field its macro does not take, and jinja2.UndefinedError for one it lacks.
    """
    return say_with(refusal, speaker(game, language))


def say_with(refusal: Refusal, words: Speaker) -> str:
    """The refusal said with a speaker already made for its game and language (see say)."""
    fields = dict(refusal.fields)
    if refusal.kind is not None:  # a mechanic's, from its prose; English where a mechanic from outside lacks it
        macro = f"refusal_{refusal.key}"
        language = words.language if has_prose(refusal.kind, words.language, macro) else "en"
        return line_of(language, refusal.kind, macro, words, **fields)
    return str(getattr(_core(words.language), refusal.key)(words, **fields)).strip()


def say_situation(situation: Situation, game: TableLike, language: str = "en") -> str:
    """Who is to move and when: "Anna, round 3, building phase", "Anna, Runde 3, Bauphase"."""
    words = speaker(game, language)
    return str(_core(language).situation(words, situation.seat, situation.round, situation.phase))


def compose(quoted: str | None, reason: str, context: str | None, language: str = "en") -> str:
    """A move error's whole message in a language: the quoted text, the reason, who and when."""
    return str(_core(language).whole(quoted, reason, context))


def situation_of(game: Any) -> Situation:
    """The seat on turn, the round and the phase of a game now."""
    return Situation(game.current_player, game.round, game.phase)
