# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Random playouts from given states on any ruleset's compiled engine, in C: the inner loop of a search.

The engine comes as the capsule of its C functions (``ruleset.engine.c_api()``, see
spbc/contract/engine_api.pxd), so this module is compiled once with spbc and runs every ruleset's
engine without the GIL and without a Python object per move.
"""

import time

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from spbc.contract.engine_api cimport EngineApi, engine_api

MASK64 = 0xFFFFFFFFFFFFFFFF


def determinized_playouts(object capsule, states, int repeats, uint64_t seed):
    """For each state and each of ``repeats`` times: deal what the player to move cannot see anew, play
    random moves to the end, and read every seat's final score. Returns the scores, state by state and
    repeat by repeat, seat by seat (``max_players`` values each; seats beyond the game's are 0).

    ``states`` is a flat sequence of ints, ``state_size`` per state (``Game.state_values()``). Playout k
    (state i, repeat r, k = i * repeats + r) deals and plays from the seed ``seed + k``, as
    ``game.determinized(game.current_player, seed + k).playout(seed + k)`` does through the Game API.
    """
    cdef const EngineApi* api = engine_api(capsule)
    cdef Py_ssize_t total = len(states)
    if total % api.state_size:
        raise ValueError(f"the states hold {total} values, not a whole number of states of {api.state_size}")
    cdef int count = total // api.state_size
    cdef int width = api.max_players
    cdef int* start = <int*>malloc(total * sizeof(int))
    cdef int* work = <int*>malloc(api.state_size * sizeof(int))
    cdef int* scores = <int*>malloc(<Py_ssize_t>count * repeats * width * sizeof(int))
    cdef Py_ssize_t i
    cdef int k, r, p, players
    cdef uint64_t x
    if start == NULL or work == NULL or scores == NULL:
        free(start); free(work); free(scores)
        raise MemoryError()
    try:
        for i in range(total):
            start[i] = states[i]
        with nogil:
            for k in range(count):
                for r in range(repeats):
                    memcpy(work, start + <Py_ssize_t>k * api.state_size, api.state_size * sizeof(int))
                    x = seed + <uint64_t>(k * repeats + r)
                    api.redeal_unseen(work, work[api.o_current], &x)
                    x = seed + <uint64_t>(k * repeats + r)
                    api.playout(work, &x, api.max_game_moves)
                    players = work[api.o_players]
                    for p in range(width):
                        scores[(k * repeats + r) * width + p] = api.final_score(work, p) if p < players else 0
        return [scores[i] for i in range(<Py_ssize_t>count * repeats * width)]
    finally:
        free(start); free(work); free(scores)


def playouts_per_second(object capsule, states, int repeats, uint64_t seed):
    """(playouts, seconds) of :func:`determinized_playouts` on these states."""
    began = time.perf_counter()
    scores = determinized_playouts(capsule, states, repeats, seed)
    return len(scores) // engine_api(capsule).max_players, time.perf_counter() - began
