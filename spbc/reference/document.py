"""The format-neutral document of the rules reference, and the words its sentences are made of.

:mod:`spbc.reference.docs` lowers a model to a :class:`Document`: sections of paragraphs,
lists and tables holding plain text with every number already computed. The
Markdown and HTML skins lay it out; neither adds words of its own. Sentences
come from the macros of the ``templates/reference/prose_*.j2`` files through :func:`say`.

>>> count(2, "ruble"), both(["a", "b", "c"]), either(["a", "b"])
('2 rubles', 'a, b and c', 'a or b')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from spbc.engine import render

# --- the document ----------------------------------------------------------------------


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of plain text."""

    text: str
    kind: ClassVar[str] = "paragraph"


@dataclass(frozen=True)
class Items:
    """A bulleted or numbered list of plain-text items."""

    items: tuple[str, ...]
    ordered: bool = False
    kind: ClassVar[str] = "items"


@dataclass(frozen=True)
class Cell:
    """A table cell; ``href`` makes it a link to an anchor of the same document."""

    text: str
    href: str | None = None


@dataclass(frozen=True)
class Row:
    cells: tuple[Cell, ...]
    anchor: str | None = None


@dataclass(frozen=True)
class Table:
    """A table; ``numeric`` marks the columns that align right."""

    columns: tuple[str, ...]
    numeric: tuple[bool, ...]
    rows: tuple[Row, ...]
    kind: ClassVar[str] = "table"


Block = Paragraph | Items | Table


@dataclass(frozen=True)
class Section:
    """A titled part of the document; ``anchor`` is its link target."""

    title: str
    anchor: str
    blocks: tuple[Block, ...]
    sections: tuple[Section, ...] = ()


@dataclass(frozen=True)
class Document:
    title: str
    edition: str
    ruleset: str
    version: str
    digest: str
    banner: str
    intro: str
    sections: tuple[Section, ...]


# --- words -----------------------------------------------------------------------------


def count(n: int, word: str) -> str:
    """``count(1, "ruble") == "1 ruble"``, ``count(3, "ruble") == "3 rubles"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _series(words: list[str] | tuple[str, ...], last: str) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def both(words: list[str] | tuple[str, ...]) -> str:
    """``both(["a", "b", "c"]) == "a, b and c"``."""
    return _series(words, "and")


def either(words: list[str] | tuple[str, ...]) -> str:
    """``either(["a", "b", "c"]) == "a, b or c"``."""
    return _series(words, "or")


WORDS: dict[str, Any] = {"count": count, "both": both, "either": either}


#: The templates of the reference's sentences; every macro name is unique across them.
PROSE_TEMPLATES = ("reference/prose_game.j2", "reference/prose_cards.j2")


@functools.cache
def _prose() -> dict[str, Any]:
    """Every prose macro by name, from all of :data:`PROSE_TEMPLATES`."""
    macros: dict[str, Any] = {}
    for name in PROSE_TEMPLATES:
        module = render.environment().get_template(name).make_module(WORDS)
        for macro in module.__dict__:
            if not macro.startswith("_"):
                if macro in macros:
                    raise RuntimeError(f"prose macro {macro!r} defined twice ({name})")
                macros[macro] = getattr(module, macro)
    return macros


def say(macro: str, *args: Any) -> str:
    """One sentence or paragraph from the prose templates, whitespace collapsed.

    >>> say("round_end_discard")                       # doctest: +SKIP
    'Every card still in the lower row is discarded.'
    """
    return " ".join(str(_prose()[macro](*args)).split())


#: The language of the reference's sentences: a mechanic's are in mechanics/<kind>/prose.<language>.j2.
LANGUAGE = "en"


def prose_template(kind: str, language: str = LANGUAGE) -> str:
    """The template of one ability kind's sentences: ``mechanics/<kind>/prose.en.j2``."""
    return f"mechanics/{kind}/prose.{language}.j2"


@functools.lru_cache(maxsize=64)
def _prose_of(template: str) -> Any:
    return render.environment().get_template(template).make_module(WORDS)


def say_of(kind: str, macro: str, *args: Any) -> str:
    """One sentence or paragraph from the prose of an ability kind, whitespace collapsed (see say).

    Raises ``jinja2.TemplateNotFound`` for a kind whose mechanic has no prose, and AttributeError
    for a macro its prose lacks.
    """
    return " ".join(str(getattr(_prose_of(prose_template(kind)), macro)(*args)).split())
