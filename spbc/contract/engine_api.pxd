# The engine's C functions as a table of pointers, the same for every ruleset's compiled engine.
#
# Each compiled engine fills one EngineApi and hands it out as a capsule (Engine module's c_api()),
# so Cython code compiled once with spbc (spbc/ai/playouts.pyx, the search) runs any ruleset's
# engine without the GIL and without a Python object per move, and without being compiled
# against that ruleset's engine.pxd. The signatures are those of spbc.contract.capi.

from libc.stdint cimport uint64_t

ctypedef struct EngineApi:
    int state_size        # ints in a state
    int max_moves         # room a move list needs
    int max_game_moves    # more moves than any game lasts
    int max_players
    int o_players         # offsets of the state the caller reads
    int o_current
    int o_stage
    int stage_over
    void (*setup)(int* s, int players, uint64_t seed) noexcept nogil
    int (*legal_moves)(const int* s, int* out) noexcept nogil
    void (*apply_move)(int* s, int move) noexcept nogil
    int (*playout)(int* s, uint64_t* x, int limit) noexcept nogil
    void (*redeal_unseen)(int* s, int observer, uint64_t* x) noexcept nogil
    int (*final_score)(const int* s, int p) noexcept nogil
    int (*tie_break)(const int* s, int p) noexcept nogil
    void (*score_phase)(int* s, int phase) noexcept nogil   # what Engine.forecast plays on a copy
