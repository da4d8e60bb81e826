"""The public ledger of rubles: what every player knows of each seat's rubles from what the table announces.

Rubles may be secret, but every ruble a seat takes or pays is said aloud at the table: the price of a card
bought or played (it follows from the board and the buyer's cards), the rubles a special card's use brings,
a buy-points decision's income and price, and each seat's income when a phase scores (it follows from the
play areas; an upkeep is paid in front of everyone). The ledger adds exactly those amounts, worked out from
what the table sees before the move (:func:`announce`) and booked once it is played (:func:`book`), never
from the engine's real rubles: a mechanic that moved rubles in secret would not move the ledger. A
mechanic says what its own moves announce (``Presenter.announced_rubles``).

A computer player sees the others' secret rubles only as this ledger (spbc.play.observe); for every
shipped ruleset it equals their rubles (tests/test_ledger.py plays thousands of games to show it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from spbc.contract.abi import (
    CARD_MASK, CARD_SHIFT, KIND_MASK, MIDDLE_MASK, MIDDLE_SHIFT, MOVE_KINDS, ROW_HAND, TARGET_SHIFT, VALUE_MAX,
)
from spbc.contract.protocol import Engine
from spbc.play import hooks
from spbc.play.scoring import ends_phase

if TYPE_CHECKING:
    from spbc.play.game import Game


@dataclass(slots=True)
class Announcement:
    """What the table knows of a move's rubles before it is played (one is made for every move played
    through the Game API: slots, not frozen, which makes it in half the time)."""

    seat: int  # the mover
    change: int  # the mover's rubles taken (positive) or paid (negative) by the move itself
    # each seat's income should the move end the phase's actions (its scoring then pays it); None for a move
    # that cannot end them (only a pass in a normal turn can)
    incomes: tuple[int, ...] | None
    when: tuple[int, str, str]  # the round, phase and stage before the move


def announce(game: Game, engine: Engine, code: int) -> Announcement:
    """What the table announces of the move ``code`` in the game as it stands (before the move), read from
    its engine (a buy's or play's price, every seat's forecast of the phase's scoring) without making a
    Move of the code unless a mechanic's move (a use, a points decision) is to say its own amount."""
    seat, phase, stage = game.current_player, game.phase, game.stage
    kind = MOVE_KINDS[code & KIND_MASK]
    change, incomes = 0, None
    if kind in ("buy", "play"):
        card, middle = (code >> CARD_SHIFT) & CARD_MASK, (code >> MIDDLE_SHIFT) & MIDDLE_MASK
        target = ((code >> TARGET_SHIFT) & CARD_MASK) - 1  # -1: it displaces none
        change = -engine.cost(seat, card, ROW_HAND if kind == "play" else middle, target)
    elif kind == "pass":
        if stage == "actions":
            index = game.ruleset.engine.PHASE_IDS.index(phase)
            incomes = tuple(engine.forecast(player, index)[0] for player in range(len(game.players)))
    elif kind in ("use", "points"):
        move = game.ruleset.decode(code)
        found = hooks.ability(game.ruleset.model, move.card or "", move.kind)
        if found is not None:
            change = found[1].announced_rubles(game, move, found[0])
    return Announcement(seat, change, incomes, (game.round, phase, stage))


def book(ledger: list[int], said: Announcement, after: Game) -> None:
    """Add an announced move's rubles to the ledger (by seat), now that it was played and the game is
    ``after``: the move's own, then a scoring's incomes if the move ended the phase's actions."""
    ledger[said.seat] = _capped(ledger[said.seat] + said.change)
    if said.incomes is not None and ends_phase(said.when, after):
        for seat, income in enumerate(said.incomes):
            ledger[seat] = _capped(ledger[seat] + income)


def _capped(rubles: int) -> int:
    """Rubles as the engine keeps them: a total stops at VALUE_MAX, where scoring stops too."""
    return min(rubles, VALUE_MAX)
