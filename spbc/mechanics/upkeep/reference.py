"""The upkeep mechanic in the rules reference: its paragraph (prose.en.j2) says all of it."""

from __future__ import annotations

from spbc.mechanics.upkeep.effect import Upkeep
from spbc.reference.hooks import ReferencePart


class Reference(ReferencePart[Upkeep]):
    """The upkeep mechanic's part in the rules reference: only its prose's paragraph and title, no hooks."""
