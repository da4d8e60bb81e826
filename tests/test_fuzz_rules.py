"""Fuzz: mutated rules files through the checker and the code generator. A broken file is a RulesError
whose diagnostics render; a file the checker accepts compiles into an engine and a twin whose module is
made of the same statements as the base ruleset's (values stay data), a reference that renders, and a
twin that plays random games to their end."""

from __future__ import annotations

import ast
import random
import re
import shutil
import types
from pathlib import Path

import pytest
from fuzzing import HOSTILE_TEXT, fuzz_settings, mutate_text
from hypothesis import given
from hypothesis import strategies as st

from spbc.source import locate
from spbc.engine.emit import emit_engine
from spbc.source.diagnostics import RulesError
from spbc.reference.docs import emit_reference
from spbc.lang.load import load_model

RULES = locate.rules_dir()
FILES = sorted(p.relative_to(RULES).as_posix() for p in RULES.rglob("*.spb"))

#: What a mutation may insert: the language's own words and marks, numbers, and strings that break quoting.
WORDS = [
    "card", "deck", "phase", "colour", "game", "ruleset", "include", "ability", "=", "{", "}", "[", "]", ",",
    "..", "#", "\n", " ", "0", "1", "-1", "3", "8", "10000", "10001", "99999999999999999999", "yes", "no",
    "worker", "building", "aristocrat", "trading", "green", "blue", "orange", "market", "pub", "observatory",
    "cost", "copies", "points", "rubles", "replaces", "name", "name_de", "name_zh", "translated", "languages", "aliases", "board_size", "hand_limit",
    "discount", "hand_limit", "income_per_card", "buy_points", "draw_action",
] + [f'"{text}"' for text in HOSTILE_TEXT if '"' not in text and "\\" not in text] + ['"\\n"', '"\\""', '"\\\\"']


_VALUE = re.compile(r'"(?:[^"\\\n]|\\.)*"|\b[0-9]+\b')


def _dsl_string(text: str) -> str:
    """text as a string of the rules language: backslash escapes for the backslash, the quote and breaks."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def mutate_values(text: str, rng: random.Random, steps: int) -> str:
    """text with ``steps`` of its strings and numbers replaced: strings by hostile text, numbers by edges."""
    for _ in range(steps):
        found = list(_VALUE.finditer(text))
        if not found:
            return text
        value = rng.choice(found)
        if value.group().startswith('"'):
            new = _dsl_string(rng.choice(HOSTILE_TEXT) + rng.choice(["", "x", " card", "名"]))
        else:
            new = str(rng.choice([0, 1, 2, 5, 8, 9, 63, 64, 100, 255, 256, 10_000, 10_001, 2**31, 10**30]))
        text = text[:value.start()] + new + text[value.end():]
    return text


def _statement_shape(source: str) -> list[str]:
    return [type(node).__name__ for node in ast.parse(source).body]


@pytest.fixture(scope="module")
def base_shape() -> list[str]:
    return _statement_shape(emit_engine(load_model("base"))["twin.py"])


def _play_twin(source: str, players: int) -> None:
    """Run the emitted twin as a module and play three random games on it to their end."""
    module = types.ModuleType("fuzzed_twin")
    exec(compile(source, "<fuzzed twin>", "exec"), module.__dict__)  # checked above: data and functions only
    for seed in range(3):
        engine = module.Engine.new(players, seed)
        moves = engine.playout(seed, 20_000)
        assert moves < 20_000, "a game of the mutated rules did not end within 20,000 moves"


@pytest.mark.slow  # 60 rules files checked and emitted
@fuzz_settings(default=60)
@given(file=st.sampled_from(FILES), steps=st.integers(1, 4), rng_seed=st.integers(0, 2**32),
       values_only=st.booleans())
def test_a_mutated_rules_file_is_refused_with_diagnostics_or_compiles_to_data(tmp_path_factory, base_shape,
                                                                            file, steps, rng_seed, values_only):
    folder: Path = tmp_path_factory.mktemp("rules")
    shutil.copytree(RULES, folder, dirs_exist_ok=True)
    target = folder / file
    text, rng = target.read_text(encoding="utf-8"), random.Random(rng_seed)
    text = mutate_values(text, rng, steps) if values_only else mutate_text(text, rng, WORDS, steps)
    target.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        model = load_model(folder / "base.spb")
    except RulesError as error:
        text = str(error)
        assert error.diagnostics and "error[SPB" in text
        return
    engine = emit_engine(model)
    assert _statement_shape(engine["twin.py"]) == base_shape, "a value of the rules became a statement"
    reference = emit_reference(model)
    assert set(reference) >= {"reference.md", "reference.html"}
    _play_twin(engine["twin.py"], model.game.min_players)
