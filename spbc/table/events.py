"""What happens at the table, as events a frontend renders: moves, screens, scorings, the end.

A :class:`spbc.table.session.Session` reports everything through these; :func:`table_events`
derives, from the states before and after a move, what the whole table sees happen besides
the move itself (a phase's scoring, points bought, the end of a round, the next phase, the
call of the last round). Every event holds only what every player may see, except
:class:`Turn` and :class:`BoardShown` (one seat's screen), :class:`Problem`, :class:`Note` and
:class:`MoveList`, which are for the player at the keyboard.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from spbc.play.game import Game, Standing
from spbc.play.moves import Move, MoveKind
from spbc.play.scoring import FinalScore, Income, phase_income, scored_phase
from spbc.table.screen import Screen
from spbc.table.seats import Seat


@dataclass(frozen=True)
class Started:
    """The game begins (or resumes from a saved game) in ``round`` and ``phase`` (a phase's name)."""

    ruleset: str
    seats: tuple[Seat, ...]
    seed: int
    resumed: bool
    round: int = 1
    phase: str = ""


@dataclass(frozen=True)
class NewPhase:
    """A phase began: the board was refilled from its deck, or a new round started."""

    round: int
    phase: str  # the phase's name, "Building phase"


@dataclass(frozen=True)
class PhaseScored:
    """A phase's actions ended and its scoring paid every player ``incomes`` (seat order)."""

    round: int
    phase: str  # the phase's name
    incomes: tuple[Income, ...]


@dataclass(frozen=True)
class PointsBought:
    """A player bought points with an ability card (``card``, its name) after a scoring."""

    seat: int
    name: str
    card: str
    points: int
    rubles: int


@dataclass(frozen=True)
class RoundEnded:
    """The round is over: the lower row was discarded, the upper row moved down, the markers passed.

    Cards are given by name, in row order; ``starters`` names who starts each phase of the
    next round, as (phase name, player name) in phase order.
    """

    round: int
    discarded: tuple[str, ...]
    moved: tuple[str, ...]
    starters: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class LastRound:
    """A refill took the last card of a deck (``decks``, by name): ``round`` is the last one."""

    round: int
    decks: tuple[str, ...]


@dataclass(frozen=True)
class Handover:
    """Several humans share the terminal: the next one should take the keyboard."""

    name: str


@dataclass(frozen=True)
class Turn:
    """A human is on turn: show their screen, then ask for a move."""

    screen: Screen


class Mover(StrEnum):
    """Who made a move for its seat."""

    PERSON = "person"  # the seat's person typed, mailed or clicked it
    COMPUTER = "computer"  # a computer seat
    ORDER = "order"  # the person's standing order
    DEADLINE = "deadline"  # the game's deadline policy, for a person who did not move in time


@dataclass(frozen=True)
class Played:
    """A move was played; ``text`` is the move in notation, ``mover`` who made it for the seat."""

    seat: int
    name: str
    text: str
    computer: bool
    mover: Mover = field(default=Mover.PERSON, compare=False)


@dataclass(frozen=True)
class Problem:
    """The input could not be used; ``message`` says why. The game goes on."""

    message: str


@dataclass(frozen=True)
class Note:
    """An answer to a command: help, undo, save."""

    text: str


@dataclass(frozen=True)
class TookBack(Note):
    """``undo`` took moves back (the text says which): the position changed, as after a move."""


@dataclass(frozen=True)
class MoveList:
    """The legal moves of the seat on turn with their costs, for the ``moves`` command."""

    name: str
    moves: tuple[tuple[str, int | None], ...]


@dataclass(frozen=True)
class Finished:
    """The game is over; ``record`` is where its record was written, if anywhere.

    ``scores`` break every final score down, in the order of the standings. The seed is
    told only now: it determines the order of every deck.
    """

    standings: tuple[Standing, ...]
    record: Path | None
    seed: int | None = None
    scores: tuple[FinalScore, ...] = ()


@dataclass(frozen=True)
class Stopped:
    """The game was left unfinished: ``reason`` is "end of input", "quit" or "interrupted".

    ``record`` is where the record of the moves so far was written, if anywhere (without
    the seed, which would tell the order of every deck).
    """

    reason: str
    context: str
    record: Path | None = None
    saved: Path | None = None  # where the game was saved to be continued (spb play --load), if it was
    secret: bool = False  # the save holds hands others at this terminal may not see


@dataclass(frozen=True)
class BoardShown:
    """The ``board`` command: the full board, phase table and players of the screen of the seat on turn."""

    screen: Screen


@dataclass(frozen=True)
class LogShown:
    """The ``log`` command: what the whole table saw happen since the game started here (moves,
    scorings, rounds), in order; nothing any one seat alone may see."""

    events: tuple[Event, ...]


Event = (Started | NewPhase | PhaseScored | PointsBought | RoundEnded | LastRound | Handover | Turn | Played
         | Problem | Note | MoveList | Finished | Stopped | BoardShown | LogShown)


def table_events(before: Game, after: Game, seat: int, move: Move) -> list[Event]:
    """What the table sees happen besides the move itself, in order: the phase's scoring, points
    bought, the end of the round, the next phase, the call of the last round."""
    model = after.ruleset.model
    events: list[Event] = []
    scored = scored_phase(before, after)
    if scored is not None:
        incomes = phase_income(before, scored)
        if any(phase.id == scored and phase.scores for phase in model.phases) or any(
                income.rubles or income.points for income in incomes):
            events.append(PhaseScored(before.round, phase_name(before), incomes))
    if move.kind is MoveKind.POINTS and move.amount:
        events.append(PointsBought(seat, after.players[seat], model.card(move.card or "").name,
                                   after.points(seat) - before.points(seat), before.rubles(seat) - after.rubles(seat)))
    if after.round != before.round and not after.is_over:
        names = {card.id: card.name for card in model.cards}
        starters = tuple((phase.name, after.players[after.markers()[phase.id]]) for phase in model.phases)
        events.append(RoundEnded(before.round, tuple(names[c] for c in before.row("lower")),
                                 tuple(names[c] for c in before.row("upper")), starters))
    if (before.round, before.phase) != (after.round, after.phase) and not after.is_over:
        events.append(NewPhase(after.round, phase_name(after)))
    if after.last_round and not before.last_round:
        empty = [deck.name for deck in model.decks if after.deck_sizes()[deck.id] == 0]
        events.append(LastRound(after.round, tuple(empty)))
    return events


def phase_name(game: Game) -> str:
    """The name of the game's current phase: "Building phase"."""
    return next(p.name for p in game.ruleset.model.phases if p.id == game.phase)
