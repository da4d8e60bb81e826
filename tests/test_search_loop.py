"""Search seats (medium, hard at a fixed number of iterations) on the C game loop (spbc.ai.fastplay, issue 27):
the games of the Game API's SearchAgent, seed for seed, in spb sim and in the balance lab, the same report on
one process or two."""

from __future__ import annotations

import pytest

from spbc.ai import fastplay
from spbc.ai.agents import EASY_NOISE, NOVICE_NOISE, search_inputs
from spbc.ai.budget import ITERATIONS
from spbc.ai.sim import c_budgets, c_levels, c_loop, c_noises, play_game, play_games, rotated
from spbc.lab.report import make_report
from spbc.lab.run import Plan, play_batch, run_plans
from spbc.lang.load import shipped_names
from spbc.play.game import load_rules

#: Seat lists with search seats, small budgets: the default medium, hard at a fixed budget, with easy and random.
SEATS = [["medium", "medium"], ["hard@40it", "easy"], ["medium@25it", "random", "hard@30it"]]


def test_search_levels_with_iterations_are_c_loop_seats_and_time_budgets_are_not(compiled):
    assert c_levels(["medium", "hard@200it", "easy", "ai:random", "novice", "casual"]) == [2, 2, 1, 0, 1, 2]
    assert c_noises(["easy", "ai:novice", "random", "medium"]) == [EASY_NOISE, NOVICE_NOISE, 0.0, 0.0]
    assert c_budgets(["medium", "hard@200it", "easy", "ai:random"]) == [ITERATIONS["medium"], 200, 0, 0]
    assert c_budgets(["hard", "expert"]) == [ITERATIONS["hard"], ITERATIONS["expert"]]
    assert c_loop(compiled, ["medium", "hard@200it"]) and c_loop(compiled, ["hard", "easy"])
    assert not c_loop(compiled, ["hard@2s", "easy"]) and not c_loop(compiled, ["hard@50ms", "medium"])


@pytest.mark.parametrize("seats", SEATS, ids=[",".join(s) for s in SEATS])
def test_the_c_loop_plays_the_search_agents_games_seed_for_seed(compiled, seats):
    """Each game (its moves, scores, ranks, decisions and iterations by seat) is the one play_game plays with
    spbc.ai.agents.SearchAgent seeded by the agent seed, move for move."""
    games, seed = (3, 40) if seats == ["medium", "medium"] else (4, 900)
    looped = list(play_games(compiled, seats, games, seed))
    assert looped == [play_game(compiled, rotated(seats, n), seed + n)[1] for n in range(games)]
    for result in looped:
        for level, decisions, searched, iterations in zip(result.levels, result.decisions, result.searched,
                                                          result.iterations):
            budget = c_budgets([level])[0]
            assert searched == (decisions if budget else 0) and iterations == budget * decisions


def test_a_search_game_is_the_same_every_time_it_is_played(compiled):
    inputs = search_inputs(compiled)
    capsule = compiled.engine.c_api()
    first, again = (fastplay.lab_games(capsule, [2, 2], 0, 77, 2, 0.0, [60, 60], inputs) for _ in range(2))
    assert first == again


def test_a_search_seat_needs_its_budget_and_inputs(compiled):
    capsule = compiled.engine.c_api()
    with pytest.raises(ValueError, match="search seat"):
        fastplay.lab_games(capsule, [2, 0], 0, 1, 1)
    with pytest.raises(ValueError, match="search seat"):
        fastplay.lab_games(capsule, [2, 0], 0, 1, 1, 0.0, [0, 0], search_inputs(compiled))


def test_the_lab_plays_the_game_apis_games_with_search_seats(compiled):
    seats = ("medium@30it", "easy", "hard@20it")
    c_loop_tally = play_batch(Plan("base", "compiled", seats, 6, 3), 0, 6)
    game_api = play_batch(Plan("base", "compiled", seats, 6, 3, fast=False), 0, 6)
    assert c_loop_tally == game_api and c_loop_tally.rows == game_api.rows
    assert c_loop_tally.games == 6 and sum(c_loop_tally.events) > 6 * 20


@pytest.mark.slow  # a pool of two processes
def test_a_report_with_medium_seats_is_the_same_on_one_process_and_two(compiled):
    plan = Plan("base", "compiled", ("medium", "medium"), 8, 21, batch_size=2)
    texts = []
    for jobs in (1, 2):
        outcomes = run_plans([plan], jobs=jobs)
        assert all(o.complete for o in outcomes)
        texts.append(make_report([compiled], outcomes).text())
    assert texts[0] == texts[1]
    assert "base: 8 games, seats medium,medium rotated" in texts[0] and "C loop" in texts[0]


@pytest.mark.slow  # every shipped ruleset, through the Game API too
@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_ruleset_plays_the_search_agents_games_on_the_c_loop(name):
    ruleset = load_rules(name, "compiled")
    if ruleset.backend != "compiled":
        pytest.skip("the compiled engine is not in use here")
    game = ruleset.model.game
    for players in sorted({max(2, game.min_players), min(4, game.max_players)}):
        seats = ["medium@20it", "hard@15it", "easy", "random"][:players]
        assert c_loop(ruleset, seats)
        looped = list(play_games(ruleset, seats, 2, 300))
        assert looped == [play_game(ruleset, rotated(seats, n), 300 + n)[1] for n in range(2)]
