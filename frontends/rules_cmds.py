"""Commands: check, cards, docs, compile."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the spb app."""
