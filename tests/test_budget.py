"""A computer level as a value (spbc.ai.budget): parsed once, written back by str, and refused with the reason."""

from __future__ import annotations

import pytest

from spbc.ai.agents import SearchAgent, make_agent
from spbc.ai.budget import ITERATIONS, Budget, Level


@pytest.mark.parametrize("text, level", [
    ("hard", Level("hard", Budget(iterations=ITERATIONS["hard"]))),
    ("expert", Level("expert", Budget(iterations=ITERATIONS["expert"]))),
    ("ai:expert@2s", Level("expert", Budget(seconds=2.0))),
    ("ai:hard@2s", Level("hard", Budget(seconds=2.0))),
    ("hard@500ms", Level("hard", Budget(seconds=0.5))),
    ("hard@1.5s", Level("hard", Budget(seconds=1.5))),
    ("medium", Level("medium", Budget(iterations=ITERATIONS["medium"]))),
    ("medium@5000it", Level("medium", Budget(iterations=5000))),
    ("easy", Level("easy")),
    ("ai:random", Level("random")),
])
def test_a_level_parses_into_its_name_and_budget_and_writes_back(text, level):
    assert Level.parse(text) == level
    assert Level.parse(str(level)) == level
    assert str(level) == text.removeprefix("ai:")


def test_a_budget_round_trips_its_notation():
    for text in ("2s", "500ms", "5000it", "1ms", "600s", "1.5s"):
        assert str(Budget.parse(text)) == text
        assert Budget.parse(str(Budget.parse(text))) == Budget.parse(text)


@pytest.mark.parametrize("make, problem", [
    (lambda: Budget(), "at least 1 iteration or 1 ms"),
    (lambda: Budget(iterations=5, seconds=1.0), "one of them"),
    (lambda: Budget(seconds=601), "at most 600 s"),
    (lambda: Budget.parse("fast"), "written @2s, @500ms or @5000it"),
    (lambda: Level("genius"), "unknown computer level 'genius'"),
    (lambda: Level("easy", Budget(iterations=3)), "takes no budget"),
    (lambda: Level("hard"), "takes a budget"),
])
def test_a_budget_or_level_that_cannot_be_is_refused(make, problem):
    with pytest.raises(ValueError, match=problem):
        make()


def test_make_agent_takes_the_value_and_the_search_spends_its_budget():
    agent = make_agent(Level.parse("hard@40it"), 3)
    assert isinstance(agent, SearchAgent) and agent.budget == Budget(iterations=40)
    assert agent.name == "hard@40it" and make_agent("ai:hard@40it", 3).budget == agent.budget


def test_every_search_level_defaults_to_iterations_each_more_than_the_one_below():
    budgets = [Level.parse(name).budget for name in ("medium", "hard", "expert")]
    assert all(budget is not None and budget.iterations > 0 and budget.seconds == 0 for budget in budgets)
    counts = [budget.iterations for budget in budgets if budget is not None]
    assert counts == sorted(counts) and len(set(counts)) == 3
    assert isinstance(make_agent("expert", 1), SearchAgent) and make_agent("expert", 1).budget == budgets[2]
