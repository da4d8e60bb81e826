"""The command line's manners a new user meets first (issue finding 14): Click's wording for a bad number,
plain usage lines, completion of a ruleset, spb sim's seat checks and width, the first build's estimate."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import typing
from pathlib import Path

import pytest
import typer
import typer.main
from typer.testing import CliRunner

from spbc.engine.backend import BUILD_RANGE, build_estimate
from spbc.frontends.cli import app
from spbc.frontends.options import complete_rules
from spbc.lang.load import shipped_names

runner = CliRunner()
COMMAND = typer.main.get_command(app)
SPB = [sys.executable, "-P", "-m", "spbc.frontends.cli"]


def commands(group=COMMAND, path=()):
    """(the words that name it, the command) for every command of spb and of its groups."""
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from commands(command, (*path, name))
        else:
            yield (*path, name), command


def number_kind(command, param) -> str | None:
    """'integer' or 'float' for an option the command's function declares int or float (or Optional)."""
    function = inspect.unwrap(command.callback)
    hints = typing.get_type_hints(function, include_extras=False)
    kind = hints.get(param.name)
    if typing.get_origin(kind) in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        kind = next(arg for arg in typing.get_args(kind) if arg is not type(None))
    return {int: "integer", float: "float"}.get(kind)


def test_every_number_option_says_what_click_says_of_a_bad_value():
    """issue finding 14: 'abc' is not a valid integer., not pydantic's 'Input should be a valid integer'."""
    checked = []
    for path, command in commands():
        for param in command.params:
            kind = number_kind(command, param) if param.param_type_name == "option" else None
            if kind is None:
                continue
            option = max(param.opts, key=len)
            result = runner.invoke(app, [*path, option, "abc"])
            assert result.exit_code == 2, (path, option, result.output)
            assert f"Invalid value for '{option}': 'abc' is not a valid {kind}" in result.output, (path, result.output)
            assert "Input should be" not in result.output
            checked.append((path, option))
    assert len(checked) >= 15 and (("sim",), "--games") in checked and (("pbem", "new"), "--deadline") in checked
    assert (("analyze",), "--margin") in checked and (("bench",), "--seconds") in checked


