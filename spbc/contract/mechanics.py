"""The registry of the mechanics: one package per ability kind, found here in one fixed order.

A mechanic is everything one kind of card ability (``draw_action``, ``buy_points``...) means at every
layer, in one folder. Each file of the folder belongs to the layer its name gives, and only that layer
asks for it:

=================  =========  =======================================================================
file               layer      holds
=================  =========  =======================================================================
``effect.py``      lang       the frozen dataclass of its parameters (``EFFECT``), their settings,
                              its own checks and the stages it owns (``stages``, spbc.contract.abi.Stage)
``lower.py``       engine     ``class Lower(spbc.engine.lower.LowerPart)``: its IR rows, state fields,
                              move-buffer share and template data
``engine.j2``      engine     the macros the core engine templates call (see spbc.engine.hooks)
``reference.py``   reference  ``class Reference(spbc.reference.hooks.ReferencePart[EFFECT])``: its
                              sentences in the rules reference and its notation forms
``prose.en.j2``    reference  the English text of those sentences: at least the macros ``ability``
                              (its paragraph) and ``title`` (its name in the card tables)
``prose.de.j2``    reference  the same macros in German, and ``prose.zh.j2`` in Chinese: a ruleset
                              whose ``languages`` include one needs its file, and ``spb compile``
                              fails naming the file or macro missing (spbc.reference.language)
``present.py``     play       ``class Present(spbc.play.hooks.Presenter[EFFECT])``: its notation, why
                              a move of it is refused, its screen line, the checks of a loaded state
=================  =========  =======================================================================

Each layer file defines its part as a class of a fixed name (:data:`PARTS`) that subclasses the layer's
own base and marks every method it overrides with ``@override``; :meth:`Mechanic.part` makes its one
instance, checked against that base.

The registry finds the packages of spbc/mechanics/ by itself, the packages named in the environment
variable ``SPBC_MECHANICS`` (comma-separated, importable names) and those passed to :func:`register`.
Every core stage asks it for the mechanics in one fixed order (each effect class declares its ``order``)
and calls their hooks in that order, then in card declaration order. This module imports nothing of
spbc; a mechanic's layer file is imported when a caller of that layer first asks for it.

>>> [m.kind for m in mechanics()]        # doctest: +SKIP
['discount', 'hand_limit', 'income_per_card', 'buy_points', 'draw_action']
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import pkgutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from spbc.contract.parts import problems_of

#: The environment variable naming more mechanic packages, comma-separated.
ENVIRONMENT = "SPBC_MECHANICS"

#: The package of the shipped mechanics, and its folder (this module never imports it).
PACKAGE = "spbc.mechanics"
FOLDER = Path(__file__).resolve().parent.parent / "mechanics"

#: The layer files a mechanic may have besides effect.py, by the name callers ask for, and the name of the
#: class each defines: a subclass of that layer's base (spbc.engine.lower.LowerPart,
#: spbc.reference.hooks.ReferencePart, spbc.play.hooks.Presenter), made once per mechanic.
PARTS = {"lower": "Lower", "reference": "Reference", "present": "Present"}

T = TypeVar("T")

_registered: list[str] = []


class MechanicError(RuntimeError):
    """A mechanic package that cannot serve: it has no effect class, or its kind is taken."""


@dataclass(frozen=True)
class Mechanic:
    """One registered ability kind: its package, its place in the order, its folder of templates."""

    kind: str  # the ability kind as rules files write it: ``ability draw_action { ... }``
    package: str  # the importable package: ``spbc.mechanics.draw_action``
    order: int  # hooks run by this number, lowest first
    folder: Path  # the package's folder, where its templates are

    @property
    def effect(self) -> Any:
        """The effect class (a subclass of spbc.lang.model.Effect)."""
        return getattr(_module(self.package, "effect"), "EFFECT")

    def part(self, name: str, base: type[T]) -> T | None:
        """The mechanic's part of one layer (``"lower"``, ``"reference"``, ``"present"``): the one instance
        of the class its layer file defines (``present.py``'s ``Present``), which must subclass ``base``, the
        layer's own base class. None when the mechanic has no file of that layer.

        Raises MechanicError when the file has no such class, or the class does not fit its base.
        """
        if name not in PARTS:
            raise ValueError(f"a mechanic has no part {name!r}; the parts are {', '.join(PARTS)}")
        found = _part(self.package, name)
        if found is not None and not isinstance(found, base):
            raise MechanicError(f"mechanic {self.kind!r}: {PARTS[name]} in {self.package}.{name} "
                                f"is no subclass of {base.__module__}.{base.__qualname__}")
        return found

    def template(self, name: str) -> str:
        """The name templates load one of its files by: ``mechanics/draw_action/engine.j2``."""
        return f"mechanics/{self.kind}/{name}"


def _module(package: str, name: str) -> ModuleType | None:
    qualified = f"{package}.{name}"
    if importlib.util.find_spec(qualified) is None:
        return None
    return importlib.import_module(qualified)


@functools.cache
def _part(package: str, name: str) -> object | None:
    module = _module(package, name)
    if module is None:
        return None
    cls = getattr(module, PARTS[name], None)
    if not isinstance(cls, type):
        raise MechanicError(f"mechanic package {package!r}: {name}.py defines no class {PARTS[name]}")
    problems = problems_of(cls, package)
    if problems:
        kind = getattr(getattr(_module(package, "effect"), "EFFECT", None), "kind", "?")
        raise MechanicError(f"mechanic {kind!r} (package {package!r}), its {name} part ({package}.{name}): "
                            + "; ".join(problems))
    part: object = cls()
    return part


def register(package: str) -> None:
    """Add the mechanic of an importable package (``"myrules.mechanics.rebate"``) to the registry.

    Raises MechanicError when it has no ``effect.EFFECT``, its kind is already registered, or a part class
    does not fit its base: a public name that overrides nothing, a method that takes other parameters
    (spbc.contract.parts).
    """
    _registered.append(package)  # once per call: unregister takes back one registration
    mechanics.cache_clear()
    try:
        mechanics()
        for name in PARTS:
            _part(package, name)
    except Exception:
        _registered.remove(package)
        mechanics.cache_clear()
        raise


def unregister(package: str) -> None:
    """Take a package added by :func:`register` out of the registry again."""
    _registered.remove(package)
    mechanics.cache_clear()


@contextmanager
def registered(package: str) -> Iterator[Mechanic]:
    """The registry with one more mechanic while the block runs: ``with registered("pkg") as mechanic:``."""
    register(package)
    try:
        yield next(m for m in mechanics() if m.package == package)
    finally:
        unregister(package)


def _packages() -> list[str]:
    found = [f"{PACKAGE}.{info.name}" for info in pkgutil.iter_modules([str(FOLDER)]) if info.ispkg]
    named = [name.strip() for name in os.environ.get(ENVIRONMENT, "").split(",") if name.strip()]
    return list(dict.fromkeys(found + named + _registered))


def _mechanic(package: str) -> Mechanic:
    effect = getattr(_module(package, "effect"), "EFFECT", None)
    if effect is None:
        raise MechanicError(f"mechanic package {package!r} has no effect.py defining EFFECT")
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations)))
    return Mechanic(effect.kind, package, effect.order, folder)


@functools.cache
def mechanics() -> tuple[Mechanic, ...]:
    """Every registered mechanic, in hook order (by ``order``, then kind). MechanicError for a kind taken twice."""
    found: dict[str, Mechanic] = {}
    for package in _packages():
        mechanic = _mechanic(package)
        if mechanic.kind in found:
            raise MechanicError(f"ability kind {mechanic.kind!r} is registered twice: by "
                                f"{found[mechanic.kind].package} and by {package}")
        found[mechanic.kind] = mechanic
    return tuple(sorted(found.values(), key=lambda m: (m.order, m.kind)))


def mechanic(kind: str) -> Mechanic:
    """The mechanic of one ability kind; KeyError if none is registered."""
    for found in mechanics():
        if found.kind == kind:
            return found
    raise KeyError(kind)


def effect_kinds() -> dict[str, Any]:
    """The effect classes by kind, in hook order."""
    return {m.kind: m.effect for m in mechanics()}


def used_by(kinds: Any) -> tuple[Mechanic, ...]:
    """The mechanics of the kinds a ruleset uses (any iterable of kinds), in hook order."""
    wanted = set(kinds)
    return tuple(m for m in mechanics() if m.kind in wanted)
