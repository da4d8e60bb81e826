# The search tree's nodes (the Tree of search.pxd): made and freed, added, credited with each iteration's
# rewards, and the exploration constant their figures give UCB at a node. Included by spbc/ai/search.pyx,
# textually, after playout.pxi.


cdef int _add(Tree* t, int parent, int move, int player) noexcept nogil:
    cdef int n = t.size
    if n >= t.capacity:
        return -1
    t.size += 1
    t.move[n] = move
    t.child[n] = -1
    t.sibling[n] = t.child[parent] if parent >= 0 else -1
    t.player[n] = player
    t.visits[n] = 0
    t.avail[n] = 0
    t.reward[n] = 0
    t.win[n] = 0
    t.below[n] = 0
    t.below_square[n] = 0
    if parent >= 0:
        t.child[parent] = n
    return n


cdef inline double _explore(const Tree* t, int node, const Layout* L) noexcept nogil:
    """UCB's exploration constant at node: L.exploration, or with L.deviation > 0 that times the standard
    deviation of the rewards node's children brought their mover (at least L.deviation), so that where every
    move is worth nearly the same (a decided game, where only a few points of margin move the reward) the
    search still tells the moves apart rather than trying them all alike. The rewards are counted by the
    node's visits: every one but the first, which added it, went on to a child (the root's, every one)."""
    cdef double mean, spread
    cdef int count = t.visits[node] - (node != 0)
    if L.deviation <= 0 or count <= 0:
        return L.exploration
    mean = t.below[node] / count
    spread = t.below_square[node] / count - mean * mean
    spread = sqrt(spread) if spread > 0 else 0.0
    return L.exploration * (spread if spread > L.deviation else L.deviation)


cdef inline void _back_up(Tree* t, const int* path, int depth, const double* reward, const double* win) noexcept nogil:
    """Credit every node of the path (and the root's count) with the reward and win share of its mover, and
    its parent with that reward and its square (the rewards its children brought: _explore)."""
    cdef int i, c, parent = 0
    cdef double r
    for i in range(depth):
        c = path[i]
        r = reward[t.player[c]]
        t.visits[c] += 1
        t.reward[c] += r
        t.win[c] += win[t.player[c]]
        t.below[parent] += r
        t.below_square[parent] += r * r
        parent = c
    t.visits[0] += 1


cdef int _tree_make(Tree* t, long capacity) noexcept nogil:
    """Allocate room for ``capacity`` nodes in t, empty (0); -1 when some array could not be had (free
    what was with _tree_free)."""
    t.capacity = <int>capacity
    t.size = 0
    t.move = <int*>malloc(capacity * sizeof(int))
    t.child = <int*>malloc(capacity * sizeof(int))
    t.sibling = <int*>malloc(capacity * sizeof(int))
    t.player = <int*>malloc(capacity * sizeof(int))
    t.visits = <int*>malloc(capacity * sizeof(int))
    t.avail = <int*>malloc(capacity * sizeof(int))
    t.reward = <double*>malloc(capacity * sizeof(double))
    t.win = <double*>malloc(capacity * sizeof(double))
    t.below = <double*>malloc(capacity * sizeof(double))
    t.below_square = <double*>malloc(capacity * sizeof(double))
    if t.move == NULL or t.child == NULL or t.sibling == NULL or t.player == NULL or t.visits == NULL \
            or t.avail == NULL or t.reward == NULL or t.win == NULL or t.below == NULL \
            or t.below_square == NULL:
        return -1
    return 0


cdef void _tree_free(Tree* t) noexcept nogil:
    free(t.move); free(t.child); free(t.sibling); free(t.player)
    free(t.visits); free(t.avail); free(t.reward); free(t.win)
    free(t.below); free(t.below_square)
