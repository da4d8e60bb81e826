# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Information-set Monte Carlo tree search (single observer) on any ruleset's compiled engine, in C.

One tree for the observer's information set: every iteration deals what the observer cannot see anew
from the observation's state (the engine's redeal_unseen, from the search's own generator), walks the
tree by UCB among the children whose moves are legal in that deal (each counts how often it was
available; UCB's constant scaled by the node's deviation of rewards, _explore), adds one node, plays the
game out with a cheap policy and backs every seat's reward up the path, each node crediting the seat that
made its move. Nodes live in C arrays; no Python object is made per node or per move, and the loop runs
without the GIL.

Playouts (ROLLOUTS) are the engine's uniformly random ones; or light ones, random until the last round and
then mostly playing hand cards and buying what scores more than it costs (spbc/ai/playout.pxi); or a policy
weighing every move by per-card tables from the rules (its weights also order the expansion of untried moves).

A budget in seconds is the search's own CPU time, its thread's (CLOCK_THREAD_CPUTIME_ID), not wall time:
on a busy machine a decision gets the computing it was given, only later. The clock is read every
CLOCK_STRIDE iterations (a reading costs about as much as 2% of an iteration); a test may hand the search a
clock of its own (``clock``).
"""

from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy
from posix.time cimport clock_gettime, clockid_t, timespec

cdef extern from "<time.h>" nogil:
    const clockid_t CLOCK_THREAD_CPUTIME_ID

from spbc.contract.engine_api cimport (
    KIND_BUY, KIND_DISCARD, KIND_PASS, KIND_PLAY, KIND_TAKE, EngineApi, engine_api, move_card, move_kind,
    rng_below, rng_next,
)

cdef enum:
    HASH_SIZE = 1024          # slots of the legal-move table at a node: far above MAX_MOVES
    MAX_SEATS = 8
    MAX_PATH = 8192           # above MAX_GAME_MOVES of any ruleset the engine limits allow
    STRIDE = 8                # iterations between two readings of the clock, for a budget in seconds


cdef inline double _unit(uint64_t* x) noexcept nogil:
    """A double in [0, 1) from the engines' generator: its top 53 bits."""
    return (rng_next(x) >> 11) * (1.0 / 9007199254740992.0)


#: The iterations between two readings of the clock (a budget in seconds).
CLOCK_STRIDE = STRIDE


cdef double _thread_cpu(void* context) noexcept nogil:
    """The calling thread's CPU time in seconds: the search's own."""
    cdef timespec t
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


cdef double _called(void* context) noexcept nogil:
    """The seconds that the Python callable ``context`` gives (a clock handed to :func:`search`)."""
    with gil:
        return (<object>context)()


# Layout, Tree and Clock are defined in search.pxd, with the functions the C loop of spbc.ai.fastplay calls.


include "playout.pxi"  # ROLLOUTS, _weight, _light_playout, _policy_playout, _rewards
include "tree.pxi"  # _tree_make, _tree_free, _add, _back_up, _explore: the tree's nodes and their figures


cdef inline int _slot(const int* keys, const int* stamps, int stamp, int code) noexcept nogil:
    cdef unsigned int h = (<unsigned int>code * 2654435761U) >> 22
    while stamps[h] == stamp and keys[h] != code:
        h = (h + 1) & (HASH_SIZE - 1)
    return h


cdef struct Scratch:
    # one search's working memory, made once: the iteration's state, the legal moves (and their weights),
    # the path down the tree, and the table of the legal moves at a node (stamped: no clearing per node)
    int* s
    int* moves
    double* weights
    int* path
    int* keys
    int* stamps
    char* tried      # by legal move: 1 when a child of the node has that move
    int* where       # by slot: the legal move's index
    int stamp


