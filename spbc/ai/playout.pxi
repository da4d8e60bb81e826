# The rollout policy of the search's playouts (spbc.ai.search with ``uniform`` 0) and each seat's reward at
# a playout's end. Included by spbc/ai/search.pyx, textually, after its Layout and _unit.

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
    blended with its score margin m over the best other seat, squashed into -1..1: m / (|m| + scale), smooth and
    never flat, so a decided game still rewards every point (L.squash), or else m / scale clamped (before).
    The reward stays within 0..1 either way."""
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
        margin = score[p] - other
        if L.squash:
            margin = margin / ((margin if margin >= 0 else -margin) + L.margin_scale)
        else:
            margin = margin / L.margin_scale
        if margin > 1:
            margin = 1
        if margin < -1:
            margin = -1
        reward[p] = (1 - L.margin_weight) * win[p] + L.margin_weight * 0.5 * (1 + margin)
