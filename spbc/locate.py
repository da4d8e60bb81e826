"""Where the shipped rules and generated engines live, installed or in a source checkout.

An installed spbc carries them as spbc/rules and spbc/generated (see setup.py);
in a source checkout they are the top-level rules/ and generated/ folders.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[-1]


def rules_dir() -> Path:
    """The folder of the shipped rules files (``base.spb`` and the files it includes)."""
    return _first_existing(_PACKAGE / "rules", _PACKAGE.parent / "rules")


def generated_dir() -> Path:
    """The folder of the generated engines and references, one subfolder per ruleset."""
    return _first_existing(_PACKAGE / "generated", _PACKAGE.parent / "generated")


def templates_dir() -> Path:
    """The Jinja2 templates of code generation."""
    return _PACKAGE / "templates"


def shipped_rules(name: str) -> Path | None:
    """The path of a shipped ruleset by name (``"base"``), or None."""
    path = rules_dir() / f"{name}.spb"
    return path if path.is_file() else None
