"""spb sim on the engine's C loop (spbc.ai.fastplay): the games and figures of the Game API's path, seed for seed."""

from __future__ import annotations

import dataclasses
import json

import pytest
from typer.testing import CliRunner

from spbc.ai import sim
from spbc.ai.sim import GameResult, LevelSummary, c_loop, play_game, play_games, rotated, summarize
from spbc.frontends.cli import app
from spbc.play.game import Ruleset, load_rules
from spbc.lang.load import shipped_names

runner = CliRunner()

#: Seat lists by player count: random and easy seats mixed (the public ledger of rubles kept), and all random.
SEATS = {2: [["easy", "random"], ["random", "random"], ["novice", "easy"]],
         3: [["random", "easy", "ai:easy"], ["random"] * 3],
         4: [["easy", "random", "novice", "random"], ["random"] * 4]}


def _game_api(ruleset: Ruleset, seats: list[str], games: int, seed: int) -> list[GameResult]:
    """The run of play_games played game by game through the Game API (play_game), as before the C loop."""
    return [play_game(ruleset, rotated(seats, number), seed + number)[1] for number in range(games)]


def _untimed(summaries: list[LevelSummary]) -> list[LevelSummary]:
    """The summaries without their times per decision (the machine's, on either path)."""
    return [dataclasses.replace(summary, mean_seconds=0.0, max_seconds=0.0) for summary in summaries]


def _same_on_both_paths(ruleset: Ruleset, seats: list[str], games: int, seed: int) -> None:
    assert c_loop(ruleset, seats)
    looped = list(play_games(ruleset, seats, games, seed))
    assert looped == _game_api(ruleset, seats, games, seed)  # every field but the times
    assert _untimed(summarize(looped)) == _untimed(summarize(_game_api(ruleset, seats, games, seed)))
    for result in looped:
        assert len(result.seconds) == len(result.slowest) == len(seats)
        assert all(0 <= slowest <= seconds for seconds, slowest in zip(result.seconds, result.slowest))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_c_loop_plays_the_game_api_games_seed_for_seed(compiled, players):
    """issue 23 item 1: spb sim's random and easy seats played through observe and the agents, 540 games a
    CPU-second; the C loop plays the same games (every GameResult and every summary the same)."""
    for seats in SEATS[players]:
        _same_on_both_paths(compiled, seats, 120, 1000 * players + 7)


@pytest.mark.slow  # about a minute: every shipped ruleset through the Game API
@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_ruleset_plays_the_same_games_on_both_paths(name):
    ruleset = load_rules(name, "compiled")
    if ruleset.backend != "compiled":
        pytest.skip("the compiled engine is not in use here")
    game = ruleset.model.game
    for players in range(max(2, game.min_players), min(4, game.max_players) + 1):
        for seats in SEATS[players]:
            _same_on_both_paths(ruleset, seats, 200, 77 * players)


def test_records_the_twin_and_timed_search_levels_go_through_the_game_api(compiled, twin, tmp_path):
    assert c_loop(compiled, ["easy", "random"]) and not c_loop(compiled, ["easy", "random"], tmp_path)
    assert not c_loop(twin, ["easy", "random"]) and not c_loop(compiled, ["hard@5ms", "random"])
    recorded = list(play_games(compiled, ["easy", "random"], 6, 40, records=tmp_path))
    assert recorded == list(play_games(compiled, ["easy", "random"], 6, 40))
    assert len(list(tmp_path.iterdir())) == 6
    assert list(play_games(twin, ["random", "easy"], 4, 3)) == list(play_games(compiled, ["random", "easy"], 4, 3))


def test_seeds_beyond_the_c_loop_go_through_the_game_api(compiled):
    seed = (1 << 63) - 2
    seats = ["random", "random"]
    assert not c_loop(compiled, seats, seeds=range(seed, seed + 3))
    assert list(play_games(compiled, seats, 3, seed)) == _game_api(compiled, seats, 3, seed)


def test_a_run_longer_than_a_chunk_keeps_seed_order(compiled):
    games = sim.C_CHUNK + 5
    results = list(play_games(compiled, ["random", "easy"], games, 2))
    assert [result.seed for result in results] == list(range(2, 2 + games))
    assert results[-5:] == _game_api(compiled, ["random", "easy"], games, 2)[-5:]


def test_spb_sim_says_which_path_runs():
    args = ["sim", "--seats", "easy,random", "--games", "3"]
    assert "(compiled engine) on the C loop," in runner.invoke(app, args).stdout.splitlines()[0]
    twin = runner.invoke(app, [*args, "--backend", "python"]).stdout.splitlines()[0]
    assert "(python engine) on the Game API," in twin
    shown = json.loads(runner.invoke(app, [*args, "--seats", "hard@5ms,random", "--json"]).stdout)
    assert shown["loop"] == "Game API"  # a search for a time: only iterations play on the C loop
    shown = json.loads(runner.invoke(app, [*args, "--seats", "medium@3it,random", "--json"]).stdout)
    assert shown["loop"] == "C loop"


@pytest.mark.slow  # a pool of processes
def test_the_c_loop_on_several_processes_gives_the_results_in_seed_order(compiled, monkeypatch):
    monkeypatch.setattr(sim, "C_CHUNK", 7)  # the chunks are cut by the parent: five of them
    alone = list(play_games(compiled, ["easy", "random", "random"], 33, 8))
    shared = list(play_games(compiled, ["easy", "random", "random"], 33, 8, jobs=2))
    assert shared == alone == _game_api(compiled, ["easy", "random", "random"], 33, 8)
    assert [result.seed for result in shared] == list(range(8, 41))


def test_the_game_api_path_observes_only_for_decisions(compiled, monkeypatch):
    """A forced move is played without an observation or a question to the seat (no agent draws on it)."""
    observed = []
    real = sim.observe
    monkeypatch.setattr(sim, "observe", lambda game, seat, moves: observed.append(seat) or real(game, seat, moves))
    _, result = play_game(compiled, ["easy", "medium@2it", "random"], 12)
    assert len(observed) == sum(result.decisions) < result.moves
    assert [observed.count(seat) for seat in range(3)] == result.decisions
