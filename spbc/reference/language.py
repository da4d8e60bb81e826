"""The words of the rules reference in each language: its sentences, its labels and its grammar.

Every language has three templates of its own in ``reference/`` and one in each mechanic's folder:

=============================  ======================================================================
template                       holds
=============================  ======================================================================
``words.<lang>.j2``            the language's grammar: ``count(n, noun)`` (``3 rubles``, ``3 Rubel``,
                               ``3盧布``), ``both(items)`` and ``either(items)`` (``a, b and c``),
                               and ``labels``: section titles, table headers and the short words
``prose_game.<lang>.j2``       the sentences about setup, the round and the actions
``prose_cards.<lang>.j2``      the sentences about costs, trading cards, the cards, scoring, notation
``mechanics/<kind>/prose.<lang>.j2``  the sentences of one ability kind (spbc.reference.hooks), and its
                               lines on the game screen (``summary``, prompts: spbc.play.hooks)
=============================  ======================================================================

English is the model: every other language must define every macro and label the English templates
define, and every mechanic a ruleset uses must have its prose in every language the ruleset speaks.
:func:`check_language` reports what is missing, all of it at once, as a :class:`MissingProseError`
naming the template, the macro or label and the language. Python adds no word of its own: it passes
numbers, names and lists to the macros, and the macros decide plural forms, articles and separators.

>>> say(model.in_language("de"), "round_end_discard")          # doctest: +SKIP
'Alle Karten, die noch in der unteren Reihe liegen, werden abgeworfen.'
"""

from __future__ import annotations

import functools
import re
from typing import Any

import jinja2

from spbc.contract import mechanics
from spbc.engine import render
from spbc.lang.model import RulesModel
from spbc.source.language import language_name
from spbc.source.span import NO_SPAN, Span


class MissingProseError(Exception):
    """Text the reference needs is missing in a language: a template, a macro of one, a label, or the
    prose of an ability kind. ``problems`` are (where, message) pairs; ``spans`` locate the rules that
    need the text (an ability's use), or NO_SPAN for the compiler's own templates."""

    def __init__(self, problems: list[tuple[Span, str]]) -> None:
        self.problems = problems
        self.spans = [span for span, _ in problems]
        super().__init__("\n".join(f"{span}: error: {message}" if span.line else f"error: {message}"
                                   for span, message in problems))


#: The reference's own templates of each language; every macro name is unique across them.
PROSE_TEMPLATES = ("prose_game", "prose_cards")
WORDS_TEMPLATE = "words"
#: The macros every words template defines; the prose templates get them as globals.
GRAMMAR = ("count", "both", "either")
#: The macros every mechanic's prose has in every language: its paragraph under Special abilities, and
#: its name in the card tables' Ability column.
MECHANIC_MACROS = ("ability", "title")


def template_name(name: str, language: str) -> str:
    """``reference/prose_game.de.j2`` for ``("prose_game", "de")``."""
    return f"reference/{name}.{language}.j2"


def prose_template(kind: str, language: str) -> str:
    """The template of one ability kind's sentences: ``mechanics/<kind>/prose.de.j2``."""
    return f"mechanics/{kind}/prose.{language}.j2"


def _exports(module: Any) -> list[str]:
    return sorted(name for name in module.__dict__ if not name.startswith("_"))


@functools.cache
def _words(language: str) -> Any:
    return render.environment().get_template(template_name(WORDS_TEMPLATE, language)).make_module()


def _grammar(language: str) -> dict[str, Any]:
    words = _words(language)
    return {name: getattr(words, name) for name in GRAMMAR}


@functools.cache
def _prose(language: str) -> dict[str, Any]:
    """Every prose macro of one language by name, from all of :data:`PROSE_TEMPLATES`."""
    macros: dict[str, Any] = {}
    for name in PROSE_TEMPLATES:
        module = render.environment().get_template(template_name(name, language)).make_module(_grammar(language))
        for macro in _exports(module):
            if macro in macros:
                raise RuntimeError(f"prose macro {macro!r} defined twice ({template_name(name, language)})")
            macros[macro] = getattr(module, macro)
    return macros


@functools.lru_cache(maxsize=128)
def _prose_of(kind: str, language: str) -> Any:
    template = render.environment().get_template(prose_template(kind, language))
    return template.make_module(_grammar(language))


#: Characters of scripts written without spaces between words (CJK ideographs, kana, full-width forms).
_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_BETWEEN_CJK = re.compile(f"(?<=[{_CJK}])\\s+(?=[{_CJK}])")


def _collapse(text: Any) -> str:
    """A macro's text on one line: runs of whitespace become one space, and none is left between two
    characters of a script that puts no spaces between words (a template's line break inside Chinese)."""
    return _BETWEEN_CJK.sub("", " ".join(str(text).split()))


def say(model: RulesModel, macro: str, *args: Any) -> str:
    """One sentence or paragraph of the reference in the model's language, whitespace collapsed.

    >>> say(model, "round_end_discard")                       # doctest: +SKIP
    'Every card still in the lower row is discarded.'
    """
    return _collapse(_prose(model.language)[macro](*args))


