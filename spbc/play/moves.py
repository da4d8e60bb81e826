"""Moves: every decision a player takes, as a value the engine, the notation and records share."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from typing_extensions import Self

from spbc.play.refusal import Refusal, Situation, TableLike, compose, say, say_situation, situation_of, speaker


class MoveKind(str, Enum):
    PASS = "pass"
    BUY = "buy"  # from the upper or lower row, or the card an ability drew ("drawn")
    TAKE = "take"  # into the hand, from a row or the drawn card
    PLAY = "play"  # from the hand into the play area
    USE = "use"  # an action of the ability of card `card` (drawing from `deck`, where it draws)
    DISCARD = "discard"  # the card an ability drew
    POINTS = "points"  # a decision of the ability of card `card` after a scoring: buy `amount` points


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
    target: str | None = None  # the card a trading card displaces; for USE, the card an ability takes (from the discard pile) or a special card's play names
    deck: str | None = None  # USE: the deck drawn from, for an ability that draws
    amount: int | None = None  # POINTS: how many points are bought


PASS = Move(MoveKind.PASS)

# The fields each kind of move has, as legal_moves() gives them: (always, sometimes).
_FIELDS = {
    MoveKind.PASS: ((), ()),
    MoveKind.BUY: (("card", "row"), ("target",)),
    MoveKind.TAKE: (("card", "row"), ()),
    MoveKind.PLAY: (("card",), ("target",)),
    MoveKind.USE: (("card",), ("deck", "target")),
    MoveKind.DISCARD: (("card", "row"), ()),
    MoveKind.POINTS: (("card", "amount"), ()),
}


def _shown(value: object) -> str:
    """A field's value for a message, shortened past 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:30] + "..." + text[-6:]


def move_problem(move: object) -> str | None:
    """Why a value is not a whole move (a Move whose kind has exactly its fields, ids as text,
    an amount as a whole number), or None. It says nothing of the rules or the position:
    a whole move may still name an unknown card or be illegal now.

    >>> move_problem(Move(MoveKind.POINTS, card="pub", amount=True))
    'amount True is not a number of points'
    """
    if not isinstance(move, Move):
        return f"{_shown(move)} is not a Move"
    if not isinstance(move.kind, MoveKind):  # "buy" == MoveKind.BUY, but it is no kind of move
        return f"kind {_shown(move.kind)} is not a MoveKind"
    always, sometimes = _FIELDS[move.kind]
    for name in ("card", "row", "target", "deck", "amount"):
        value = getattr(move, name)
        if value is None:
            if name in always:
                return f"a {move.kind.value} move names its {name}"
        elif name not in always + sometimes:
            return f"a {move.kind.value} move has no {name}"
        elif name == "amount" and (type(value) is not int or value < 0):
            return f"amount {_shown(value)} is not a number of points"
        elif name != "amount" and type(value) is not str:
            return f"{name} {_shown(value)} is not an id"
    if move.row is not None and move.row not in ROWS:
        return f"row {_shown(move.row)} is none of {', '.join(ROWS)}"
    if move.kind is MoveKind.DISCARD and move.row != "drawn":
        return "only a drawn card is discarded"
    return None


def _quoted(text: str, most: int = 60) -> str:
    """The text as a quoted literal for messages, shortened in its middle past most characters."""
    if len(text) <= most:
        return repr(text)
    return repr(text[:most - 20]) + "..." + repr(text[-12:])


class MoveError(ValueError):
    """A move a player typed or sent cannot be played. ``text`` is what they wrote, if anything.

    ``refusal`` is the reason as a value (spbc.play.refusal) and ``situation`` who was to move and when;
    ``reason`` and ``context`` are both in English, and ``str()`` is the English message. :meth:`say`
    gives the message in another language. An error made from English text alone (``refusal`` None)
    says that text in every language.
    """

    def __init__(self, message: str, text: str | None = None, context: str | None = None, *,
                 refusal: Refusal | None = None, situation: Situation | None = None) -> None:
        self.reason = message
        self.text = text
        self.context = context  # who, which round and phase: "Anna, round 3, building phase"
        self.refusal = refusal if refusal is not None else Refusal.of("said", text=message)
        self.situation = situation
        super().__init__(self._whole(message, context, "en"))

    def _whole(self, reason: str, context: str | None, language: str) -> str:
        return compose(_quoted(self.text) if self.text is not None else None, reason, context, language)

    def say(self, game: TableLike, language: str) -> str:
        """The whole message in a language (one of spbc.play.refusal.LANGUAGES), the game's names in it:
        the game is the one the move was refused in (its rules and players)."""
        context = say_situation(self.situation, game, language) if self.situation else self.context
        return self._whole(say(self.refusal, game, language), context, language)

    @classmethod
    def refused(cls, refusal: Refusal, game: Any, text: str | None = None, **extra: Any) -> Self:
        """The error of a refusal in a game now (its English message said from the refusal)."""
        situation = situation_of(game)
        english = speaker(game, "en")
        return cls(english.say(refusal), text=text, context=say_situation(situation, game), refusal=refusal,
                   situation=situation, **extra)


class MalformedMoveError(MoveError):
    """The text does not read as a move at all."""


class AmbiguousMoveError(MoveError):
    """The text could mean several moves; ``candidates`` lists them in notation."""

    def __init__(self, message: str, candidates: list[str], text: str | None = None,
                 context: str | None = None, *, refusal: Refusal | None = None,
                 situation: Situation | None = None) -> None:
        self.candidates = candidates
        super().__init__(message, text, context, refusal=refusal, situation=situation)


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow now; the message says why."""
