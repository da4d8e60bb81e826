"""Types of the compiled module spbc/ai/search.pyx."""

from collections.abc import Callable, Sequence

CLOCK_STRIDE: int
LINE: int
ROLLOUTS: dict[str, int]

def light_moves(capsule: object, state: Sequence[int], seed: int, count: int,
                tables: tuple[Sequence[int], ...], layout: dict[str, int],
                settings: dict[str, float]) -> list[int]: ...

def search(capsule: object, state: Sequence[int], observer: int, iterations: int, seconds: float, seed: int,
           tables: tuple[Sequence[int], ...], layout: dict[str, int],
           settings: dict[str, float], clock: Callable[[], float] | None = ...
           ) -> tuple[list[tuple[int, int, float, float]], int, int, int, float, list[int], int]: ...
