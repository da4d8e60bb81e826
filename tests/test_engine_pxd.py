"""The compiled engine's C-level interface (engine.pxd): a Cython module built elsewhere cimports the
shipped base engine, plays on state arrays of its own without the GIL, and gets exactly what the
Python API of the same engine gets for the same seeds.

The module is built once for this file (cythonize and setuptools in a subprocess, as
spbc.engine.backend builds an engine), with the folder that holds the spbc package on Cython's
include path, as a search shipped beside spbc would be built.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import spbc
from spbc.contract.capi import C_FUNCTIONS, MOVE_LAYOUT
from spbc.source.locate import generated_dir

CALLER = """
# cython: language_level=3, boundscheck=False, wraparound=False
cimport spbc.generated.base.engine as spb
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy


def constants():
    return dict(STATE_SIZE=spb.STATE_SIZE, MAX_MOVES=spb.MAX_MOVES, NCARDS=spb.NCARDS,
                MAX_PLAYERS=spb.MAX_PLAYERS, MAX_GAME_MOVES=spb.MAX_GAME_MOVES,
                O_STAGE=spb.O_STAGE, O_CURRENT=spb.O_CURRENT, STAGE_OVER=spb.STAGE_OVER)


cdef void final_scores(const int* s, int* out) noexcept nogil:
    cdef int p
    for p in range(spb.MAX_PLAYERS):
        out[2 * p] = spb.final_score(s, p) if p < s[spb.O_PLAYERS] else 0
        out[2 * p + 1] = spb.tie_break(s, p) if p < s[spb.O_PLAYERS] else 0


cdef list results(const int* made, const int* scores, int n, int players):
    return [(made[i], [scores[i * 2 * spb.MAX_PLAYERS + 2 * p] for p in range(players)],
             [scores[i * 2 * spb.MAX_PLAYERS + 2 * p + 1] for p in range(players)]) for i in range(n)]


def from_setup(int players, list deals, list plays):
    # Per game: setup from deals[i], a playout from plays[i]; (moves, final scores, tie breaks).
    cdef int n = len(deals), i
    cdef int s[spb.STATE_SIZE]
    cdef uint64_t x
    cdef uint64_t* deal = <uint64_t*>malloc(n * sizeof(uint64_t))
    cdef uint64_t* play = <uint64_t*>malloc(n * sizeof(uint64_t))
    cdef int* made = <int*>malloc(n * sizeof(int))
    cdef int* scores = <int*>malloc(n * 2 * spb.MAX_PLAYERS * sizeof(int))
    for i in range(n):
        deal[i] = deals[i]
        play[i] = plays[i]
    with nogil:
        for i in range(n):
            spb.setup(s, players, deal[i])
            x = play[i]
            made[i] = spb.playout(s, &x, spb.MAX_GAME_MOVES)
            final_scores(s, scores + i * 2 * spb.MAX_PLAYERS)
    try:
        return results(made, scores, n, players)
    finally:
        free(deal); free(play); free(made); free(scores)


def determinized(spb.Engine engine, int observer, list redeals, list plays):
    # The search's inner loop from engine's state: determinize for observer, play out, read the scores.
    cdef int n = len(redeals), i
    cdef int start[spb.STATE_SIZE]
    cdef int s[spb.STATE_SIZE]
    cdef uint64_t x
    cdef uint64_t* redeal = <uint64_t*>malloc(n * sizeof(uint64_t))
    cdef uint64_t* play = <uint64_t*>malloc(n * sizeof(uint64_t))
    cdef int* made = <int*>malloc(n * sizeof(int))
    cdef int* scores = <int*>malloc(n * 2 * spb.MAX_PLAYERS * sizeof(int))
    for i in range(n):
        redeal[i] = redeals[i]
        play[i] = plays[i]
    memcpy(start, engine.s, sizeof(start))
    with nogil:
        for i in range(n):
            memcpy(s, start, sizeof(s))
            x = redeal[i]
            spb.redeal_unseen(s, observer, &x)
            x = play[i]
            made[i] = spb.playout(s, &x, spb.MAX_GAME_MOVES)
            final_scores(s, scores + i * 2 * spb.MAX_PLAYERS)
    try:
        return results(made, scores, n, start[spb.O_PLAYERS])
    finally:
        free(redeal); free(play); free(made); free(scores)


