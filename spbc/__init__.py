"""spbc: the Saint Petersburg rules compiler and toolkit.

>>> import spbc
>>> rules = spbc.load_rules("base")
>>> game = rules.new_game(["Anna", "Boris"], seed=7)

``import spbc`` is cheap: the Game API's names are looked up on first use (PEP 562), so a program that
only asks for ``spbc.__version__``, or a command that needs none of them, never loads the rules language,
the engine backend or the save format.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from spbc.source.version import VERSION as __version__  # noqa: F401  (spbc.__version__)

if TYPE_CHECKING:
    from spbc.play.game import Game, Ruleset, Standing, load_rules
    from spbc.play.moves import (
        AmbiguousMoveError,
        IllegalMoveError,
        MalformedMoveError,
        Move,
        MoveError,
        MoveKind,
    )

#: The public names and the module each comes from.
_HOMES = {
    "Game": "spbc.play.game", "Ruleset": "spbc.play.game", "Standing": "spbc.play.game",
    "load_rules": "spbc.play.game",
    "AmbiguousMoveError": "spbc.play.moves", "IllegalMoveError": "spbc.play.moves",
    "MalformedMoveError": "spbc.play.moves", "Move": "spbc.play.moves", "MoveError": "spbc.play.moves",
    "MoveKind": "spbc.play.moves",
}

__all__ = [
    "AmbiguousMoveError", "Game", "IllegalMoveError", "MalformedMoveError", "Move", "MoveError",
    "MoveKind", "Ruleset", "Standing", "load_rules",
]


def __getattr__(name: str) -> Any:
    """A public name of the Game API, imported from its module on first use (then kept here)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'spbc' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
