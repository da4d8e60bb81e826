"""A seat's view made from the spectator's (spbc.play.view.own_view) is the seat's own view, in every shipped
ruleset and position; a table reads the spectator's view once for each position and never shows a seat a
view of an older one (after a move, an undo, a game put in its place)."""

from __future__ import annotations

import random

import pytest

import spbc
from spbc.lang.load import shipped_names
from spbc.play.view import own_view, view_of
from spbc.table.seats import parse_seats
from spbc.table.table import Table, UndoRefused


@pytest.mark.parametrize("name", shipped_names())
def test_a_seat_view_made_from_the_spectators_is_the_seats_own(name):
    ruleset = spbc.load_rules(name)
    rng = random.Random(name)
    for players in (2, 3, 4):
        game = ruleset.new_game([f"P{n}" for n in range(players)], rng.randrange(10**6))
        for _ in range(60):
            public = view_of(game, None)
            for seat in range(players):
                made = own_view(game, public, seat)
                assert made == view_of(game, seat), (name, players, seat)
                assert [p.hand is not None for p in made.players] == [p == seat for p in range(players)]
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))


def test_a_seat_view_is_made_for_a_seat_from_a_spectators_view(ruleset):
    game = ruleset.new_game(["Anna", "Boris"], 5)
    with pytest.raises(ValueError):
        own_view(game, view_of(game, 0), 1)  # not a spectator's
    with pytest.raises(ValueError):
        own_view(game, view_of(game, None), 2)  # no such seat


def test_a_table_shows_each_seat_the_position_as_it_stands(ruleset):
    seats = parse_seats("Anna,ai:random,ai:random")
    table = Table(ruleset.new_game([seat.name for seat in seats], 11), seats, agent_seed=11, undo=True)
    rng, undone = random.Random(2), 0
    for _ in range(60):
        table.advance()
        for seat in range(3):
            assert table.view(seat).view == view_of(table.game, seat)
        if table.game.is_over:
            break
        if rng.random() < 0.3:  # Anna's last move and the computers' answers taken back
            try:
                table.undo()
                undone += 1
            except UndoRefused:
                pass
            for seat in range(3):
                assert table.view(seat).view == view_of(table.game, seat)
        table.submit(0, rng.choice(table.legal(0))[0])
    assert undone
    table.game = ruleset.new_game(["Anna", "Boris", "Clara"], 12)  # another game in its place
    assert all(table.view(seat).view == view_of(table.game, seat) for seat in range(3))


@pytest.mark.parametrize("name", ["base", "new_society", "banquet"])
def test_a_view_read_after_a_move_is_of_the_new_position(name):
    """A game keeps the state it read for a view until the next move (spbc.play.state.GameState._kept): a
    view read after each move, with views of the old position read before it, equals the view of a
    fresh copy of the game, whose reads never saw an older state."""
    ruleset = spbc.load_rules(name)
    rng = random.Random(7)
    game = ruleset.new_game(["P0", "P1", "P2"], 4242)
    for _ in range(200):
        if game.is_over:
            break
        view_of(game, None)  # the old position's state is kept
        game.play(rng.choice(game.legal_moves()))
        fresh = ruleset.game_from_json(game.to_json())
        for seat in (None, 0, 1, 2):
            assert view_of(game, seat) == view_of(fresh, seat), (name, seat)
        assert game.state_values() == fresh.state_values()
