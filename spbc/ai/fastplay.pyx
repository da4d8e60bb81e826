# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Whole games of ``random``, ``easy`` and search seats on any ruleset's compiled engine, in C: the one loop under
``spb sim`` (:func:`sim_games`, each seat's decisions counted and timed) and the balance lab
(:func:`lab_games`, with the lab's counters kept as they go).

The engine comes as the capsule of its C functions (``ruleset.engine.c_api()``, spbc/contract/engine_api.pxd).
Each game is the game that :func:`spbc.ai.sim.play_game` plays between the same seats from the same seed,
move for move: dealt from the seed, each seat drawing from its own generator, seeded
spbc.ai.seeds.agent_seed(seed, seat) (:func:`agent_seed`, the same BLAKE2b in C), only when it has more than one
legal move (as spbc.ai.agents does).

- A ``random`` seat plays a uniformly random legal move (spbc.ai.agents.RandomAgent).
- An ``easy`` seat decides as spbc.ai.agents.EasyAgent does, by the same function: the engine's easy_choice
  (spbc/engine/templates/kernels.j2, through its EngineApi), on the seat's observation made by the engine's
  canonical_unseen as spbc.play.observe makes it (the others' rubles those of the public ledger, kept here
  as spbc.play.game.Game.public_rubles keeps it); never on the real state.
- A search seat (``medium``, or ``hard`` at a fixed number of iterations: ``hard@200it``) decides as
  spbc.ai.agents.SearchAgent does: on the same observation, the search of spbc.ai.search through its C entry
  points (search.pxd) for its iterations, from the seed its generator draws next, the most visited move
  played. Its tree is made once a call and emptied for each decision; no Python object is made per move.
  Budgets are iterations only, never time, so that a game is the same on any machine and any number of jobs.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from spbc.ai.search cimport Layout, Tree, _tree_free
from spbc.contract.engine_api cimport (
    KIND_BUY, KIND_PLAY, KIND_TAKE, EngineApi, engine_api, move_card, move_kind, move_target, rng_below, rng_next,
)

#: The counters kept per card, in this order: bought, taken into a hand, played from a hand, displaced.
EVENTS = ("bought", "taken", "played", "displaced")
#: The seat levels the C loop plays, by their codes in ``lab_games``' ``levels``.
LEVELS = ("random", "easy", "search")

cdef enum:
    MAX_SEATS = 8

include "seeds.pxi"  # _agent_seed, agent_seed: seat s of the game of seed g draws from agent_seed(g, s)


cdef struct Lab:
    # one call's figures and working memory, made once; the seats' generators, levels and public ledger
    # are the current game's
    const EngineApi* api
    int players
    int ncards
    int width             # a game's row: 5 + 2 * players values
    int observes          # some seat is easy or searches: keep the public ledger of rubles
    int failed            # a search ran out of memory
    int counting          # keep the lab's counters by card (lab_games)
    int timed             # time each decision (sim_games)
    double noises[MAX_SEATS]  # the run's easy seats' noise (spbc.ai.agents.EASY_NOISE, NOVICE_NOISE), not rotated
    double seat_noise[MAX_SEATS]
    int* s
    int* observed
    int* moves
    int* rows
    double* times         # sim_games: by game, each position's seconds and then its longest decision
    long long* events
    long long* squares
    long long* owners
    long long* owner_wins
    int* game_events      # this game's counts by event and card (all seats)
    char* owned           # this game's owners by card and seat
    int kinds[MAX_SEATS]  # the run's seat levels, not rotated
    long budgets[MAX_SEATS]  # their search iterations (search seats; 0 for the others), not rotated
    long seat_budget[MAX_SEATS]
    Layout L              # the search seats' rules and settings (spbc.ai.search), and their tree
    int* per_card
    Tree tree
    uint64_t x[MAX_SEATS]
    int seat_kind[MAX_SEATS]
    int ledger[MAX_SEATS]
    int decisions[MAX_SEATS]   # the current game's decisions by position (a forced move is none)
    double seconds[MAX_SEATS]  # their seconds together, and the longest, when timed
    double slowest[MAX_SEATS]
    # the wealth strata (lab_games, spbc.lab.wealth): the run's counts by card, cell and statistic, then every
    # seat-turn's by cell; the current game's cell of each seat at each of its turns (by seat, then turn); the
    # turn at which each seat first owned each card (-1: it never did, -2: past MAX_TURNS)
    long long* wealth
    int* cells
    int* got
    int turns[MAX_SEATS]
    int turn           # the current move's turn of its seat, or -2 past MAX_TURNS


include "wealth.pxi"  # the wealth strata: WEALTH, _snapshot, _tally_wealth


include "searchseat.pxi"  # _search_move, _search_start: the search seats' decisions and their tree


cdef inline double _now() noexcept nogil:
    """The monotonic clock in seconds (the clock of Python's time.perf_counter, which the Game API's path
    times its decisions by)."""
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


include "labmemory.pxi"  # _lab_make, _lab_free: the buffers of a call


cdef inline int _choose(Lab* b, int n, int p) noexcept nogil:
    """Seat p's move among the n > 1 legal ones: a random one, or its easy choice on what it observes
    (spbc.play.observe)."""
    cdef const EngineApi* api = b.api
    if b.seat_kind[p] == 0:
        return b.moves[rng_below(&b.x[p], n)]
    memcpy(b.observed, b.s, api.state_size * sizeof(int))
    api.canonical_unseen(b.observed, p, b.ledger)
    if b.seat_kind[p] == 1:
        return api.easy_choice(b.observed, b.moves, n, p, &b.x[p], b.seat_noise[p])
    return _search_move(b, p)


cdef inline void _count_move(Lab* b, int m, int p) noexcept nogil:
    """Count what seat p's move m does to cards: bought, taken, played, displaced (EVENTS)."""
    cdef int kind = move_kind(m), card = move_card(m), target = move_target(m)
    cdef int ncards = b.ncards, players = b.players
    if card < ncards:
        if kind == KIND_BUY:
            b.events[(0 * ncards + card) * players + p] += 1
            b.game_events[0 * ncards + card] += 1
            b.owned[card * players + p] = 1
            if b.got[card * players + p] == -1:
                b.got[card * players + p] = b.turn
        elif kind == KIND_TAKE:
            b.events[(1 * ncards + card) * players + p] += 1
            b.game_events[1 * ncards + card] += 1
        elif kind == KIND_PLAY:
            b.events[(2 * ncards + card) * players + p] += 1
            b.game_events[2 * ncards + card] += 1
            b.owned[card * players + p] = 1
            if b.got[card * players + p] == -1:
                b.got[card * players + p] = b.turn
    if (kind == KIND_BUY or kind == KIND_PLAY) and 0 < target <= ncards:
        b.events[(3 * ncards + target - 1) * players + p] += 1
        b.game_events[3 * ncards + target - 1] += 1


cdef inline void _apply(Lab* b, int m) noexcept nogil:
    """Play m, and with easy or search seats keep the public ledger of rubles (spbc.play.game.Game.public_rubles):
    here each move's change of the rubles, which for every shipped mechanic is what the table announces
    (spbc.play.ledger, where the Game API makes it of the announced amounts; tests/test_ledger.py)."""
    cdef const EngineApi* api = b.api
    cdef int before[MAX_SEATS]
    cdef int c
    if b.observes:
        for c in range(b.players):
            before[c] = b.s[api.o_rubles + c]
    api.apply_move(b.s, m)
    if b.observes:
        for c in range(b.players):
            b.ledger[c] += b.s[api.o_rubles + c] - before[c]


cdef inline int _decide(Lab* b, int n, int p) noexcept nogil:
    """Seat p's decision among n > 1 legal moves, counted, and timed when b.timed (the choice alone, its
    observation included: the clock's own two readings, some 40 ns, are in it too)."""
    cdef double began, took
    cdef int m
    b.decisions[p] += 1
    if not b.timed:
        return _choose(b, n, p)
    began = _now()
    m = _choose(b, n, p)
    took = _now() - began
    b.seconds[p] += took
    if took > b.slowest[p]:
        b.slowest[p] = took
    return m


cdef int _play_game(Lab* b, uint64_t seed, long long number) noexcept nogil:
    """Deal game ``number`` from ``seed`` and play it out, counting its moves; the moves made, or -1 when
    it does not end within the engine's bound (or a state has no legal move)."""
    cdef const EngineApi* api = b.api
    cdef int p, n, m, made = 0
    api.setup(b.s, b.players, seed)
    for p in range(b.players):
        b.x[p] = _agent_seed(seed, <uint64_t>p)
        b.seat_kind[p] = b.kinds[(p + number) % b.players]
        b.seat_budget[p] = b.budgets[(p + number) % b.players]
        b.seat_noise[p] = b.noises[(p + number) % b.players]
        b.ledger[p] = b.s[api.o_rubles + p]
        b.decisions[p] = 0
        b.seconds[p] = 0.0
        b.slowest[p] = 0.0
    if b.counting:
        memset(b.game_events, 0, 4 * b.ncards * sizeof(int))
        memset(b.owned, 0, b.ncards * b.players)
        memset(b.got, 0xff, b.ncards * b.players * sizeof(int))  # -1 each
        memset(b.turns, 0, MAX_SEATS * sizeof(int))
    while b.s[api.o_stage] != api.stage_over:
        if made >= api.max_game_moves:
            return -1
        n = api.legal_moves(b.s, b.moves)
        if n == 0:
            return -1
        p = b.s[api.o_current]
        if b.counting:
            _snapshot(b, p)
        m = b.moves[0] if n == 1 else _decide(b, n, p)
        if b.failed:
            return -1
        if b.counting:
            _count_move(b, m, p)
        _apply(b, m)
        made += 1
    return made


cdef int _score_row(Lab* b, int* row, int made, long long number) noexcept nogil:
    """Fill the ended game's row (lab_games' games); the winning positions' bits."""
    cdef const EngineApi* api = b.api
    cdef int players = b.players, p, value
    cdef int best = -2147483647, best_tie = -2147483647, top = -2147483647, second = -2147483647
    cdef int won = 0, seats_won = 0
    row[0] = made
    row[1] = b.s[api.o_round]
    for p in range(players):
        value = api.final_score(b.s, p)
        row[2 + p] = value
        row[2 + players + p] = api.tie_break(b.s, p)
        if value > best or (value == best and row[2 + players + p] > best_tie):
            best = value
            best_tie = row[2 + players + p]
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
    return won


cdef inline void _tally_game(Lab* b, int won) noexcept nogil:
    """Add the ended game's counts to the run's: squares by event and card, owners and their wins."""
    cdef int e, c, p, players = b.players
    for e in range(4 * b.ncards):
        b.squares[e] += <long long>b.game_events[e] * b.game_events[e]
    for c in range(b.ncards):
        for p in range(players):
            if b.owned[c * players + p]:
                b.owners[c * players + p] += 1
                if won & (1 << p):
                    b.owner_wins[c * players + p] += 1


cdef int _play_games(Lab* b, long long first_game, long long first_seed, int count) noexcept nogil:
    """Play the games, each one's row filled (sim_games: its seats' decisions and times too) and counted
    when b.counting; the index of the first that did not end, or -1 when all did."""
    cdef int g, p, made, won, players = b.players
    cdef int* row
    for g in range(count):
        made = _play_game(b, <uint64_t>(first_seed + g), first_game + g)
        if made < 0:
            return g
        row = b.rows + <Py_ssize_t>g * b.width
        won = _score_row(b, row, made, first_game + g)
        if b.counting:
            _tally_game(b, won)
            _tally_wealth(b, row, won)
        if b.timed:
            for p in range(players):
                row[5 + 2 * players + p] = b.decisions[p]
                b.times[<Py_ssize_t>g * 2 * players + p] = b.seconds[p]
                b.times[<Py_ssize_t>g * 2 * players + players + p] = b.slowest[p]
    return -1


cdef int _lab_start(Lab* b, object capsule, list levels, int count, object noise, bint timed, list budgets,
                    object search) except -1:
    """Set b up for count games of the seats ``levels`` (codes of LEVELS; ``budgets`` the search seats'
    iterations, ``search`` their (tables, layout, settings) as spbc.ai.search.search takes them): the sim's
    (timed, each row with the decisions by seat) or the lab's (counting); ValueError for seats the engine or
    the loop cannot play."""
    b.api = engine_api(capsule)
    b.per_card, b.failed = NULL, 0
    memset(&b.tree, 0, sizeof(Tree))
    cdef int players = len(levels), p
    if players < 1 or players > b.api.max_players or players > MAX_SEATS:
        raise ValueError(f"{players} seats; this engine plays at most {min(b.api.max_players, MAX_SEATS)}")
    for p in range(players):
        b.kinds[p] = levels[p]
        b.budgets[p] = budgets[p] if budgets is not None and levels[p] == 2 else 0
        if b.kinds[p] not in (0, 1, 2):
            raise ValueError(f"seat level code {levels[p]!r} is none of {LEVELS}")
        if b.kinds[p] == 2 and (b.budgets[p] <= 0 or search is None):
            raise ValueError("a search seat takes its iterations (budgets) and the search's inputs (search)")
    noises = [noise] * players if isinstance(noise, (int, float)) else list(noise)
    if len(noises) != players:
        raise ValueError(f"{len(noises)} noises for {players} seats")
    for p in range(players):
        b.noises[p] = noises[p]
    b.players, b.ncards = players, b.api.ncards
    b.timed, b.counting = timed, not timed
    b.width = 5 + (3 if timed else 2) * players
    b.observes = any(b.kinds[p] != 0 for p in range(players))
    if _lab_make(b, count) < 0:
        raise MemoryError()
    if any(b.kinds[p] == 2 for p in range(players)):
        _search_start(b, search)
    return 0


def lab_games(object capsule, list levels, long long first_game, long long first_seed, int count,
              object noise=0.0, list budgets=None, object search=None):
    """Play ``count`` games, game numbers first_game, first_game + 1, ... from the seeds first_seed,
    first_seed + 1, ...; ``levels`` are the run's seats as codes of LEVELS, rotated by the game number
    (position p of game i holds ``levels[(p + i) % len(levels)]``, spbc.lab.run.Plan.levels); ``noise`` is
    the easy seats' (spbc.ai.agents.EASY_NOISE; novice seats are easy ones with NOVICE_NOISE): one for every
    seat, or a list by seat of ``levels``; ``budgets`` the search seats' iterations by seat of
    ``levels`` (0 for the others) and ``search`` their inputs, (tables, layout, settings) as
    spbc.ai.search.search takes them (spbc.ai.agents.search_inputs).

    Returns ``(games, events, squares, owners, owner_wins, wealth)``:

    - games: per game ``[moves, rounds, final score by seat..., tie-break value by seat..., the winner's margin
      (final points less the runner-up's), the winning positions (bit p: position p won; ties: each winner),
      the winning seats of ``levels`` (bit j: the seat levels[j] stood for won)]``, flat (spbc.lab.run counts
      them with collections.Counter, at C speed);
    - events: counts by event (EVENTS), card and seat, flat in that order (``(e * ncards + c) * players + p``);
    - squares: by event and card, the sum over games of the square of that game's count (all seats);
    - owners: by card and seat, in how many games the seat owned the card at some time (bought or played it);
    - owner_wins: by card and seat, how many of those games the seat won (ties: each winner counts);
    - wealth: the wealth strata's counts (spbc.lab.wealth): by card, cell (the round, at most WEALTH_ROUNDS - 1,
      then the seat's rubles when it was to move, by WEALTH_STEP, at most WEALTH_BINS - 1) and WEALTH_STATS
      statistics, ``(c * cells + k) * WEALTH_STATS + s``: the seat-games that first owned the card (bought or
      played it) at a turn of that cell, their final points, its square, their wins; then the same added over
      every turn of those seat-games; after the cards, every seat-turn's four (``ncards * cells * WEALTH_STATS
      + 4 * k + s``). A seat's first MAX_TURNS turns of a game alone count.

    RuntimeError when a game does not end within the engine's bound on a game's moves (an engine bug);
    MemoryError when a search runs out of memory.
    """
    cdef Lab b
    cdef int stuck
    _lab_start(&b, capsule, levels, count, noise, False, budgets, search)
    cdef int players = b.players, ncards = b.ncards
    try:
        with nogil:
            stuck = _play_games(&b, first_game, first_seed, count)
        if b.failed:
            raise MemoryError()
        if stuck >= 0:
            raise RuntimeError(f"the game of seed {first_seed + stuck} did not end within "
                               f"{b.api.max_game_moves} moves, more than the rules allow any game: an engine bug")
        return ([b.rows[i] for i in range(<Py_ssize_t>count * b.width)],
                [b.events[i] for i in range(4 * ncards * players)], [b.squares[i] for i in range(4 * ncards)],
                [b.owners[i] for i in range(ncards * players)], [b.owner_wins[i] for i in range(ncards * players)],
                [b.wealth[i] for i in range((ncards * WEALTH_STATS + 4) * WEALTH_ROUNDS * WEALTH_BINS)])
    finally:
        _lab_free(&b)


def sim_games(object capsule, list levels, long long first_game, long long first_seed, int count,
              object noise=0.0, list budgets=None, object search=None):
    """The games of :func:`lab_games` (the same arguments), as ``spb sim`` reports them (spbc.ai.sim):
    ``(games, times, stuck)``.

    - games: per game, flat, ``lab_games``' row and then each position's decisions (moves it chose among
      more than one);
    - times: per game, flat, each position's seconds over its decisions and then its longest decision, by the
      monotonic clock around each choice in C (the easy and search seats' observation included);
    - stuck: the index among the games of the first that did not end within the engine's bound on a game's
      moves (an engine bug; the games from it on are not played), or -1.
    """
    cdef Lab b
    cdef int stuck
    _lab_start(&b, capsule, levels, count, noise, True, budgets, search)
    cdef int players = b.players
    try:
        with nogil:
            stuck = _play_games(&b, first_game, first_seed, count)
        if b.failed:
            raise MemoryError()
        played = count if stuck < 0 else stuck
        return ([b.rows[i] for i in range(<Py_ssize_t>played * b.width)],
                [b.times[i] for i in range(<Py_ssize_t>played * 2 * players)], stuck)
    finally:
        _lab_free(&b)


def random_games(object capsule, int players, long long first_seed, int count):
    """``count`` games of ``players`` random seats from the seeds first_seed, ...: :func:`lab_games`' figures."""
    return lab_games(capsule, [0] * players, 0, first_seed, count)
