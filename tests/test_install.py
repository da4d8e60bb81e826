"""A source checkout and an installed wheel find their rules, engines and commands the same one way:
inside the spbc package (spbc/rules, spbc/generated, spbc/frontends), which a checkout holds as links."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, spbc, spbc.frontends.cli
from spbc.source import locate
rules = spbc.load_rules("base")
print(json.dumps({"spbc": spbc.__file__, "rules": str(locate.rules_dir()), "generated": str(locate.generated_dir()),
                  "cli": spbc.frontends.cli.__file__, "backend": rules.backend,
                  "engine": rules.engine.__file__, "base": (locate.rules_dir() / "base.spb").is_file()}))
"""


def _probe(path_entry: Path, cwd: Path, **env: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=cwd, capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONPATH": str(path_entry), **env},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_checkout_imports_and_finds_its_files_without_an_install(tmp_path):
    """A copy of the checkout (no build, no install of it) imports spbc and its commands from itself."""
    copy = tmp_path / "checkout"
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c", "build", ".venv")
    for name in ("spbc", "rules", "generated", "frontends"):
        shutil.copytree(ROOT / name, copy / name, symlinks=True, ignore=skip)
    assert (copy / "spbc" / "rules").is_symlink() and (copy / "spbc" / "frontends").is_symlink()
    found = _probe(copy, tmp_path, SPBC_BACKEND="python")
    assert Path(found["spbc"]).is_relative_to(copy)
    assert Path(found["cli"]).resolve() == (copy / "frontends" / "cli.py").resolve()
    assert Path(found["rules"]).resolve() == (copy / "rules").resolve() and found["base"]
    assert Path(found["engine"]).resolve() == (copy / "generated" / "base" / "twin.py").resolve()


@pytest.mark.slow  # builds a wheel, compiling the shipped engine (about a minute)
def test_an_installed_wheel_finds_its_files_inside_the_package(tmp_path):
    wheels, site = tmp_path / "wheels", tmp_path / "site"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels),
         str(ROOT)], capture_output=True, text=True, check=False,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = wheels.glob("spbc-*.whl")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        capture_output=True, text=True, check=False,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    package = site / "spbc"
    assert not (package / "rules").is_symlink() and (package / "rules" / "base.spb").is_file()
    assert (package / "generated" / "base" / "engine.pxd").is_file()
    found = _probe(site, tmp_path)
    assert Path(found["spbc"]).is_relative_to(package) and Path(found["cli"]).is_relative_to(package)
    assert Path(found["rules"]) == package / "rules" and Path(found["generated"]) == package / "generated"
    assert found["backend"] == "compiled" and Path(found["engine"]).is_relative_to(package / "generated" / "base")
