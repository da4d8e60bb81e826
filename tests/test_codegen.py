"""The generated engine: reproducible bytes, the twin mirroring the engine, the IR dump."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spbc.contract.capi import GENERATOR
from spbc.engine.emit import emit_engine
from spbc.engine.dump import dump_ir
from spbc.frontends.cli import app
from spbc.lang.load import load_model
from spbc.source.locate import rules_dir
from spbc.engine.lower import lower, origin

_DIGESTS = """
import hashlib
from spbc.engine.emit import emit_engine
from spbc.lang.load import load_model
files = emit_engine(load_model({path!r}))
print(" ".join(name + "=" + hashlib.sha256(text.encode()).hexdigest() for name, text in sorted(files.items())))
"""


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return emit_engine(load_model("base"))


def _digests(files: dict[str, str]) -> str:
    return " ".join(f"{name}={hashlib.sha256(text.encode()).hexdigest()}" for name, text in sorted(files.items()))


@pytest.mark.slow  # real processes
def test_the_same_rules_give_the_same_bytes_in_another_process_folder_and_hash_seed(files, tmp_path):
    path = str(rules_dir() / "base.spb")
    outputs = []
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-P", "-c", _DIGESTS.format(path=path)], cwd=tmp_path,
                              env=env, capture_output=True, text=True, check=True, timeout=120)
        outputs.append(done.stdout.strip())
    assert outputs[0] == outputs[1] == _digests(files)


def test_generated_code_names_no_folder_of_this_machine(files):
    for text in files.values():
        assert str(Path.cwd()) not in text and str(rules_dir()) not in text
        assert "do not edit" in text.lower() and "spb compile" in text


def test_the_twin_has_every_function_of_the_engine_in_the_same_order(files):
    # the random generator is the contract's, cimported by engine.pxd (the twin prints spbc.contract.rng's)
    engine = [name for name in GENERATOR if f" {name}," in files["engine.pxd"] or f" {name}\n" in files["engine.pxd"]]
    assert engine == list(GENERATOR)
    engine += re.findall(r"^cdef (?:inline )?\w+ (\w+)\(", files["engine.pyx"], re.M)
    twin = re.findall(r"^def (\w+)\(", files["twin.py"], re.M)
    engine += re.findall(r"^def (\w+)\(", files["engine.pyx"], re.M)
    assert engine and sorted(engine) == sorted(twin)
    assert [name for name in engine if name in twin][:5] == twin[:5]
    methods = re.compile(r"^    def (\w+)\(", re.M)
    assert methods.findall(files["engine.pyx"]) == methods.findall(files["twin.py"])


def test_each_ability_is_generated_code_that_points_back_at_its_rules_line(files):
    model = load_model("base")
    for card in model.cards:
        for effect in card.abilities:
            if effect.kind == "buy_points":
                continue  # a row of the offer tables, not code
            where = origin(effect.span, model.files)
            for text in (files["engine.pyx"], files["twin.py"]):  # engine.pxd declares, holds no ability
                assert re.search(rf"# {re.escape(card.name)}: .*\({re.escape(where)}\)", text), (card.name, where)


def test_the_engine_tests_a_card_only_in_the_code_of_an_ability(files):
    """A comparison with a card constant appears only under an ability's comment."""
    for text in (files["engine.pyx"], files["twin.py"]):
        lines = text.splitlines()
        tests = [n for n, line in enumerate(lines) if re.search(r"==\s*CARD_[A-Z_]+", line)]
        assert tests, "the discount abilities compare the placed card"
        for number in tests:
            context = "\n".join(lines[max(0, number - 2):number])
            assert re.search(r"# .+\((base/\S+\.spb):\d+\)", context), lines[number]


def test_dump_ir_is_stable_and_lists_every_card(files):
    model = load_model("base")
    text = dump_ir(lower(model))
    assert text == dump_ir(lower(load_model("base")))
    assert text.count("\n  index=") >= len(model.cards)
    result = CliRunner().invoke(app, ["check", "--dump", "ir", "base"])
    assert result.exit_code == 0 and result.stdout == text


def test_a_card_without_engine_code_for_its_ability_is_refused():
    import dataclasses

    from spbc.lang.model import Effect

    @dataclasses.dataclass(frozen=True)
    class Juggle(Effect):
        kind = "juggle"

    model = load_model("base")
    card = dataclasses.replace(model.cards[0], abilities=(Juggle(),))
    broken = dataclasses.replace(model, cards=(card,) + model.cards[1:])
    with pytest.raises(TypeError, match="no code for the ability 'juggle' of Lumberjack"):
        lower(broken)


def test_the_engine_module_refuses_out_of_range_arguments_instead_of_reading_past_its_arrays(ruleset):
    engine = ruleset.engine
    with pytest.raises(ValueError, match="for 2 to 4 players, not 9"):
        engine.random_games(9, 1, 1)
    with pytest.raises(ValueError, match="for 2 to 4 players, not 1"):
        engine.Engine.new(1, 1)
    empty = engine.Engine()
    assert empty.legal_moves() == [] and empty.playout(1) == 0  # no game until new() or load()
    game = engine.Engine.new(2, 1)
    with pytest.raises(IndexError, match="no seat 2 in a game of 2"):
        game.cost(2, 0, 0, -1)
    with pytest.raises(IndexError, match="no card"):
        game.cost(0, len(engine.CARD_IDS), 0, -1)
    with pytest.raises(IndexError, match="no phase 9"):
        game.forecast(0, 9)
    with pytest.raises(IndexError):
        game.get(len(game.state()))
    with pytest.raises(ValueError, match="a state has"):
        game.load([0])


def test_spb_bench_refuses_a_player_count_the_rules_do_not_allow():
    result = CliRunner().invoke(app, ["bench", "--players", "9", "--seconds", "0.01", "--repeats", "1"])
    assert result.exit_code == 2
    assert "for 2 to 4 players, not 9" in result.output
