"""The one table every frontend drives (spbc.table.table): whose turn it is, how computer seats and
standing orders move, refusals, undo against computers, and what a seat or a spectator sees.

The last test is a frontend of its own, written against Table alone, that plays whole games.
"""

from __future__ import annotations

import pytest

from spbc.play.game import Game
from spbc.play.moves import PASS, IllegalMoveError, MalformedMoveError, Move
from spbc.table.events import Mover, Played
from spbc.table.seats import parse_seats
from spbc.table.table import Seeding, Table, TurnError, UndoBlock, UndoRefused


def _table(ruleset, players: str = "Anna,ai:random", seed: int = 3, **options) -> Table:
    seats = parse_seats(players)
    return Table(ruleset.new_game([seat.name for seat in seats], seed), seats, agent_seed=seed, **options)


def test_submit_refuses_out_of_turn_and_gives_the_notations_errors(ruleset):
    table = _table(ruleset, "Anna,Boris")
    on_turn = table.on_turn
    assert on_turn is not None
    other = 1 - on_turn
    with pytest.raises(TurnError) as refused:
        table.submit(other, "pass")
    assert refused.value.seat == other and refused.value.on_turn == on_turn
    with pytest.raises(MalformedMoveError):
        table.submit(on_turn, "fly to the moon")
    before = table.game.state_values()
    with pytest.raises(IllegalMoveError) as illegal:
        table.submit(on_turn, "buy upper Observatory")
    assert illegal.value.reason and illegal.value.context  # the structured error, as the notation gives it
    assert table.game.state_values() == before and table.history.moves == []


def test_advance_plays_the_computers_until_a_person_is_on_turn(ruleset):
    table = _table(ruleset, "ai:random,Anna")
    events = table.advance()
    assert table.waiting_for() == 1
    played = [e for e in events if isinstance(e, Played)]
    assert played and all(e.seat == 0 and e.mover is Mover.COMPUTER and e.computer for e in played)
    assert table.advance() == []  # a person is on turn: nothing more needs nobody
    assert table.log == events


def test_per_move_seeding_plays_as_a_stored_game_reloaded_between_moves(ruleset):
    """A table made anew for every move (as the mail server makes one) plays the same game as one kept."""
    kept = _table(ruleset, "ai:random,ai:easy", seeding=Seeding.PER_MOVE)
    kept.advance()
    assert kept.game.is_over
    seats = parse_seats("ai:random,ai:easy")
    game: Game = ruleset.new_game([seat.name for seat in seats], 3)
    moves = 0
    while not game.is_over:
        table = Table(game, seats, agent_seed=3, seeding=Seeding.PER_MOVE, earlier=moves)
        table.step()
        game, moves = table.game, table.moves
    assert game.state_values() == kept.game.state_values()


class _AlwaysPass:
    def order_move(self, game: Game, seat: int) -> Move | None:
        return PASS if PASS in game.legal_moves() else None


def test_standing_orders_play_for_a_person_and_say_so(ruleset):
    table = _table(ruleset, "Anna,Boris", orders=_AlwaysPass())
    events = table.advance()
    orders = [e for e in events if isinstance(e, Played)]
    assert orders and all(e.mover is Mover.ORDER and e.text == "pass" for e in orders)


def test_act_for_a_late_person_passes_or_plays_as_the_level(ruleset):
    table = _table(ruleset, "Anna,Boris")
    seat = table.on_turn
    assert seat is not None
    events = table.act_for(seat, "random", pass_first=True)
    played = [e for e in events if isinstance(e, Played)]
    assert [e.text for e in played] == ["pass"] and played[0].mover is Mover.DEADLINE
    table = _table(ruleset, "Anna,Boris")
    events = table.act_for(seat, "random", pass_first=False)
    assert table.on_turn != seat or table.game.is_over
    assert all(e.mover is Mover.DEADLINE for e in events if isinstance(e, Played))


def test_undo_takes_back_a_persons_move_and_the_computers_answers(ruleset):
    # seed 2: the computer's answers to Anna's pass draw no card (a refill would block the undo)
    table = _table(ruleset, "Anna,ai:random", seed=2, undo=True)
    table.advance()
    with pytest.raises(UndoRefused) as nothing:
        table.undo()
    assert nothing.value.block is UndoBlock.NONE
    start = table.game.state_values()
    seat = table.waiting_for()
    assert seat is not None
    table.submit(seat, table.legal(seat)[0][0])
    table.advance()
    taken = table.undo()
    assert taken and table.game.state_values() == start and table.history.moves == [] and table.log == []


def test_undo_is_refused_where_other_people_play(ruleset):
    table = _table(ruleset, "Anna,Boris", undo=True)
    seat = table.on_turn
    assert seat is not None
    table.submit(seat, "pass")
    with pytest.raises(UndoRefused) as refused:
        table.undo()
    assert refused.value.block is UndoBlock.OTHERS and refused.value.names


def test_a_seat_sees_its_own_hand_and_a_spectator_none(ruleset):
    table = _table(ruleset, "Anna,Boris")
    seat = table.on_turn
    assert seat is not None
    assert table.view(seat).moves == table.legal(seat) != ()
    assert table.view(1 - seat).moves == () and table.legal(1 - seat) == ()
    public = table.public_view()
    assert all(player.hand is None for player in public.players)


def test_a_frontend_written_against_the_table_alone_plays_whole_games(ruleset):
    """The shape of a third frontend: advance, show the person on turn their moves, submit one."""
    for seed in range(3):
        table = _table(ruleset, "Anna,ai:random,Boris", seed=seed)
        shown = 0
        while not table.game.is_over:
            shown += len(table.advance())
            seat = table.waiting_for()
            if seat is None:
                continue
            screen = table.view(seat)
            shown += len(table.submit(seat, screen.moves[-1][0]))
        assert table.on_turn is None and table.waiting_for() is None
        assert shown == len(table.log) and len(table.history.moves) == table.moves
