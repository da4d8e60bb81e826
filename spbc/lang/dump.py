"""Stable text dumps of the compiler's data: the cheapest debugger and a golden format.

``spb check --dump ast`` prints :func:`dump_ast`, ``--dump model`` prints
:func:`dump_model` (``--dump ir`` prints :func:`spbc.engine.dump.dump_ir`). All are deterministic:
declaration order, fields in their dataclass order, no spans of the working directory, no memory addresses.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from spbc.lang.model import Effect, Names, RulesModel
from spbc.lang.syntax import dump_ast

__all__ = ["dump_ast", "dump_literal", "dump_model"]


def dump_literal(value: Any) -> str:
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
        return "[" + ", ".join(dump_literal(item) for item in value) + "]"
    if isinstance(value, Names):  # {en: "Observatory", de: "Sternwarte"} and the translated languages
        names = ", ".join(f"{language}: {dump_literal(text)}" for language, text in value.texts)
        return "{" + names + "}" + (f" translated {dump_literal(value.translated)}" if value.translated else "")
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
            out.append(f"{pad}{f.name} = {dump_literal(value)}")


def _effect(effect: Effect, depth: int, out: list[str]) -> None:
    out.append(f"{'  ' * depth}ability {effect.kind}")
    _fields(effect, (), depth + 1, out)


def dump_model(model: RulesModel) -> str:
    """The checked model as indented ``key = value`` lines, one section per declaration.

    >>> dump_model(load_model("base")).splitlines()[0]
    'ruleset base'
    """
    out = [f"ruleset {model.name}"]
    for key in ("title", "edition", "files", "digest", "languages", "titles", "editions", "symbol_names"):
        out.append(f"  {key} = {dump_literal(getattr(model, key))}")
    out.append("game")
    _fields(model.game, (), 1, out)
    for kind, items in (("colour", model.colours), ("deck", model.decks),
                        ("phase", model.phases), ("card", model.cards)):
        for item in items:
            out.append(f"{kind} {item.id}")
            _fields(item, ("id",), 1, out)
    return "\n".join(out) + "\n"
