"""Both engines offer what spbc.contract.protocol describes: at run time (every member, with the
parameters the protocol names) and to mypy (the twin, a Python module, checked against it)."""

from __future__ import annotations

import inspect
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

import spbc
from spbc.contract.protocol import Engine, EngineClass, EngineModule


def _members(protocol: type) -> list[str]:
    return sorted(name for name, value in vars(protocol).items()
                  if not name.startswith("_") and (callable(value) or isinstance(value, property)))


def _parameters(function) -> list[str]:
    return [name for name in inspect.signature(function).parameters if name != "self"]


def test_both_engine_modules_and_their_engines_offer_every_member(ruleset):
    module = ruleset.engine
    assert isinstance(module, EngineModule)
    game = module.Engine.new(2, 1)
    assert isinstance(game, Engine) and isinstance(module.Engine(), Engine)
    for name in _members(EngineModule):
        assert hasattr(module, name), name
    assert _members(Engine) == sorted(
        name for name in dir(type(game)) if not name.startswith("_") and name != "new"
    )


def test_the_engines_methods_take_the_parameters_the_protocol_names(ruleset):
    engine = ruleset.engine.Engine
    for name in _members(Engine):
        assert _parameters(getattr(engine, name)) == _parameters(getattr(Engine, name)), name
    assert _parameters(engine.new) == _parameters(EngineClass.new)
    assert _parameters(ruleset.engine.random_games) == _parameters(EngineModule.random_games)


CHECKED = '''
from typing import Protocol

from spbc.contract.protocol import Engine, EngineClass, EngineModule
from spbc.generated.base import twin

module: EngineModule = twin
engine_class: EngineClass = twin.Engine


def instance(engine: twin.Engine) -> Engine:
    return engine


class More(EngineModule, Protocol):
    @property
    def NOT_AN_ENGINE_MEMBER(self) -> int: ...


more: More = twin  # the one error: mypy really compares the module with a protocol
'''


@pytest.mark.slow  # runs mypy
def test_mypy_accepts_the_twin_as_an_engine_module_and_refuses_a_member_it_lacks(tmp_path: Path):
    pytest.importorskip("mypy")
    (tmp_path / "checked.py").write_text(CHECKED, encoding="utf-8")
    package_parent = Path(spbc.__file__).resolve().parent.parent
    env = dict(os.environ)
    if package_parent not in {Path(folder).resolve() for folder in site.getsitepackages()}:
        env["MYPYPATH"] = str(package_parent)  # a checkout: mypy does not follow an editable install
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental",
         "--cache-dir", str(tmp_path / "cache"), "checked.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=300, check=False,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    line = CHECKED.splitlines().index("more: More = twin  # the one error: mypy really compares the module with a protocol")
    assert len(errors) == 1 and errors[0].startswith(f"checked.py:{line + 1}: error:"), done.stdout + done.stderr
