"""The engines' random generator has one Python definition (spbc.contract.rng), which the twin prints.

Its C translation is written once too, in the contract's pxd (spbc/contract/engine_api.pxd), which every
.pyx cimports. That the compiled engine draws the same numbers is tested through its playouts
(test_game_api) and the cimported generator (test_engine_pxd).
"""

from __future__ import annotations

from pathlib import Path

import spbc
import spbc.contract
from spbc.ai.agents import RandomAgent
from spbc.play.observe import observe
from spbc.contract.rng import generator_doc, python_source, rng_below, rng_next
from spbc.source.locate import generated_dir


def test_the_generator_gives_the_published_splitmix64_numbers():
    x = [0]
    assert [rng_next(x) for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    x = [2**64 - 1]
    assert rng_next(x) < 2**64 and x[0] == 0x9E3779B97F4A7C14


def test_below_maps_onto_every_number_under_n_and_no_other():
    x = [5]
    drawn = [rng_below(x, 7) for _ in range(2000)]
    assert set(drawn) == set(range(7))
    assert all(rng_below(x, 1) == 0 for _ in range(100))


def test_the_twin_prints_the_generator_of_the_contract():
    twin = (generated_dir() / "base" / "twin.py").read_text(encoding="utf-8")
    assert python_source() in twin
    assert python_source().startswith("def rng_next(x):\n") and "def rng_below(x, n):\n" in python_source()



def test_the_c_generator_is_the_contracts_one_definition_cimported_by_every_pyx():
    """SplitMix64 in C is written once, in the contract's pxd (with the docstring of the Python one); the
    engines, the search and the lab cimport it and write no copy of their own."""
    contract = (Path(spbc.contract.__file__).parent / "engine_api.pxd").read_text(encoding="utf-8")
    assert f'    """{generator_doc()}"""' in contract
    assert contract.count("0x9E3779B97F4A7C15ULL") == 1
    pyx = [*Path(spbc.__file__).parent.glob("*/*.pyx"), *generated_dir().glob("*/engine.p*")]
    assert len(pyx) > 10
    for path in pyx:
        text = path.read_text(encoding="utf-8")
        assert "0x9E3779B97F4A7C15ULL" not in text and "cdef inline uint64_t" not in text, path
        if "rng_" in text and path.suffix == ".pyx":
            assert path.with_suffix(".pxd").exists() or "engine_api cimport" in text, path
    assert "cimport (\n" in (generated_dir() / "base" / "engine.pxd").read_text(encoding="utf-8")


def test_the_random_player_draws_from_the_generator(ruleset):
    game = ruleset.new_game(3, seed=2)
    agent, x = RandomAgent(11), [11]
    for _ in range(60):
        codes = game.legal_codes()
        code = agent.choose(observe(game, game.current_player))
        assert code == (codes[rng_below(x, len(codes))] if len(codes) > 1 else codes[0])
        game.play_code(code)
