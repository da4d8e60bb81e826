# The buffers of one lab_games or sim_games call (spbc.ai.fastplay.Lab): made once a call, each counter
# zeroed, and freed at its end (also when one could not be made). Included by fastplay.pyx.


cdef int _lab_make(Lab* b, int count) noexcept nogil:
    """Allocate b's buffers, the counters zeroed (0), or free what was allocated (-1: no memory)."""
    cdef const EngineApi* api = b.api
    cdef int ncards = b.ncards, players = b.players
    b.s = <int*>malloc(api.state_size * sizeof(int))
    b.observed = <int*>malloc(api.state_size * sizeof(int))
    b.moves = <int*>malloc(api.max_moves * sizeof(int))
    b.rows = <int*>malloc(<Py_ssize_t>(count if count > 1 else 1) * b.width * sizeof(int))
    b.times = <double*>malloc(<Py_ssize_t>(count if count > 1 else 1) * 2 * players * sizeof(double))
    b.events = <long long*>calloc(4 * ncards * players, sizeof(long long))
    b.squares = <long long*>calloc(4 * ncards, sizeof(long long))
    b.owners = <long long*>calloc(ncards * players, sizeof(long long))
    b.owner_wins = <long long*>calloc(ncards * players, sizeof(long long))
    b.game_events = <int*>malloc(4 * ncards * sizeof(int))
    b.owned = <char*>malloc(ncards * players)
    b.wealth = <long long*>calloc((ncards * WEALTH_STATS + 4) * WEALTH_ROUNDS * WEALTH_BINS, sizeof(long long))
    b.cells = <int*>malloc(MAX_TURNS * players * sizeof(int))
    b.got = <int*>malloc(ncards * players * sizeof(int))
    if (b.s == NULL or b.observed == NULL or b.moves == NULL or b.rows == NULL or b.times == NULL or b.events == NULL
            or b.squares == NULL or b.owners == NULL or b.owner_wins == NULL or b.game_events == NULL
            or b.owned == NULL or b.wealth == NULL or b.cells == NULL or b.got == NULL):
        _lab_free(b)
        return -1
    return 0


cdef void _lab_free(Lab* b) noexcept nogil:
    free(b.s); free(b.observed); free(b.moves); free(b.rows); free(b.times)
    free(b.events); free(b.squares); free(b.owners); free(b.owner_wins); free(b.game_events); free(b.owned)
    free(b.wealth); free(b.cells); free(b.got)
    free(b.per_card)
    _tree_free(&b.tree)
    b.per_card = NULL
    memset(&b.tree, 0, sizeof(Tree))
