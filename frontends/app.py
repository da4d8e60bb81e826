"""The ``spb`` command's Typer app: each subcommand parses options, calls one library function, renders the
result. spbc.frontends.cli is the entry point, which answers ``spb --version`` without importing this.

Exit codes: 0 ok, 1 errors in the user's input (rules, moves, records), 2 usage.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="spb",
    help="Saint Petersburg: check and compile rules, play, simulate and benchmark.",
    no_args_is_help=True,
    rich_markup_mode=None,  # help texts are plain text: "[default: ...]" is never read as markup
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},  # every command and group inherits both
)


def _version(value: bool) -> None:
    if value:
        from spbc.source.version import VERSION

        typer.echo(f"spb {VERSION}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version of spb and exit."),
) -> None:
    """Saint Petersburg: check and compile rules, play, simulate and benchmark."""


def _register_commands() -> None:
    """Each command module adds its commands; one module per area keeps cli.py small."""
    from spbc.frontends import (engine_cmds, game_cmds, lab_cmds, pbem_cmds, record_cmds, rules_cmds, serve_cmds,
                                variant_cmds)
    from spbc.frontends.options import plain_commands

    for module in (rules_cmds, variant_cmds, engine_cmds, game_cmds, record_cmds, lab_cmds, pbem_cmds, serve_cmds):
        module.register(app)
    plain_commands(app)  # usage lines with the arguments' metavars as written: spb diff [OPTIONS] A B


_register_commands()
