"""The mail server's fixed words in every language: one catalogue template per language,
``pbem/templates/mail.<lang>.j2``, of the same kind as the table's (spbc.table.phrases).

A :class:`MailWords` fills in a sentence by key (``words("since")``), says a count with its noun the
language's way (``words.count(3, "ruble")``: "3 rubles", "3 Rubel", "3盧布") and gives a ruleset's
names in its language (:meth:`MailWords.local`). English is the model the others follow; the move
notation itself (commands, moves) stays as it is in every language, since mails are answered in it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from spbc.engine import render
from spbc.lang.kept import per_model
from spbc.lang.model import RulesModel
from spbc.play.refusal import LANGUAGES, local_model
from spbc.table.phrases import catalogue

#: The language of a mail when the player has chosen none.
DEFAULT = "en"


@dataclass(frozen=True)
class MailWords:
    """The sentences, nouns and help of one language, as ``mail.<lang>.j2`` sets them."""

    language: str
    phrases: Mapping[str, str]
    nouns: Mapping[str, tuple[str, str]]  # noun -> (singular, plural): the table's and the mail's own
    number: str  # a number with its noun: "{n} {noun}", Chinese "{n}{noun}"
    help_head: str
    help_form: str
    help_tail: str

    def __call__(self, key: str, **values: object) -> str:
        """The sentence of key with its placeholders filled in."""
        return self.phrases[key].format(**values)

    def count(self, number: int, noun: str) -> str:
        """A number with its noun: "1 point", "2 points"; "2 Punkte"; "2分"."""
        singular, plural = self.nouns[noun]
        return self.number.format(n=number, noun=singular if number == 1 else plural)

    def local(self, model: RulesModel) -> RulesModel:
        """The ruleset with its names in this language (its English where it has none in it)."""
        return local_model(model, self.language)

    def names(self, model: RulesModel) -> Mapping[str, str]:
        """The ruleset's English names of cards, decks, phases and colours, each to its name in this
        language: the table's events name things in English."""
        return _names(model, self.language)

    def again(self, english: str) -> str:
        """A sentence stored in English (a game's reason for not loading), said in this language: the
        sentence of the key whose English is that text, or the text as it is where no key has it."""
        key = _keys_of_english().get(english)
        return self(key) if key is not None else english

    def row(self, row: str) -> str:
        """A board row as a screen names it: "upper", "oben", "上排"."""
        return catalogue(self.language).rows.get(row, row)


@per_model
def _names(model: RulesModel, language: str) -> Mapping[str, str]:
    local = local_model(model, language)
    pairs = [*zip(model.cards, local.cards), *zip(model.decks, local.decks), *zip(model.phases, local.phases),
             *zip(model.colours, local.colours)]
    return {english.name: there.name for english, there in pairs}


@functools.cache
def _keys_of_english() -> Mapping[str, str]:
    """The key of each English sentence without placeholders."""
    return {text: key for key, text in mail_words(DEFAULT).phrases.items() if "{" not in text}


@functools.cache
def mail_words(language: str = DEFAULT) -> MailWords:
    """The words of a language (one of :data:`spbc.play.refusal.LANGUAGES`); ValueError for another."""
    if language not in LANGUAGES:
        raise ValueError(f"mails are written in {', '.join(LANGUAGES)}, not {language!r}")
    found: Any = render.environment().get_template(f"pbem/mail.{language}.j2").make_module()
    table = catalogue(language)
    nouns = {**table.nouns, **{noun: (forms[0], forms[1]) for noun, forms in found.nouns.items()}}
    return MailWords(language, dict(found.phrases), nouns, table.number, str(found.help_head),
                     str(found.help_form), str(found.help_tail))


#: The English words, the default of every text function.
ENGLISH = mail_words(DEFAULT)


def in_every_language(say: Callable[[MailWords], list[str]]) -> list[tuple[str, dict[str, str]]]:
    """Lines said in every language, for the game's log: each line in English with the same line in
    the other languages (``say`` gives the lines for one language's words, the same number in each)."""
    said = {language: say(mail_words(language)) for language in LANGUAGES}
    return [(line, {language: said[language][at] for language in LANGUAGES if language != DEFAULT})
            for at, line in enumerate(said[DEFAULT])]
