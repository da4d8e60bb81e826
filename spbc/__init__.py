"""spbc: the Saint Petersburg rules compiler and toolkit.

>>> import spbc
>>> rules = spbc.load_rules("base")
>>> game = rules.new_game(["Anna", "Boris"], seed=7)
"""

from spbc.source.version import VERSION as __version__  # noqa: F401  (spbc.__version__)

from spbc.play.game import Game, Ruleset, Standing, load_rules
from spbc.play.moves import (
    AmbiguousMoveError,
    IllegalMoveError,
    MalformedMoveError,
    Move,
    MoveError,
    MoveKind,
)

__all__ = [
    "AmbiguousMoveError", "Game", "IllegalMoveError", "MalformedMoveError", "Move", "MoveError",
    "MoveKind", "Ruleset", "Standing", "load_rules",
]
