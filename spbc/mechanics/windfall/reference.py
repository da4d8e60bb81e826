"""The windfall mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from typing import Any

from typing_extensions import override

from spbc.mechanics.windfall.effect import Windfall
from spbc.reference.action import VerbAction


class Reference(VerbAction[Windfall]):
    """The windfall mechanic's part in the rules reference, a verb action's."""

    @override
    def notation_values(self, effect: Windfall) -> tuple[Any, ...]:
        return (effect.rubles,)
