# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Whole games of ``random`` and ``easy`` seats on any ruleset's compiled engine, in C, with the lab's counters
kept as they go.

The engine comes as the capsule of its C functions (``ruleset.engine.c_api()``, spbc/contract/engine_api.pxd).
Each game is the game that :func:`spbc.ai.sim.play_game` plays between the same seats from the same seed,
move for move: dealt from the seed, each seat drawing from its own generator, seeded
``seed * 1_000_003 + seat``, only when it has more than one legal move (as spbc.ai.agents does).

- A ``random`` seat plays a uniformly random legal move (spbc.ai.agents.RandomAgent).
- An ``easy`` seat decides as spbc.ai.agents.EasyAgent does, figure for figure, and from what that agent is
  given only: the seat's observation (spbc.play.observe), built here as there. :func:`_observe` writes the
  state with everything the seat cannot see made canonical (the unseen cards of each deck pooled and sorted
  over their places, the others' rubles as the public ledger says when the rules keep rubles secret), and
  :func:`_easy_choose` reads that canonical state and the legal moves, never the real state.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from spbc.contract.engine_api cimport (
    CARD_MASK, KIND_BUY, KIND_PLAY, KIND_TAKE, EngineApi, move_card, move_kind, move_target, rng_below,
)

#: The counters kept per card, in this order: bought, taken into a hand, played from a hand, displaced.
EVENTS = ("bought", "taken", "played", "displaced")
#: The agents' seeds: seat s of the game of seed g draws from g * AGENT_STRIDE + s (spbc.ai.sim.play_game).
AGENT_STRIDE = 1_000_003
#: The seat levels the C loop plays, by their codes in ``lab_games``' ``levels``.
LEVELS = ("random", "easy")

cdef enum:
    MAX_SEATS = 8
    MAX_PHASES = 32
    MAX_DECKS = 32
    MAX_CARDS = 1024   # the card count in a move code (CARD_MASK) is below


cdef const EngineApi* _api(object capsule) except NULL:
    if not PyCapsule_IsValid(capsule, b"spbc.EngineApi"):
        raise TypeError("not the C functions of a compiled engine (its c_api()); the twin has none")
    return <const EngineApi*>PyCapsule_GetPointer(capsule, b"spbc.EngineApi")


cdef struct Easy:
    # what an easy seat and its observation read of the rules (spbc.lab.run.easy_layout gives it)
    int o_phase
    int o_last_round
    int o_deck_size
    int o_decks
    int deck_max
    int o_hand
    int hand_max
    int o_hand_size
    int o_rubles
    int o_points
    int ndecks
    int refilled_mask       # the decks a phase refills from (spbc.ai.tables.rounds_left)
    int nphases             # the rules model's phases, in its order
    int scores[MAX_PHASES]  # 1: that phase scores
    int engine_phase[MAX_PHASES]  # its index in the engine (what score_phase takes)
    int open_rubles
    int rubles_per_point
    double noise            # spbc.ai.agents.EASY_NOISE
    int ncards
    int card_deck[MAX_CARDS]
    int o_disc              # the disc's field, -1 without a disc (spbc.ai.agents.disc_to_come)
    int disc_points
    int marker_shifts[MAX_SEATS + 1]  # by the number of players


cdef int _easy_from(dict layout, int ncards, int state_size, Easy* E) except -1:
    cdef int i
    E.o_phase, E.o_last_round = layout["phase"], layout["last_round"]
    E.o_deck_size, E.o_decks, E.deck_max = layout["deck_size"], layout["decks"], layout["deck_max"]
    E.o_hand, E.hand_max, E.o_hand_size = layout["hand"], layout["hand_max"], layout["hand_size"]
    E.o_rubles, E.o_points = layout["rubles"], layout["points"]
    E.ndecks, E.refilled_mask = layout["ndecks"], layout["refilled_mask"]
    scores, phases, decks = layout["scores"], layout["engine_phase"], layout["card_deck"]
    E.nphases = len(scores)
    E.open_rubles, E.rubles_per_point, E.noise = layout["open_rubles"], layout["rubles_per_point"], layout["noise"]
    E.ncards = ncards
    if (E.nphases > MAX_PHASES or len(phases) != E.nphases or len(decks) != ncards or ncards > MAX_CARDS
            or E.ndecks > MAX_DECKS or E.rubles_per_point <= 0):
        raise ValueError("the layout for easy seats does not fit this engine (spbc.lab.run.easy_layout)")
    for i in range(E.nphases):
        E.scores[i], E.engine_phase[i] = scores[i], phases[i]
    for i in range(ncards):
        E.card_deck[i] = decks[i]
    shifts = layout["marker_shifts"]
    E.o_disc, E.disc_points = layout["disc"], layout["disc_points"]
    if len(shifts) > MAX_SEATS + 1 or E.o_disc >= state_size:
        raise ValueError("the layout for easy seats does not fit this engine (spbc.lab.run.easy_layout)")
    for i in range(MAX_SEATS + 1):
        E.marker_shifts[i] = shifts[i] if i < len(shifts) else 0
    for i in (E.o_phase, E.o_last_round, E.o_deck_size, E.o_deck_size + E.ndecks - 1, E.o_decks,
              E.o_decks + E.ndecks * E.deck_max - 1, E.o_hand, E.o_hand_size, E.o_rubles, E.o_points):
        if i < 0 or i >= state_size:
            raise ValueError("the layout for easy seats does not fit this engine (spbc.lab.run.easy_layout)")
    return 0


cdef void _observe(const EngineApi* api, const int* real, int seat, const int* ledger, int* out,
                   const Easy* E, int* places, int* cards) noexcept nogil:
    """out: the state seat observes (spbc.play.observe.canonical_state): per deck, the places of its unseen
    cards (the deck's, then the other hands' cards of that deck, in seat order) get those cards in card order;
    the others' rubles are the public ledger's when the rules keep rubles secret."""
    cdef int players = real[api.o_players], d, other, i, j, k, n, card
    memcpy(out, real, api.state_size * sizeof(int))
    for d in range(E.ndecks):
        n = 0
        for i in range(real[E.o_deck_size + d]):
            places[n] = E.o_decks + d * E.deck_max + i
            n += 1
        for other in range(players):
            if other == seat:
                continue
            for i in range(real[E.o_hand_size + other]):
                k = E.o_hand + other * E.hand_max + i
                if E.card_deck[real[k]] == d:
                    places[n] = k
                    n += 1
        for i in range(n):  # insertion sort: a deck holds a few dozen cards
            card = real[places[i]]
            j = i
            while j > 0 and cards[j - 1] > card:
                cards[j] = cards[j - 1]
                j -= 1
            cards[j] = card
        for i in range(n):
            out[places[i]] = cards[i]
    if not E.open_rubles:
        for other in range(players):
            if other != seat:
                out[E.o_rubles + other] = ledger[other]


cdef inline int _rounds_left(const EngineApi* api, const int* s, const Easy* E) noexcept nogil:
    # spbc.ai.tables.rounds_left
    if s[E.o_last_round]:
        return 1
    cdef int players = s[api.o_players], d, least = 1 << 30, n
    for d in range(E.ndecks):
        if E.refilled_mask & (1 << d):
            n = (s[E.o_deck_size + d] + players) // (players + 1)
            if n < least:
                least = n
    return 1 + least


cdef double _position_value(const EngineApi* api, const int* s, int seat, int left, const Easy* E,
                            int* scratch) noexcept nogil:
    # spbc.ai.agents.position_value, operation for operation (the same doubles)
    cdef double worth = 1.0 / E.rubles_per_point + 0.05 * left
    cdef double value = <double>api.final_score(s, seat)
    cdef int current = s[E.o_phase], over = s[api.o_stage] == api.stage_over, index, times, rubles, points
    if worth > 0.4:
        worth = 0.4
    for index in range(E.nphases):
        if not E.scores[index]:
            continue
        times = left - 1 + (index >= current and not over)
        if times > 0:
            memcpy(scratch, s, api.state_size * sizeof(int))
            api.score_phase(scratch, E.engine_phase[index])
            rubles = scratch[E.o_rubles + seat] - s[E.o_rubles + seat]
            points = scratch[E.o_points + seat] - s[E.o_points + seat]
            value += times * (points + rubles * worth)
    return value + _disc_to_come(api, s, seat, left, E)


cdef inline int _disc_to_come(const EngineApi* api, const int* s, int seat, int left, const Easy* E) noexcept nogil:
    # spbc.ai.agents.disc_to_come
    cdef int players = s[api.o_players], holder, k, points = 0
    if E.o_disc < 0 or s[E.o_disc] < 0:
        return 0
    holder = s[E.o_disc]
    for k in range(left - 1):
        holder = (holder + E.marker_shifts[players]) % players
        if holder == seat:
            points += E.disc_points
    return points


cdef int _easy_choose(const EngineApi* api, const int* observed, const int* legal, int n, int seat,
                      uint64_t* x, const Easy* E, int* after, int* scratch) noexcept nogil:
    """spbc.ai.agents.EasyAgent.choose on the observed (canonical) state and the seat's legal moves."""
    cdef int best = legal[0], j
    cdef double best_value = -1e308 * 10, value  # -inf
    if n == 1:
        return legal[0]
    for j in range(n):
        memcpy(after, observed, api.state_size * sizeof(int))
        api.apply_move(after, legal[j])
        value = _position_value(api, after, seat, _rounds_left(api, after, E), E, scratch)
        value += E.noise * rng_below(x, 1 << 16) / (1 << 16)
        if value > best_value:
            best, best_value = legal[j], value
    return best


def lab_games(object capsule, list levels, long long first_game, long long first_seed, int count, int ncards,
              int o_round, dict easy=None):
    """Play ``count`` games, game numbers first_game, first_game + 1, ... from the seeds first_seed,
    first_seed + 1, ...; ``levels`` are the run's seats as codes of LEVELS, rotated by the game number
    (position p of game i holds ``levels[(p + i) % len(levels)]``, spbc.lab.run.Plan.levels); ``easy`` is the
    layout easy seats read (spbc.lab.run.easy_layout), needed when a seat is easy.

    Returns ``(games, events, squares, owners, owner_wins)``:

    - games: per game ``[moves, rounds, final score by seat..., tie-break value by seat..., the winner's margin
      (final points less the runner-up's), the winning positions (bit p: position p won; ties: each winner),
      the winning seats of ``levels`` (bit j: the seat levels[j] stood for won)]``, flat (spbc.lab.run counts
      them with collections.Counter, at C speed);
    - events: counts by event (EVENTS), card and seat, flat in that order (``(e * ncards + c) * players + p``);
    - squares: by event and card, the sum over games of the square of that game's count (all seats);
    - owners: by card and seat, in how many games the seat owned the card at some time (bought or played it);
    - owner_wins: by card and seat, how many of those games the seat won (ties: each winner counts).

    RuntimeError when a game does not end within the engine's bound on a game's moves (an engine bug).
    """
    cdef const EngineApi* api = _api(capsule)
    cdef int players = len(levels), p
    cdef int kinds[MAX_SEATS]
    cdef Easy E
    if players < 1 or players > api.max_players or players > MAX_SEATS:
        raise ValueError(f"{players} seats; this engine plays at most {min(api.max_players, MAX_SEATS)}")
    if ncards < 1 or ncards > CARD_MASK or o_round < 0 or o_round >= api.state_size:
        raise ValueError("the card count or the offset of the round is not this engine's")
    for p in range(players):
        kinds[p] = levels[p]
        if kinds[p] not in (0, 1):
            raise ValueError(f"seat level code {levels[p]!r} is none of {LEVELS}")
    cdef bint has_easy = any(kinds[p] == 1 for p in range(players))
    if has_easy:
        if easy is None:
            raise ValueError("easy seats need the layout they read (spbc.lab.run.easy_layout)")
        _easy_from(easy, ncards, api.state_size, &E)
    cdef int width = 5 + 2 * players
    cdef int nev = 4 * ncards * players
    cdef int* s = <int*>malloc(api.state_size * sizeof(int))
    cdef int* observed = <int*>malloc(api.state_size * sizeof(int))
    cdef int* after = <int*>malloc(api.state_size * sizeof(int))
    cdef int* scratch = <int*>malloc(api.state_size * sizeof(int))
    cdef int* places = <int*>malloc(api.state_size * sizeof(int))
    cdef int* pooled = <int*>malloc(api.state_size * sizeof(int))
    cdef int* moves = <int*>malloc(api.max_moves * sizeof(int))
    cdef int* rows = <int*>malloc(<Py_ssize_t>max(count, 1) * width * sizeof(int))
    cdef long long* events = <long long*>calloc(nev, sizeof(long long))
    cdef long long* squares = <long long*>calloc(4 * ncards, sizeof(long long))
    cdef long long* owners = <long long*>calloc(ncards * players, sizeof(long long))
    cdef long long* owner_wins = <long long*>calloc(ncards * players, sizeof(long long))
    cdef int* game_events = <int*>malloc(4 * ncards * sizeof(int))
    cdef char* owned = <char*>malloc(ncards * players)
    cdef uint64_t x[MAX_SEATS]
    cdef int seat_kind[MAX_SEATS]
    cdef int ledger[MAX_SEATS]
    cdef int before[MAX_SEATS]
    cdef uint64_t seed
    cdef long long number
    cdef int g, n, m, kind, card, target, done, made, best, best_tie, value, c, e, top, second, won, seats_won
    cdef int stuck = -1
    cdef int* row
    if (s == NULL or observed == NULL or after == NULL or scratch == NULL or places == NULL or pooled == NULL
            or moves == NULL or rows == NULL or events == NULL or squares == NULL or owners == NULL
            or owner_wins == NULL or game_events == NULL or owned == NULL):
        free(s); free(observed); free(after); free(scratch); free(places); free(pooled); free(moves); free(rows)
        free(events); free(squares); free(owners); free(owner_wins); free(game_events); free(owned)
        raise MemoryError()
    try:
        with nogil:
            for g in range(count):
                seed = <uint64_t>(first_seed + g)
                number = first_game + g
                api.setup(s, players, seed)
                for p in range(players):
                    x[p] = seed * <uint64_t>1000003 + <uint64_t>p
                    seat_kind[p] = kinds[(p + number) % players]
                    if has_easy:
                        ledger[p] = s[E.o_rubles + p]
                memset(game_events, 0, 4 * ncards * sizeof(int))
                memset(owned, 0, ncards * players)
                made = 0
                while s[api.o_stage] != api.stage_over:
                    if made >= api.max_game_moves:
                        stuck = g
                        break
                    n = api.legal_moves(s, moves)
                    if n == 0:
                        stuck = g
                        break
                    p = s[api.o_current]
                    if n == 1:
                        m = moves[0]
                    elif seat_kind[p] == 0:
                        m = moves[rng_below(&x[p], n)]
                    else:
                        _observe(api, s, p, ledger, observed, &E, places, pooled)
                        m = _easy_choose(api, observed, moves, n, p, &x[p], &E, after, scratch)
                    kind = move_kind(m)
                    card = move_card(m)
                    target = move_target(m)
                    if card < ncards:
                        if kind == KIND_BUY:
                            events[(0 * ncards + card) * players + p] += 1
                            game_events[0 * ncards + card] += 1
                            owned[card * players + p] = 1
                        elif kind == KIND_TAKE:
                            events[(1 * ncards + card) * players + p] += 1
                            game_events[1 * ncards + card] += 1
                        elif kind == KIND_PLAY:
                            events[(2 * ncards + card) * players + p] += 1
                            game_events[2 * ncards + card] += 1
                            owned[card * players + p] = 1
                    if (kind == KIND_BUY or kind == KIND_PLAY) and 0 < target <= ncards:
                        events[(3 * ncards + target - 1) * players + p] += 1
                        game_events[3 * ncards + target - 1] += 1
                    if has_easy:
                        for c in range(players):
                            before[c] = s[E.o_rubles + c]
                    api.apply_move(s, m)
                    if has_easy:  # the public ledger of rubles (spbc.play.game.Game.public_rubles)
                        for c in range(players):
                            ledger[c] += s[E.o_rubles + c] - before[c]
                    made += 1
                if stuck >= 0:
                    break
                row = rows + <Py_ssize_t>g * width
                row[0] = made
                row[1] = s[o_round]
                best = -2147483647
                best_tie = -2147483647
                for p in range(players):
                    value = api.final_score(s, p)
                    row[2 + p] = value
                    row[2 + players + p] = api.tie_break(s, p)
                    if value > best or (value == best and row[2 + players + p] > best_tie):
                        best = value
                        best_tie = row[2 + players + p]
                top = -2147483647
                second = -2147483647
                won = 0
                seats_won = 0
                for p in range(players):
                    value = row[2 + p]
                    if value > top:
                        second = top
                        top = value
                    elif value > second:
                        second = value
                    if value == best and row[2 + players + p] == best_tie:
                        won |= 1 << p
                        seats_won |= 1 << ((p + number) % players)
                row[2 + 2 * players] = top - second if players > 1 else 0
                row[3 + 2 * players] = won
                row[4 + 2 * players] = seats_won
                for e in range(4 * ncards):
                    squares[e] += <long long>game_events[e] * game_events[e]
                for c in range(ncards):
                    for p in range(players):
                        if owned[c * players + p]:
                            owners[c * players + p] += 1
                            if won & (1 << p):
                                owner_wins[c * players + p] += 1
        if stuck >= 0:
            raise RuntimeError(f"the game of seed {first_seed + stuck} did not end within "
                               f"{api.max_game_moves} moves, more than the rules allow any game: an engine bug")
        return ([rows[i] for i in range(<Py_ssize_t>count * width)], [events[i] for i in range(nev)],
                [squares[i] for i in range(4 * ncards)], [owners[i] for i in range(ncards * players)],
                [owner_wins[i] for i in range(ncards * players)])
    finally:
        free(s); free(observed); free(after); free(scratch); free(places); free(pooled); free(moves); free(rows)
        free(events); free(squares); free(owners); free(owner_wins); free(game_events); free(owned)


def random_games(object capsule, int players, long long first_seed, int count, int ncards, int o_round):
    """``count`` games of ``players`` random seats from the seeds first_seed, ...: :func:`lab_games`' figures."""
    return lab_games(capsule, [0] * players, 0, first_seed, count, ncards, o_round)


def observed_state(object capsule, list state, int seat, list ledger, int ncards, dict easy):
    """The state seat observes in the C loop (for tests: it is spbc.play.observe.canonical_state's)."""
    cdef const EngineApi* api = _api(capsule)
    cdef Easy E
    _easy_from(easy, ncards, api.state_size, &E)
    if len(state) != api.state_size or not 1 <= len(ledger) <= MAX_SEATS:
        raise ValueError("not a state of this engine, or not one ruble count per seat")
    cdef int* real = <int*>malloc(api.state_size * sizeof(int) * 4)
    cdef int ruble[MAX_SEATS]
    if real == NULL:
        raise MemoryError()
    try:
        for i in range(api.state_size):
            real[i] = state[i]
        for i in range(len(ledger)):
            ruble[i] = ledger[i]
        _observe(api, real, seat, ruble, real + api.state_size, &E, real + 2 * api.state_size,
                 real + 3 * api.state_size)
        return [real[api.state_size + i] for i in range(api.state_size)]
    finally:
        free(real)


def easy_choice(object capsule, list observed, list legal, int seat, unsigned long long rng, int ncards,
                dict easy):
    """(move, the generator's state after) of an easy seat in the C loop, given its observed state, its legal
    moves and its generator's state (for tests: it is spbc.ai.agents.EasyAgent.choose's)."""
    cdef const EngineApi* api = _api(capsule)
    cdef Easy E
    cdef uint64_t x = rng
    _easy_from(easy, ncards, api.state_size, &E)
    if len(observed) != api.state_size or not 1 <= len(legal) <= api.max_moves:
        raise ValueError("not a state of this engine, or not a list of legal moves")
    cdef int* buffers = <int*>malloc((api.state_size * 3 + api.max_moves) * sizeof(int))
    if buffers == NULL:
        raise MemoryError()
    try:
        for i in range(api.state_size):
            buffers[i] = observed[i]
        for i in range(len(legal)):
            buffers[3 * api.state_size + i] = legal[i]
        move = _easy_choose(api, buffers, buffers + 3 * api.state_size, len(legal), seat, &x, &E,
                            buffers + api.state_size, buffers + 2 * api.state_size)
        return move, x
    finally:
        free(buffers)
