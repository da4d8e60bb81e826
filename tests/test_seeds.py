"""Agent seeds (spbc.ai.seeds) are one-way in the game's seed: no agent's constructor argument gives the deck
order away (issue 26), and the C loop computes the same function, so a seeded run is the same on either path."""

from __future__ import annotations

import hashlib
import random

from spbc.ai import fastplay
from spbc.ai.seeds import PERSON, agent_seed
from spbc.ai.sim import play_game, play_games
from spbc.contract.rng import MASK64


def test_the_agent_seed_is_keyed_blake2b_of_the_game_seed():
    digest = hashlib.blake2b((7).to_bytes(8, "little"), digest_size=8, person=PERSON,
                             salt=(1).to_bytes(8, "little")).digest()
    assert agent_seed(7, 1) == int.from_bytes(digest, "little") != 7 * 1_000_003 + 1
    assert 0 <= agent_seed(-1, 0) <= MASK64 and agent_seed(-1, 0) == agent_seed(MASK64, 0)


def test_the_c_loop_computes_the_same_agent_seeds():
    rng = random.Random(26)
    bases = [0, 1, -1, 2**63 - 1, -(2**63)] + [rng.randrange(-(2**63), 2**63) for _ in range(2000)]
    for base in bases:
        index = rng.choice([0, 1, 2, 3, 7, rng.getrandbits(64)])
        assert fastplay.agent_seed(base, index) == agent_seed(base, index), (base, index)


def test_agent_seeds_are_not_affine_in_the_game_seed():
    """The old seeds were ``seed * 1_000_003 + seat``: consecutive games' seeds a constant apart, the game seed
    their quotient. Now the differences between consecutive games' seeds are all different and about half the
    bits change from one base to the next."""
    for seat in range(4):
        seeds = [agent_seed(base, seat) for base in range(500)]
        steps = {(after - before) & MASK64 for before, after in zip(seeds, seeds[1:])}
        assert len(steps) == len(seeds) - 1
        assert len(set(seeds)) == len(seeds)
        flipped = [bin(a ^ b).count("1") for a, b in zip(seeds, seeds[1:])]
        assert 28 <= sum(flipped) / len(flipped) <= 36
    assert len({agent_seed(9, seat) for seat in range(1000)}) == 1000
    # a second difference, constant for any affine map, is not
    seconds = {(agent_seed(b + 2, 0) - 2 * agent_seed(b + 1, 0) + agent_seed(b, 0)) & MASK64 for b in range(100)}
    assert len(seconds) == 100


def test_a_seeded_run_is_the_same_every_time(compiled):
    seats = ["easy", "random"]
    first, again = list(play_games(compiled, seats, 30, 4100)), list(play_games(compiled, seats, 30, 4100))
    assert first == again
    assert [result.scores for result in first] != [result.scores for result in play_games(compiled, seats, 30, 4200)]
    assert play_game(compiled, ["medium@20it", "easy"], 5)[1] == play_game(compiled, ["medium@20it", "easy"], 5)[1]
