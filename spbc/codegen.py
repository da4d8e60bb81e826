"""Code generation: the checked model, lowered, emitted as the Cython engine and its pure-Python twin."""

from __future__ import annotations

from spbc.model import RulesModel


def emit_engine(model: RulesModel) -> dict[str, str]:
    """The engine files of one ruleset, by file name within generated/<ruleset>/."""
    return {}
