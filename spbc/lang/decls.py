"""What the checker collects and every pass reads: the declarations found so far and the diagnostics.

The passes (:mod:`spbc.lang.check` collects and resolves, :mod:`spbc.lang.consistency`
checks declarations against each other) share one :class:`Declarations`; both import it
from here, so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from typing_extensions import override

from spbc.lang import syntax
from spbc.source.span import Span
from spbc.lang.schema import BLOCKS
from spbc.source.diagnostics import Diagnostic, Note


class _Invalid:
    """The value of a setting already reported as wrong."""

    @override
    def __repr__(self) -> str:
        return "INVALID"


INVALID: Any = _Invalid()


@dataclass
class Decl:
    """A block as the checker sees it: its typed settings (absent ones left out)."""

    block: syntax.Block
    values: dict[str, Any] = field(default_factory=dict)
    spans: dict[str, Span] = field(default_factory=dict)  # setting -> its value's span
    abilities: list[Decl] = field(default_factory=list)

    @property
    def id(self) -> str:
        """The block's id (``lumberjack``), or its kind for blocks without one (``game``)."""
        return self.block.id.value if self.block.id is not None else self.block.kind.value

    def get(self, key: str, default: Any = None) -> Any:
        """The typed value of a setting (a resolved id for references), or ``default``."""
        return self.values.get(key, default)

    def valid(self, *keys: str) -> bool:
        """Whether none of ``keys`` was reported wrong (absent counts as valid)."""
        return all(self.values.get(key) is not INVALID for key in keys)


class Declarations:
    """The state of one check: the declarations collected and the diagnostics found."""

    def __init__(self, program: syntax.Program) -> None:
        self.program = program
        self.diagnostics: list[Diagnostic] = []
        self.single: dict[str, Decl] = {}  # ruleset, game
        self.seen_kinds: set[str] = set()
        self.decls: dict[str, dict[str, Decl]] = {kind: {} for kind in BLOCKS if not BLOCKS[kind].single}

    def report(self, code: str, message: str, span: Span, hint: str | None = None,
               notes: tuple[Note, ...] = ()) -> None:
        """Record a diagnostic."""
        self.diagnostics.append(Diagnostic(code, message, span, hint=hint, notes=notes))
