"""The states and kinds the server keeps, each a StrEnum whose values are what the store holds.

A value read from the store becomes its enum where the row is read (:mod:`spbc.pbem.store`), so no
code above the store compares against a bare string; the values are those every version of the
store has written, so an old store reads as it is.
"""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    """Where a game stands."""

    ACTIVE = "active"  # moves are taken
    PAUSED = "paused"  # by its administrator; resumed later
    ABORTED = "aborted"  # given up by its administrator, for good
    OVER = "over"  # played to its end

    @property
    def ended(self) -> bool:
        """Whether the game takes no more changes of status."""
        return self in (GameStatus.OVER, GameStatus.ABORTED)


class MailOption(StrEnum):
    """When a person is mailed about the others' moves."""

    MOVE = "move"  # a mail after every change
    PHASE = "phase"  # on their turn and at each phase's end (a digest)


class MailKind(StrEnum):
    """What a queued mail is."""

    REPLY = "reply"  # the answer to a person's or the administrator's mail
    UPDATE = "update"  # the game moved on: the reader's screen
    WELCOME = "welcome"  # a new seat's or the administrator's secret, the rules, how to play
    NOTICE = "notice"  # a reminder, a late player, a seat given to another address
    REFUSAL = "refusal"  # a mail that changed nothing, answered without quoting it
    MESSAGE = "message"  # one player's words to the others


class MailState(StrEnum):
    """Where a queued mail stands."""

    PENDING = "pending"  # to be sent (again, after a temporary failure, from its next_try on)
    SENT = "sent"
    FAILED = "failed"  # refused for good (a permanent SMTP failure): set aside, never tried again
    DROPPED = "dropped"  # given up by the operator (spb pbem outbox --drop)


class MoveSource(StrEnum):
    """How a stored move was made (the moves table's ``how``)."""

    MAIL = "mail"  # a person's mail
    COMPUTER = "computer"  # a computer seat
    ORDER = "order"  # the person's standing order
    DEADLINE = "deadline"  # the game's policy, at the person's deadline


class PolicyKind(StrEnum):
    """What a game does for a person who has not moved by the deadline (a policy ``ai:LEVEL`` is COMPUTER)."""

    WAIT = "wait"  # nothing: the others are told, and the game waits
    PASS = "pass"  # a pass where passing is legal, else a random computer's move
    COMPUTER = "ai:"  # a computer player of the level plays the turn

    @staticmethod
    def of(policy: str) -> PolicyKind:
        """The kind of a policy as stored: "wait", "pass" or "ai:LEVEL"; ValueError for another."""
        if policy.startswith(PolicyKind.COMPUTER.value):
            return PolicyKind.COMPUTER
        return PolicyKind(policy)
