"""The fixed words of the table in every language: the session's phrases (prompts, answers to commands,
the help) and the screen's, from one catalogue template per language, ``table/templates/words.<lang>.j2``.

spbc.table.session fills in the session's phrases; a frontend gives them in another language
(spbc.frontends.words), and a phrase that language lacks is said in English.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from spbc.ai.analyze import Hint
from spbc.engine import render
from spbc.play.refusal import LANGUAGES

@dataclass(frozen=True)
class Catalogue:
    """The fixed words of one language, as ``table/templates/words.<lang>.j2`` sets them."""

    language: str
    phrases: Mapping[str, str]  # the screen's phrases, str.format texts with {placeholders}
    nouns: Mapping[str, tuple[str, str]]  # noun -> (singular, plural)
    last: str  # the word before the last item of a list: "and", "und"
    number: str  # a number with its noun: "{n} {noun}", Chinese "{n}{noun}"
    short_income: tuple[str, str]  # a card's rubles and points, abbreviated: "{}r", "{}p"
    digit_group: str  # between groups of three digits: "1,000", "1.000"
    decimal_point: str  # before a fraction: "2.5", "2,5"
    rows: Mapping[str, str]  # a board row as the screen names it
    reasons: Mapping[str, str]  # why a game stopped ("quit")
    session: Mapping[str, str]  # the session's prompts, answers to commands and help
    web: Mapping[str, str]  # the web page's own words (spbc.frontends.web): its headings, buttons and answers


@functools.cache
def catalogue(language: str) -> Catalogue:
    """The fixed words of a language (one of spbc.play.refusal.LANGUAGES); ValueError for another."""
    if language not in LANGUAGES:
        raise ValueError(f"the table speaks {', '.join(LANGUAGES)}, not {language!r}")
    words: Any = render.environment().get_template(f"table/words.{language}.j2").make_module()
    income = tuple(words.short_income)
    assert len(income) == 2, f"words.{language}.j2: short_income is (rubles, points)"
    return Catalogue(
        language, dict(words.phrases), {noun: (forms[0], forms[1]) for noun, forms in words.nouns.items()},
        str(words.last), str(words.number), (str(income[0]), str(income[1])), str(words.digit_group),
        str(words.decimal_point), dict(words.rows), dict(words.reasons), dict(words.session),
        dict(words.web))


#: The session's phrases in English, by key; Session(words=...) gives them in another language
#: (the session of another catalogue), falling back to these for a key it lacks.
SESSION_WORDS: Mapping[str, str] = catalogue("en").session


def hint_text(found: Hint, say: Callable[..., str], language: str) -> str:
    """A hint in a language (``say`` fills in its phrases): each of the top moves with its estimated
    win chance, the numbers grouped the language's way, then the search's best line (its principal variation)."""
    decision = found.decision
    words = catalogue(language)
    group = words.digit_group
    deals = f"{decision.iterations:,}".replace(",", group)
    seconds = f"{decision.seconds:.1f}".replace(".", words.decimal_point)
    lines = [say("hint_head", level=found.level, deals=deals, seconds=seconds)]
    width = max(len(text) for text, _ in found.moves)
    for text, choice in found.moves:
        lines.append(say("hint_line", move=f"{text:<{width}}", win=f"{choice.win:4.0%}",
                         visits=f"{choice.visits:,}".replace(",", group)))
    if len(found.line) > 1:  # the best move and the replies the search expects
        lines.append(say("hint_best_line", line=" -> ".join(found.line)))
    return "\n".join(lines)
