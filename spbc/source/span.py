"""Where in a rules file a thing was written: every node, diagnostic and generated comment points with a Span."""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import override


@dataclass(frozen=True, order=True)
class Span:
    """A region of a rules file: 1-based line and column, end exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    @override
    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)
