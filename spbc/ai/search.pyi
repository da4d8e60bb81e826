"""Types of the compiled module spbc/ai/search.pyx."""

from collections.abc import Callable, Sequence

CLOCK_STRIDE: int
LINE: int

def search(capsule: object, state: Sequence[int], observer: int, iterations: int, seconds: float, seed: int,
           tables: tuple[Sequence[int], Sequence[int], Sequence[int]], layout: dict[str, int],
           settings: dict[str, float], clock: Callable[[], float] | None = ...
           ) -> tuple[list[tuple[int, int, float, float]], int, int, int, float, list[int]]: ...
