"""Values worked out from a rules model once a process: :func:`per_model` keeps them by the model's identity.

A :class:`spbc.lang.model.RulesModel` is a frozen dataclass, so it can key an ``lru_cache``, but its hash
reads every card, deck, phase and name of it: some tens of microseconds at each call, which a mail's
screens paid many times over. A model is never changed, so what is made of it can be kept by its ``id``;
the model is kept with it, so that its id cannot become another model's meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Concatenate, ParamSpec, TypeVar

from spbc.lang.model import RulesModel

Arguments = ParamSpec("Arguments")
Made = TypeVar("Made")
#: The (model, arguments) a function keeps at most: a few rulesets, each in a few languages.
KEPT = 64


def per_model(make: Callable[Concatenate[RulesModel, Arguments], Made]
              ) -> Callable[Concatenate[RulesModel, Arguments], Made]:
    """make(model, ...), made once a model (by identity) and the other arguments (by equality)."""
    kept: dict[Hashable, tuple[RulesModel, Made]] = {}

    def cached(model: RulesModel, /, *args: Arguments.args, **kwargs: Arguments.kwargs) -> Made:
        key = (id(model), args, tuple(sorted(kwargs.items())))
        found = kept.get(key)
        if found is None or found[0] is not model:
            if len(kept) >= KEPT:
                kept.clear()
            found = (model, make(model, *args, **kwargs))
            kept[key] = found
        return found[1]

    cached.__doc__ = make.__doc__
    return cached
