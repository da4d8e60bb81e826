# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The games of benchmarks/digest.py, played in C through a compiled engine's C functions (its c_api()
capsule, spbc/contract/engine_api.pxd), and one 64-bit digest of each.

Built by digest.py against the engine_api.pxd of the install it runs in, so the same source measures an
install of today and one of before. A game is the one spbc.ai.sim.play_game plays between the same seats
from the same seed: dealt from the seed, seat p drawing from its own generator seeded
spbc.ai.seeds.agent_seed(seed, p) (the one-way BLAKE2b of spbc/ai/seeds.pxi, which digest.py copies beside
this file from its own checkout, so that an install of before plays the same games), only when it has more
than one legal move; a random seat plays a uniformly random legal move
(spbc.ai.agents.RandomAgent), an easy seat the engine's easy_choice on its observation (canonical_unseen,
the others' rubles as the public ledger says, as spbc.ai.fastplay (spbc.lab.fastplay before it moved) keeps it).

The digest is FNV-1a over the game's move codes, then the round it ended in and every seat's final score
and tie-break value: two engines that play any move, or score any game, differently give other digests.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from spbc.contract.engine_api cimport EngineApi, engine_api, rng_below

cdef enum:
    MAX_SEATS = 8

cdef uint64_t FNV_OFFSET = 0xCBF29CE484222325ULL
cdef uint64_t FNV_PRIME = 0x100000001B3ULL

include "seeds.pxi"  # _agent_seed: seat p of the game of seed g draws from agent_seed(g, p)


cdef inline uint64_t _mix(uint64_t h, int value) noexcept nogil:
    """FNV-1a of value's four bytes, low byte first, into h."""
    cdef unsigned int v = <unsigned int>value
    cdef int i
    for i in range(4):
        h = (h ^ (v & 0xFF)) * FNV_PRIME
        v >>= 8
    return h


cdef uint64_t _game(const EngineApi* api, int* s, int* observed, int* moves, int players, int easy,
                    double noise, uint64_t seed) noexcept nogil:
    """Play the game of seed to its end; its digest (0 if it did not end within the engine's bound)."""
    cdef uint64_t x[MAX_SEATS]
    cdef int ledger[MAX_SEATS]
    cdef int before[MAX_SEATS]
    cdef int p, n, m, c, made = 0
    cdef uint64_t h = FNV_OFFSET
    api.setup(s, players, seed)
    for p in range(players):
        x[p] = _agent_seed(seed, <uint64_t>p)
        ledger[p] = s[api.o_rubles + p]
    while s[api.o_stage] != api.stage_over:
        if made >= api.max_game_moves:
            return 0
        n = api.legal_moves(s, moves)
        if n == 0:
            return 0
        p = s[api.o_current]
        if n == 1:
            m = moves[0]
        elif not easy:
            m = moves[rng_below(&x[p], n)]
        else:
            memcpy(observed, s, api.state_size * sizeof(int))
            api.canonical_unseen(observed, p, ledger)
            m = api.easy_choice(observed, moves, n, p, &x[p], noise)
        h = _mix(h, m)
        for c in range(players):
            before[c] = s[api.o_rubles + c]
        api.apply_move(s, m)
        for c in range(players):
            ledger[c] += s[api.o_rubles + c] - before[c]
        made += 1
    h = _mix(h, s[api.o_round])
    for p in range(players):
        h = _mix(h, api.final_score(s, p))
        h = _mix(h, api.tie_break(s, p))
    return h | 1  # never 0, which says a game did not end


def game_digests(object capsule, int players, long long first_seed, int count, bint easy=False,
                 double noise=2.0):
    """The digests of ``count`` games of ``players`` seats, all random (or all easy, with the easy
    player's ``noise``), from the seeds first_seed, first_seed + 1, ...; a digest of 0 marks a game that
    did not end within the engine's bound on a game's moves."""
    cdef const EngineApi* api = engine_api(capsule)
    if players < 1 or players > api.max_players or players > MAX_SEATS:
        raise ValueError(f"{players} seats; this engine plays at most {min(api.max_players, MAX_SEATS)}")
    cdef int* s = <int*>malloc(api.state_size * sizeof(int))
    cdef int* observed = <int*>malloc(api.state_size * sizeof(int))
    cdef int* moves = <int*>malloc(api.max_moves * sizeof(int))
    cdef uint64_t* out = <uint64_t*>malloc((count if count > 0 else 1) * sizeof(uint64_t))
    cdef int g
    if s == NULL or observed == NULL or moves == NULL or out == NULL:
        free(s); free(observed); free(moves); free(out)
        raise MemoryError()
    try:
        with nogil:
            for g in range(count):
                out[g] = _game(api, s, observed, moves, players, easy, noise, <uint64_t>(first_seed + g))
        return [out[g] for g in range(count)]
    finally:
        free(s); free(observed); free(moves); free(out)
