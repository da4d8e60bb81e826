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



cdef enum:
    MAX_SEATS = 8


cdef void _outcome(const EngineApi* api, const int* s, int seat, double* win, double* margin) noexcept nogil:
    """seat's share of the win (ties on points and tie-break shared) and its final points less the best
    other seat's, at a game's end."""
    cdef int players = s[api.o_players], p, best = -(1 << 30), best_tie = -(1 << 30), winners = 0
    cdef int other = -(1 << 30)
    cdef int score[MAX_SEATS]
    cdef int tie[MAX_SEATS]
    for p in range(players):
        score[p] = api.final_score(s, p)
        tie[p] = api.tie_break(s, p)
        if score[p] > best or (score[p] == best and tie[p] > best_tie):
            best, best_tie = score[p], tie[p]
        if p != seat and score[p] > other:
            other = score[p]
    for p in range(players):
        winners += score[p] == best and tie[p] == best_tie
    win[0] = 1.0 / winners if score[seat] == best and tie[seat] == best_tie else 0.0
    margin[0] = score[seat] - other


def move_playouts(object capsule, state, int observer, codes, int repeats, uint64_t seed):
    """Each of ``codes`` (moves of ``observer``, the seat to move) weighed on the same ``repeats`` deals and
    playouts (common random numbers): repeat r deals what the observer cannot see anew from the seed
    ``seed + r``, plays the move, then plays random moves to the end from the seed ``seed + r`` again,
    whichever the move. Returns (wins, margins), code by code and repeat by repeat: the observer's share of
    the win and its final points less the best other seat's. ``state`` is an observation's state, so
    nothing the observer could not know is read: every deal replaces it."""
    cdef const EngineApi* api = engine_api(capsule)
    if len(state) != api.state_size:
        raise ValueError(f"a state of {len(state)} values, not {api.state_size}")
    if not 0 <= observer < min(api.max_players, MAX_SEATS):
        raise ValueError(f"no seat {observer}")
    cdef int count = len(codes)
    cdef int* start = <int*>malloc(api.state_size * sizeof(int))
    cdef int* dealt = <int*>malloc(api.state_size * sizeof(int))
    cdef int* work = <int*>malloc(api.state_size * sizeof(int))
    cdef int* moves = <int*>malloc(max(1, count) * sizeof(int))
    cdef double* wins = <double*>malloc(max(1, count * repeats) * sizeof(double))
    cdef double* margins = <double*>malloc(max(1, count * repeats) * sizeof(double))
    cdef int i, r
    cdef uint64_t x
    if start == NULL or dealt == NULL or work == NULL or moves == NULL or wins == NULL or margins == NULL:
        free(start); free(dealt); free(work); free(moves); free(wins); free(margins)
        raise MemoryError()
    try:
        for i in range(api.state_size):
            start[i] = state[i]
        for i in range(count):
            moves[i] = codes[i]
        with nogil:
            for r in range(repeats):
                memcpy(dealt, start, api.state_size * sizeof(int))
                x = seed + <uint64_t>r
                api.redeal_unseen(dealt, observer, &x)
                for i in range(count):
                    memcpy(work, dealt, api.state_size * sizeof(int))
                    api.apply_move(work, moves[i])
                    x = seed + <uint64_t>r
                    api.playout(work, &x, api.max_game_moves)
                    _outcome(api, work, observer, wins + i * repeats + r, margins + i * repeats + r)
        return ([wins[i] for i in range(count * repeats)], [margins[i] for i in range(count * repeats)])
    finally:
        free(start); free(dealt); free(work); free(moves); free(wins); free(margins)
