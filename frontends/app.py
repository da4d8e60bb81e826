"""The ``spb`` command's Typer app: each subcommand parses options, calls one library function, renders the
result. spbc.frontends.cli is the entry point, which answers ``spb --version`` without importing this.

Exit codes: 0 ok, 1 errors in the user's input (rules, moves, records), 2 usage.
"""

from __future__ import annotations

import importlib
from typing import Any

import typer

from spbc.frontends.options import plain_commands

#: Each command module and the commands it adds (its register()); a command line that names one of them
#: gets an app of that module's commands alone (:func:`make_app`), so ``spb variants`` never imports the
#: modules of play, the lab or the mail server. tests/test_cli_manners.py holds this to what they add.
COMMANDS: dict[str, tuple[str, ...]] = {
    "rules_cmds": ("check", "cards", "docs", "compile"),
    "variant_cmds": ("variants", "diff", "new-variant"),
    "engine_cmds": ("sim", "bench"),
    "game_cmds": ("play",),
    "record_cmds": ("replay", "analyze"),
    "lab_cmds": ("balance",),
    "pbem_cmds": ("pbem",),
    "serve_cmds": ("serve",),
}


def _version(value: bool) -> None:
    if value:
        from spbc.source.version import VERSION

        typer.echo(f"spb {VERSION}")
        raise typer.Exit()


def _options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version of spb and exit."),
) -> None:
    """Saint Petersburg: check and compile rules, play, simulate and benchmark."""


def make_app(arguments: list[str] | None = None) -> typer.Typer:
    """The ``spb`` app; for a command line (``sys.argv[1:]``) whose first word is a command, with that
    command's module alone (the same command, help and usage), else with every command."""
    app = typer.Typer(
        name="spb",
        help="Saint Petersburg: check and compile rules, play, simulate and benchmark.",
        no_args_is_help=True,
        rich_markup_mode=None,  # help texts are plain text: "[default: ...]" is never read as markup
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},  # every command and group inherits both
    )
    app.callback()(_options)
    first = arguments[0] if arguments else None
    modules = [module for module, names in COMMANDS.items() if first in names] or list(COMMANDS)
    for module in modules:  # one module per area keeps each small
        importlib.import_module(f"spbc.frontends.{module}").register(app)
    plain_commands(app)  # usage lines with the arguments' metavars as written: spb diff [OPTIONS] A B
    return app


_app: list[typer.Typer] = []


def __getattr__(name: str) -> Any:
    """``app``, the Typer app with every command, made on first use."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if not _app:
        _app.append(make_app())
    return _app[0]
