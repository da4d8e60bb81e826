"""The upkeep mechanic at the table: its line on the screen, the macro ``summary`` of its prose."""

from __future__ import annotations

from spbc.mechanics.upkeep.effect import Upkeep
from spbc.play.hooks import Presenter


class Present(Presenter[Upkeep]):
    """The upkeep mechanic's part at the table: the defaults (its summary is its prose's), and a forecast that
    depends on whether the owner can pay."""

    FORECAST_READS_RUBLES = True
