"""benchmarks/rollouts.py: players named with changed settings, and a short run of it."""

from __future__ import annotations

import argparse
from types import ModuleType

import bench_script
import pytest

from spbc.ai.agents import CLAMPED, Settings


@pytest.fixture(scope="module")
def rollouts() -> ModuleType:
    return bench_script.load("rollouts")


def test_a_player_is_a_named_setting_with_changes_after_a_colon(rollouts):
    assert rollouts.player("light") == Settings()
    assert rollouts.player("clamped") == CLAMPED
    changed = rollouts.player("light:exploration=1.2,squash=false,rollout=random")
    assert (changed.exploration, changed.squash, changed.rollout) == (1.2, False, "random")
    assert changed.margin_weight == Settings().margin_weight


@pytest.mark.parametrize("text, why", [
    ("fast", "'fast' is not one of"), ("light:speed=2", "'speed' is not a setting"),
    ("light:exploration=much", "exploration='much': not a float")])
def test_an_unknown_player_or_setting_is_refused_by_name(rollouts, text, why):
    with pytest.raises(argparse.ArgumentTypeError, match=why):
        rollouts.player(text)


def test_a_short_run_prints_both_players_and_the_share(rollouts, capsys):
    assert rollouts.main(["--games", "2", "--iterations", "20", "--a", "light:exploration=1.0", "--b", "clamped"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("light:exploration=1.0 vs clamped at 20 it, base, 2 games")
    assert "won" in printed and "mean margin" in printed
