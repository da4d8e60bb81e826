# What a finished search tree gives back: the move a search seat plays, the root's children with their
# figures, and the principal line.
# Included by spbc/ai/search.pyx, textually, after its Tree.

cdef int _played_move(const Tree* t, const EngineApi* api, const int* s, const Layout* L) noexcept nogil:
    """The code of the move a search seat plays: the root's child that _root_children puts first (the most
    visited, then the highest mean reward, then the lowest code); but with light playouts, in the last round
    (``s``: the searched state), a pass gives way to the first such hand card played, if the search tried one
    (a card kept in hand then only costs the hand penalty). Given back by spbc.ai.search.search as its
    ``played``, which spbc.ai.agents.SearchAgent.choose plays."""
    cdef int c = t.child[0], best = -1, play = -1
    cdef double mean, best_mean = 0.0, play_mean = 0.0
    while c >= 0:
        mean = t.reward[c] / t.visits[c] if t.visits[c] else 0.0
        if best < 0 or _before(t, c, mean, best, best_mean):
            best, best_mean = c, mean
        if move_kind(t.move[c]) == KIND_PLAY and (play < 0 or _before(t, c, mean, play, play_mean)):
            play, play_mean = c, mean
        c = t.sibling[c]
    if best < 0:
        return -1
    if (L.rollout == ROLLOUT_LIGHT and play >= 0 and move_kind(t.move[best]) == KIND_PASS
            and api.rounds_left(s) <= 1):
        return t.move[play]
    return t.move[best]


cdef inline bint _before(const Tree* t, int c, double mean, int other, double other_mean) noexcept nogil:
    """Whether child c comes before child ``other`` in _root_children's order."""
    return t.visits[c] > t.visits[other] or (t.visits[c] == t.visits[other] and (
        mean > other_mean or (mean == other_mean and t.move[c] < t.move[other])))


cdef list _root_children(const Tree* t):
    """(code, visits, mean reward, mean win share) of the root's children, most visited first."""
    cdef int c = t.child[0]
    children = []
    while c >= 0:
        children.append((t.move[c], t.visits[c], t.reward[c] / t.visits[c] if t.visits[c] else 0.0,
                         t.win[c] / t.visits[c] if t.visits[c] else 0.0))
        c = t.sibling[c]
    children.sort(key=lambda child: (-child[1], -child[2], child[0]))
    return children


cdef list _line(const Tree* t, int length):
    """The principal line: from the root, up to ``length`` moves, each its node's most visited child
    (visited at least twice), as move codes."""
    cdef int node = 0, c, best
    line = []
    while len(line) < length:
        best = -1
        c = t.child[node]
        while c >= 0:
            if t.visits[c] >= 2 and (best < 0 or t.visits[c] > t.visits[best]):
                best = c
            c = t.sibling[c]
        if best < 0:
            break
        line.append(t.move[best])
        node = best
    return line


#: The most moves of the principal line a search gives back.
LINE = 4
