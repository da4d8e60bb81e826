"""Moves: every decision a player takes, as a value the engine, the notation and records share."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class MoveKind(str, Enum):
    PASS = "pass"
    BUY = "buy"  # from the upper or lower row, or the card an ability drew ("drawn")
    TAKE = "take"  # into the hand, from a row or the drawn card
    PLAY = "play"  # from the hand into the play area
    USE = "use"  # a draw_action ability: draw from `deck` with the ability card `card`
    DISCARD = "discard"  # the card an ability drew
    POINTS = "points"  # a buy_points ability: buy `amount` points with the ability card `card`


ROWS = ("upper", "lower", "drawn")


@dataclass(frozen=True)
class Move:
    """One decision. Card, deck and row values are ids of the ruleset (``"gold_miner"``).

    >>> Move(MoveKind.BUY, card="wharf", row="upper", target="ship_builder")
    Move(kind=<MoveKind.BUY: 'buy'>, card='wharf', row='upper', target='ship_builder', deck=None, amount=None)
    """

    kind: MoveKind
    card: str | None = None  # the card bought, taken, played or discarded; the ability card for USE and POINTS
    row: str | None = None  # BUY and TAKE: "upper", "lower" or "drawn"
    target: str | None = None  # the card a trading card displaces
    deck: str | None = None  # USE: the deck drawn from
    amount: int | None = None  # POINTS: how many points are bought


PASS = Move(MoveKind.PASS)


def _quoted(text: str, most: int = 60) -> str:
    """The text as a quoted literal for messages, shortened in its middle past most characters."""
    if len(text) <= most:
        return repr(text)
    return repr(text[:most - 20]) + "..." + repr(text[-12:])


class MoveError(ValueError):
    """A move a player typed or sent cannot be played. ``text`` is what they wrote, if anything."""

    def __init__(self, message: str, text: str | None = None, context: str | None = None) -> None:
        self.reason = message
        self.text = text
        self.context = context  # who, which round and phase: "Anna, round 3, building phase"
        parts = [f"{_quoted(text)}: " if text is not None else "", message]
        if context:
            parts.append(f" ({context})")
        super().__init__("".join(parts))


class MalformedMoveError(MoveError):
    """The text does not read as a move at all."""


class AmbiguousMoveError(MoveError):
    """The text could mean several moves; ``candidates`` lists them in notation."""

    def __init__(self, message: str, candidates: list[str], text: str | None = None,
                 context: str | None = None) -> None:
        self.candidates = candidates
        super().__init__(message, text, context)


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow now; the message says why."""
