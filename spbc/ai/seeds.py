"""The one rule that seeds computer players: every agent's generator comes from a base seed and an index.

The agent seed is one-way: BLAKE2b (RFC 7693, :func:`hashlib.blake2b`) of the base seed's low 64 bits
(8 bytes, little-endian), with the index (the seat of a computer player kept for a whole sitting, or the
number of moves played when an agent is made for one move) as its salt and PERSON as its
personalisation, an 8-byte digest read as a little-endian 64-bit number. An agent's seed so tells
nothing of the base (a game's seed, which deals every deck): nobody who sees an agent's constructor
argument can work the deck order back from it, and two bases, or two indices, give unrelated seeds.
The balance lab's C loop computes the same function (spbc.ai.fastplay.agent_seed, one compression),
so a game is the same move for move on either path.

>>> agent_seed(7, 1)
14627901646630558592
"""

from __future__ import annotations

import hashlib

from spbc.contract.rng import MASK64

#: BLAKE2b's personalisation for agent seeds (up to 16 bytes; hashlib pads it with zeros).
PERSON = b"spbc agent seed"


def agent_seed(base: int, index: int) -> int:
    """The seed of the agent ``index`` (a seat, or a move number) of the game seeded ``base``: a 64-bit
    number from which ``base`` cannot be worked back (only the low 64 bits of either count)."""
    digest = hashlib.blake2b((base & MASK64).to_bytes(8, "little"), digest_size=8, person=PERSON,
                             salt=(index & MASK64).to_bytes(8, "little")).digest()
    return int.from_bytes(digest, "little")
