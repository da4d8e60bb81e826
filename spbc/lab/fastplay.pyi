"""Types of the compiled module spbc/lab/fastplay.pyx."""

from typing import Any

EVENTS: tuple[str, ...]
AGENT_STRIDE: int
LEVELS: tuple[str, ...]

_Figures = tuple[list[int], list[int], list[int], list[int], list[int]]

def lab_games(capsule: object, levels: list[int], first_game: int, first_seed: int, count: int, ncards: int,
              o_round: int, easy: dict[str, Any] | None = None) -> _Figures: ...
def random_games(capsule: object, players: int, first_seed: int, count: int, ncards: int,
                 o_round: int) -> _Figures: ...
def observed_state(capsule: object, state: list[int], seat: int, ledger: list[int], ncards: int,
                   easy: dict[str, Any]) -> list[int]: ...
def easy_choice(capsule: object, observed: list[int], legal: list[int], seat: int, rng: int, ncards: int,
                easy: dict[str, Any]) -> tuple[int, int]: ...
