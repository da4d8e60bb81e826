"""The public ledger of rubles (spbc.play.ledger) is made of what the table announces: prices, a special card's
rubles, a buy-points decision, a scoring's incomes. In every shipped ruleset every ruble moves in public, so
the ledger equals each seat's rubles after every move; an amount no mechanic announces moves no ledger."""

from __future__ import annotations

import random

import pytest

import spbc
from spbc.lang.load import shipped_names
from spbc.mechanics.windfall.present import Present as Windfall
from spbc.play.moves import MoveKind


def _random_game(ruleset, players: int, seed: int):
    """(game, seat rubles, ledger) after each move of a random game."""
    rng = random.Random(seed)
    game = ruleset.new_game(players, seed=seed)
    while not game.is_over:
        move = rng.choice(game.legal_codes())
        game.play_code(move)
        yield game, [game.rubles(p) for p in range(players)], [game.public_rubles(p) for p in range(players)]


@pytest.mark.parametrize("name", shipped_names())
def test_the_announced_ledger_equals_the_rubles_in_every_shipped_ruleset(name):
    """30 random games a player count: every move's announced amounts add up to the real change."""
    ruleset = spbc.load_rules(name)
    kinds = set()
    for players in (2, 3, 4):
        for seed in range(30):
            for game, rubles, ledger in _random_game(ruleset, players, 100 * players + seed):
                assert ledger == rubles, (name, players, seed, game.round, game.phase, game.last_move())
                kinds.add(game.last_move().kind)
    assert {MoveKind.BUY, MoveKind.PASS} <= kinds


@pytest.mark.slow
@pytest.mark.parametrize("name", shipped_names())
def test_the_announced_ledger_holds_over_a_thousand_games(name):
    ruleset = spbc.load_rules(name)
    for seed in range(1000):
        for game, rubles, ledger in _random_game(ruleset, 2 + seed % 3, seed):
            assert ledger == rubles, (name, seed, game.round, game.phase, game.last_move())


def test_rubles_a_mechanic_does_not_announce_do_not_reach_the_ledger(monkeypatch):
    """Were the Banquet's windfall card's 5 rubles (the Golden Ass, ``cash``) taken in secret, its mechanic
    announcing none, the ledger of the seat that cashed it would stay 5 rubles short of its rubles for each
    time it did, and equal them before."""
    monkeypatch.setattr(Windfall, "announced_rubles", lambda self, game, move, effect: 0)
    ruleset = spbc.load_rules("banquet")
    cashed = 0
    for seed in range(60):
        for game, rubles, ledger in _random_game(ruleset, 2, seed):
            if game.last_move().kind is MoveKind.USE and game.last_move().card == "golden_ass":
                cashed += 1
            short = [real - known for real, known in zip(rubles, ledger)]
            assert all(gap % 5 == 0 and gap >= 0 for gap in short)
        if cashed:
            break
    assert cashed and any(short)


def test_a_loaded_game_starts_its_ledger_from_the_saved_rubles(ruleset):
    game = ruleset.new_game(2, seed=11)
    rng = random.Random(3)
    for _ in range(30):
        game.play_code(rng.choice(game.legal_codes()))
    loaded = ruleset.game_from_json(game.to_json())
    assert [loaded.public_rubles(p) for p in range(2)] == [game.rubles(p) for p in range(2)]
