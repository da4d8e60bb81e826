"""The stable text dump of the engine IR: ``spb check --dump ir`` (see :mod:`spbc.lang.dump`)."""

from __future__ import annotations

import dataclasses

from spbc.engine.ir import EngineIR
from spbc.lang.dump import dump_literal


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
            out.append(f"  {f.name} = {dump_literal(value)}")
    for name, entries in groups:
        out.append(name)
        for entry in entries:
            parts = []
            for g in dataclasses.fields(entry):
                item = getattr(entry, g.name)
                if isinstance(item, tuple) and item and dataclasses.is_dataclass(item[0]):
                    item = tuple(repr(x) for x in item)
                parts.append(f"{g.name}={dump_literal(item)}")
            out.append("  " + " ".join(parts))
    return "\n".join(out) + "\n"
