"""The syntax tree of a rules file: what the parser builds and the checker reads.

The tree is generic on purpose: a file is a list of blocks (``card lumberjack { ... }``)
and includes; a block holds settings (``cost = 3``) and nested blocks
(``ability discount { ... }``). Which block kinds and settings exist, and what their
values mean, is the checker's business, so a misspelt setting is a checked error
with a suggestion rather than a bare syntax error.

Every node carries a :class:`spbc.source.span.Span`. Nothing here depends on Lark.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar, Union

from spbc.source.span import Span

T = TypeVar("T", int, str, bool)


# --- values ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Atom(Generic[T]):
    """A value that is one token: what it says, and where."""

    value: T
    span: Span


@dataclass(frozen=True)
class Int(Atom[int]):
    """An integer literal: ``3``, ``-1``."""


@dataclass(frozen=True)
class Str(Atom[str]):
    """A string literal, escapes already resolved: ``"Gold Miner"``."""


@dataclass(frozen=True)
class Name(Atom[str]):
    """An identifier: a block id, a setting name, or a reference such as ``worker``."""


@dataclass(frozen=True)
class Bool(Atom[bool]):
    """``yes`` or ``no``."""


@dataclass(frozen=True)
class Range:
    """An inclusive range of integers: ``2..4``."""

    low: Int
    high: Int
    span: Span


@dataclass(frozen=True)
class List:
    """A bracketed list of values: ``[wood, gold]``."""

    items: tuple["Value", ...]
    span: Span


Value = Union[Int, Str, Name, Bool, Range, List]


# --- structure ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    """``key = value`` inside a block."""

    key: Name
    value: Value
    span: Span


@dataclass(frozen=True)
class Block:
    """``kind [id] { entries }``: entries are settings and nested blocks, in source order."""

    kind: Name
    id: Name | None
    entries: tuple[Union[Setting, "Block"], ...]
    span: Span
    override: Name | None = None  # the ``override`` word: this block changes what a base defines

    @property
    def settings(self) -> tuple[Setting, ...]:
        """The settings of this block, in source order."""
        return tuple(entry for entry in self.entries if isinstance(entry, Setting))

    @property
    def blocks(self) -> tuple["Block", ...]:
        """The nested blocks of this block, in source order."""
        return tuple(entry for entry in self.entries if isinstance(entry, Block))

    @property
    def anchor(self) -> Span:
        """Where diagnostics about the whole block point: its id, else its kind word."""
        return self.id.span if self.id is not None else self.kind.span

    @property
    def title(self) -> str:
        """How messages name the block: ``card 'lumberjack'`` or ``game``."""
        if self.id is None:
            return self.kind.value
        return f"{self.kind.value} '{self.id.value}'"


@dataclass(frozen=True)
class FileLine:
    """A line that names another rules file: its keyword, then the path in quotes."""

    path: Str
    span: Span


@dataclass(frozen=True)
class Include(FileLine):
    """``include "base/workers.spb"``: the path is relative to the including file."""


@dataclass(frozen=True)
class Extends(FileLine):
    """``extends "base"``: this ruleset is a variant of a shipped ruleset or of a rules file."""


@dataclass(frozen=True)
class Remove:
    """``remove card pub``: a variant leaves out something its base defines."""

    kind: Name
    id: Name
    span: Span

    @property
    def title(self) -> str:
        return f"{self.kind.value} '{self.id.value}'"


Item = Union[Block, Include, Extends, Remove]


@dataclass(frozen=True)
class File:
    """One parsed rules file.

    ``path`` is how diagnostics name it (relative to the working directory when
    possible); ``name`` is its path relative to the main rules file's folder.
    """

    path: str
    name: str
    items: tuple[Item, ...]
    span: Span
    text: str = field(default="", repr=False, compare=False)


@dataclass(frozen=True)
class Program:
    """A main rules file and everything it includes.

    ``files`` are in read order (the main file first, then includes depth first, then the
    files of the ruleset it extends); ``blocks`` are every top-level block in declaration
    order, each include spliced in where it stands and, for a variant, its base's blocks
    with the variant's changes applied (see :mod:`spbc.lang.extend`); ``digest`` is the
    sha256 of the sources (see :mod:`spbc.lang.load`); ``base`` is the program a variant extends.
    """

    files: tuple[File, ...]
    blocks: tuple[Block, ...]
    digest: str
    base: "Program | None" = None

    def sources(self) -> dict[str, str]:
        """The text of every file by its path, for rendering diagnostics."""
        return {file.path: file.text for file in self.files}


# --- the text dump -----------------------------------------------------------------------


def format_value(value: Value) -> str:
    """A value written back in rules syntax: ``2..4``, ``[wood, gold]``, ``"Pub"``."""
    if isinstance(value, Bool):
        return "yes" if value.value else "no"
    if isinstance(value, Int):
        return str(value.value)
    if isinstance(value, Str):
        escaped = value.value.replace("\\", "\\\\").replace('"', '\\"')
        return '"' + escaped.replace("\n", "\\n").replace("\t", "\\t") + '"'
    if isinstance(value, Name):
        return value.value
    if isinstance(value, Range):
        return f"{value.low.value}..{value.high.value}"
    return "[" + ", ".join(format_value(item) for item in value.items) + "]"


def _at(span: Span) -> str:
    return f"@{span.line}:{span.column}"


def _dump_block(block: Block, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    head = block.kind.value if block.id is None else f"{block.kind.value} {block.id.value}"
    head = f"override {head}" if block.override is not None else head
    out.append(f"{pad}block {head} {_at(block.span)}")
    for entry in block.entries:
        if isinstance(entry, Block):
            _dump_block(entry, depth + 1, out)
        else:
            value = format_value(entry.value)
            out.append(f"{pad}  setting {entry.key.value} = {value} {_at(entry.span)}")


def dump_ast(program: Program) -> str:
    """A stable text dump of every file's tree, in read order (``spb check --dump ast``).

    Positions are ``@line:column`` within the file named by the ``file`` line above
    them; file names are relative to the main file's folder, so the dump does not
    depend on the working directory.
    """
    out: list[str] = []
    for file in program.files:
        out.append(f"file {file.name}")
        for item in file.items:
            if isinstance(item, Include):
                out.append(f"  include {format_value(item.path)} {_at(item.span)}")
            elif isinstance(item, Extends):
                out.append(f"  extends {format_value(item.path)} {_at(item.span)}")
            elif isinstance(item, Remove):
                out.append(f"  remove {item.kind.value} {item.id.value} {_at(item.span)}")
            else:
                _dump_block(item, 1, out)
    return "\n".join(out) + "\n"
