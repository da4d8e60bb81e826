"""The format-neutral document of the rules reference.

:mod:`spbc.reference.docs` lowers a model to a :class:`Document`: sections of paragraphs,
lists and tables holding plain text with every number already computed. The
Markdown and HTML skins lay it out; neither adds words of its own. Sentences and labels
come from the templates of the document's language (spbc.reference.language).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

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
    language: str = "en"
    html_lang: str = "en"  # the page's lang attribute (``zh-Hant``)
    heading: str = ""  # the page's title: "Saint Petersburg: rules reference"
    contents: str = ""  # the title of the table of contents
    built: str = ""  # what built it, for the footer: version, ruleset, files, a short digest
