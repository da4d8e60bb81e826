# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Whole games of ``random`` and ``easy`` seats on any ruleset's compiled engine, in C, with the lab's counters
kept as they go.

The engine comes as the capsule of its C functions (``ruleset.engine.c_api()``, spbc/contract/engine_api.pxd).
Each game is the game that :func:`spbc.ai.sim.play_game` plays between the same seats from the same seed,
move for move: dealt from the seed, each seat drawing from its own generator, seeded
``seed * 1_000_003 + seat``, only when it has more than one legal move (as spbc.ai.agents does).

- A ``random`` seat plays a uniformly random legal move (spbc.ai.agents.RandomAgent).
- An ``easy`` seat decides as spbc.ai.agents.EasyAgent does, by the same function: the engine's easy_choice
  (spbc/engine/templates/kernels.j2, through its EngineApi), on the seat's observation made by the engine's
  canonical_unseen as spbc.play.observe makes it (the others' rubles those of the public ledger, kept here
  as spbc.play.game.Game.public_rubles keeps it); never on the real state.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from spbc.contract.engine_api cimport (
    KIND_BUY, KIND_PLAY, KIND_TAKE, EngineApi, engine_api, move_card, move_kind, move_target, rng_below,
)

#: The counters kept per card, in this order: bought, taken into a hand, played from a hand, displaced.
EVENTS = ("bought", "taken", "played", "displaced")
#: The agents' seeds: seat s of the game of seed g draws from g * AGENT_STRIDE + s (spbc.ai.sim.play_game).
AGENT_STRIDE = 1_000_003
#: The seat levels the C loop plays, by their codes in ``lab_games``' ``levels``.
LEVELS = ("random", "easy")

cdef enum:
    MAX_SEATS = 8


def lab_games(object capsule, list levels, long long first_game, long long first_seed, int count,
              double noise=0.0):
    """Play ``count`` games, game numbers first_game, first_game + 1, ... from the seeds first_seed,
    first_seed + 1, ...; ``levels`` are the run's seats as codes of LEVELS, rotated by the game number
    (position p of game i holds ``levels[(p + i) % len(levels)]``, spbc.lab.run.Plan.levels); ``noise`` is
    the easy seats' (spbc.ai.agents.EASY_NOISE).

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
    cdef const EngineApi* api = engine_api(capsule)
    cdef int players = len(levels), p, ncards = api.ncards
    cdef int kinds[MAX_SEATS]
    if players < 1 or players > api.max_players or players > MAX_SEATS:
        raise ValueError(f"{players} seats; this engine plays at most {min(api.max_players, MAX_SEATS)}")
    for p in range(players):
        kinds[p] = levels[p]
        if kinds[p] not in (0, 1):
            raise ValueError(f"seat level code {levels[p]!r} is none of {LEVELS}")
    cdef bint has_easy = any(kinds[p] == 1 for p in range(players))
    cdef int width = 5 + 2 * players
    cdef int nev = 4 * ncards * players
    cdef int* s = <int*>malloc(api.state_size * sizeof(int))
    cdef int* observed = <int*>malloc(api.state_size * sizeof(int))
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
    if (s == NULL or observed == NULL or moves == NULL or rows == NULL or events == NULL or squares == NULL
            or owners == NULL or owner_wins == NULL or game_events == NULL or owned == NULL):
        free(s); free(observed); free(moves); free(rows)
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
                    ledger[p] = s[api.o_rubles + p]
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
                    else:  # what seat p observes (spbc.play.observe), and its easy choice there
                        memcpy(observed, s, api.state_size * sizeof(int))
                        api.canonical_unseen(observed, p, ledger)
                        m = api.easy_choice(observed, moves, n, p, &x[p], noise)
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
                            before[c] = s[api.o_rubles + c]
                    api.apply_move(s, m)
                    if has_easy:  # the public ledger of rubles (spbc.play.game.Game.public_rubles)
                        for c in range(players):
                            ledger[c] += s[api.o_rubles + c] - before[c]
                    made += 1
                if stuck >= 0:
                    break
                row = rows + <Py_ssize_t>g * width
                row[0] = made
                row[1] = s[api.o_round]
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
        free(s); free(observed); free(moves); free(rows)
        free(events); free(squares); free(owners); free(owner_wins); free(game_events); free(owned)


def random_games(object capsule, int players, long long first_seed, int count):
    """``count`` games of ``players`` random seats from the seeds first_seed, ...: :func:`lab_games`' figures."""
    return lab_games(capsule, [0] * players, 0, first_seed, count)
