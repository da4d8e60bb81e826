"""Types of the compiled module spbc/lab/fastplay.pyx."""

EVENTS: tuple[str, ...]
AGENT_STRIDE: int

def random_games(capsule: object, players: int, first_seed: int, count: int, ncards: int,
                 o_round: int) -> tuple[list[int], list[int], list[int], list[int], list[int]]: ...