def say_of(model: RulesModel, kind: str, macro: str, *args: Any) -> str:
    """One sentence or paragraph from the prose of an ability kind in the model's language (see say).

    Raises ``jinja2.TemplateNotFound`` for a kind whose mechanic has no prose in that language, and
    AttributeError for a macro its prose lacks; :func:`check_language` reports both beforehand.
    """
    return _collapse(getattr(_prose_of(kind, model.language), macro)(*args))


def line_of(language: str, kind: str, macro: str, *args: Any, **fields: Any) -> str:
    """One line from the prose of an ability kind in ``language``, as the game screen shows it: the macro's
    text with its ends stripped and its inside as the macro printed it (a player's name may hold runs of
    spaces, which :func:`say_of` would collapse). Raises as say_of does; :func:`has_prose` tells beforehand."""
    return str(getattr(_prose_of(kind, language), macro)(*args, **fields)).strip()


def has_prose(kind: str, language: str, macro: str) -> bool:
    """Whether the prose of an ability kind in ``language`` has the macro (a mechanic from outside spbc may
    speak English only)."""
    try:
        return hasattr(_prose_of(kind, language), macro)
    except jinja2.TemplateNotFound:
        return False


def label(model: RulesModel, key: str, *args: Any) -> str:
    """A section title, table header or short word in the model's language; a label that is a macro
    takes arguments: ``label(model, "deck_colour", "Trading cards", "green")``."""
    value = _words(model.language).labels[key]
    return _collapse(value(*args) if callable(value) else value)


def count(model: RulesModel, n: int, noun: str) -> str:
    """``3 rubles``, ``3 Rubel``, ``3盧布``: a number and a noun in the model's language."""
    return _collapse(_words(model.language).count(n, noun))


def both(model: RulesModel, items: list[str] | tuple[str, ...]) -> str:
    """``a, b and c`` in the model's language."""
    return _collapse(_words(model.language).both(list(items)))


def either(model: RulesModel, items: list[str] | tuple[str, ...]) -> str:
    """``a, b or c`` in the model's language."""
    return _collapse(_words(model.language).either(list(items)))


def meta(model: RulesModel, key: str) -> str:
    """A fact about the language itself from its words template: ``html_lang`` (``zh-Hant``), ``name``."""
    return str(getattr(_words(model.language), key))


# --- the check ---------------------------------------------------------------------------------


def _module_or_none(template: str, problems: list[tuple[Span, str]], where: Span, need: str) -> Any:
    try:
        return render.environment().get_template(template).make_module(
            {name: (lambda *args: "") for name in GRAMMAR})
    except jinja2.TemplateNotFound:
        problems.append((where, need))
        return None


def check_language(kinds: dict[str, tuple[Span, str]], language: str) -> None:
    """Raise :class:`MissingProseError` naming everything the reference in ``language`` lacks: its
    templates, every macro and label English has that it does not, and for each ability kind in
    ``kinds`` (kind -> the place of its first use and that card's name) the kind's prose and each
    macro of its English prose.
    """
    problems: list[tuple[Span, str]] = []
    name = language_name(language)
    for template in (WORDS_TEMPLATE, *PROSE_TEMPLATES):
        english = _module_or_none(template_name(template, "en"), problems, NO_SPAN,
                                  f"no English template {template_name(template, 'en')}")
        own = _module_or_none(template_name(template, language), problems, NO_SPAN,
                              f"the {name} reference needs the template {template_name(template, language)}")
        if english is None or own is None:
            continue
        for macro in _exports(english):
            if not hasattr(own, macro):
                problems.append((NO_SPAN, f"{template_name(template, language)} has no '{macro}': the {name} "
                                          f"text of what {template_name(template, 'en')} says there"))
        if template == WORDS_TEMPLATE and hasattr(own, "labels"):
            for key in english.labels:
                if key not in own.labels:
                    problems.append((NO_SPAN, f"{template_name(template, language)} has no label '{key}' "
                                              f"({name}); English: {english.labels[key]!r}"))
    for kind, (where, card) in kinds.items():
        template = prose_template(kind, language)
        folder = _folder(kind)
        own = _module_or_none(template, problems, where,
                              f"ability kind '{kind}' of card '{card}' has no {name} prose template: write "
                              f"{folder}/prose.{language}.j2 (the {name} text of each macro of its prose.en.j2)")
        english = _module_or_none(prose_template(kind, "en"), [], where, "")
        if own is None:
            continue
        for macro in MECHANIC_MACROS:
            if not hasattr(own, macro):
                problems.append((where, f"{folder}/prose.{language}.j2 has no macro '{macro}' ({name}); "
                                        "every mechanic's prose has: " + ", ".join(MECHANIC_MACROS)))
        if english is None:
            continue
        for macro in (m for m in _exports(english) if m not in MECHANIC_MACROS):
            if not hasattr(own, macro):
                problems.append((where, f"{folder}/prose.{language}.j2 has no macro '{macro}' ({name})"))
    if problems:
        raise MissingProseError(problems)


def _folder(kind: str) -> str:
    """Where a kind's templates live, as a message shows it: ``spbc/mechanics/pub``."""
    try:
        folder = mechanics.mechanic(kind).folder
    except KeyError:
        return f"mechanics/{kind}"
    parts = folder.parts
    return "/".join(parts[parts.index("spbc"):]) if "spbc" in parts else folder.as_posix()
