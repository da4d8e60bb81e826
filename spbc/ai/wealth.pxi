# The balance lab's wealth strata (spbc.lab.wealth), included by fastplay.pyx after its Lab struct: each seat's
# cell (the round, its rubles) at each of its turns, and at a game's end its owners of each card in the cell of the
# turn they first owned it and every seat-turn by cell.

cdef enum:
    WEALTH_ROUNDS = 13  # rounds told apart in the strata: 0 .. 11, then 12 and later together
    WEALTH_BINS = 16    # the seat's rubles at its turn by WEALTH_STEP: 0-3, 4-7, ..., 60 and more
    WEALTH_STEP = 4
    WEALTH_STATS = 8    # per card and cell: owners' seat-games, their points, points squared, wins; then the same
                        # over every turn of those seat-games
    MAX_TURNS = 256     # a seat's turns in a game counted in the strata

#: The wealth strata's shape: (rounds told apart, rubles bins, rubles per bin), spbc.lab.wealth.
WEALTH = (WEALTH_ROUNDS, WEALTH_BINS, WEALTH_STEP)


cdef inline void _snapshot(Lab* b, int p) noexcept nogil:
    """Seat p is to move: its cell of the wealth strata (the round, its rubles now), spbc.lab.wealth."""
    cdef const EngineApi* api = b.api
    cdef int r = b.s[api.o_round], k = b.s[api.o_rubles + p] // WEALTH_STEP
    if b.turns[p] >= MAX_TURNS:
        b.turn = -2
        return
    r = 0 if r < 0 else WEALTH_ROUNDS - 1 if r >= WEALTH_ROUNDS else r
    k = 0 if k < 0 else WEALTH_BINS - 1 if k >= WEALTH_BINS else k
    b.cells[p * MAX_TURNS + b.turns[p]] = r * WEALTH_BINS + k
    b.turn = b.turns[p]
    b.turns[p] += 1


cdef inline void _add_cell(long long* at, int times, int points, int won) noexcept nogil:
    at[0] += times
    at[1] += <long long>times * points
    at[2] += <long long>times * points * points
    at[3] += times * won


cdef inline void _tally_wealth(Lab* b, int* row, int won) noexcept nogil:
    """Add the ended game's seats to the wealth strata: each owner of a card in the cell of the turn it first
    owned it, and every turn of its seat-game; every seat-turn (spbc.lab.wealth). A seat's turns are added cell
    by cell, each with its number of turns: a seat's game spans a few cells, and an owner's turns are added
    once per card it owned."""
    cdef int c, p, i, j, distinct, points, w, players = b.players, cells = WEALTH_ROUNDS * WEALTH_BINS
    cdef long long* every = b.wealth + <Py_ssize_t>b.ncards * cells * WEALTH_STATS
    cdef long long* card
    cdef int* mine
    cdef int kept[MAX_TURNS]
    cdef int times[MAX_TURNS]
    for p in range(players):
        mine, points, w = b.cells + p * MAX_TURNS, row[2 + p], won >> p & 1
        distinct = 0
        for i in range(b.turns[p]):
            j = 0
            while j < distinct and kept[j] != mine[i]:
                j += 1
            if j == distinct:
                kept[j], times[j] = mine[i], 0
                distinct += 1
            times[j] += 1
        for j in range(distinct):
            _add_cell(every + 4 * kept[j], times[j], points, w)
        for c in range(b.ncards):
            i = b.got[c * players + p]
            if i < 0:
                continue
            card = b.wealth + <Py_ssize_t>c * cells * WEALTH_STATS
            _add_cell(card + mine[i] * WEALTH_STATS, 1, points, w)
            for j in range(distinct):
                _add_cell(card + kept[j] * WEALTH_STATS + 4, times[j], points, w)
