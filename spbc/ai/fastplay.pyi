"""Types of the compiled module spbc/ai/fastplay.pyx."""

EVENTS: tuple[str, ...]
LEVELS: tuple[str, ...]
WEALTH: tuple[int, int, int]

_Figures = tuple[list[int], list[int], list[int], list[int], list[int], list[int]]

def lab_games(capsule: object, levels: list[int], first_game: int, first_seed: int, count: int,
              noise: float = ...) -> _Figures: ...
def agent_seed(base: int, index: int) -> int: ...
def random_games(capsule: object, players: int, first_seed: int, count: int) -> _Figures: ...
def sim_games(capsule: object, levels: list[int], first_game: int, first_seed: int, count: int,
              noise: float = ...) -> tuple[list[int], list[float], int]: ...
