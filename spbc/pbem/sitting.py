"""One game while a mail, a tick or an operator's command changes it: its rows and its table.

A :class:`Sitting` drives the one :class:`spbc.table.table.Table`: the server hands it a person's
move (:meth:`Sitting.submit`) and lets it play what needs nobody (:meth:`Sitting.advance`), and
books what the table returns into the store (:func:`book`): each move, the public lines of the
log, whose turn it is since when, the end of the game. The table makes a new computer player for
every move (the game is stored between moves) and plays the seats' standing orders.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spbc.pbem.hints import Hint
from spbc.pbem.orders import SeatOrders, current_orders
from spbc.pbem.states import GameStatus, MoveSource
from spbc.pbem.store import GameRow, SeatRow, Store
from spbc.pbem.text import event_lines
from spbc.pbem.wording import in_every_language
from spbc.play.game import Game
from spbc.table.events import Event, Mover, NewPhase, Played
from spbc.table.seats import Seat
from spbc.table.table import LegalMoves, Seeding, Table


#: How the store says a move was made, by who made it at the table.
SOURCE_OF = {Mover.PERSON: MoveSource.MAIL, Mover.COMPUTER: MoveSource.COMPUTER, Mover.ORDER: MoveSource.ORDER,
             Mover.DEADLINE: MoveSource.DEADLINE}


@dataclass
class Sitting:
    """One game while it changes: its rows, its table and the replies gathered for each seat."""

    row: GameRow
    seats: list[SeatRow]
    table: Table
    changed: bool = False
    phase_ended: bool = False
    lines: dict[int, list[str]] = field(default_factory=dict)  # seat -> reply lines for that seat
    said: int = 0  # the say lines of the mail sent so far
    hint: Hint | None = None  # the hint searched before the mail's transaction
    hints: int = 0  # the hint lines of the mail answered so far
    log_start: int = 0  # the game's last log line when the sitting began: what observers have been told

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def moves(self) -> int:
        """The moves of the game so far."""
        return self.table.moves

    def legal(self, seat: int) -> LegalMoves:
        return self.table.legal(seat)


def open_sitting(row: GameRow, seats: list[SeatRow], game: Game, moves: int, hint: Hint | None = None) -> Sitting:
    """The sitting of a stored game: ``moves`` played so far, its seats' orders as they stand."""
    return Sitting(row, seats, table_of(row, seats, game, moves), hint=hint)


def table_of(row: GameRow, seats: list[SeatRow], game: Game, moves: int) -> Table:
    """The table of a stored game, ``moves`` into it."""
    return Table(game, [Seat(seat.name, seat.level) for seat in seats],
                 agent_seed=row.agent_seed, seeding=Seeding.PER_MOVE, earlier=moves, orders=SeatOrders(seats))


def book(sitting: Sitting, store: Store, now: float, events: list[Event]) -> None:
    """Write what the table did into the store: each move and the public lines it caused, the time
    the seat on turn has been on turn since, the phase ended, the end of the game."""
    row = sitting.row
    moves = [index for index, event in enumerate(events) if isinstance(event, Played)]
    if not moves:
        return
    first = sitting.moves - len(moves) + 1  # the number of the first move booked here
    for number, (start, end) in enumerate(zip(moves, moves[1:] + [len(events)]), first):
        played = events[start]
        assert isinstance(played, Played)
        after = events[start + 1:end]
        store.add_move(row.id, number, played.seat, played.text, SOURCE_OF[played.mover])
        deadline = played.mover is Mover.DEADLINE
        model = sitting.game.ruleset.model
        for line, said in in_every_language(lambda words: [
                words("log_move", number=number, name=played.name, move=played.text,
                      tag=words("at_deadline") if deadline else ""),
                *(line for event in after for line in event_lines(event, words, model))]):
            store.add_log(row.id, line, said)
        following = events[end] if end < len(events) else None
        next_seat = following.seat if isinstance(following, Played) else sitting.table.on_turn
        if next_seat is None or any(isinstance(event, NewPhase) for event in after):
            sitting.phase_ended = True
        if next_seat != played.seat or deadline:  # a move made at the deadline starts the next turn's clock
            row.turn_since = now
            row.reminded = row.late = False
    sitting.changed = True
    for seat in sitting.seats:  # a pass-phase order ends with its phase
        seat.orders = current_orders(seat.orders, sitting.game)
    if sitting.game.is_over:
        row.status = GameStatus.OVER
        for line, said in in_every_language(lambda words: [words("log_over")]):
            store.add_log(row.id, line, said)


def submit(sitting: Sitting, store: Store, now: float, seat: int, text: str) -> str:
    """Play a person's move (MoveError when it cannot be) and book it; the move in notation."""
    events = sitting.table.submit(seat, text)
    book(sitting, store, now, events)
    played = events[0]
    assert isinstance(played, Played)
    return played.text


def advance(sitting: Sitting, store: Store, now: float) -> None:
    """Play every move that needs nobody (computer seats, standing orders) while the game is active."""
    if sitting.row.status is GameStatus.ACTIVE:
        book(sitting, store, now, sitting.table.advance())


def act_for_late(sitting: Sitting, store: Store, now: float, seat: int, pass_first: bool, level: str) -> None:
    """The deadline policy plays the late seat's turn (spbc.table.table.Table.act_for), then the others."""
    book(sitting, store, now, sitting.table.act_for(seat, level, pass_first))
    advance(sitting, store, now)
