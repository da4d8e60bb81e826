# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Information-set Monte Carlo tree search (single observer) on any ruleset's compiled engine, in C.

One tree for the observer's information set: every iteration deals what the observer cannot see anew
from the observation's state (the engine's redeal_unseen, from the search's own generator), walks the
tree by UCB among the children whose moves are legal in that deal (each counts how often it was
available), adds one node, plays the game out with a cheap policy and backs every seat's reward up the
path, each node crediting the seat that made its move. Nodes live in C arrays; no Python object is made
per node or per move, and the loop runs without the GIL.

Playouts are the engine's uniformly random ones, or (``uniform`` 0) a rollout policy that weighs moves
with per-card tables from the rules (cost, rubles and points paid when the card's phase scores): it buys
income while rounds remain, rarely passes when it can buy, and never takes a card into its hand when the
hand could not be emptied (in the last round, or at the limit). The policy measured weaker at equal
iterations (spbc.ai.agents.Settings), so it is off by default; its weights still order the expansion of
untried moves.
"""

import time

from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from spbc.contract.engine_api cimport (
    KIND_BUY, KIND_DISCARD, KIND_PASS, KIND_PLAY, KIND_TAKE, EngineApi, engine_api, move_card, move_kind,
    rng_below, rng_next,
)

cdef enum:
    HASH_SIZE = 1024          # slots of the legal-move table at a node: far above MAX_MOVES
    MAX_SEATS = 8
    MAX_PATH = 8192           # above MAX_GAME_MOVES of any ruleset the engine limits allow


cdef inline double _unit(uint64_t* x) noexcept nogil:
    """A double in [0, 1) from the engines' generator: its top 53 bits."""
    return (rng_next(x) >> 11) * (1.0 / 9007199254740992.0)


cdef inline double _now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


cdef struct Layout:
    # what the policy knows of the rules and the cards (the state's offsets are the engine's: EngineApi)
    int hand_limit
    int o_hand_size
    int ncards
    const int* cost
    const int* rubles
    const int* points
    double margin_weight    # how much of a reward is the score margin (the rest: the win)
    double margin_scale     # points of margin that count fully
    double exploration      # UCB's constant
    int uniform             # 1: uniformly random playouts (the engine's own)


cdef double _weight(const int* s, int code, int rounds, int player, const Layout* L) noexcept nogil:
    """How much the rollout policy likes a move (0: never)."""
    cdef int kind = move_kind(code)
    cdef int card = move_card(code)
    cdef double value
    if kind == KIND_PASS:
        return 0.3
    if kind == KIND_TAKE:
        if rounds <= 1 or s[L.o_hand_size + player] + 1 >= L.hand_limit:
            return 0.0
        return 0.15
    if kind == KIND_BUY or kind == KIND_PLAY:
        if card >= L.ncards:
            return 1.0
        value = (rounds - 1) * (L.rubles[card] * 0.35 + L.points[card]) + 0.6 * L.points[card]
        if value < 0:
            value = 0
        return 1.0 + value / (2.0 + L.cost[card])
    if kind == KIND_DISCARD:
        return 0.5
    return 1.0


cdef void _policy_playout(const EngineApi* api, int* s, uint64_t* x, int* moves, double* weights,
                          const Layout* L) noexcept nogil:
    cdef int n, i, steps = 0, rounds, player
    cdef double total, pick
    while s[api.o_stage] != api.stage_over and steps < api.max_game_moves:
        n = api.legal_moves(s, moves)
        steps += 1
        if n == 1:
            api.apply_move(s, moves[0])
            continue
        rounds = api.rounds_left(s)
        player = s[api.o_current]
        total = 0
        for i in range(n):
            weights[i] = _weight(s, moves[i], rounds, player, L)
            total += weights[i]
        if total <= 0:
            api.apply_move(s, moves[rng_below(x, n)])
            continue
        pick = _unit(x) * total
        i = 0
        while i < n - 1 and pick >= weights[i]:
            pick -= weights[i]
            i += 1
        api.apply_move(s, moves[i])


cdef void _rewards(const EngineApi* api, const int* s, const Layout* L, double* reward, double* win) noexcept nogil:
    """Each seat's share of the win (ties on points and tie-break shared) and its reward, that share
    blended with its score margin over the best other seat."""
    cdef int players = s[api.o_players], p, q, best = -(1 << 30), best_tie = -(1 << 30), winners = 0
    cdef int score[MAX_SEATS]
    cdef int tie[MAX_SEATS]
    cdef int other
    cdef double margin
    for p in range(players):
        score[p] = api.final_score(s, p)
        tie[p] = api.tie_break(s, p)
        if score[p] > best or (score[p] == best and tie[p] > best_tie):
            best, best_tie = score[p], tie[p]
    for p in range(players):
        if score[p] == best and tie[p] == best_tie:
            winners += 1
    for p in range(players):
        win[p] = 1.0 / winners if score[p] == best and tie[p] == best_tie else 0.0
        other = -(1 << 30)
        for q in range(players):
            if q != p and score[q] > other:
                other = score[q]
        margin = (score[p] - other) / L.margin_scale
        if margin > 1:
            margin = 1
        if margin < -1:
            margin = -1
        reward[p] = (1 - L.margin_weight) * win[p] + L.margin_weight * 0.5 * (1 + margin)


cdef struct Tree:
    int* move
    int* child       # first child, -1: none
    int* sibling     # next sibling, -1: none
    int* player      # the seat that made the node's move
    int* visits
    int* avail
    double* reward   # summed rewards of player
    double* win      # summed win shares of player
    int size
    int capacity


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
    if parent >= 0:
        t.child[parent] = n
    return n


cdef inline int _slot(const int* keys, const int* stamps, int stamp, int code) noexcept nogil:
    cdef unsigned int h = (<unsigned int>code * 2654435761U) >> 22
    while stamps[h] == stamp and keys[h] != code:
        h = (h + 1) & (HASH_SIZE - 1)
    return h


cdef long _run(const EngineApi* api, const int* root, int observer, long iterations, double seconds,
               uint64_t* x, Tree* t, const Layout* L, long* playouts) noexcept nogil:
    cdef int* s = <int*>malloc(api.state_size * sizeof(int))
    cdef int* moves = <int*>malloc(api.max_moves * sizeof(int))
    cdef double* weights = <double*>malloc(api.max_moves * sizeof(double))
    cdef int* path = <int*>malloc(MAX_PATH * sizeof(int))
    cdef int* keys = <int*>calloc(HASH_SIZE, sizeof(int))
    cdef int* stamps = <int*>calloc(HASH_SIZE, sizeof(int))
    cdef char* tried = <char*>malloc(api.max_moves)
    cdef int* where = <int*>calloc(HASH_SIZE, sizeof(int))
    cdef double reward[MAX_SEATS]
    cdef double win[MAX_SEATS]
    cdef long done = 0
    cdef int stamp = 0, node, depth, n, i, c, h, untried, best, mover, expanded, rounds
    cdef double began = _now(), value, best_value, log_avail, total, pick
    if s == NULL or moves == NULL or weights == NULL or path == NULL or keys == NULL or stamps == NULL \
            or tried == NULL or where == NULL:
        free(s); free(moves); free(weights); free(path); free(keys); free(stamps); free(tried); free(where)
        return -1
    while (iterations > 0 and done < iterations) or (iterations <= 0 and (done == 0 or _now() - began < seconds)):
        memcpy(s, root, api.state_size * sizeof(int))
        api.redeal_unseen(s, observer, x)
        node = 0
        depth = 0
        expanded = 0
        while s[api.o_stage] != api.stage_over and depth < MAX_PATH - 1:
            n = api.legal_moves(s, moves)
            mover = s[api.o_current]
            stamp += 1
            for i in range(n):
                h = _slot(keys, stamps, stamp, moves[i])
                keys[h] = moves[i]
                stamps[h] = stamp
                where[h] = i
                tried[i] = 0
            # the children whose moves are legal in this deal: count their availability, pick by UCB
            best = -1
            best_value = -1e300
            c = t.child[node]
            while c >= 0:
                h = _slot(keys, stamps, stamp, t.move[c])
                if stamps[h] == stamp:
                    tried[where[h]] = 1
                    t.avail[c] += 1
                c = t.sibling[c]
            untried = 0
            for i in range(n):
                untried += tried[i] == 0
            if untried and t.size < t.capacity:
                # expand: one untried move, drawn as the rollout policy would draw it
                rounds = api.rounds_left(s)
                total = 0
                for i in range(n):
                    weights[i] = (_weight(s, moves[i], rounds, mover, L) + 0.05) if tried[i] == 0 else 0.0
                    total += weights[i]
                pick = _unit(x) * total
                i = 0
                while i < n - 1 and pick >= weights[i]:
                    pick -= weights[i]
                    i += 1
                if tried[i]:  # rounding: take the last untried move
                    i = n - 1
                    while tried[i]:
                        i -= 1
                c = _add(t, node, moves[i], mover)
                t.avail[c] = 1
                api.apply_move(s, moves[i])
                path[depth] = c
                depth += 1
                expanded = 1
                break
            if untried == n:  # the tree is full and nothing here was tried: play out from here
                break
            c = t.child[node]
            while c >= 0:
                h = _slot(keys, stamps, stamp, t.move[c])
                if stamps[h] == stamp:
                    if t.visits[c] == 0:
                        value = 1e100
                    else:
                        log_avail = log(<double>t.avail[c])
                        value = t.reward[c] / t.visits[c] + L.exploration * sqrt(log_avail / t.visits[c])
                    if value > best_value:
                        best_value = value
                        best = c
                c = t.sibling[c]
            api.apply_move(s, t.move[best])
            path[depth] = best
            depth += 1
            node = best
        if L.uniform:
            api.playout(s, x, api.max_game_moves)
        else:
            _policy_playout(api, s, x, moves, weights, L)
        playouts[0] += 1
        _rewards(api, s, L, reward, win)
        for i in range(depth):
            c = path[i]
            t.visits[c] += 1
            t.reward[c] += reward[t.player[c]]
            t.win[c] += win[t.player[c]]
        t.visits[0] += 1
        done += 1
    free(s); free(moves); free(weights); free(path); free(keys); free(stamps); free(tried); free(where)
    return done


def search(object capsule, state, int observer, long iterations, double seconds, uint64_t seed,
           tables, dict layout, dict settings):
    """Search from ``state`` (an observation's state, engine layout) for ``observer``, the seat to move:
    ``iterations`` iterations, or when that is 0 as many as ``seconds`` allow. ``tables`` are the
    per-card (cost, rubles, points) of spbc.ai.tables; ``layout`` what the policy reads of the rules
    (``hand_limit``; the state's offsets and the rounds left are the engine's, through its EngineApi);
    ``settings`` margin_weight, margin_scale, exploration, uniform.

    Returns (moves, iterations, playouts, nodes, seconds): moves is a list of (code, visits, mean reward,
    mean win share) of the root's children, most visited first.
    """
    cdef const EngineApi* api = engine_api(capsule)
    if len(state) != api.state_size:
        raise ValueError(f"a state of {len(state)} values, not {api.state_size}")
    cdef int ncards = len(tables[0])
    cdef int* root = <int*>malloc(api.state_size * sizeof(int))
    cdef int* per_card = <int*>malloc(3 * max(1, ncards) * sizeof(int))
    cdef Tree t
    cdef Layout L
    cdef long capacity = iterations + 2 if iterations > 0 else <long>(max(seconds, 0.01) * 400000) + 2
    if capacity > 4000000:
        capacity = 4000000
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
    cdef uint64_t x = seed
    cdef long done = 0, playouts = 0
    cdef int i, c
    try:
        if root == NULL or per_card == NULL or t.move == NULL or t.child == NULL or t.sibling == NULL \
                or t.player == NULL or t.visits == NULL or t.avail == NULL or t.reward == NULL or t.win == NULL:
            raise MemoryError()
        for i in range(api.state_size):
            root[i] = state[i]
        for i in range(ncards):
            per_card[i] = tables[0][i]
            per_card[ncards + i] = tables[1][i]
            per_card[2 * ncards + i] = tables[2][i]
        L.cost, L.rubles, L.points = per_card, per_card + ncards, per_card + 2 * ncards
        L.ncards = ncards
        L.o_hand_size = api.o_hand_size
        L.hand_limit = layout["hand_limit"]
        L.margin_weight = settings["margin_weight"]
        L.margin_scale = settings["margin_scale"]
        L.exploration = settings["exploration"]
        L.uniform = settings["uniform"]
        _add(&t, -1, 0, observer)
        began = time.perf_counter()
        with nogil:
            done = _run(api, root, observer, iterations, seconds, &x, &t, &L, &playouts)
        elapsed = time.perf_counter() - began
        if done < 0:
            raise MemoryError()
        children = []
        c = t.child[0]
        while c >= 0:
            children.append((t.move[c], t.visits[c], t.reward[c] / t.visits[c] if t.visits[c] else 0.0,
                             t.win[c] / t.visits[c] if t.visits[c] else 0.0))
            c = t.sibling[c]
        children.sort(key=lambda child: (-child[1], -child[2], child[0]))
        return children, done, playouts, t.size, elapsed
    finally:
        free(root); free(per_card)
        free(t.move); free(t.child); free(t.sibling); free(t.player)
        free(t.visits); free(t.avail); free(t.reward); free(t.win)
