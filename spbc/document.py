"""The format-neutral document of the rules reference, and the words its sentences are made of.

:mod:`spbc.docs` lowers a model to a :class:`Document`: sections of paragraphs,
lists and tables holding plain text with every number already computed. The
Markdown and HTML skins lay it out; neither adds words of its own. Sentences
come from the macros of ``templates/reference/prose.j2`` through :func:`say`.

>>> count(2, "ruble"), both(["a", "b", "c"]), either(["a", "b"])
('2 rubles', 'a, b and c', 'a or b')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from spbc import render

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


@functools.cache
def _prose() -> Any:
    return render.environment().get_template("reference/prose.j2").make_module(WORDS)


def say(macro: str, *args: Any) -> str:
    """One sentence or paragraph from ``reference/prose.j2``, whitespace collapsed."""
    return " ".join(str(getattr(_prose(), macro)(*args)).split())
