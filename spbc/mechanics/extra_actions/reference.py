"""The extra_actions mechanic in the rules reference: its extra action and its notation form."""

from __future__ import annotations

from typing import Any

from typing_extensions import override

from spbc.mechanics.extra_actions.effect import ExtraActions
from spbc.reference.action import VerbAction


class Reference(VerbAction[ExtraActions]):
    """The extra_actions mechanic's part in the rules reference, a verb action's."""

    @override
    def notation_values(self, effect: ExtraActions) -> tuple[Any, ...]:
        return (effect.actions,)
