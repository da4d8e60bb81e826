"""Shared fixtures: the base ruleset on each engine, so one suite runs against both.

``ruleset`` is parametrised over the compiled engine and its pure-Python twin
(the msgpack / frozenlist pattern); each backend is loaded once per session.
Tests that compare the two engines ask for ``compiled`` and ``twin`` directly.

The run builds engines in one cache of its own, a temporary folder named by
SPBC_CACHE_DIR (set when pytest starts, before a test module imports spbc, and
inherited by the processes tests start); a test that needs an empty cache sets its
own. Where spbc would build without SPBC_CACHE_DIR (the user's cache) is a folder of the
run as well (XDG_CACHE_HOME), which the run must leave as it found it: never created.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest

# tests/ runs with --import-mode=importlib, so helper modules here are found by path.
sys.path.insert(0, str(Path(__file__).resolve().parent))

_RUN_FOLDER = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    """Once per run (a test module that imports this file as a module runs none of this)."""
    folder = Path(tempfile.mkdtemp(prefix="spbc-tests-"))
    config.stash[_RUN_FOLDER] = folder
    os.environ["SPBC_CACHE_DIR"] = str(folder / "cache")
    # and the user's cache of every spbc the run starts, when a test takes SPBC_CACHE_DIR away, is a folder
    # of the run too: the guard below watches what the run wrote, never the person's own ~/.cache/spbc,
    # which another spbc of theirs may write into at any time
    os.environ["XDG_CACHE_HOME"] = str(folder / "user-cache")


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_RUN_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def users_cache() -> Path:
    """Where spbc builds engines for this user when SPBC_CACHE_DIR is not set."""
    from spbc.engine.backend import cache_dir

    with mock.patch.dict(os.environ):
        del os.environ["SPBC_CACHE_DIR"]
        return cache_dir()


def snapshot(folder: Path) -> dict[str, int] | None:
    """Every path under ``folder`` with its modification time; None if there is no such folder."""
    if not folder.is_dir():
        return None
    paths = [folder, *folder.rglob("*")]
    return {str(path.relative_to(folder)): path.lstat().st_mtime_ns for path in paths}


@pytest.fixture(scope="session")
def engine_cache(pytestconfig: pytest.Config) -> Path:
    """The run's engine cache (SPBC_CACHE_DIR of every test that does not set its own)."""
    return pytestconfig.stash[_RUN_FOLDER] / "cache"


@pytest.fixture(scope="session", autouse=True)
def users_cache_is_left_alone() -> Iterator[None]:
    """Fails the run (an error after its last test) if it created or changed the user's cache."""
    folder = users_cache()
    before = snapshot(folder)
    yield
    after = snapshot(folder)
    if after != before:
        changed = sorted(name for name in set(before or {}) | set(after or {})
                         if (before or {}).get(name) != (after or {}).get(name))
        pytest.fail(f"the test run wrote into the user's engine cache {folder}: {changed[:10]}")

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
