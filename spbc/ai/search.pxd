# The search's C-level entry points (spbc/ai/search.pyx), for the C game loop of spbc.ai.fastplay, whose
# search seats (medium, hard at a fixed number of iterations) search as spbc.ai.search.search does, without
# a Python object per move. Cython reads this file before search.pyx: the structs are defined here only.

from libc.stdint cimport uint64_t

from spbc.contract.engine_api cimport EngineApi

#: A clock: seconds from some start, given its context.
ctypedef double (*Clock)(void* context) noexcept nogil


cdef struct Layout:
    # what the policy knows of the rules and the cards (the state's offsets are the engine's: EngineApi)
    int hand_limit
    int o_hand_size
    int ncards
    const int* cost
    const int* rubles
    const int* points
    const int* pays_in      # the phase whose scoring pays the card (-1: none)
    const int* noble        # 1 for a card of the colour whose different cards earn the final bonus
    const int* bonus        # that bonus by the number of different cards (bonuses of them; the last for more)
    int bonuses
    int o_phase             # the state's offsets of the phase, the seat to move and the play areas (seat by
    int o_current           # seat, ncards each)
    int o_owned
    double margin_weight    # how much of a reward is the score margin (the rest: the win)
    double margin_scale     # points of margin at which it counts half (squash), or fully (clamped)
    int squash              # 1: the margin squashed smoothly, m / (|m| + margin_scale); 0: clamped at the scale
    double exploration      # UCB's constant
    int rollout             # ROLLOUT_RANDOM: the engine's uniformly random playouts; ROLLOUT_POLICY; ROLLOUT_LIGHT
    int hand_penalty        # the rules' points lost per card left in hand at the end
    int rubles_per_point    # the rules' rubles a point at the end (0: rubles count for nothing)
    double light_last       # the light policy's chance, in the last round, of a move that scores over the draw
    double deviation        # > 0: UCB's constant is scaled by a node's reward deviation, at least this (0: not)


cdef struct Tree:
    int* move
    int* child       # first child, -1: none
    int* sibling     # next sibling, -1: none
    int* player      # the seat that made the node's move
    int* visits
    int* avail
    double* reward   # summed rewards of player
    double* win      # summed win shares of player
    double* below    # summed rewards its children brought the seat moving at the node, and their squares
    double* below_square
    int size
    int capacity


cdef double _thread_cpu(void* context) noexcept nogil
cdef int _add(Tree* t, int parent, int move, int player) noexcept nogil
cdef long _run(const EngineApi* api, const int* root, int observer, long iterations, double seconds,
               uint64_t* x, Tree* t, const Layout* L, long* playouts, Clock now, void* context) noexcept nogil
cdef int _tree_make(Tree* t, long capacity) noexcept nogil
cdef void _tree_free(Tree* t) noexcept nogil
cdef int _played_move(const Tree* t, const EngineApi* api, const int* s, const Layout* L) noexcept nogil
cdef Py_ssize_t _table_ints(tables)
cdef void _fill_layout(Layout* L, int* per_card, tables, dict layout, dict settings, int o_hand_size)
