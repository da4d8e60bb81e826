# What a finished search tree gives back: the move a search seat plays, the root's children with their
# figures, and the principal line.
# Included by spbc/ai/search.pyx, textually, after its Tree.

cdef int _best_move(const Tree* t) noexcept nogil:
    """The code of the root's child that _root_children puts first: the most visited, then the highest mean
    reward, then the lowest code (the move a search agent plays)."""
    cdef int c = t.child[0], best = -1
    cdef double mean, best_mean = 0.0
    while c >= 0:
        mean = t.reward[c] / t.visits[c] if t.visits[c] else 0.0
        if best < 0 or t.visits[c] > t.visits[best] or (t.visits[c] == t.visits[best] and (
                mean > best_mean or (mean == best_mean and t.move[c] < t.move[best]))):
            best, best_mean = c, mean
        c = t.sibling[c]
    return t.move[best] if best >= 0 else -1


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
