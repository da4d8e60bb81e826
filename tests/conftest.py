"""Shared fixtures: the base ruleset on each engine, so one suite runs against both.

``ruleset`` is parametrised over the compiled engine and its pure-Python twin
(the msgpack / frozenlist pattern); each backend is loaded once per session.
Tests that compare the two engines ask for ``compiled`` and ``twin`` directly.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

# tests/ runs with --import-mode=importlib, so helper modules here are found by path.
sys.path.insert(0, str(Path(__file__).resolve().parent))

BACKENDS = ("compiled", "python")


@functools.cache
def load_base(backend: str):
    """The base ruleset on one backend (loaded once per process)."""
    import spbc

    return spbc.load_rules("base", backend=backend)


@pytest.fixture(scope="session", params=BACKENDS)
def ruleset(request):
    """The base ruleset, once with the compiled engine and once with the twin."""
    loaded = load_base(request.param)
    if loaded.backend != request.param:  # SPBC_BACKEND=python forces the twin everywhere
        pytest.skip(f"the {request.param} engine is not in use here ({loaded.backend} instead)")
    return loaded


@pytest.fixture(scope="session")
def compiled():
    loaded = load_base("compiled")
    if loaded.backend != "compiled":
        pytest.skip("the compiled engine is not in use here")
    return loaded


@pytest.fixture(scope="session")
def twin():
    return load_base("python")