cdef int _scratch_make(const EngineApi* api, Scratch* S) noexcept nogil:
    """Allocate S's buffers (0), or free what was allocated (-1: no memory)."""
    S.s = <int*>malloc(api.state_size * sizeof(int))
    S.moves = <int*>malloc(api.max_moves * sizeof(int))
    S.weights = <double*>malloc(api.max_moves * sizeof(double))
    S.path = <int*>malloc(MAX_PATH * sizeof(int))
    S.keys = <int*>calloc(HASH_SIZE, sizeof(int))
    S.stamps = <int*>calloc(HASH_SIZE, sizeof(int))
    S.tried = <char*>malloc(api.max_moves)
    S.where = <int*>calloc(HASH_SIZE, sizeof(int))
    S.stamp = 0
    if S.s == NULL or S.moves == NULL or S.weights == NULL or S.path == NULL or S.keys == NULL \
            or S.stamps == NULL or S.tried == NULL or S.where == NULL:
        _scratch_free(S)
        return -1
    return 0


cdef void _scratch_free(Scratch* S) noexcept nogil:
    free(S.s); free(S.moves); free(S.weights); free(S.path)
    free(S.keys); free(S.stamps); free(S.tried); free(S.where)


cdef inline int _mark_tried(Tree* t, int node, Scratch* S, int n) noexcept nogil:
    """Enter the n legal moves in S's table, count the availability of node's children whose moves are
    legal in this deal, mark those moves tried; the number of untried legal moves."""
    cdef int i, h, c, untried = 0
    S.stamp += 1
    for i in range(n):
        h = _slot(S.keys, S.stamps, S.stamp, S.moves[i])
        S.keys[h] = S.moves[i]
        S.stamps[h] = S.stamp
        S.where[h] = i
        S.tried[i] = 0
    c = t.child[node]
    while c >= 0:
        h = _slot(S.keys, S.stamps, S.stamp, t.move[c])
        if S.stamps[h] == S.stamp:
            S.tried[S.where[h]] = 1
            t.avail[c] += 1
        c = t.sibling[c]
    for i in range(n):
        untried += S.tried[i] == 0
    return untried


cdef inline int _expand(const EngineApi* api, Tree* t, int node, Scratch* S, int n, int mover, uint64_t* x,
                        const Layout* L) noexcept nogil:
    """Add one untried move under node, drawn as the rollout policy would draw it, and play it; the new node."""
    cdef int rounds = api.rounds_left(S.s), i, c
    cdef double total = 0, pick
    for i in range(n):
        S.weights[i] = (_weight(S.s, S.moves[i], rounds, mover, L) + 0.05) if S.tried[i] == 0 else 0.0
        total += S.weights[i]
    pick = _unit(x) * total
    i = 0
    while i < n - 1 and pick >= S.weights[i]:
        pick -= S.weights[i]
        i += 1
    if S.tried[i]:  # rounding: take the last untried move
        i = n - 1
        while S.tried[i]:
            i -= 1
    c = _add(t, node, S.moves[i], mover)
    t.avail[c] = 1
    api.apply_move(S.s, S.moves[i])
    return c


cdef inline int _ucb_best(const Tree* t, int node, const Scratch* S, const Layout* L) noexcept nogil:
    """The child of node, among those whose moves are legal in this deal, of the highest UCB value
    (an unvisited one first)."""
    cdef int best = -1, c, h
    cdef double best_value = -1e300, value, log_avail, explore = _explore(t, node, L)
    c = t.child[node]
    while c >= 0:
        h = _slot(S.keys, S.stamps, S.stamp, t.move[c])
        if S.stamps[h] == S.stamp:
            if t.visits[c] == 0:
                value = 1e100
            else:
                log_avail = log(<double>t.avail[c])
                value = t.reward[c] / t.visits[c] + explore * sqrt(log_avail / t.visits[c])
            if value > best_value:
                best_value = value
                best = c
        c = t.sibling[c]
    return best


