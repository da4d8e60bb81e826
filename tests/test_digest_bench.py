"""benchmarks/digest.py: the digest of a seeded game in its C loop is that of the game spbc.ai.sim plays;
benchmarks/playouts.py: two runs of one install compute the same playouts and searches."""

from __future__ import annotations

import json
import sys
from types import ModuleType

import bench_script
import pytest
from bench_script import BENCHMARKS

from spbc.ai.sim import play_game

FNV_OFFSET, FNV_PRIME, MASK64 = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1


@pytest.fixture(scope="module")
def digest() -> ModuleType:
    return bench_script.load("digest")


def _fnv(h: int, value: int) -> int:
    value &= 0xFFFFFFFF
    for _ in range(4):
        h = ((h ^ (value & 0xFF)) * FNV_PRIME) & MASK64
        value >>= 8
    return h


def _digest_of_sim_game(ruleset, level: str, players: int, seed: int) -> int:
    codes: list[int] = []
    game, result = play_game(ruleset, [level] * players, seed, on_move=lambda _game, code: codes.append(code))
    h = FNV_OFFSET
    for code in codes:
        h = _fnv(h, code)
    h = _fnv(h, result.rounds)
    for p in range(players):
        h = _fnv(h, game._engine.final_score(p))
        h = _fnv(h, game._engine.tie_break(p))
    return h | 1


@pytest.mark.slow  # builds the digest loop with Cython
@pytest.mark.parametrize("level", ["random", "easy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_game_digest_is_that_of_the_sim_game(compiled, digest, level, players):
    loop = digest.build_loop()
    got = loop.game_digests(compiled.engine.c_api(), players, 40, 4, level == "easy", 2.0)
    assert got == [_digest_of_sim_game(compiled, level, players, seed) for seed in range(40, 44)]


@pytest.mark.slow  # builds the digest loop with Cython
@pytest.mark.parametrize("rules", ["base", "banquet", "new_society"])
def test_every_saved_game_of_the_one_way_agent_seeds_is_played_again(digest, rules, capsys):
    saved = BENCHMARKS / f"digests-agentseeds-{rules}.json"
    assert digest.main(["--rules", rules, "--compare", str(saved)]) == 0
    assert capsys.readouterr().out.count("identical") == 6


@pytest.mark.slow  # builds the digest loop with Cython
def test_compare_finds_a_changed_game(digest, tmp_path, capsys):
    saved = tmp_path / "saved.json"
    args = ["--players", "2", "--games", "30", "--easy-games", "0"]
    assert digest.main([*args, "--save", str(saved)]) == 0
    assert digest.main([*args, "--compare", str(saved)]) == 0
    lines = json.loads(saved.read_text())
    lines["base 2 players random"]["digest"] = "0" * 64
    lines["base 2 players random"]["blocks"] = ["0" * 16]
    saved.write_text(json.dumps(lines))
    assert digest.main([*args, "--compare", str(saved)]) == 1
    assert "DIFFERENT, first in the games of block 0" in capsys.readouterr().out


@pytest.mark.slow  # builds the digest loop with Cython and runs the script twice in processes of its own
def test_before_runs_another_install_in_turn_and_compares_its_digests(digest, capsys):
    args = ["--players", "2", "--games", "20", "--easy-games", "2", "--repeats", "1"]
    assert digest.main([*args, "--before", sys.executable]) == 0
    out = capsys.readouterr().out
    assert "base 2 players random" in out and "base 2 players easy" in out
    assert out.count("digests identical") == 2 and "games/CPU-s after/before" in out


@pytest.mark.slow  # runs the search in processes of their own
def test_playouts_bench_compares_two_runs_of_an_install(capsys):
    module = bench_script.load("playouts")
    args = ["--players", "2", "--states", "12", "--playouts", "2", "--iterations", "50", "--repeats", "1"]
    assert module.main([*args, "--before", sys.executable]) == 0
    out = capsys.readouterr().out
    assert out.count("results identical") == 2 and "playouts" in out and "search iterations" in out
