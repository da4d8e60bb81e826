"""Standing orders: what a person asks to be played for them without being asked.

``order pass phase`` passes for the rest of the phase it was given in; ``order pass broke`` passes
whenever no buy and no play is legal; ``order keep VERB`` never asks the person only because an
ability (whose use costs its card that round's income) could be used. An order is an :class:`Order`;
the store keeps it as the text :func:`format_order` writes and :func:`parse_order` reads, the form
every version of the store has kept ("pass-phase:2:building", "pass-broke", "keep:observe").

>>> parse_order("pass-phase:2:building")
Order(kind=<OrderKind.PASS_PHASE: 'pass-phase'>, round=2, phase='building', verb='')
>>> format_order(parse_order("keep:observe"))
'keep:observe'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from typing_extensions import override

from spbc.play.game import Game, Ruleset
from spbc.play.moves import PASS, Move, MoveKind
from spbc.play.words import vocabulary_of


class OrderKind(StrEnum):
    PASS_PHASE = "pass-phase"  # pass for the rest of one phase of one round
    PASS_BROKE = "pass-broke"  # pass whenever no buy and no play is legal
    KEEP = "keep"  # an ability whose use is never a reason to ask


@dataclass(frozen=True)
class Order:
    """One standing order: its kind, the round and phase of a pass-phase order, the verb of a keep order."""

    kind: OrderKind
    round: int = 0
    phase: str = ""
    verb: str = ""

    @override
    def __str__(self) -> str:
        return format_order(self)


def parse_order(text: str) -> Order:
    """An order from its stored text; ValueError for a text no store holds."""
    kind, _, rest = text.partition(":")
    if kind == OrderKind.PASS_PHASE and rest.count(":") == 1:
        round_, phase = rest.split(":")
        return Order(OrderKind.PASS_PHASE, int(round_), phase)
    if kind == OrderKind.PASS_BROKE and not rest:
        return Order(OrderKind.PASS_BROKE)
    if kind == OrderKind.KEEP and rest:
        return Order(OrderKind.KEEP, verb=rest)
    raise ValueError(f"not a standing order: {text!r}")


def format_order(order: Order) -> str:
    """The stored text of an order (parse_order reads it back)."""
    if order.kind is OrderKind.PASS_PHASE:
        return f"{order.kind.value}:{order.round}:{order.phase}"
    if order.kind is OrderKind.KEEP:
        return f"{order.kind.value}:{order.verb}"
    return order.kind.value


def describe_order(order: Order) -> str:
    """The order as a person reads it in a mail."""
    if order.kind is OrderKind.PASS_PHASE:
        return f"pass for the rest of the {order.phase} phase of round {order.round}"
    if order.kind is OrderKind.PASS_BROKE:
        return "pass whenever no buy and no play is legal"
    return f"never be asked only because {order.verb} could be used (its card keeps its income)"


def keep_verbs(ruleset: Ruleset) -> list[str]:
    """The verbs of abilities whose use costs the card its income that round (keep VERB orders)."""
    words = vocabulary_of(ruleset)
    return sorted(words.verb_of[card] for card, effect in words.abilities.values()
                  if getattr(effect, "used_idle", False))


def order_of_words(words: Sequence[str], game: Game) -> Order | None:
    """The order a line ``order WORDS`` gives (words in lower case) at the game's position, or None."""
    if list(words) == ["pass", "phase"]:
        return Order(OrderKind.PASS_PHASE, game.round, game.phase)
    if list(words) == ["pass", "broke"]:
        return Order(OrderKind.PASS_BROKE)
    if len(words) == 2 and words[0] == "keep" and words[1] in keep_verbs(game.ruleset):
        return Order(OrderKind.KEEP, verb=words[1])
    return None


def current_orders(orders: Sequence[Order], game: Game) -> list[Order]:
    """The orders that still hold at the game's position: a pass-phase order ends with its phase."""
    return [order for order in orders if order.kind is not OrderKind.PASS_PHASE
            or (order.round, order.phase) == (game.round, game.phase)]


def order_move(game: Game, orders: Sequence[Order]) -> Move | None:
    """The move orders make now for the seat on turn, or None (the person is asked). A person is never
    passed only because passing is all they can do: the pass, and when it comes, would tell the others
    that they cannot pay for any card shown. A pass by an order is logged as a chosen one."""
    legal = game.legal_moves()
    if PASS not in legal:
        return None
    words = vocabulary_of(game.ruleset)
    kept = {words.abilities[order.verb][0] for order in orders
            if order.kind is OrderKind.KEEP and order.verb in words.abilities}
    considered = [m for m in legal if not (m.kind is MoveKind.USE and m.card in kept)]
    if Order(OrderKind.PASS_PHASE, game.round, game.phase) in orders:
        return PASS
    if Order(OrderKind.PASS_BROKE) in orders and not any(m.kind in (MoveKind.BUY, MoveKind.PLAY) for m in considered):
        return PASS
    if kept and considered == [PASS] and len(legal) > 1:
        return PASS
    return None


class Ordering(Protocol):
    """A seat that keeps standing orders (spbc.pbem.store.SeatRow)."""

    orders: list[Order]


class SeatOrders:
    """The standing orders of every seat of a game as they stand, as a table plays them
    (spbc.table.table.StandingOrders)."""

    def __init__(self, seats: Sequence[Ordering]) -> None:
        self.seats = seats  # in seat order

    def order_move(self, game: Game, seat: int) -> Move | None:
        return order_move(game, self.seats[seat].orders)
