"""The test run's engine cache: one temporary folder, inherited by the processes tests start.

conftest.py also fails the run if it wrote into the user's own cache (~/.cache/spbc).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from spbc.engine.backend import cache_dir
from spbc.lang.load import load_model
from spbc.source.locate import rules_dir


def test_the_run_builds_engines_in_a_temporary_folder_of_its_own(engine_cache):
    assert cache_dir() == engine_cache
    assert engine_cache.resolve().is_relative_to(Path(tempfile.gettempdir()).resolve())
    assert not engine_cache.resolve().is_relative_to(Path.home().resolve() / ".cache")


def test_the_guard_watches_a_user_cache_of_the_run_not_the_persons_own(engine_cache):
    """The guard failed a whole run when a person's own spb play, in another terminal, wrote into
    ~/.cache/spbc; the user's cache of the run's spbc processes is now a folder of the run."""
    from conftest import users_cache

    watched = users_cache()
    assert watched.resolve().is_relative_to(engine_cache.resolve().parent)
    assert not watched.resolve().is_relative_to(Path.home().resolve())


def test_a_process_started_by_a_test_emits_a_rules_file_into_the_runs_cache(tmp_path, engine_cache):
    shutil.copytree(rules_dir(), tmp_path / "rules")
    main = tmp_path / "rules" / "base.spb"
    main.write_text(main.read_text(encoding="utf-8") + "\n# a variant of its own\n", encoding="utf-8")
    model = load_model(main)
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}  # SPBC_CACHE_DIR comes from the run
    env.pop("XDG_CACHE_HOME", None)
    code = f"import spbc; print(spbc.load_rules({str(main)!r}, backend='python').backend)"
    done = subprocess.run([sys.executable, "-P", "-c", code], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert (done.returncode, done.stdout) == (0, "python\n"), done.stderr
    assert list(home.iterdir()) == [], "the process wrote into its home folder"
    emitted = [folder.name for folder in engine_cache.glob(f"{model.name}-{model.digest[:16]}-*")]
    assert len(emitted) == 1 and (engine_cache / emitted[0] / "twin.py").is_file()
