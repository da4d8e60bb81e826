"""Types of the compiled module spbc/ai/fastplay.pyx."""

from collections.abc import Sequence

EVENTS: tuple[str, ...]
LEVELS: tuple[str, ...]
WEALTH: tuple[int, int, int]

_Figures = tuple[list[int], list[int], list[int], list[int], list[int], list[int]]

#: The search seats' inputs: per-card tables, the layout and the settings (spbc.ai.agents.search_inputs).
_Search = tuple[tuple[tuple[int, ...], ...], dict[str, int], dict[str, float]]

def lab_games(capsule: object, levels: list[int], first_game: int, first_seed: int, count: int,
              noise: float | Sequence[float] = ..., budgets: list[int] | None = ...,
              search: _Search | None = ...) -> _Figures: ...
def agent_seed(base: int, index: int) -> int: ...
def random_games(capsule: object, players: int, first_seed: int, count: int) -> _Figures: ...
def sim_games(capsule: object, levels: list[int], first_game: int, first_seed: int, count: int,
              noise: float | Sequence[float] = ..., budgets: list[int] | None = ...,
              search: _Search | None = ...
              ) -> tuple[list[int], list[float], int]: ...