def step_in_place(spb.Engine engine, uint64_t seed, int limit):
    # Random moves by legal_moves, rng_below and apply_move, written into engine's own state.
    cdef int moves[spb.MAX_MOVES]
    cdef int n, steps = 0
    cdef uint64_t x = seed
    with nogil:
        while engine.s[spb.O_STAGE] != spb.STAGE_OVER and steps < limit:
            n = spb.legal_moves(engine.s, moves)
            if n == 1:
                spb.apply_move(engine.s, moves[0])
            else:
                spb.apply_move(engine.s, moves[spb.rng_below(&x, n)])
            steps += 1
    return steps


def scored(spb.Engine engine, int phase):
    # What score_phase pays every seat on a copy of engine's state: [(rubles, points)].
    cdef int s[spb.STATE_SIZE]
    cdef int p
    memcpy(s, engine.s, sizeof(s))
    with nogil:
        spb.score_phase(s, phase)
    return [(s[spb.O_RUBLES + p] - engine.s[spb.O_RUBLES + p], s[spb.O_POINTS + p] - engine.s[spb.O_POINTS + p])
            for p in range(s[spb.O_PLAYERS])]


def problem(list values):
    # state_problem of a state written from Python, unchecked.
    cdef int s[spb.STATE_SIZE]
    cdef int i
    for i in range(spb.STATE_SIZE):
        s[i] = values[i]
    with nogil:
        i = spb.state_problem(s)
    return i
"""

BUILD = """
import sys
from Cython.Build import cythonize
from setuptools import Distribution, Extension
ext = cythonize([Extension("pxd_caller", ["pxd_caller.pyx"], extra_compile_args=["-O2"])],
                include_path=[sys.argv[1]], language_level=3, quiet=True)
