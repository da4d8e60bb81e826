"""Stable text dumps of the compiler's data: the cheapest debugger and a golden format.

``spb check --dump ast`` prints :func:`dump_ast`, ``--dump model`` prints
:func:`dump_model`, ``--dump ir`` prints :func:`dump_ir`. All are deterministic: declaration order, fields in their
dataclass order, no spans of the working directory, no memory addresses.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from spbc.lower import EngineIR
from spbc.model import Effect, RulesModel
from spbc.syntax import dump_ast

__all__ = ["dump_ast", "dump_ir", "dump_model"]


def _literal(value: Any) -> str:
    """A model value in one stable spelling: ``"Pub"``, ``3``, ``yes``, ``-``, ``[a, b]``."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple):
        return "[" + ", ".join(_literal(item) for item in value) + "]"
    raise TypeError(f"no dump form for {type(value).__name__}")


def _fields(obj: Any, skip: tuple[str, ...], depth: int, out: list[str]) -> None:
    pad = "  " * depth
    for f in dataclasses.fields(obj):
        if f.name == "span" or f.name in skip:
            continue
        value = getattr(obj, f.name)
        if f.name == "abilities":
            for effect in value:
                _effect(effect, depth, out)
        else:
            out.append(f"{pad}{f.name} = {_literal(value)}")


def _effect(effect: Effect, depth: int, out: list[str]) -> None:
    out.append(f"{'  ' * depth}ability {effect.kind}")
    _fields(effect, (), depth + 1, out)


def dump_model(model: RulesModel) -> str:
    """The checked model as indented ``key = value`` lines, one section per declaration.

    >>> dump_model(load_model("base")).splitlines()[0]
    'ruleset base'
    """
    out = [f"ruleset {model.name}"]
    for key in ("title", "edition", "files", "digest"):
        out.append(f"  {key} = {_literal(getattr(model, key))}")
    out.append("game")
    _fields(model.game, (), 1, out)
    for kind, items in (("colour", model.colours), ("deck", model.decks),
                        ("phase", model.phases), ("card", model.cards)):
        for item in items:
            out.append(f"{kind} {item.id}")
            _fields(item, ("id",), 1, out)
    return "\n".join(out) + "\n"


def dump_ir(ir: EngineIR) -> str:
    """The engine IR: every constant, table and per-ability entry the engine bakes in.

    Scalars first, then each group of entries (cards, colours, decks, phases, the
    abilities, the state layout), one entry per line with its fields in order.
    """
    out = [f"engine {ir.ruleset}"]
    groups = []
    for f in dataclasses.fields(ir):
        value = getattr(ir, f.name)
        if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            groups.append((f.name, value))
        else:
            out.append(f"  {f.name} = {_literal(value)}")
    for name, entries in groups:
        out.append(name)
        for entry in entries:
            parts = []
            for g in dataclasses.fields(entry):
                item = getattr(entry, g.name)
                if isinstance(item, tuple) and item and dataclasses.is_dataclass(item[0]):
                    item = tuple(repr(x) for x in item)
                parts.append(f"{g.name}={_literal(item)}")
            out.append("  " + " ".join(parts))
    return "\n".join(out) + "\n"
