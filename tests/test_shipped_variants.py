"""Every shipped variant: it checks, its generated engine is current, random games keep every
invariant, and its compiled engine and twin agree move for move.

The default run plays a few games of each; the slow tier plays 1,000 random games of each
with the invariant checks and 200 games on both engines side by side.
"""

from __future__ import annotations

import random

import pytest

import spbc
from spbc.build.compile import find_rulesets
from spbc.lang.load import load_model
from spbc.play.save import check_state
from spbc.source.locate import rules_dir

from test_twins import play_both

VARIANTS = [path.stem for path in find_rulesets(rules_dir()) if path.stem != "base"]
MOVE_LIMIT = 5000


@pytest.fixture(scope="module", params=VARIANTS)
def variant(request: pytest.FixtureRequest) -> tuple[spbc.Ruleset, spbc.Ruleset]:
    compiled = spbc.load_rules(request.param, backend="compiled")
    twin = spbc.load_rules(request.param, backend="python")
    return compiled, twin


def test_the_variants_are_shipped() -> None:
    assert {"open_information", "pub_per_player", "scaled_display", "second_edition", "new_society",
            "banquet"} <= set(VARIANTS)


@pytest.mark.parametrize("name", VARIANTS)
def test_each_variant_extends_a_shipped_ruleset_and_is_compiled_into_its_own_folder(name: str) -> None:
    model = load_model(name)
    assert model.name == name and model.base is not None
    rules = spbc.load_rules(name, backend="compiled")
    assert rules.backend == "compiled" and rules.name == name
    assert rules.engine.__name__.startswith(f"spbc.generated.{name}_")  # the shipped engine, not a cache build
    assert "generated" in rules.engine.__file__ and f"/{name}/" in rules.engine.__file__


def _count(ruleset: spbc.Ruleset, values: list[int]) -> int:
    f = {name: values[offset:offset + size] for name, offset, size in ruleset.engine.FIELDS}
    players = f["players"][0]
    total = sum(f["owned"][:players * len(ruleset.cards)]) + sum(f["discard"]) + sum(f["hand_size"][:players])
    total += f["upper_size"][0] + f["lower_size"][0] + sum(f["deck_size"]) + (1 if f["drawn"][0] >= 0 else 0)
    total += sum(f.get("feast", []))  # banquet: the feast cards lying on cards
    return total


def random_games(ruleset: spbc.Ruleset, games: int, players: list[int], full_check_every: int = 1) -> int:
    """Seeded random games to the end on the ruleset's raw engine; the moves played.

    After every move: every card is somewhere (the copies add up), no one's rubles are negative,
    and the engine's own guard accepts the state (Engine.load runs state_problem); every
    ``full_check_every`` moves and at the end, also the play layer's whole check of a saved state.
    """
    copies = sum(card.copies for card in ruleset.model.cards)
    fields = {name: (offset, size) for name, offset, size in ruleset.engine.FIELDS}
    rubles, _size = fields["rubles"]
    engine_cls = ruleset.engine.Engine
    moves = 0
    for seed in range(games):
        count = players[seed % len(players)]
        engine = engine_cls.new(count, seed)
        guard = engine_cls.new(count, seed)
        rng = random.Random(seed)
        for step in range(MOVE_LIMIT):
            codes = engine.legal_moves()
            if not codes:
                break
            engine.play(codes[rng.randrange(len(codes))])
            moves += 1
            values = list(engine.state())
            guard.load(values)  # ValueError when the engine's own guard finds a problem
            assert _count(ruleset, values) == copies, f"seed {seed}, move {step}: cards appeared or vanished"
            assert min(values[rubles:rubles + count]) >= 0
            if step % full_check_every == 0:
                assert check_state(ruleset, values, count) is None
        assert not engine.legal_moves(), f"seed {seed}: no end within {MOVE_LIMIT} moves"
        assert check_state(ruleset, list(engine.state()), count) is None
    return moves


def player_counts(ruleset: spbc.Ruleset) -> list[int]:
    return list(range(ruleset.model.game.min_players, ruleset.model.game.max_players + 1))


@pytest.mark.slow  # whole games of every variant on both engines
def test_a_few_random_games_of_each_variant_keep_the_invariants(variant) -> None:
    compiled, _twin = variant
    assert random_games(compiled, 8, player_counts(compiled)) > 8 * 50


def test_compiled_and_twin_agree_on_a_few_games_of_each_variant(variant) -> None:
    compiled, twin = variant
    for seed in range(6):
        players = player_counts(compiled)[seed % len(player_counts(compiled))]
        play_both(compiled.engine.Engine, twin.engine.Engine, players, seed)


@pytest.mark.slow
def test_a_thousand_random_games_of_each_variant_keep_the_invariants(variant) -> None:
    compiled, _twin = variant
    game = compiled.model.game
    counts = [game.max_players] if game.max_players > 4 else player_counts(compiled)  # new-society: 5 players
    assert random_games(compiled, 1000, counts, full_check_every=100) > 1000 * 50


@pytest.mark.slow
def test_compiled_and_twin_agree_move_for_move_on_200_games_of_each_variant(variant) -> None:
    compiled, twin = variant
    counts = player_counts(compiled)
    total = sum(play_both(compiled.engine.Engine, twin.engine.Engine, counts[seed % len(counts)], seed)
                for seed in range(200))
    assert total > 200 * 50
