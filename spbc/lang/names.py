"""How rules files are named where people read the names: diagnostics relative to the working directory,
and the characters a file name may not hold (it is printed into generated code, the reference and messages).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from spbc.source import quote

_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def resolve_path(path: Path) -> Path:
    """path.resolve(), or the absolute path when the name cannot be resolved (too long, a NUL,
    a symlink loop: a RuntimeError up to Python 3.12)."""
    try:
        return path.resolve()
    except (OSError, ValueError, RuntimeError):
        return path.absolute()


def display_path(path: Path) -> str:
    """How diagnostics name a file: relative to the working directory when it is below
    it, else as given; always with forward slashes."""
    try:
        return resolve_path(path).relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):  # not below it, or no working directory any more
        return path.as_posix()


def name_problem(name: str) -> str | None:
    """What makes a file name unfit for a rules file, or None: a character that would not print
    as itself where the name is shown (generated code, the reference, messages, records).

    >>> name_problem("base/a\\nb.spb")
    'a line break (U+000A)'
    """
    for char in name:
        if not quote.is_unsafe(char):
            continue
        category = unicodedata.category(char)
        if category == "Cs":  # how Python keeps a byte of a name that is not UTF-8
            return f"a byte that is not UTF-8 (0x{ord(char) - 0xDC00:02X})"
        if char in _LINE_BREAKS or category in ("Zl", "Zp"):
            kind = "a line break"
        elif char in quote.BIDI_CONTROLS:
            kind = "a bidi control"
        elif category == "Cc":
            kind = "a control character"
        else:
            kind = "an invisible format character"
        return f"{kind} (U+{ord(char):04X})"
    return None


def shown_name(name: str) -> str:
    """A file name as messages show it: every character name_problem objects to written as an escape."""
    return "".join(repr(char)[1:-1] if quote.is_unsafe(char) else char for char in name)
