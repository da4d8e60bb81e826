"""A user's own rules file: compiled into a cache on first use, the twin when no C compiler is there."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

import spbc
from spbc.engine.backend import LAST_BUILD, BackendError, load_engine
from spbc.lang.load import load_model
from spbc.source.locate import rules_dir
from spbc.play.moves import Move, MoveKind

ROOT = Path(__file__).resolve().parent.parent


def variant(folder: Path, old: str, new: str) -> Path:
    """A copy of the shipped rules with one line changed; the path of its main file."""
    shutil.copytree(rules_dir(), folder / "rules")
    main = folder / "rules" / "base.spb"
    if old:
        for path in sorted((folder / "rules").rglob("*.spb")):
            text = path.read_text(encoding="utf-8")
            if old in text:
                path.write_text(text.replace(old, new, 1), encoding="utf-8")
                break
        else:
            raise AssertionError(f"{old!r} is not in the rules")
    return main


@pytest.mark.slow  # a Cython build of a variant
def test_a_variant_is_compiled_into_the_cache_and_plays_by_its_rules(tmp_path, monkeypatch):
    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SPBC_BACKEND", raising=False)
    main = variant(tmp_path, "starting_rubles    = 25", "starting_rubles    = 40")
    rules = spbc.load_rules(main, backend="compiled")
    assert rules.backend == "compiled"
    built = sorted(p.name for p in (tmp_path / "cache").glob("*/engine*") if p.suffix in (".so", ".pyd"))
    assert len(built) == 1
    game = rules.new_game(2, seed=5)
    assert [game.rubles(0), game.rubles(1)] == [40, 40]
    twin = spbc.load_rules(main, backend="python")
    other = twin.new_game(2, seed=5)
    assert other.state_values() == game.state_values()
    assert rules.model.digest != spbc.load_rules("base", backend="python").model.digest


@pytest.mark.slow  # a real process and a failed build
def test_without_a_c_compiler_auto_falls_back_to_the_twin_with_a_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CC", "/bin/false")
    monkeypatch.delenv("SPBC_BACKEND", raising=False)
    main = variant(tmp_path, "hand_limit         = 3", "hand_limit         = 5")
    model = load_model(main)
    with pytest.raises(BackendError, match="could not compile the engine"):
        load_engine(model, "compiled")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rules = spbc.load_rules(main)
    assert rules.backend == "python"
    assert any("pure-Python twin" in str(w.message) for w in caught)
    game = rules.new_game(3, seed=1)
    assert game.hand_limit(0) == 5


def test_spbc_backend_python_forces_the_twin(tmp_path, monkeypatch):
    monkeypatch.setenv("SPBC_BACKEND", "python")
    assert spbc.load_rules("base", backend="compiled").backend == "python"


def test_an_unknown_backend_is_refused():
    with pytest.raises(ValueError, match="backend must be one of auto, compiled, python"):
        spbc.load_rules("base", backend="fast")


def test_a_variant_changes_what_a_move_costs(tmp_path, monkeypatch):
    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path / "cache"))
    main = variant(tmp_path, "lower_row_discount = 1", "lower_row_discount = 3")
    rules = spbc.load_rules(main, backend="python")
    game = rules.new_game(2, seed=3)
    card = game.row("upper")[0]
    printed = rules.model.card(card).cost
    assert game.cost(Move(MoveKind.BUY, card=card, row="upper")) == printed
    assert game.cost(Move(MoveKind.BUY, card=card, row="lower")) == max(1, printed - 3)


@pytest.mark.slow
def test_processes_building_the_same_rules_at_once_both_get_a_whole_engine(tmp_path):
    import os
    import subprocess
    import sys

    main = variant(tmp_path, "starting_rubles    = 25", "starting_rubles    = 30")
    env = {**os.environ, "SPBC_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("SPBC_BACKEND", None)
    code = ("import spbc; r = spbc.load_rules({path!r}, backend='compiled'); "
            "print(r.backend, r.engine.random_games(2, 50, 1))").format(path=str(main))
    runs = [subprocess.Popen([sys.executable, "-P", "-c", code], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert outputs[0][0] == outputs[1][0] and outputs[0][0].startswith("compiled ")
    leftovers = [p.name for p in (tmp_path / "cache").rglob("*")
                 if ("build-" in p.name and p.name != LAST_BUILD) or p.suffix == ".tmp"]  # the estimate's note stays
    assert leftovers == []


def test_an_engine_cached_by_another_generator_is_not_reused(tmp_path, monkeypatch):
    """The cache folder is named by the emitted engine too: an engine built by an older spbc (other
    templates, an older load check) is left alone, not loaded for the same rules."""
    import spbc.engine.backend as backend
    import spbc.engine.emit as emit

    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path / "cache"))
    model = load_model(variant(tmp_path, "starting_rubles    = 25", "starting_rubles    = 31"))
    today = backend._cache_folder(model)
    real = emit.emit_engine
    monkeypatch.setattr(emit, "emit_engine",
                        lambda m: {name: text + "# another generator\n" for name, text in real(m).items()})
    older = backend._cache_folder(model)
    assert older != today and older.parent == today.parent
    assert (older / "engine.pyx").read_text(encoding="utf-8").endswith("# another generator\n")
    assert not (today / "engine.pyx").read_text(encoding="utf-8").endswith("# another generator\n")


def test_a_shipped_ruleset_loads_without_the_code_generator():
    """The emitter is imported only to emit the engine of rules that have none shipped. (Jinja2 and the
    template environment are not the generator: every text a game says, its refusals and its screen's
    words, comes from per-language templates, so the play layer loads them.)"""
    import subprocess
    import sys

    code = ("import spbc, sys\n"
            "for backend in ('auto', 'python'):\n"
            "    spbc.load_rules('base', backend=backend).new_game(2, seed=1)\n"
            "    loaded = {'spbc.engine.emit', 'Cython'} & set(sys.modules)\n"
            "    assert not loaded, (backend, loaded)\n")
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow  # a Cython build
def test_a_broken_engine_left_in_the_cache_is_built_again(tmp_path, monkeypatch):
    """issue 20 finding 17: a module a crash left cut short in the cache (here, as a build of an older
    spbc would be: with no record beside it) fails to import; it is built again, once, and plays. An
    empty module, or one that does not match its record, is not even tried."""
    import importlib.machinery

    from spbc.engine.backend import _cache_folder, _intact, _record_of

    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SPBC_BACKEND", raising=False)
    main = variant(tmp_path, "starting_rubles    = 25", "starting_rubles    = 31")
    folder = _cache_folder(load_model(main))
    broken = folder / f"engine{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    broken.write_bytes(b"\x7fELF cut short")
    rules = spbc.load_rules(main, backend="compiled")
    assert rules.backend == "compiled" and rules.new_game(2, seed=5).rubles(0) == 31
    assert broken.stat().st_size > 1000 and _record_of(broken).is_file() and _intact(broken)
    copy = tmp_path / "copy" / broken.name
    copy.parent.mkdir()
    shutil.copy(broken, copy)
    shutil.copy(_record_of(broken), _record_of(copy))
    assert _intact(copy)
    copy.write_bytes(copy.read_bytes()[:1000])
    assert not _intact(copy)
    copy.write_bytes(b"")
    _record_of(copy).unlink()
    assert not _intact(copy)


def test_a_users_rules_are_emitted_once_a_load(tmp_path, monkeypatch):
    """issue 23 item 4: load_engine asked for the cache folder twice (the twin's folder, then the build's),
    and each time emitted the whole engine again."""
    import spbc.engine.backend as backend
    import spbc.engine.emit as emit

    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SPBC_BACKEND", raising=False)
    model = load_model(variant(tmp_path, "starting_rubles    = 25", "starting_rubles    = 33"))
    calls = []
    real = emit.emit_engine
    monkeypatch.setattr(emit, "emit_engine", lambda m: calls.append(m.name) or real(m))

    def no_build(folder: Path, label: str = "") -> Path:
        raise backend.NoCompilerError(f"no compiler here for {folder}")

    monkeypatch.setattr(backend, "build_extension", no_build)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        engine, name = load_engine(model)
    assert name == "python" and calls == ["base"]
