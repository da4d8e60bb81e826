"""The income_per_symbol mechanic in the rules reference: its paragraph (prose.en.j2) says all of it."""

from __future__ import annotations

from spbc.mechanics.income_per_symbol.effect import IncomePerSymbol
from spbc.reference.hooks import ReferencePart


class Reference(ReferencePart[IncomePerSymbol]):
    """The income_per_symbol mechanic's part in the rules reference: only its prose's paragraph and title, no hooks."""
