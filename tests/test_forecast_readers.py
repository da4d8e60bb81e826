"""A forecast for a reader who cannot see a seat's rubles: made apart only where a mechanic's scoring reads rubles.

Game.forecasts skips the copy of the engine with "enough rubles for every upkeep" where no mechanic of the
ruleset says its scoring reads rubles (Presenter.FORECAST_READS_RUBLES). These tests hold the shortcut to what
it saves: over random games of every shipped ruleset, the forecast made from the copy is the one given.
"""

from __future__ import annotations

import random

import pytest

import spbc
from spbc.build.compile import find_rulesets
from spbc.play import hooks
from spbc.play.game import UPKEEP_ENOUGH, Game
from spbc.source.locate import rules_dir

RULESETS = sorted(path.stem for path in find_rulesets(rules_dir()))


def _from_a_copy(game: Game, seat: int, phases: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    """The forecast as the copy with enough rubles for every upkeep makes it."""
    engine = game._engine.clone()
    values = engine.state()
    values[game.ruleset._fields["rubles"][0] + seat] += UPKEEP_ENOUGH
    engine.load(values)
    ids = game.ruleset.engine.PHASE_IDS
    return {phase: engine.forecast(seat, ids.index(phase)) for phase in phases}


@pytest.mark.parametrize("name", RULESETS)
def test_a_hidden_reader_s_forecast_is_the_copy_s_forecast(name: str) -> None:
    ruleset = spbc.load_rules(name)
    phases = tuple(phase.id for phase in ruleset.model.phases if phase.scores)
    chooser = random.Random(name)
    for seed in range(12):
        game = ruleset.new_game(3, seed=seed)
        while not game.is_over:
            for seat in range(3):
                assert game.forecasts(seat, phases, False) == _from_a_copy(game, seat, phases)
            game.play(chooser.choice(game.legal_moves()))


def test_only_the_upkeep_mechanic_says_its_scoring_reads_rubles() -> None:
    readers = {type(part).__module__ for part in hooks.every_presenter() if part.FORECAST_READS_RUBLES}
    assert readers == {"spbc.mechanics.upkeep.present"}
