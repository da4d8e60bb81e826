"""The fixed words of the terminal game's screen, in English, German and Chinese (``spb play --lang de|zh``).

Each language is a table of phrases with ``{placeholders}`` and its own nouns with their singular
and plural, read from the language's catalogue (``table/templates/words.<lang>.j2``, spbc.table.phrases), so a count is said the language's way ("1 Punkt", "2 Punkte") and no English plural is
built for another language. Card, colour, deck and phase names come from the ruleset in the same
language when it has them (spbc.lang.model.RulesModel.in_language); ``session`` holds the phrases
of spbc.table.session (prompts, help, answers to commands) and ``number`` how a count is written
(Chinese puts no space before its measure word: "3張卡"). The move notation stays English: records
and mails are written in it; the reasons a move is refused are said in each language by
:meth:`spbc.play.moves.MoveError.say`.

>>> GERMAN.count(2, "point"), GERMAN("to_move", name="Anna")
('2 Punkte', 'Anna ist am Zug')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from spbc.lang.model import RulesModel
from spbc.table.phrases import catalogue


@dataclass(frozen=True)
class Words:
    """The phrases and nouns of one language."""

    language: str
    phrases: dict[str, str]
    nouns: dict[str, tuple[str, str]]  # noun -> (singular, plural)
    last: str  # the word before the last item of a list: "and", "und"
    rows: dict[str, str] = field(default_factory=dict)  # a board row's id as the screen shows it
    renamed: dict[str, str] = field(default_factory=dict)  # an English name -> its name in this language
    reasons: dict[str, str] = field(default_factory=dict)  # why a game stopped ("quit") in this language
    session: dict[str, str] = field(default_factory=dict)  # the session's prompts and answers (SESSION_WORDS' keys)
    number: str = "{n} {noun}"  # a number with its noun: "3 Rubel", Chinese "3張卡" (no space)

    def __call__(self, key: str, **values: object) -> str:
        """A phrase with its placeholders filled: ``words("to_move", name="Anna")``."""
        return self.phrases[key].format(**values)

    def count(self, number: int, noun: str) -> str:
        """A number with its noun in the right form: "1 ruble", "3 Rubel"."""
        return self.number.format(n=number, noun=self.noun(number, noun))

    def noun(self, number: int, noun: str) -> str:
        """The noun's form for a number, without the number: "card", "Karten"."""
        singular, plural = self.nouns[noun]
        return singular if number == 1 else plural

    def either(self, items: list[str], last: str) -> str:
        """``a, b or c`` with the language's word for the last join."""
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} {items[-1]}"

    def row(self, row: str) -> str:
        return self.rows.get(row, row)

    def localize(self, model: RulesModel) -> RulesModel:
        """The model with names in this language when the ruleset has them, else as it is."""
        return model.in_language(self.language) if self.language in model.languages else model

    def for_model(self, model: RulesModel) -> Words:
        """These words knowing the ruleset's names in their language, for the events that carry a
        phase's or deck's English name (:meth:`name`)."""
        local = self.localize(model)
        renamed = {old.name: new.name for old, new in zip(model.phases, local.phases)}
        renamed.update({old.name: new.name for old, new in zip(model.decks, local.decks)})
        renamed.update({old.name: new.name for old, new in zip(model.cards, local.cards)})
        renamed.update({old.name: new.name for old, new in zip(model.colours, local.colours)})
        return replace(self, renamed=renamed)

    def name(self, english: str) -> str:
        """A phase's, deck's or card's English name in this language (as it is when unknown)."""
        return self.renamed.get(english, english)


def words_in(language: str) -> Words:
    """The screen's words of a language, from its catalogue (spbc.table.phrases); ValueError for a
    language the table does not speak."""
    found = catalogue(language)
    return Words(language, dict(found.phrases), dict(found.nouns), found.last, dict(found.rows),
                 reasons=dict(found.reasons), session=dict(found.session), number=found.number)


ENGLISH, GERMAN, CHINESE = (words_in(language) for language in ("en", "de", "zh"))

#: The screen's languages by code.
LANGUAGES = {words.language: words for words in (ENGLISH, GERMAN, CHINESE)}