cdef inline int _descend(const EngineApi* api, Tree* t, Scratch* S, uint64_t* x, const Layout* L) noexcept nogil:
    """Walk S's deal down the tree by UCB, playing each move, until a node is added, the tree is full and
    nothing at a node was tried, or the game ends; the path's nodes in S.path, their number returned."""
    cdef int node = 0, depth = 0, n, mover, untried, best
    while S.s[api.o_stage] != api.stage_over and depth < MAX_PATH - 1:
        n = api.legal_moves(S.s, S.moves)
        mover = S.s[api.o_current]
        untried = _mark_tried(t, node, S, n)
        if untried and t.size < t.capacity:
            S.path[depth] = _expand(api, t, node, S, n, mover, x, L)
            return depth + 1
        if untried == n:  # the tree is full and nothing here was tried: play out from here
            break
        best = _ucb_best(t, node, S, L)
        api.apply_move(S.s, t.move[best])
        S.path[depth] = best
        depth += 1
        node = best
    return depth


cdef long _run(const EngineApi* api, const int* root, int observer, long iterations, double seconds,
               uint64_t* x, Tree* t, const Layout* L, long* playouts, Clock now, void* context) noexcept nogil:
    """The search's iterations (``iterations``, or when that is 0 as many as ``seconds`` of the clock ``now``
    allow, at least one, the clock read every CLOCK_STRIDE): deal, descend, play out, back up. The number
    done, or -1 when memory ran out."""
    cdef Scratch S
    cdef double reward[MAX_SEATS]
    cdef double win[MAX_SEATS]
    cdef long done = 0
    cdef int depth
    cdef double began = now(context) if iterations <= 0 else 0.0
    if _scratch_make(api, &S) < 0:
        return -1
    while (iterations > 0 and done < iterations) or (iterations <= 0 and (
            done % STRIDE != 0 or done == 0 or now(context) - began < seconds)):
        memcpy(S.s, root, api.state_size * sizeof(int))
        api.redeal_unseen(S.s, observer, x)
        depth = _descend(api, t, &S, x, L)
        if L.rollout == ROLLOUT_LIGHT:
            _light_playout(api, S.s, x, S.moves, L)
        elif L.rollout == ROLLOUT_POLICY:
            _policy_playout(api, S.s, x, S.moves, S.weights, L)
        else:
            api.playout(S.s, x, api.max_game_moves)
        playouts[0] += 1
        _rewards(api, S.s, L, reward, win)
        _back_up(t, S.path, depth, reward, win)
        done += 1
    _scratch_free(&S)
    return done


cdef Py_ssize_t _table_ints(tables):
    """The ints of the card tables as _fill_layout copies them: five rows of len(tables[0]), then the bonus."""
    return 5 * max(1, len(tables[0])) + len(tables[5])


cdef void _fill_layout(Layout* L, int* per_card, tables, dict layout, dict settings, int o_hand_size):
    """L from the card tables (copied into per_card, _table_ints of them: cost, rubles, points, the phase
    paying each card and its noble flag, len(tables[0]) each, then the bonus of different nobles), the rules'
    layout and the settings (search's arguments)."""
    cdef int ncards = len(tables[0]), i, row
    for row in range(5):
        for i in range(ncards):
            per_card[row * ncards + i] = tables[row][i]
    for i in range(len(tables[5])):
        per_card[5 * ncards + i] = tables[5][i]
    L.cost, L.rubles, L.points = per_card, per_card + ncards, per_card + 2 * ncards
    L.pays_in, L.noble, L.bonus = per_card + 3 * ncards, per_card + 4 * ncards, per_card + 5 * ncards
    L.bonuses = len(tables[5])
    L.o_phase = layout["o_phase"]
    L.o_owned = layout["o_owned"]
    L.o_current = layout["o_current"]
    L.ncards = ncards
    L.o_hand_size = o_hand_size
    L.hand_limit = layout["hand_limit"]
    L.margin_weight = settings["margin_weight"]
    L.margin_scale = settings["margin_scale"]
    L.exploration = settings["exploration"]
    L.squash = settings.get("squash", 0)
    L.rollout = settings["rollout"]
    L.hand_penalty = layout.get("hand_penalty", 0)
    L.rubles_per_point = layout.get("rubles_per_point", 0)
    L.light_last = settings.get("light_last", 0.9)
    L.deviation = settings.get("deviation", 0.0)


