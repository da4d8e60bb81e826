"""The hand_limit mechanic at the table: its line on the screen, the macro ``summary`` of its prose."""

from __future__ import annotations

from spbc.mechanics.hand_limit.effect import HandLimit
from spbc.play.hooks import Presenter


class Present(Presenter[HandLimit]):
    """The hand_limit mechanic's part at the table: the defaults (its summary is its prose's)."""
