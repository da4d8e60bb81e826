"""The income_per_symbol mechanic at the table: its line on the screen, the macro ``summary`` of its prose."""

from __future__ import annotations

from spbc.mechanics.income_per_symbol.effect import IncomePerSymbol
from spbc.play.hooks import Presenter


class Present(Presenter[IncomePerSymbol]):
    """The income_per_symbol mechanic's part at the table: the defaults (its summary is its prose's)."""
