# The engine contract in C, the same for every ruleset's compiled engine: how a move is coded, the
# random generator, and the engine's C functions as a table of pointers.
#
# Every .pyx of spbc cimports what it needs from here: the generated engines (through their engine.pxd),
# the search's loops (spbc/ai/playouts.pyx, spbc/ai/search.pyx) and the balance lab's (spbc/ai/fastplay.pyx),
# so a move is decoded and a random number drawn by one definition in C. The numbers are those of
# spbc.contract.abi and spbc.contract.rng (the Python side, which the twin prints); tests/test_engine_pxd.py
# holds this file to them.
#
# Each compiled engine fills one EngineApi and hands it out as a capsule (Engine module's c_api()),
# so Cython code compiled once with spbc runs any ruleset's engine without the GIL and without a Python
# object per move, and without being compiled against that ruleset's engine.pxd. The signatures are
# those of spbc.contract.capi.

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdint cimport uint64_t

# --- move codes (spbc.contract.abi) -------------------------------------------------------------------
# kind in bits 0-3, card in bits 4-11, row / deck / amount in bits 12-17, displaced card + 1 in bits 18-25.
cdef enum:
    KIND_PASS = 0
    KIND_BUY = 1
    KIND_TAKE = 2
    KIND_PLAY = 3
    KIND_USE = 4
    KIND_DISCARD = 5
    KIND_POINTS = 6
    KIND_MASK = 15
    CARD_SHIFT = 4
    CARD_MASK = 255
    MIDDLE_SHIFT = 12
    MIDDLE_MASK = 63
    TARGET_SHIFT = 18
    ROW_UPPER = 0
    ROW_LOWER = 1
    ROW_DRAWN = 2
    ROW_HAND = 3


cdef inline int move_kind(int code) noexcept nogil:
    """The kind of a move (KIND_*)."""
    return code & KIND_MASK


cdef inline int move_card(int code) noexcept nogil:
    """The card a move names."""
    return (code >> CARD_SHIFT) & CARD_MASK


cdef inline int move_middle(int code) noexcept nogil:
    """The row, deck or amount of a move (ROW_* for a buy, take, play or discard)."""
    return (code >> MIDDLE_SHIFT) & MIDDLE_MASK


cdef inline int move_target(int code) noexcept nogil:
    """The card a move displaces, + 1 (0: none)."""
    return (code >> TARGET_SHIFT) & CARD_MASK


# --- the random generator (spbc.contract.rng) ---------------------------------------------------------

cdef inline uint64_t rng_next(uint64_t* x) noexcept nogil:
    """SplitMix64 (Steele, Lea and Flood 2014): the state x advances by 0x9E3779B97F4A7C15 and is
    mixed into the output; rng_below(x, n) maps the top 32 bits onto 0..n-1 by multiplication.
    The same numbers come out of the compiled engine and its twin on every machine."""
    cdef uint64_t z
    x[0] += 0x9E3779B97F4A7C15ULL
    z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int rng_below(uint64_t* x, int n) noexcept nogil:
    return <int>(((rng_next(x) >> 32) * <uint64_t>n) >> 32)


# --- the engine's C functions -------------------------------------------------------------------------

ctypedef struct EngineApi:
    int state_size        # ints in a state
    int max_moves         # room a move list needs
    int max_game_moves    # more moves than any game lasts
    int max_players
    int o_players         # offsets of the state the caller reads
    int o_current
    int o_stage
    int stage_over
    int o_round
    int o_rubles
    int o_hand_size
    int ncards
    void (*setup)(int* s, int players, uint64_t seed) noexcept nogil
    int (*legal_moves)(const int* s, int* out) noexcept nogil
    void (*apply_move)(int* s, int move) noexcept nogil
    int (*playout)(int* s, uint64_t* x, int limit) noexcept nogil
    void (*redeal_unseen)(int* s, int observer, uint64_t* x) noexcept nogil
    int (*final_score)(const int* s, int p) noexcept nogil
    int (*tie_break)(const int* s, int p) noexcept nogil
    void (*score_phase)(int* s, int phase) noexcept nogil   # what Engine.forecast plays on a copy
    # the computer players' kernels, printed with the engine (spbc/engine/templates/kernels.j2)
    void (*canonical_unseen)(int* s, int observer, const int* rubles) noexcept nogil
    int (*rounds_left)(const int* s) noexcept nogil
    double (*position_value)(const int* s, int seat, int left) noexcept nogil
    int (*easy_choice)(const int* s, const int* legal, int n, int seat, uint64_t* x, double noise) noexcept nogil


cdef inline const EngineApi* engine_api(object capsule) except NULL:
    """The EngineApi of a compiled engine's capsule (its module's c_api()); TypeError for anything else."""
    if not PyCapsule_IsValid(capsule, b"spbc.EngineApi"):
        raise TypeError("not the C functions of a compiled engine (its c_api()); the twin has none")
    return <const EngineApi*>PyCapsule_GetPointer(capsule, b"spbc.EngineApi")
