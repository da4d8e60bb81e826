"""The shipped variants play by their rules: each setting a variant changes reaches the engine,
the twin and the view (scenario tests with exact numbers)."""

from __future__ import annotations

from pathlib import Path

import pytest

import spbc
from spbc.contract.rng import rng_below
from spbc.play.moves import Move, MoveKind

from scenario import PASS, Scenario, buy, pass_until


def random_game(ruleset, players: int, seed: int, moves: int = 100_000):
    game = ruleset.new_game(players, seed)
    rng = [seed]  # the state of the engine's generator
    for _ in range(moves):
        if game.is_over:
            break
        legal = game.legal_moves()
        game.play(legal[rng_below(rng, len(legal))])
    return game


@pytest.fixture(scope="module")
def second_edition():
    return spbc.load_rules("second_edition", backend="python")


def test_the_second_editions_opening_forces_purchases_in_the_first_worker_phase(second_edition):
    game = second_edition.new_game(2, seed=4)
    kinds = {move.kind for move in game.legal_moves()}
    assert kinds == {MoveKind.BUY}
    with pytest.raises(spbc.IllegalMoveError, match="you may not pass now"):
        game.play(Move(MoveKind.PASS))
    while game.phase == "worker" and game.round == 1:
        moves = game.legal_moves()
        assert all(m.kind in (MoveKind.BUY, MoveKind.PLAY) for m in moves) or moves == [Move(MoveKind.PASS)]
        game.play(moves[0])
    assert Move(MoveKind.PASS) in game.legal_moves()  # from the building phase on, passing is allowed again


def test_second_edition_costs_reach_the_price(second_edition):
    game = (Scenario(second_edition, players=2).upper(["observatory", "judge"]).lower(["mistress_of_ceremonies"])
            .rubles(0, 40).phase("building").current(0).build())
    assert game.cost(buy("observatory")) == 7
    assert game.cost(buy("judge")) == 17
    assert game.cost(buy("mistress_of_ceremonies", "lower")) == 20 - 1  # the lower row's discount
    assert second_edition.model.card("mariinskij_theater").cost == 15


def test_second_edition_names_and_the_old_names_still_read(second_edition):
    from spbc.play.notation import format_move, parse_move

    game = Scenario(second_edition, players=2).upper(["pope"]).rubles(0, 40).phase("building").current(0).build()
    assert format_move(Move(MoveKind.TAKE, card="pope", row="upper"), second_edition) == "take upper Abbot"
    assert parse_move("take pope", game) == parse_move("take abbot", game) == Move(MoveKind.TAKE, card="pope", row="upper")


def test_open_information_shows_every_players_money_in_every_view():
    rules = spbc.load_rules("open-information", backend="python")
    game = random_game(rules, 3, seed=2, moves=40)
    for seat in range(3):
        assert [p.rubles for p in game.view(seat).players] == [game.rubles(s) for s in range(3)]
        assert [p.hand is None for p in game.view(seat).players] == [s != seat for s in range(3)]


def test_the_pub_cap_per_player_instead_of_per_pub():
    rules = spbc.load_rules("pub_per_player", backend="python")
    game = (Scenario(rules, players=2).give(0, "pub").give(0, "pub").rubles(0, 30)
            .phase("building").current(0).build())
    while game.stage != "points":
        game.play(PASS)
    assert max(m.amount for m in game.legal_moves()) == 5  # 10 with the printed per-Pub cap


@pytest.mark.parametrize(("players", "size"), [(2, 4), (3, 6), (4, 8)])
def test_the_scaled_display_tops_the_board_up_by_the_number_of_players(players, size):
    rules = spbc.load_rules("scaled_display", backend="python")
    game = Scenario(rules, players=players).upper([]).lower(["lumberjack"]).phase("trading").markers(0).build()
    pass_until(game, "worker", round=2)
    assert len(game.row("upper")) + len(game.row("lower")) == size  # the refill of round 2's worker phase
    start = rules.new_game(players, seed=3)
    assert len(start.row("upper")) == 2 * players  # the opening display: 2 workers per player


def test_markers_move_two_seats_and_five_players_play_to_the_end(tmp_path: Path):
    path = tmp_path / "five.spb"
    path.write_text('extends "base"\nruleset five { title = "Five" }\n'
                    "override game { players = 2..5  opening_per_player = 1  marker_shift = 2 }\n", encoding="utf-8")
    rules = spbc.load_rules(path, backend="python")
    game = rules.new_game(5, seed=9)
    before = game.markers()
    while game.round == 1:
        game.play(game.legal_moves()[-1])
    assert game.markers() == {phase: (seat + 2) % 5 for phase, seat in before.items()}
    finished = random_game(rules, 5, seed=1)
    assert finished.is_over and len(finished.standings()) == 5
