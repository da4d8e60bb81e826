"""The command line's manners: --version, shell completion, help texts, and the README's table of them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
    done = subprocess.run([sys.executable, "-m", "spbc.frontends.cli", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == f"spb {VERSION}\n"


def test_shell_completion_is_offered():
    result = runner.invoke(app, ["--install-completion", "--help"])
    assert result.exit_code == 0
    assert "--install-completion" in result.stdout and "--show-completion" in result.stdout
    shown = runner.invoke(app, ["--show-completion", "bash"])
    assert shown.exit_code == 0 and "complete" in shown.stdout
