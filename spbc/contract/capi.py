"""The C-level interface of every compiled engine: what its ``engine.pxd`` gives Cython code elsewhere.

A search (or a benchmark) written in Cython cimports a ruleset's engine and runs it on a state
array of its own, without the GIL and without a Python object per move::

    cimport spbc.generated.base.engine as spb
    from libc.stdint cimport uint64_t

    cdef int s[spb.STATE_SIZE]
    cdef uint64_t x = 7
    with nogil:
        spb.setup(s, 2, 1)                    # or copy a mid-game state: (<spb.Engine>engine).s
        spb.redeal_unseen(s, s[spb.O_CURRENT], &x)
        spb.playout(s, &x, spb.MAX_GAME_MOVES)
        score = spb.final_score(s, 0)

The pxd declares, per ruleset: every constant of the engine as a C enum (sizes such as
STATE_SIZE, MAX_MOVES, NCARDS, MAX_PLAYERS, MAX_GAME_MOVES; stages; the state offsets O_*; card,
deck and phase indices), the functions below, and the ``Engine`` class with its state array ``s``.
It cimports the move layout (MOVE_LAYOUT: kinds, the fields' masks and shifts, rows) and the random
generator (``rng_next``, ``rng_below``: inline, so a caller draws from the very generator the engine
uses) from spbc/contract/engine_api.pxd, where they are written once for every engine and every other
.pyx, and passes them on to its callers. The engine's tables stay private: Cython shares no C
variables between modules.

The signatures here are the contract: engine.pxd prints them, the engine templates define the
functions, and Cython refuses to compile an engine whose definition differs from its declaration.
"""

from __future__ import annotations

from dataclasses import dataclass

from spbc.contract.abi import (
    CARD_MASK, CARD_SHIFT, KIND_MASK, MIDDLE_MASK, MIDDLE_SHIFT, MOVE_KINDS, ROW_DRAWN, ROW_HAND, ROW_LOWER,
    ROW_UPPER, TARGET_SHIFT,
)

#: The move layout as spbc/contract/engine_api.pxd declares it (a C enum, with the inline decoders move_kind,
#: move_card, move_middle and move_target): the numbers of spbc.contract.abi. A compiled engine cimports these
#: names from there, as every other .pyx does; the twin prints them as Python constants.
MOVE_LAYOUT: tuple[tuple[str, int], ...] = (
    *((f"KIND_{kind.upper()}", code) for code, kind in enumerate(MOVE_KINDS)),
    ("KIND_MASK", KIND_MASK), ("CARD_SHIFT", CARD_SHIFT), ("CARD_MASK", CARD_MASK),
    ("MIDDLE_SHIFT", MIDDLE_SHIFT), ("MIDDLE_MASK", MIDDLE_MASK), ("TARGET_SHIFT", TARGET_SHIFT),
    ("ROW_UPPER", ROW_UPPER), ("ROW_LOWER", ROW_LOWER), ("ROW_DRAWN", ROW_DRAWN), ("ROW_HAND", ROW_HAND),
)
#: The random generator's inline functions in engine_api.pxd (spbc.contract.rng in Python).
GENERATOR = ("rng_next", "rng_below")


@dataclass(frozen=True)
class CFunction:
    """One C function of the engine, as engine.pxd declares it (``noexcept nogil``)."""

    returns: str
    name: str
    params: str
    doc: str


#: The engine's C functions that engine.pxd declares, in the order it declares them.
C_FUNCTIONS: tuple[CFunction, ...] = (
    CFunction("void", "setup", "int* s, int players, uint64_t seed",
              "A new game in s for players seats, dealt from seed."),
    CFunction("int", "legal_moves", "const int* s, int* out",
              "Write the legal moves into out (room for MAX_MOVES) and return how many; 0 once the game is over."),
    CFunction("void", "apply_move", "int* s, int move",
              "Play a move that legal_moves listed (nothing else is checked)."),
    CFunction("int", "playout", "int* s, uint64_t* x, int limit",
              "Play uniformly random legal moves drawn from x until the game ends or limit moves were made; "
              "return the moves made."),
    CFunction("void", "redeal_unseen", "int* s, int observer, uint64_t* x",
              "Determinize for observer: deal the order of every deck anew from x (hands were taken in public)."),
    CFunction("int", "final_score", "const int* s, int p",
              "Player p's final points if the game ended now."),
    CFunction("int", "tie_break", "const int* s, int p",
              "Among players tied on final points, the larger value ranks higher."),
    CFunction("void", "score_phase", "int* s, int phase",
              "Pay every player what the scoring of phase pays (without moving the game on)."),
    CFunction("int", "state_problem", "const int* s",
              "0 if the engine can play s safely, else the number of what is wrong (as Engine.load checks)."),
    # the computer players' kernels (spbc/engine/templates/kernels.j2), the same in the twin
    CFunction("void", "canonical_unseen", "int* s, int observer, const int* rubles",
              "Make canonical what observer cannot see (spbc.play.observe); the others' secret rubles become rubles."),
    CFunction("int", "rounds_left", "const int* s",
              "A guess at how many rounds remain, this one included."),
    CFunction("double", "position_value", "const int* s, int seat, int left",
              "What seat's position is worth to the easy player, in points, with left rounds to come."),
    CFunction("int", "easy_choice", "const int* s, const int* legal, int n, int seat, uint64_t* x, double noise",
              "The easy player's move among the n legal moves, its noise drawn from x."),
)
