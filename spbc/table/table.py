"""The table: one game with its seats, computer players, history and events, driven by every frontend.

A :class:`Table` knows whose turn it is and how each seat moves. A frontend (the terminal's
:class:`spbc.table.session.Session`, the mail server, a web page) only hands it what a person
typed, asks it to play the seats that need nobody, and renders the events it returns:

>>> table = Table(game, parse_seats("Anna,ai:random"), agent_seed=7)
>>> events = table.advance()             # computer seats and standing orders, until a person is on turn
>>> events = table.submit(0, "pass")     # a move in the notation; MoveError or TurnError when refused
>>> screen = table.view(0)               # what seat 0 may see, its moves priced when it is on turn

Every event returned holds only what the whole table may see (:mod:`spbc.table.events`), so a
frontend may stream them to every seat and to spectators; :meth:`view` is one seat's, and
:meth:`public_view` a spectator's, with no hand and no secret rubles.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from spbc.ai.agents import Agent, make_agent
from spbc.ai.analyze import Hint, hint
from spbc.ai import seeds
from spbc.play.game import Game, GameTooLongError
from spbc.play.moves import PASS, Move, MoveKind
from spbc.play.notation import format_move, parse_move
from spbc.play.observe import observe
from spbc.play.view import GameView, own_view
from spbc.table.events import Event, Mover, Played, table_events
from spbc.table.screen import Offer, Screen, build_screen, priced_offers
from spbc.table.seats import Seat, SeatError

LegalMoves = tuple[tuple[str, int | None], ...]  # each legal move in notation, with what it costs


class Seeding(StrEnum):
    """How a table makes its computer players (:func:`spbc.ai.seeds.agent_seed` either way)."""

    PER_SEAT = "per-seat"  # one agent a computer seat for the whole sitting, seeded by the seat's index
    PER_MOVE = "per-move"  # a new agent for every move, seeded by the moves played: for a game stored between moves


class StandingOrders(Protocol):
    """What a person asked to be played for them without being asked (the mail server's orders)."""

    def order_move(self, game: Game, seat: int) -> Move | None:
        """The move seat's orders make now (seat is on turn), or None: the person is asked."""
        ...


class TurnError(ValueError):
    """A move submitted for a seat that is not on turn (or after the game's end)."""

    def __init__(self, seat: int, on_turn: int | None) -> None:
        self.seat = seat
        self.on_turn = on_turn  # None: the game is over
        super().__init__("the game is over" if on_turn is None else f"seat {on_turn} is on turn, not seat {seat}")


class UndoBlock(StrEnum):
    """Why undo takes nothing back."""

    OTHERS = "others"  # other people play at this table: a move of theirs is not one's own to take back
    DRAWN = "drawn"  # a card was drawn since (an ability's draw): taking back would show the next card
    REFILL = "refill"  # the board was refilled from a deck since
    NONE = "none"  # nothing to take back yet


class UndoRefused(Exception):
    """Undo took nothing back; ``block`` says why, with the names or the move and the cards drawn."""

    def __init__(self, block: UndoBlock, names: tuple[str, ...] = (), move: str = "", drawn: int = 0) -> None:
        self.block, self.names, self.move, self.drawn = block, names, move, drawn
        super().__init__(block.value)


@dataclass
class History:
    """The moves played at this table (after ``earlier``, those that led to a loaded game), and where
    each seat last moved."""

    moves: list[tuple[int, Move, str]] = field(default_factory=list)  # seat, move, notation
    last_seen: dict[int, int] = field(default_factory=dict)  # seat -> index after its last move

    def since(self, seat: int) -> list[tuple[int, str]]:
        """(seat, notation) of the others' moves since seat last moved."""
        start = self.last_seen.get(seat, 0)
        return [(mover, text) for mover, _, text in self.moves[start:] if mover != seat]

    def add(self, seat: int, move: Move, text: str) -> None:
        self.moves.append((seat, move, text))
        self.last_seen[seat] = len(self.moves)

    def truncate(self, length: int) -> None:
        del self.moves[length:]
        self.last_seen = {}
        for index, (seat, _, _) in enumerate(self.moves):
            self.last_seen[seat] = index + 1


@dataclass
class _Snapshot:
    """The table just before a person's move, with everything needed to go back to it."""

    game: Game
    agents: dict[int, Agent]
    moves: int
    logged: int


@dataclass(frozen=True)
class _Position:
    """What every seat's screen of one position shares (Table._position): the game and its key (the
    engine's state and the last move), the spectator's view and the board's prices."""

    game: Game
    key: tuple[list[int], Move | None]
    view: GameView
    offers: tuple[Offer, ...]


class Table:
    """One game at one table. ``agent_seed`` seeds the computer players (:class:`Seeding`); ``earlier``
    counts the moves played before this table took the game over (a loaded or stored game);
    ``orders`` play for people who gave standing orders; ``undo`` keeps what undo needs."""

    def __init__(self, game: Game, seats: Sequence[Seat], *, agent_seed: int,
                 seeding: Seeding = Seeding.PER_SEAT, earlier: int = 0,
                 orders: StandingOrders | None = None, undo: bool = False) -> None:
        if len(seats) != len(game.players):
            raise SeatError(f"{len(seats)} seats for a game of {len(game.players)} players")
        self.game = game
        self.seats = tuple(seats)
        self.agent_seed = agent_seed
        self.seeding = seeding
        self.earlier = earlier
        self.orders = orders
        self.agents: dict[int, Agent] = {
            index: make_agent(seat.level, seeds.agent_seed(self.agent_seed, index))
            for index, seat in enumerate(self.seats) if seat.level is not None and seeding is Seeding.PER_SEAT
        }
        self.history = History()
        self.log: list[Event] = []  # every event returned so far (undo takes its share back)
        self._keeps_undo = undo
        self._undo: list[_Snapshot] = []
        self._barrier: UndoRefused | None = None  # why undo cannot go further back, once it cannot
        self._public: _Position | None = None  # see _position

    # --- reading -------------------------------------------------------------------------

    @property
    def moves(self) -> int:
        """The moves of the whole game so far, those before this table included."""
        return self.earlier + len(self.history.moves)

    @property
    def on_turn(self) -> int | None:
        """The seat on turn, or None once the game is over."""
        return None if self.game.is_over else self.game.current_player

    @property
    def people(self) -> list[int]:
        """The seats people play, in seat order."""
        return [index for index, seat in enumerate(self.seats) if not seat.computer]

    def waiting_for(self) -> int | None:
        """The person whose move the table waits for (after :meth:`advance`), or None."""
        seat = self.on_turn
        return seat if seat is not None and not self.seats[seat].computer else None

    def legal(self, seat: int) -> LegalMoves:
        """Seat's legal moves in notation with what each costs; none when seat is not on turn."""
        if seat != self.on_turn:
            return ()
        ruleset = self.game.ruleset
        return tuple((format_move(move, ruleset), self.game.cost(move)) for move in self.game.legal_moves())

    def view(self, seat: int, recent: bool = True) -> Screen:
        """What seat sees: its view of the game, the board priced for it, its legal moves, and (with
        ``recent``) the others' moves at this table since it last moved."""
        moves = tuple((self.seats[mover].name, text) for mover, text in self.history.since(seat)) if recent else ()
        position = self._position()
        return build_screen(self.game, seat, self.legal(seat), moves, view=own_view(self.game, position.view, seat),
                            offers=position.offers)

    def _position(self) -> _Position:
        """The spectator's view of the game and the board priced for the seat on turn, read once for each
        position (the game, its engine's state and its last move) however many seats look at it (a mail
        server writes to each seat after a move): each seat's view is made from it, only the seat's own
        player read anew (:func:`own_view`); prices are public, the same for every reader."""
        game = self.game
        key = (game.state_values(), game.last_move())
        if self._public is None or self._public.game is not game or self._public.key != key:
            view = game.view(None)
            self._public = _Position(game, key, view, priced_offers(game, view, view.current_player))
        return self._public

    def public_view(self) -> GameView:
        """What a spectator may see: no hand, no secret rubles, no deck order."""
        return self.game.view(None)

    # --- playing -------------------------------------------------------------------------

    def submit(self, seat: int, text: str) -> list[Event]:
        """Play a move seat's person wrote in the notation; the events it caused.

        Raises TurnError when seat is not on turn, and the notation's MoveError (malformed, ambiguous,
        illegal: it carries the text, the reason and who, when) when the move cannot be played.
        """
        if seat != self.on_turn:
            raise TurnError(seat, self.on_turn)
        move = parse_move(text, self.game)
        snapshot = _Snapshot(self.game.clone(), copy.deepcopy(self.agents), len(self.history.moves),
                             len(self.log)) if self._keeps_undo else None
        return self.play(seat, move, Mover.PERSON, snapshot)

    def play(self, seat: int, move: Move, mover: Mover, snapshot: _Snapshot | None = None) -> list[Event]:
        """Play a move for seat (on turn) and book it: the history, the undo barrier, the events.
        Raises the notation's MoveError, changing nothing, for a move the rules do not allow now."""
        before = self.game.clone()
        self.game.play(move)
        if snapshot is not None:  # the state to go back to, unless this very move draws a card
            self._undo.append(snapshot)
        text = format_move(move, self.game.ruleset)
        self.history.add(seat, move, text)
        events: list[Event] = [Played(seat, self.seats[seat].name, text, self.seats[seat].computer, mover)]
        events += table_events(before, self.game, seat, move)
        drawn = _cards_drawn(before, self.game)
        if drawn:
            self._undo.clear()
            block = UndoBlock.DRAWN if move.kind is MoveKind.USE else UndoBlock.REFILL
            self._barrier = UndoRefused(block, move=text, drawn=drawn)
        self.log += events
        return events

    def computer_move(self, seat: int, level: str | None = None) -> Move:
        """The move a computer player of level (seat's own, if a computer seat) makes for seat now."""
        agent = self.agents.get(seat) if level is None else None
        if agent is None:
            chosen = level or self.seats[seat].level
            if chosen is None:
                raise ValueError(f"seat {seat} is a person's and no level was given")
            agent = make_agent(chosen, seeds.agent_seed(self.agent_seed, self.moves))
        return self.game.ruleset.decode(agent.choose(observe(self.game, seat, self.moves)))

    def step(self) -> list[Event]:
        """Play one move that needs nobody (a computer seat's, or a standing order's): its events;
        none when a person is to move or the game is over."""
        seat = self.on_turn
        if seat is None:
            return []
        if self.moves >= self.game.ruleset.move_limit:  # undo shortens the history, never the bound
            raise GameTooLongError(f"the game did not end within {self.game.ruleset.move_limit} moves, "
                                   "more than the rules allow any game: an engine bug")
        if self.seats[seat].computer:
            return self.play(seat, self.computer_move(seat), Mover.COMPUTER)
        move = self.orders.order_move(self.game, seat) if self.orders is not None else None
        return [] if move is None else self.play(seat, move, Mover.ORDER)

    def advance(self) -> list[Event]:
        """Play every move that needs nobody, until a person is on turn or the game is over."""
        events: list[Event] = []
        while True:
            played = self.step()
            if not played:
                return events
            events += played

    def act_for(self, seat: int, level: str, pass_first: bool) -> list[Event]:
        """A person did not move in time: play their turn for them, passing where passing is legal
        (with ``pass_first``), else as a computer player of level, until their turn ends or they pass."""
        events: list[Event] = []
        while self.on_turn == seat:
            move = PASS if pass_first and PASS in self.game.legal_moves() else self.computer_move(seat, level)
            events += self.play(seat, move, Mover.DEADLINE)
            if move == PASS:
                break
        return events

    # --- undo and hints --------------------------------------------------------------------

    def undo(self) -> list[str]:
        """Take back the last move of the person on turn and the computers' answers to it; the moves
        taken back, in notation. Raises UndoRefused when nothing can be taken back."""
        others = tuple(self.seats[i].name for i in self.people if i != self.game.current_player)
        if others:
            raise UndoRefused(UndoBlock.OTHERS, names=others)
        if not self._undo:
            raise self._barrier or UndoRefused(UndoBlock.NONE)
        snapshot = self._undo.pop()
        taken = [text for _, _, text in self.history.moves[snapshot.moves:]]
        self.game, self.agents = snapshot.game, snapshot.agents
        self.history.truncate(snapshot.moves)
        del self.log[snapshot.logged:]
        return taken

    def hint(self, level: str) -> Hint:
        """What a search of level would play for the seat on turn, from that seat's observation only.
        Raises RuntimeError where there is no search (the pure-Python engine)."""
        return hint(self.game, self.moves, level, seeds.agent_seed(self.agent_seed, self.moves))


def _cards_drawn(before: Game, after: Game) -> int:
    """How many cards left the decks between two states (refills and ability draws)."""
    old, new = before.deck_sizes(), after.deck_sizes()
    return sum(max(old[deck] - new[deck], 0) for deck in old)