include "reading.pxi"  # _root_children, _line, LINE: what a finished tree gives back


def search(object capsule, state, int observer, long iterations, double seconds, uint64_t seed,
           tables, dict layout, dict settings, object clock=None):
    """Search from ``state`` (an observation's state, engine layout) for ``observer``, the seat to move:
    ``iterations`` iterations, or when that is 0 as many as ``seconds`` of the search's own CPU time allow
    (``clock``, a callable giving seconds, in its place: a test's). ``tables`` are the
    per-card (cost, rubles, points) of spbc.ai.tables; ``layout`` what the policy reads of the rules
    (``hand_limit``, ``hand_penalty``, ``rubles_per_point``; the state's offsets and the rounds left are the
    engine's, through its EngineApi); ``settings`` margin_weight, margin_scale, exploration, squash, rollout (a
    code of ROLLOUTS) and light_last (the light policy's chance of a scoring move in the last round).

    Returns (moves, iterations, playouts, nodes, seconds, line, played): moves is a list of (code, visits,
    mean reward, mean win share) of the root's children, most visited first; seconds the search's, by that
    clock; line the principal line (up to LINE codes: the most visited move at each node from the root);
    played the move a search seat plays (_played_move, as the C loop's search seats play it).
    """
    cdef Clock now = _thread_cpu if clock is None else _called
    cdef void* context = <void*>clock
    cdef const EngineApi* api = engine_api(capsule)
    if len(state) != api.state_size:
        raise ValueError(f"a state of {len(state)} values, not {api.state_size}")
    cdef int* root = <int*>malloc(api.state_size * sizeof(int))
    cdef int* per_card = <int*>malloc(_table_ints(tables) * sizeof(int))
    cdef Tree t
    cdef Layout L
    cdef long capacity = iterations + 2 if iterations > 0 else <long>(max(seconds, 0.01) * 400000) + 2
    if capacity > 4000000:
        capacity = 4000000
    cdef int made = _tree_make(&t, capacity)
    cdef uint64_t x = seed
    cdef long done = 0, playouts = 0
    cdef int i
    try:
        if root == NULL or per_card == NULL or made < 0:
            raise MemoryError()
        for i in range(api.state_size):
            root[i] = state[i]
        _fill_layout(&L, per_card, tables, layout, settings, api.o_hand_size)
        _add(&t, -1, 0, observer)
        began = now(context)
        with nogil:
            done = _run(api, root, observer, iterations, seconds, &x, &t, &L, &playouts, now, context)
        elapsed = now(context) - began
        if done < 0:
            raise MemoryError()
        return _root_children(&t), done, playouts, t.size, elapsed, _line(&t, LINE), _played_move(&t, api, root, &L)
    finally:
        free(root); free(per_card)
        _tree_free(&t)


def light_moves(object capsule, state, uint64_t seed, int count, tables, dict layout, dict settings):
    """``count`` draws of the light rollout policy's move at ``state`` from a generator seeded ``seed`` (a test's)."""
    cdef const EngineApi* api = engine_api(capsule)
    cdef int* s = <int*>malloc(api.state_size * sizeof(int))
    cdef int* moves = <int*>malloc(api.max_moves * sizeof(int))
    cdef int* per_card = <int*>malloc(_table_ints(tables) * sizeof(int))
    cdef Layout L
    cdef uint64_t x = seed
    cdef int i, n
    try:
        for i in range(api.state_size):
            s[i] = state[i]
        _fill_layout(&L, per_card, tables, layout, settings, api.o_hand_size)
        n = api.legal_moves(s, moves)
        return [_light_move(api, s, &x, moves, n, &L) for i in range(count)]
    finally:
        free(s); free(moves); free(per_card)
