# The C loop's search seats (medium, hard at a fixed number of iterations): each decision the search of
# spbc.ai.search, through its C entry points (search.pxd), as spbc.ai.agents.SearchAgent makes it. Included by
# spbc/ai/fastplay.pyx, after its Lab.

from spbc.ai.search cimport _add, _fill_layout, _played_move, _run, _table_ints, _thread_cpu, _tree_make


cdef inline int _search_move(Lab* b, int p) noexcept nogil:
    """Search seat p's move on its observation (b.observed), as spbc.ai.agents.SearchAgent.decide makes it:
    its budget's iterations from the next draw of its generator, the tree emptied first; b.failed when the
    search ran out of memory."""
    cdef uint64_t x = rng_next(&b.x[p])
    cdef long playouts = 0
    b.tree.size = 0
    _add(&b.tree, -1, 0, p)
    if _run(b.api, b.observed, p, b.seat_budget[p], 0.0, &x, &b.tree, &b.L, &playouts, _thread_cpu, NULL) < 0:
        b.failed = 1
        return b.moves[0]
    return _played_move(&b.tree, b.api, b.observed, &b.L)


cdef int _search_start(Lab* b, object search) except -1:
    """The search seats' layout (from ``search``: tables, layout, settings) and their one tree, room for the
    largest budget (a search of n iterations adds at most n nodes to its root), at most spbc.ai.search.search's
    4,000,000 nodes; MemoryError, b freed, else."""
    tables, layout, settings = search
    cdef int p
    cdef long most = 0
    for p in range(b.players):
        most = b.budgets[p] if b.budgets[p] > most else most
    most = most if most < 4000000 - 2 else 4000000 - 2
    b.per_card = <int*>malloc(_table_ints(tables) * sizeof(int))
    if b.per_card == NULL or _tree_make(&b.tree, most + 2) < 0:
        _lab_free(b)
        raise MemoryError()
    _fill_layout(&b.L, b.per_card, tables, layout, settings, b.api.o_hand_size)
    return 0
