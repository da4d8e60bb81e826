"""House rules are rules files: each setting a variant changes reaches the engine, the twin and the view."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import spbc
from spbc.contract.rng import rng_below
from spbc.source.locate import rules_dir
from spbc.play.moves import Move, MoveKind


def variant(folder: Path, *edits: tuple[str, str]) -> Path:
    """A copy of the shipped rules with each (old, new) text replaced once; its main file."""
    target = folder / "rules"
    shutil.copytree(rules_dir(), target)
    for old, new in edits:
        for path in sorted(target.rglob("*.spb")):
            text = path.read_text(encoding="utf-8")
            if old in text:
                path.write_text(text.replace(old, new, 1), encoding="utf-8")
                break
        else:
            raise AssertionError(f"{old!r} is not in the rules")
    return target / "base.spb"


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
def second_edition_opening(tmp_path_factory):
    folder = tmp_path_factory.mktemp("second")
    return variant(folder, ("    symbols            = [wood, gold, wool, fur, ship]",
                            "    symbols            = [wood, gold, wool, fur, ship]\n    first_phase_must_buy = yes"))


def test_the_second_editions_opening_forces_purchases_in_the_first_worker_phase(second_edition_opening):
    rules = spbc.load_rules(second_edition_opening, backend="python")
    game = rules.new_game(2, seed=4)
    kinds = {move.kind for move in game.legal_moves()}
    assert kinds == {MoveKind.BUY}
    with pytest.raises(spbc.IllegalMoveError, match="you may not pass now"):
        game.play(Move(MoveKind.PASS))
    while game.phase == "worker" and game.round == 1:
        moves = game.legal_moves()
        assert all(m.kind in (MoveKind.BUY, MoveKind.PLAY) for m in moves) or moves == [Move(MoveKind.PASS)]
        game.play(moves[0])
    assert Move(MoveKind.PASS) in game.legal_moves()  # from the building phase on, passing is allowed again


@pytest.mark.slow  # a Cython build; test_backend builds one variant in the default run
def test_the_second_editions_opening_compiles_and_agrees_with_its_twin(second_edition_opening, tmp_path, monkeypatch):
    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path / "cache"))
    compiled = spbc.load_rules(second_edition_opening, backend="compiled")
    twin = spbc.load_rules(second_edition_opening, backend="python")
    assert compiled.backend == "compiled"
    for seed in range(20):
        a, b = compiled.engine.Engine.new(3, seed), twin.engine.Engine.new(3, seed)
        rng = [seed]  # the state of the engine's generator
        while a.legal_moves():
            assert a.state() == b.state() and a.legal_moves() == b.legal_moves()
            legal = a.legal_moves()
            move = legal[rng_below(rng, len(legal))]
            a.play(move)
            b.play(move)


def test_open_rubles_show_every_players_money_in_every_view(tmp_path):
    rules = spbc.load_rules(variant(tmp_path, ("open_rubles        = no", "open_rubles        = yes")),
                            backend="python")
    game = random_game(rules, 3, seed=2, moves=40)
    for seat in range(3):
        assert [p.rubles for p in game.view(seat).players] == [game.rubles(s) for s in range(3)]
        assert [p.hand is None for p in game.view(seat).players] == [s != seat for s in range(3)]


def test_a_pub_cap_per_player_instead_of_per_pub(tmp_path):
    rules = spbc.load_rules(variant(tmp_path, ("        per              = card", "        per              = player")),
                            backend="python")
    from scenario import Scenario

    game = (Scenario(rules, players=2).give(0, "pub").give(0, "pub").rubles(0, 30)
            .phase("building").current(0).build())
    while game.stage != "points":
        game.play(Move(MoveKind.PASS))
    assert max(m.amount for m in game.legal_moves()) == 5  # 10 with the printed per-Pub cap


def test_second_edition_costs_reach_the_price(tmp_path):
    rules = spbc.load_rules(variant(tmp_path, ('''    deck    = building
    cost    = 6
    copies  = 2
    points  = 1''', '''    deck    = building
    cost    = 7
    copies  = 2
    points  = 1''')), backend="python")
    from scenario import Scenario

    game = Scenario(rules, players=2).upper(["observatory"]).rubles(0, 7).phase("building").current(0).build()
    assert game.cost(Move(MoveKind.BUY, card="observatory", row="upper")) == 7


def test_markers_move_two_seats_and_five_players_play_to_the_end(tmp_path):
    rules = spbc.load_rules(variant(tmp_path, ("players            = 2..4", "players            = 2..5"),
                                    ("opening_per_player = 2", "opening_per_player = 1"),
                                    ("marker_shift       = 1", "marker_shift       = 2")), backend="python")
    game = rules.new_game(5, seed=9)
    before = game.markers()
    while game.round == 1:
        game.play(game.legal_moves()[-1])
    assert game.markers() == {phase: (seat + 2) % 5 for phase, seat in before.items()}
    finished = random_game(rules, 5, seed=1)
    assert finished.is_over and len(finished.standings()) == 5
