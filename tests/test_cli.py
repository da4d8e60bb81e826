"""The command line's manners: --version, shell completion, help texts, and the README's table of them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer.completion
import typer.main
from typer.testing import CliRunner

from spbc.frontends.cli import app
from spbc.source.version import VERSION

runner = CliRunner()
README = Path(__file__).resolve().parent.parent / "README.md"
COMMAND = typer.main.get_command(app)


def synopsis(name: str) -> str:
    """``spb name [--opt METAVAR] [--flag] ARG`` as the command's parameters give it."""
    words = [f"spb {name}"]
    for param in COMMAND.commands[name].params:
        if param.name == "help":
            continue
        if param.param_type_name == "argument":
            words.append(param.metavar or param.name.upper())
        elif param.is_flag:
            words.append(f"[{max(param.opts, key=len)}]")
        else:
            words.append(f"[{max(param.opts, key=len)} {param.metavar}]")
    return " ".join(words)


def summary(name: str) -> str:
    """The first paragraph of a command's help, on one line."""
    return " ".join((COMMAND.commands[name].help or "").split("\n\n")[0].split())


def readme_table() -> dict[str, tuple[str, str]]:
    """command name -> (synopsis, what it does) from the README's table of commands."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Commands"):text.index("## Playing in the terminal")]
    rows = re.findall(r"^\| `(spb (\S+)[^`]*)` \| (.*) \|$", section, re.MULTILINE)
    return {name: (syntax.replace("\\|", "|"), what) for syntax, name, what in rows}


def test_the_readme_table_of_commands_is_what_help_says():
    table = readme_table()
    assert list(table) == list(COMMAND.commands)  # every command, in the order of spb --help
    for name, (syntax, what) in table.items():
        assert syntax == synopsis(name), name
        assert what == summary(name), name
        helped = runner.invoke(app, [name, "--help"])
        assert helped.exit_code == 0
        assert what in " ".join(helped.stdout.split()), name


def test_help_texts_use_the_usual_metavars_and_no_markup_leftovers():
    for name in COMMAND.commands:
        text = runner.invoke(app, [name, "--help"]).stdout
        assert "<bool>" not in text and "<int" not in text and "<str>" not in text, name
        # a "[default: ...]" read as markup left its full stop behind, alone after a space
        assert not re.search(r"\s\.(\s|$)", text), name
        for param in COMMAND.commands[name].params:
            if param.param_type_name == "option" and not param.is_flag:
                assert param.metavar and param.metavar in text, (name, param.name)
    play = runner.invoke(app, ["play", "--help"]).stdout
    assert "--seed INTEGER" in play and "--record FILE" in play and "(default: you,ai:random)." in play


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"spb {VERSION}\n"
    done = subprocess.run([sys.executable, "-P", "-m", "spbc.frontends.cli", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == f"spb {VERSION}\n"


def test_shell_completion_is_offered(monkeypatch):
    result = runner.invoke(app, ["--install-completion", "--help"])
    assert result.exit_code == 0
    assert "--install-completion" in result.stdout and "--show-completion" in result.stdout
    # --show-completion is a flag: typer finds the shell among the test's parent processes, which a test
    # started from no shell (a service, a detached job) lacks, so the shell is bash here whatever started it
    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: "bash")
    shown = runner.invoke(app, ["--show-completion"])
    assert shown.exit_code == 0 and "complete" in shown.stdout and "_spb_completion" in shown.stdout


# --- at a terminal: widths and progress -------------------------------------------------------------


def at_terminal(args: list[str], columns: int, env: dict[str, str] | None = None) -> str:
    """What spb prints on a pseudo-terminal so many columns wide, escape sequences taken out."""
    import os

    import pexpect

    child = pexpect.spawn(sys.executable, ["-P", "-m", "spbc.frontends.cli", *args], dimensions=(200, columns),
                          env=dict(os.environ, TERM="xterm", **(env or {})), encoding="utf-8", timeout=120)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)


@pytest.mark.slow  # a pseudo-terminal per width
def test_the_card_table_fits_the_terminal():
    for columns in (80, 100, 160):
        text = at_terminal(["cards"], columns)
        lines = [line for line in text.replace("\r", "").split("\n") if line]
        assert max(len(line) for line in lines) <= columns, columns
        assert "…" not in text  # no value is cut short
        head = next(line for line in lines if line.lstrip().startswith("Card"))
        assert head.split()[-1] == "Ability", (columns, head)  # every column is there
        assert "Church of the" in text and "Mistress of" in text


@pytest.mark.slow  # a tournament on a pseudo-terminal
def test_a_simulation_shows_its_progress_at_a_terminal():
    text = at_terminal(["sim", "--games", "60"], 100)
    assert "60/60" in text and "60 games of base" in text
    piped = runner.invoke(app, ["sim", "--games", "60"])
    assert "/60" not in piped.output  # no bar into a pipe


def test_without_a_c_compiler_one_line_says_the_twin_is_used(tmp_path):
    import os

    from test_backend import variant

    main = variant(tmp_path, "hand_limit         = 3", "hand_limit         = 5")
    env = dict(os.environ, SPBC_CACHE_DIR=str(tmp_path / "cache"), CC=str(tmp_path / "no-such-cc"))
    env.pop("SPBC_BACKEND", None)
    done = subprocess.run([sys.executable, "-P", "-m", "spbc.frontends.cli", "sim", "--rules", str(main), "--games", "2"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ("note: the compiled engine of 'base' is not available (no C compiler was found); "
                           "using the pure-Python twin, which plays the same game more slowly\n")
    assert "2 games of base (python engine)" in done.stdout


@pytest.mark.slow
def test_the_first_build_of_a_rules_files_engine_shows_a_progress_bar(tmp_path):
    """A real Cython build (some seconds on two cores), so in the slow tier."""
    from test_backend import variant

    main = variant(tmp_path, "hand_limit         = 3", "hand_limit         = 4")
    house = main.with_name("house.spb")
    main.rename(house)
    text = at_terminal(["sim", "--rules", str(house), "--games", "2"], 120,
                       env={"SPBC_CACHE_DIR": str(tmp_path / "cache")})
    assert "building the engine for house.spb, usually 5 to 60 s" in text  # no build was timed in this cache yet
    assert "2 games of base (compiled engine)" in text
    took = float((tmp_path / "cache" / "last-build-seconds").read_text(encoding="utf-8"))
    assert took > 0  # what the next build's estimate says (issue finding 14)


def test_dash_h_is_help_for_spb_and_every_command_and_group():
    assert runner.invoke(app, ["-h"]).stdout == runner.invoke(app, ["--help"]).stdout
    for name in COMMAND.commands:
        short, long = runner.invoke(app, [name, "-h"]), runner.invoke(app, [name, "--help"])
        assert short.exit_code == 0 and short.stdout == long.stdout, name
    assert runner.invoke(app, ["pbem", "new", "-h"]).stdout.startswith("Usage: spb pbem new")
