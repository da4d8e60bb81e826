"""The one rule that seeds computer players: every agent's generator comes from a base seed and an index.

``base * AGENT_STRIDE + index`` keeps the seeds of one game apart from those of the next base (a
game's seed, a stored game's agent seed) for any index below the stride: the seat of a computer
player kept for a whole sitting, or the number of moves played when an agent is made for one move.

>>> agent_seed(7, 1)
7000022
"""

from __future__ import annotations

#: The distance between the seeds of two bases; a prime, so that indices never collide across bases.
AGENT_STRIDE = 1_000_003


def agent_seed(base: int, index: int) -> int:
    """The seed of the agent ``index`` (a seat, or a move number) of the game seeded ``base``."""
    return base * AGENT_STRIDE + index
