"""The checked models kept on the disk (spbc.lang.cache): found again by another process without a parse or a
check, and never when a rules file, an include, the parent ruleset, the file an extends finds, the names spans
give the files, or the code has changed; entries of the test run stay in its own cache folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from spbc.lang import cache, check, load
from spbc.source.locate import rules_dir

RUBLES = "starting_rubles    = 25"


def _fresh_process_view(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Forget what this process read of the cache and parsed, as a new process would; the programs checked
    from now on are listed."""
    checked: list[str] = []
    real = check.check_program
    monkeypatch.setattr(check, "check_program", lambda program: checked.append(program.digest) or real(program))
    monkeypatch.setattr(cache, "_read", {})
    load._checked.clear()
    load._parsed.cache_clear()
    return checked


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    """A copy of the shipped rules and a variant of base beside them, with a cache folder of this test's own."""
    shutil.copytree(rules_dir(), tmp_path / "rules")
    (tmp_path / "rules" / "mine.spb").write_text('extends "base"\n\nruleset mine {\n  title = "Mine"\n}\n',
                                                 encoding="utf-8")
    return tmp_path / "rules"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_kept_model_is_found_again_without_a_parse_or_a_check(rules, monkeypatch, own_cache):
    first = load.load_model(rules / "mine.spb")
    checked = _fresh_process_view(monkeypatch)
    again = load.load_model(rules / "mine.spb")
    assert checked == [] and load._parsed.cache_info().misses == 0
    assert again == first and again.base == first.base and again.digest == first.digest
    assert load.load_model(rules / "mine.spb") is again  # the same object within a process
    assert [path.parent for path in own_cache.rglob("*.pickle")] == [own_cache / "models"]
    assert (own_cache / "models").stat().st_mode & 0o777 == 0o700


def test_another_process_finds_the_kept_model(rules, own_cache):
    probe = ("import sys\nfrom spbc.lang import check, load\ncheck.check_program = None\n"
             f"print(load.load_model({str(rules / 'mine.spb')!r}).title)\n")
    first = subprocess.run([sys.executable, "-P", "-c", probe], capture_output=True, text=True, timeout=300)
    assert first.returncode != 0  # nothing kept yet: it had to check, and cannot
    load.load_model(rules / "mine.spb")
    again = subprocess.run([sys.executable, "-P", "-c", probe], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert again.stdout == "Mine\n"


@pytest.mark.parametrize("changed", ["mine.spb", "base.spb", "base/workers.spb"])
def test_a_changed_file_a_parent_or_an_include_is_read_and_checked_again(rules, monkeypatch, changed):
    first = load.load_model(rules / "mine.spb")
    path = rules / changed
    if changed == "mine.spb":
        path.write_text(path.read_text(encoding="utf-8").replace('"Mine"', '"Mine, again"'), encoding="utf-8")
    else:
        text = path.read_text(encoding="utf-8")
        assert text.count("\n") > 3
        path.write_text(text + "\n# a comment changes the digest\n", encoding="utf-8")
    checked = _fresh_process_view(monkeypatch)
    again = load.load_model(rules / "mine.spb")
    assert checked and again.digest != first.digest
    assert (again.title == "Mine, again") == (changed == "mine.spb")


def test_a_new_file_that_extends_would_find_is_read(rules, tmp_path, monkeypatch):
    """extends base finds base.spb beside the variant before the shipped one: a file put there counts."""
    away = tmp_path / "away"
    away.mkdir()
    variant = away / "mine.spb"
    variant.write_text((rules / "mine.spb").read_text(encoding="utf-8"), encoding="utf-8")
    shipped = load.load_model(variant)
    for name in ("base.spb", "base"):
        shutil.copytree(rules / name, away / name) if (rules / name).is_dir() else shutil.copy(rules / name, away)
    text = (away / "base.spb").read_text(encoding="utf-8")
    assert RUBLES in text
    (away / "base.spb").write_text(text.replace(RUBLES, "starting_rubles    = 30", 1), encoding="utf-8")
    checked = _fresh_process_view(monkeypatch)
    beside = load.load_model(variant)
    assert checked and beside.game.starting_rubles == shipped.game.starting_rubles + 5


@pytest.mark.parametrize("main", ["mine.spb", "base.spb"])
def test_another_working_directory_names_the_files_as_from_there(rules, tmp_path, monkeypatch, main):
    monkeypatch.chdir(tmp_path)
    here = {card.span.path for card in load.load_model(rules / main).cards}
    monkeypatch.chdir(rules)
    _fresh_process_view(monkeypatch)
    there = {card.span.path for card in load.load_model(rules / main).cards}
    assert here == {"rules/base/workers.spb", "rules/base/buildings.spb", "rules/base/aristocrats.spb",
                    "rules/base/trading.spb"}
    assert there == {path.removeprefix("rules/") for path in here}


def test_an_entry_others_may_write_or_a_torn_one_is_not_used(rules, monkeypatch):
    main = rules / "mine.spb"
    load.load_model(main)
    entry = cache.entry_path(main)
    entry.chmod(0o666)
    checked = _fresh_process_view(monkeypatch)
    load.load_model(main)
    assert checked  # never unpickled: checked again, and kept again as this user's alone
    assert entry.stat().st_mode & 0o777 == 0o600
    entry.write_bytes(entry.read_bytes()[:100])
    checked = _fresh_process_view(monkeypatch)
    assert load.load_model(main).title == "Mine" and checked


def test_a_change_of_the_code_is_another_entry(tmp_path):
    folder = tmp_path / "mechanic"
    folder.mkdir()
    (folder / "effect.py").write_text("ORDER = 1\n", encoding="utf-8")
    registered = (("some_mechanic", str(folder)),)
    first = cache._code_digest(registered)
    (folder / "effect.py").write_text("ORDER = 22\n", encoding="utf-8")
    cache._code_digest.cache_clear()
    assert cache._code_digest(registered) != first


def test_rules_with_errors_are_never_kept(rules, own_cache):
    (rules / "mine.spb").write_text('extends "base"\n\nruleset mine {\n  title = \n}\n', encoding="utf-8")
    for _ in range(2):
        with pytest.raises(load.RulesError):
            load.load_model(rules / "mine.spb")
    assert not cache.entry_path(rules / "mine.spb").exists()


def test_the_test_run_keeps_its_models_in_its_own_folder(engine_cache, monkeypatch):
    monkeypatch.setenv("SPBC_CACHE_DIR", os.fspath(engine_cache))
    assert cache.entry_path(rules_dir() / "base.spb").is_relative_to(engine_cache)
