"""The engine contract in numbers: how a move is coded, the rows and stages, where values stop, and every
limit the checker enforces so that a ruleset fits the engine's ints, arrays and move codes.

One module, read by the checker (SPB301, SPB411), by lowering and the engine templates, by the Game API
(move codes) and by the loader of saved games. Change a number here and every layer agrees.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# --- move codes -------------------------------------------------------------------------------------
# kind in bits 0-3, card in bits 4-11, row / deck / amount in bits 12-17, displaced card + 1 in bits 18-25.
KIND_MASK, CARD_SHIFT, CARD_MASK = 15, 4, 255
MIDDLE_SHIFT, MIDDLE_MASK, TARGET_SHIFT = 12, 63, 18
#: Move kinds by code: a move's kind is ``MOVE_KINDS[code & KIND_MASK]``.
MOVE_KINDS = ("pass", "buy", "take", "play", "use", "discard", "points")
#: Where a card is bought, taken or played from: the middle field of a buy, take, play or discard move.
ROW_UPPER, ROW_LOWER, ROW_DRAWN, ROW_HAND = 0, 1, 2, 3

# --- stages ------------------------------------------------------------------------------------------
#: What the player to move decides is the state's stage. The core has two: a normal turn, numbered 0, and
#: the end of the game, numbered last. Every other stage is a mechanic's own (its effect class declares
#: it, see spbc.lang.model.Effect.stages); each engine numbers the stages its ruleset's mechanics declare
#: when it is built (:func:`stage_names`), so an engine has exactly the stages of its rules.
FIRST_STAGE, LAST_STAGE = "actions", "over"


@dataclass(frozen=True, order=True)
class Stage:
    """A stage a mechanic owns: the engine waits in it for a decision only that mechanic's moves make.

    ``name`` names the engine's constant and function (``drawn``: STAGE_DRAWN, drawn_moves) and the
    stage in the play layer (Game.stage); ``order`` places it among the stages of a ruleset, lowest
    first: its number in the engine and the place of its state fields after O_STAGE.

    >>> Stage(50, "drawn")
    Stage(order=50, name='drawn')
    """

    order: int
    name: str

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9_]*", self.name) or self.name in (FIRST_STAGE, LAST_STAGE):
            raise ValueError(f"a mechanic's stage is a lowercase name other than {FIRST_STAGE!r} and "
                             f"{LAST_STAGE!r}, not {self.name!r}")


def stage_names(declared: Iterable[Stage]) -> tuple[str, ...]:
    """The stages of one engine by number: the core's first, the mechanics' by order (then name), the
    core's last. ValueError when two declarations give one name different orders.

    >>> stage_names([Stage(40, "points"), Stage(30, "drawn"), Stage(40, "points")])
    ('actions', 'drawn', 'points', 'over')
    """
    owned = sorted(set(declared))
    names = [stage.name for stage in owned]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"the stage {twice[0]!r} is declared with two orders")
    return (FIRST_STAGE, *names, LAST_STAGE)

# --- values ------------------------------------------------------------------------------------------
#: Rubles and points stop growing here: far beyond any game, well within a C int.
VALUE_MAX = 1_000_000_000
#: The last round a game may have: a game from a new deal ends long before it (its decks run out), and
#: the engine ends one loaded at a later round than that after this round, so that every state it
#: reaches is one the loader accepts (round 1..ROUND_MAX).
ROUND_MAX = 10_000

#: Bits per word of a mask of cards in the state (the owned masks): a word stays within VALUE_MAX, so a
#: C int and a Python int hold the same value, and a saved word passes the range check of every value.
MASK_BITS = 29

# --- what a ruleset may ask of the engine (the checker refuses more) ---------------------------------
#: A card index travels in 8 bits, and a displaced card is stored + 1, so indices stop one short.
MAX_CARDS = CARD_MASK
#: A deck index travels in the 6-bit middle field.
MAX_DECKS = MIDDLE_MASK
#: Copies of all cards together: every copy has a place in the state.
MAX_COPIES_IN_ALL = 2000
#: Different special cards: a move list marks each one the hand holds by a bit of one word (MASK_BITS).
MAX_SPECIALS = MASK_BITS
#: The points of one buy-points decision travel in the 6-bit middle field.
MAX_POINTS_PER_OFFER = MIDDLE_MASK
#: The most seats a ruleset may have.
MAX_PLAYERS_LIMIT = 8
#: The largest number a setting takes: sums of these stay far inside a C int.
MAX_NUMBER = 10_000
#: Places on the board and in a hand the state keeps per game and per player.
MAX_PLACES = 64
#: Copies of one card.
MAX_COPIES = 100