def test_the_real_command_words_a_bad_number_and_a_number_out_of_range_as_click_does():
    """issue finding 14, through the spb command itself."""
    done = subprocess.run([*SPB, "sim", "--games", "abc"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == "Error: Invalid value for '--games': 'abc' is not a valid integer."
    done = subprocess.run([*SPB, "sim", "--games", "0"], capture_output=True, text=True, timeout=120)
    assert done.stderr.splitlines()[-1] == "Error: Invalid value for '--games': 0 is not in the range x>=1."
    assert "[default: 10; x>=1]" in " ".join(runner.invoke(app, ["sim", "-h"]).stdout.split())  # the help says so


def test_usage_lines_and_arguments_show_metavars_plainly():
    """issue finding 14: spb diff [OPTIONS] A B, not {A} {B}; RULES, not RULES <path>."""
    for path, _ in commands():
        text = runner.invoke(app, [*path, "--help"]).stdout
        assert "{" not in text.splitlines()[0] and "<path>" not in text, (path, text)
    assert runner.invoke(app, ["diff", "-h"]).stdout.startswith("Usage: spb diff [OPTIONS] A B\n")
    assert runner.invoke(app, ["pbem", "admin", "-h"]).stdout.startswith("Usage: spb pbem admin [OPTIONS] GAME ACTION...\n")
    balance = runner.invoke(app, ["balance", "-h"]).stdout
    assert balance.startswith("Usage: spb balance [OPTIONS] RULES\n") and "\n  RULES  Shipped ruleset" in balance


def test_completion_of_a_ruleset_offers_shipped_names_and_rules_files(tmp_path, monkeypatch):
    """issue finding 14: --rules completes the shipped names, *.spb files and folders (not other files)."""
    (tmp_path / "mine.spb").write_text("", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "rich-start.spb").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    shipped = [name.replace("_", "-") for name in shipped_names()]
    assert complete_rules("") == [*shipped, "house/", "mine.spb"]
    assert complete_rules("m") == ["mine.spb"]
    assert complete_rules("new") == ["new-society"]
    assert complete_rules("house/") == ["house/rich-start.spb"]
    assert complete_rules(f"{tmp_path}/mi") == [f"{tmp_path}/mine.spb"]
    assert complete_rules("nothing-") == []


@pytest.mark.slow  # a real process per command
def test_every_ruleset_option_completes_so_in_the_shell(tmp_path):
    """issue finding 14: the shell's own completion request (bash) of --rules in every command that has it,
    made to the installed spb script (the completion variable is named after the program)."""
    (tmp_path / "mine.spb").write_text("", encoding="utf-8")
    env = dict(os.environ, _SPB_COMPLETE="complete_bash")
    with_rules = [path for path, command in commands() if any("--rules" in p.opts for p in command.params)]
    assert len(with_rules) >= 8 and ("analyze",) in with_rules
    for path in with_rules:
        words = " ".join(["spb", *path, "--rules", "m"])
        done = subprocess.run([str(Path(sys.executable).with_name("spb"))], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                              env=dict(env, COMP_WORDS=words, COMP_CWORD=str(len(path) + 2)))
        assert done.returncode == 0 and done.stdout.split() == ["mine.spb"], (path, done.stdout, done.stderr)


def test_sim_names_an_unknown_level_and_refuses_one_seat():
    """issue finding 14: --seats foo said 'base is for 2 to 4 players, not 1'."""
    result = runner.invoke(app, ["sim", "--seats", "foo"])
    assert result.exit_code == 2 and "unknown computer level 'foo'" in result.output
    assert "players" not in result.output
    result = runner.invoke(app, ["sim", "--seats", "hard"])
    assert result.exit_code == 2
    assert "--seats hard is one seat" in result.output and "e.g. --seats hard,random" in result.output


def test_sim_of_one_level_says_there_is_nothing_to_compare():
    """issue finding 14."""
    result = runner.invoke(app, ["sim", "--seats", "random,random", "--games", "2"])
    assert result.exit_code == 0
    assert "every seat played random: nothing to compare" in result.stdout
    mixed = runner.invoke(app, ["sim", "--seats", "random,easy", "--games", "2"])
    assert "nothing to compare" not in mixed.stdout


def test_the_sim_table_fits_100_columns():
    """issue finding 14: the table was 120 columns wide."""
    result = runner.invoke(app, ["sim", "--seats", "hard@200it,medium@20it,easy", "--games", "3"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100, max(lines, key=len)
    assert [line.split()[0] for line in lines[2:5]] == ["hard@200it", "medium@20it", "easy"]


def test_the_build_estimate_is_the_usual_range_then_what_the_last_build_took(tmp_path, monkeypatch):
    """issue finding 14: the first build said 'about 10 s' whatever it took."""
    monkeypatch.setenv("SPBC_CACHE_DIR", str(tmp_path))
    assert build_estimate() == BUILD_RANGE == "usually 5 to 60 s"
    (tmp_path / "last-build-seconds").write_text("16.4\n", encoding="utf-8")
    assert build_estimate() == "about 16 s, as the last build here"
    (tmp_path / "last-build-seconds").write_text("not a number\n", encoding="utf-8")
    assert build_estimate() == BUILD_RANGE


def test_each_command_module_adds_the_commands_the_app_wires_it_for():
    """spb CMD builds its app of CMD's module alone (spbc.frontends.app.COMMANDS): that module adds
    exactly those commands, together they are all of spb's, and each says the same help either way."""
    from spbc.frontends.app import COMMANDS, make_app

    everything = set(COMMAND.commands)
    assert set().union(*map(set, COMMANDS.values())) == everything
    for module, names in COMMANDS.items():
        for name in names:
            alone = make_app([name, "--help"])
            assert set(typer.main.get_command(alone).commands) == set(names), module
            assert runner.invoke(alone, [name, "--help"]).output == runner.invoke(app, [name, "--help"]).output
    assert set(typer.main.get_command(make_app(["no-such-command"])).commands) == everything
    assert set(typer.main.get_command(make_app([])).commands) == everything


def test_a_command_imports_no_other_commands_module():
    probe = ("import sys; sys.argv = ['spb', 'diff', 'base', 'banquet']\nfrom spbc.frontends.cli import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\nprint(sorted(m for m in sys.modules if m.startswith('spbc.frontends.')))")
    done = subprocess.run([sys.executable, "-P", "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == str(sorted(
        ["spbc.frontends.app", "spbc.frontends.cli", "spbc.frontends.common", "spbc.frontends.options",
         "spbc.frontends.variant_cmds"]))


def test_spb_variants_says_the_same_without_typer_and_imports_neither_typer_parsing_nor_pydantic():
    probe = ("import sys; sys.argv = ['spb', 'variants']\nfrom spbc.frontends.cli import main\n"
             "try:\n    main()\nexcept SystemExit as done:\n    assert done.code == 0, done.code\n"
             "print(sorted(m for m in sys.modules if m in ('pydantic', 'typer._adapters', 'spbc.frontends.app')))")
    done = subprocess.run([sys.executable, "-P", "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    *listing, imported = done.stdout.splitlines()
    assert imported == "[]"
    assert "\n".join(listing) + "\n" == runner.invoke(app, ["variants"]).output
    assert len(listing) == len(shipped_names()) + 1