dist = Distribution({"ext_modules": ext, "script_args": ["build_ext", "--inplace", "--build-temp", "tmp"]})
dist.parse_command_line()
dist.run_commands()
"""


@pytest.fixture(scope="module")
def caller(compiled, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The caller module, built against the pxd of the installed (or checked-out) spbc."""
    shipped = importlib.import_module("spbc.generated.base.engine")
    if shipped is not compiled.engine:
        pytest.skip("the shipped base engine is not the one in use (rebuild it: setup.py build_ext --inplace)")
    folder = tmp_path_factory.mktemp("pxd_caller")
    (folder / "pxd_caller.pyx").write_text(CALLER, encoding="utf-8")
    package_parent = Path(spbc.__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", BUILD, str(package_parent)], cwd=folder,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    built = next(folder.glob("pxd_caller*" + importlib.machinery.EXTENSION_SUFFIXES[0]))
    spec = importlib.util.spec_from_file_location("pxd_caller", built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fields(ruleset) -> dict[str, int]:
    return {name: offset for name, offset, _size in ruleset.engine.FIELDS}


def _python_results(engines: list, plays: list[int], players: int) -> list[tuple[int, list[int], list[int]]]:
    """(moves, final scores, tie breaks) of Engine.playout on each engine, through the Python API."""
    out = []
    for engine, seed in zip(engines, plays):
        made = engine.playout(seed)
        seats = range(players)
        out.append((made, [engine.final_score(p) for p in seats], [engine.tie_break(p) for p in seats]))
    return out


def test_the_pxd_is_shipped_beside_the_engine_and_declares_the_contract():
    text = (generated_dir() / "base" / "engine.pxd").read_text(encoding="utf-8")
    pyx = (generated_dir() / "base" / "engine.pyx").read_text(encoding="utf-8")
    for function in C_FUNCTIONS:
        head = f"cdef {function.returns} {function.name}({function.params}) noexcept nogil"
        assert f"\n{head}\n" in text and f"\n{head}:\n" in pyx, function.name
    assert "cdef class Engine:\n    cdef int s[STATE_SIZE]\n" in text
    # what the pxd declares, the pyx beside it does not repeat (Cython refuses a second declaration)
    assert "\ncdef enum:" in text and "\nfrom spbc.contract.engine_api cimport (\n" in text
    assert "\ncdef enum:" not in pyx and " rng_next(uint64_t* x)" not in pyx
    engine_class = pyx[pyx.index("\ncdef class Engine:"):pyx.index("\n    def __init__(self):")]
    assert "\n    cdef " not in engine_class  # the state array is the pxd's


def test_the_contracts_pxd_declares_the_move_layout_of_the_abi_and_no_pyx_decodes_by_hand():
    """The move layout in C is the contract's enum (engine_api.pxd) with the numbers of spbc.contract.abi; the
    engines cimport it (their own enum leaves it out), and no .pyx of spbc declares a move kind or decodes a
    move with a literal mask of its own."""
    contract = (Path(spbc.__file__).parent / "contract" / "engine_api.pxd").read_text(encoding="utf-8")
    enum = contract[contract.index("\ncdef enum:\n"):contract.index("\n\n\ncdef inline int move_kind")]
    declared = [tuple(line.strip().split(" = ")) for line in enum.strip().splitlines()[1:]]
    assert [(name, int(value)) for name, value in declared] == list(MOVE_LAYOUT)
    engine = (generated_dir() / "base" / "engine.pxd").read_text(encoding="utf-8")
    for name, _value in MOVE_LAYOUT:
        assert f"\n    {name} = " not in engine and name in engine[engine.index("engine_api cimport ("):]
    for path in Path(spbc.__file__).parent.glob("*/*.pyx"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"KIND_[A-Z]+ = |& 15\b|>> 4\b|& 255\b|abi\.", text), path
        assert "PyCapsule_IsValid" not in text, path  # the capsule is opened by the contract's engine_api()


@pytest.mark.slow  # a Cython build
def test_the_constants_seen_from_cython_are_the_engine_s(caller, compiled):
    engine = compiled.engine
    fields = _fields(compiled)
    limits = dict(engine.LIMITS)
    assert caller.constants() == dict(
        STATE_SIZE=engine.STATE_SIZE_, MAX_MOVES=engine.MAX_MOVES_, NCARDS=engine.NCARDS_,
        MAX_PLAYERS=compiled.model.game.max_players, MAX_GAME_MOVES=limits["game_moves"],
        O_STAGE=fields["stage"], O_CURRENT=fields["current"], STAGE_OVER=compiled.stages.index("over"),
    )


@pytest.mark.slow  # many whole games
@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_from_setup_without_the_gil_score_as_the_python_api(caller, compiled, players):
    deals = [1000 * players + i for i in range(40)]
    plays = [(seed * 0x9E3779B97F4A7C15 + 1) % 2**64 for seed in deals]
    got = caller.from_setup(players, deals, plays)
    expected = _python_results([compiled.engine.Engine.new(players, seed) for seed in deals], plays, players)
    assert got == expected
    assert all(made > 0 for made, _, _ in got) and len({tuple(scores) for _, scores, _ in got}) > 20


@pytest.mark.slow  # many whole playouts
@pytest.mark.parametrize("players", [2, 4])
def test_determinized_playouts_from_a_mid_game_state_score_as_the_python_api(caller, compiled, players):
    game = compiled.engine.Engine.new(players, 77)
    game.playout(5, 60)  # well into the game, not over
    before = game.state()
    observer = game.get(_fields(compiled)["current"])
    redeals = list(range(500, 530))
    plays = [2**64 - 1] * 30  # one playout seed: the scores differ by the redeal alone
    got = caller.determinized(game, observer, redeals, plays)
    expected = _python_results([game.determinized(observer, seed) for seed in redeals], plays, players)
    assert got == expected
    assert game.state() == before  # the caller played on copies
    assert len({tuple(scores) for _, scores, _ in got}) > 10


def test_moves_written_into_an_engine_s_state_from_cython_are_the_python_playout(caller, compiled):
    for seed in range(10):
        fast = compiled.engine.Engine.new(3, seed)
        slow = fast.clone()
        assert caller.step_in_place(fast, seed + 1, 50) == slow.playout(seed + 1, 50) == 50
        assert fast.state() == slow.state()
        assert caller.step_in_place(fast, seed + 2, 100_000) == slow.playout(seed + 2)
        assert fast.state() == slow.state() and fast.legal_moves() == []


def test_score_phase_and_state_problem_from_cython_agree_with_the_python_api(caller, compiled):
    game = compiled.engine.Engine.new(4, 9)
    game.playout(3, 120)
    phases = len(compiled.engine.PHASE_IDS)
    for phase in range(phases):
        assert caller.scored(game, phase) == [game.forecast(p, phase) for p in range(4)]
    values = game.state()
    assert caller.problem(values) == 0
    values[_fields(compiled)["players"]] = 99
    assert caller.problem(values) == 1
    with pytest.raises(ValueError, match="outside what the engine can play safely"):
        compiled.engine.Engine().load(values)
