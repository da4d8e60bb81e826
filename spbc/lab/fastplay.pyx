# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Whole games of random seats on any ruleset's compiled engine, in C, with the lab's counters kept as they go.

The engine comes as the capsule of its C functions (``ruleset.engine.c_api()``, spbc/contract/engine_api.pxd).
Each game is the game that :func:`spbc.ai.sim.play_game` plays between ``random`` seats from the same seed,
move for move: dealt from the seed, and each seat drawing its moves from its own generator, seeded
``seed * 1_000_003 + seat``, only when it has more than one legal move (as spbc.ai.agents.RandomAgent does).
"""

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from spbc.contract.engine_api cimport EngineApi

from spbc.contract import abi

# how a move is coded (spbc.contract.abi): the same for every ruleset
cdef int KIND_MASK = abi.KIND_MASK
cdef int CARD_SHIFT = abi.CARD_SHIFT
cdef int CARD_MASK = abi.CARD_MASK
cdef int TARGET_SHIFT = abi.TARGET_SHIFT
cdef int KIND_BUY = abi.MOVE_KINDS.index("buy")
cdef int KIND_TAKE = abi.MOVE_KINDS.index("take")
cdef int KIND_PLAY = abi.MOVE_KINDS.index("play")

#: The counters kept per card, in this order: bought, taken into a hand, played from a hand, displaced.
EVENTS = ("bought", "taken", "played", "displaced")
#: The agents' seeds: seat s of the game of seed g draws from g * AGENT_STRIDE + s (spbc.ai.sim.play_game).
AGENT_STRIDE = 1_000_003


cdef inline uint64_t _next(uint64_t* x) noexcept nogil:
    # SplitMix64, the engines' generator (spbc.contract.rng)
    cdef uint64_t z
    x[0] += 0x9E3779B97F4A7C15ULL
    z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int _below(uint64_t* x, int n) noexcept nogil:
    return <int>(((_next(x) >> 32) * <uint64_t>n) >> 32)


cdef const EngineApi* _api(object capsule) except NULL:
    if not PyCapsule_IsValid(capsule, b"spbc.EngineApi"):
        raise TypeError("not the C functions of a compiled engine (its c_api()); the twin has none")
    return <const EngineApi*>PyCapsule_GetPointer(capsule, b"spbc.EngineApi")


def random_games(object capsule, int players, long long first_seed, int count, int ncards, int o_round):
    """Play ``count`` games of ``players`` random seats from the seeds first_seed, first_seed + 1, ...

    Returns ``(games, events, squares, owners, owner_wins)``:

    - games: per game ``[moves, rounds, final score by seat..., tie-break value by seat...]``, flat;
    - events: counts by event (EVENTS), card and seat, flat in that order (``(e * ncards + c) * players + p``);
    - squares: by event and card, the sum over games of the square of that game's count (all seats);
    - owners: by card and seat, in how many games the seat owned the card at some time (bought or played it);
    - owner_wins: by card and seat, how many of those games the seat won (ties: each winner counts).

    RuntimeError when a game does not end within the engine's bound on a game's moves (an engine bug).
    """
    cdef const EngineApi* api = _api(capsule)
    if players < 1 or players > api.max_players or players > 8:
        raise ValueError(f"{players} seats; this engine plays at most {min(api.max_players, 8)}")
    if ncards < 1 or ncards > CARD_MASK or o_round < 0 or o_round >= api.state_size:
        raise ValueError("the card count or the offset of the round is not this engine's")
    cdef int width = 2 + 2 * players
    cdef int nev = 4 * ncards * players
    cdef int* s = <int*>malloc(api.state_size * sizeof(int))
    cdef int* moves = <int*>malloc(api.max_moves * sizeof(int))
    cdef int* rows = <int*>malloc(<Py_ssize_t>max(count, 1) * width * sizeof(int))
    cdef long long* events = <long long*>calloc(nev, sizeof(long long))
    cdef long long* squares = <long long*>calloc(4 * ncards, sizeof(long long))
    cdef long long* owners = <long long*>calloc(ncards * players, sizeof(long long))
    cdef long long* owner_wins = <long long*>calloc(ncards * players, sizeof(long long))
    cdef int* game_events = <int*>malloc(4 * ncards * sizeof(int))
    cdef char* owned = <char*>malloc(ncards * players)
    cdef uint64_t x[8]
    cdef uint64_t seed
    cdef int g, n, p, m, kind, card, target, done, made, best, best_tie, value, c, e, stuck = -1
    cdef int* row
    if (s == NULL or moves == NULL or rows == NULL or events == NULL or squares == NULL or owners == NULL
            or owner_wins == NULL or game_events == NULL or owned == NULL):
        free(s); free(moves); free(rows); free(events); free(squares); free(owners); free(owner_wins)
        free(game_events); free(owned)
        raise MemoryError()
    try:
        with nogil:
            for g in range(count):
                seed = <uint64_t>(first_seed + g)
                api.setup(s, players, seed)
                for p in range(players):
                    x[p] = seed * <uint64_t>1000003 + <uint64_t>p
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
                    m = moves[_below(&x[p], n)] if n > 1 else moves[0]
                    kind = m & KIND_MASK
                    card = (m >> CARD_SHIFT) & CARD_MASK
                    target = (m >> TARGET_SHIFT) & CARD_MASK
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
                    api.apply_move(s, m)
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
                for e in range(4 * ncards):
                    squares[e] += <long long>game_events[e] * game_events[e]
                for c in range(ncards):
                    for p in range(players):
                        if owned[c * players + p]:
                            owners[c * players + p] += 1
                            if row[2 + p] == best and row[2 + players + p] == best_tie:
                                owner_wins[c * players + p] += 1
        if stuck >= 0:
            raise RuntimeError(f"the game of seed {first_seed + stuck} did not end within "
                               f"{api.max_game_moves} moves, more than the rules allow any game: an engine bug")
        return ([rows[i] for i in range(<Py_ssize_t>count * width)], [events[i] for i in range(nev)],
                [squares[i] for i in range(4 * ncards)], [owners[i] for i in range(ncards * players)],
                [owner_wins[i] for i in range(ncards * players)])
    finally:
        free(s); free(moves); free(rows); free(events); free(squares); free(owners); free(owner_wins)
        free(game_events); free(owned)
