"""Start-up costs a user feels (issue 23 item 4): what ``import spbc``, ``spb --version`` and loading every
shipped ruleset do, checked by what they import and how often they parse and check, never by a clock."""

from __future__ import annotations

import shutil
import subprocess
import sys

import spbc
from spbc.lang import check, load
from spbc.source.locate import rules_dir

HEAVY = ("pydantic", "lark", "jinja2", "typer", "spbc.play.game", "spbc.lang.load", "spbc.engine.backend")


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_import_spbc_loads_none_of_the_heavy_parts():
    loaded = _run(f"import spbc, sys\nprint(sorted(set({HEAVY!r}) & set(sys.modules)))\n")
    assert loaded.strip() == "[]"


def test_every_public_name_of_spbc_still_works():
    assert spbc.__version__
    for name in spbc.__all__:
        assert getattr(spbc, name).__name__ == name
        assert name in dir(spbc)
    assert _run("from spbc import *\nprint(Game.__name__, load_rules('base').model.name)\n").split() == [
        "Game", "base"]


def test_an_unknown_name_of_spbc_is_an_attribute_error():
    try:
        getattr(spbc, "no_such_name")
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:
        raise AssertionError("spbc.no_such_name was found")


def test_spb_version_imports_no_command_and_no_game():
    code = ("import sys\nsys.argv = ['spb', '--version']\nfrom spbc.frontends.cli import main\nmain()\n"
            f"print(sorted(set({HEAVY!r}) & set(sys.modules)))\n"
            "print([m for m in sys.modules if m.startswith('spbc.frontends.') and m != 'spbc.frontends.cli'])\n")
    assert _run(code).splitlines() == [f"spb {spbc.__version__}", "[]", "[]"]


def test_the_app_is_still_found_where_it_was():
    from spbc.frontends.cli import app

    assert app.info.name == "spb"


def test_every_shipped_ruleset_loads_with_base_parsed_and_checked_once(monkeypatch):
    """spb variants loads the 7 rulesets: 6 extend base, which was parsed and checked for each (13 checks)."""
    checked = []
    real = check.check_program
    monkeypatch.setattr(check, "check_program", lambda program: checked.append(program.digest) or real(program))
    load._checked.clear()
    load._parsed.cache_clear()
    models = [load.load_model(name, kept=False) for name in load.shipped_names()]  # not from the disk's cache
    assert len(checked) == len(set(checked)) == len({model.digest for model in models} | {
        model.base.digest for model in models if model.base is not None})
    again = load.load_model("base", kept=False)
    assert again is next(model for model in models if model.name == "base")
    assert load._parsed.cache_info().misses == load._parsed.cache_info().currsize


def test_a_changed_rules_file_is_checked_again(tmp_path):
    shutil.copytree(rules_dir(), tmp_path / "rules")
    main = tmp_path / "rules" / "base.spb"
    first = load.load_model(main)
    text = main.read_text(encoding="utf-8")
    main.write_text(text.replace("starting_rubles    = 25", "starting_rubles    = 26", 1), encoding="utf-8")
    again = load.load_model(main)
    assert again.digest != first.digest and again.game.starting_rubles == first.game.starting_rubles + 1
