# The rollout policies of the search's playouts (ROLLOUTS) and each seat's reward at a playout's end.
# Included by spbc/ai/search.pyx, textually, after its _unit.

cdef enum:
    ROLLOUT_RANDOM = 0  # the engine's uniformly random playouts
    ROLLOUT_POLICY = 1  # the weighted policy of _weight, every move
    ROLLOUT_LIGHT = 2   # uniformly random, but in the last round it plays and buys what scores (_light_playout)

#: The rollout policies by name (spbc.ai.agents.Settings.rollout), as the settings' ``rollout`` codes.
ROLLOUTS = {"random": ROLLOUT_RANDOM, "policy": ROLLOUT_POLICY, "light": ROLLOUT_LIGHT}


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


cdef inline int _scores(const int* s, int code, const Layout* L) noexcept nogil:
    """Whether a move gains final points in the last round, by the rules' numbers, counted in rubles: a card
    played from the hand (the hand penalty saved) or bought, with its points and rubles if its phase has still
    to score this round and what it adds to the bonus of different nobles, less its cost, when what it brings
    outweighs what it costs."""
    cdef int kind = move_kind(code), card = move_card(code), worth, per_point = L.rubles_per_point
    cdef int points = 0, rubles = 0
    if kind != KIND_PLAY and kind != KIND_BUY:
        return 0
    if card >= L.ncards:
        return kind == KIND_PLAY
    if L.pays_in[card] >= s[L.o_phase]:  # in the last round a card pays only if its phase has yet to score
        points, rubles = L.points[card], L.rubles[card]
    if per_point <= 0:  # rubles count for nothing at the end: what scores is points
        return points > 0 or (kind == KIND_PLAY and L.hand_penalty > 0) or _noble_gain(s, card, L) > 0
    worth = points * per_point + rubles - L.cost[card]
    if kind == KIND_PLAY:
        worth += L.hand_penalty * per_point
    return worth > 0 or worth + _noble_gain(s, card, L) * per_point > 0


cdef inline int _noble_gain(const int* s, int card, const Layout* L) noexcept nogil:
    """The points card adds to the mover's final bonus of different nobles: 0 unless it is a noble the mover
    has none of yet."""
    cdef const int* owned = s + L.o_owned + s[L.o_current] * L.ncards
    cdef int c, different = 0
    if not L.noble[card] or owned[card] > 0 or L.bonuses == 0:
        return 0
    for c in range(L.ncards):
        different += L.noble[c] * (owned[c] > 0)
    if different + 1 >= L.bonuses:
        return 0
    return L.bonus[different + 1] - L.bonus[different]


cdef inline int _last_round_move(const int* s, uint64_t* x, const int* moves, int n, int drawn,
                                 const Layout* L) noexcept nogil:
    """In the last round, instead of the drawn move (which scores nothing): with the chance L.light_last a
    uniformly drawn one of the moves that score (_scores); else, or when none does, the drawn one, unless it
    takes a card into the hand, which only costs the hand penalty: then one of the moves that do not."""
    cdef int i, scoring = 0, keeping = 0, pick = drawn, other = drawn
    cdef int want = _unit(x) < L.light_last
    for i in range(n):
        if want and _scores(s, moves[i], L):
            scoring += 1
            if rng_below(x, scoring) == 0:
                pick = moves[i]
        elif move_kind(moves[i]) != KIND_TAKE:
            keeping += 1
            if rng_below(x, keeping) == 0:
                other = moves[i]
    if scoring:
        return pick
    return other if move_kind(drawn) == KIND_TAKE else drawn


cdef inline int _light_move(const EngineApi* api, const int* s, uint64_t* x, const int* moves, int n,
                            const Layout* L) noexcept nogil:
    """The light policy's move among the n legal ones at s."""
    cdef int m = moves[0]
    if n > 1:
        m = moves[rng_below(x, n)]
        if api.rounds_left(s) <= 1 and not _scores(s, m, L):
            m = _last_round_move(s, x, moves, n, m, L)
    return m


cdef void _light_playout(const EngineApi* api, int* s, uint64_t* x, int* moves, const Layout* L) noexcept nogil:
    """The light rollout policy: a uniformly random legal move, as the engine's playouts draw it, except in the
    last round (the game's end triggered, or the decks about to run out: the engine's rounds_left is 1), where
    a move that scores nothing gives way to one that does (_last_round_move): hand cards get played and rubles
    spent on points rather than kept. The rounds are asked first: what a move scores matters only in the last."""
    cdef int steps = 0
    while s[api.o_stage] != api.stage_over and steps < api.max_game_moves:
        api.apply_move(s, _light_move(api, s, x, moves, api.legal_moves(s, moves), L))
        steps += 1


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
