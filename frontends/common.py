"""What every command shares: loading a ruleset with errors rendered, and failing with an exit code."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:  # spbc itself is imported by the command that runs, for a fast start of the others
    from spbc.play.game import Ruleset


def fail(message: str, code: int = 1) -> NoReturn:
    """Print an error to stderr and exit (1: bad input, 2: usage)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def load_ruleset(rules: str, backend: str = "auto") -> Ruleset:
    """spbc.load_rules with its failures turned into messages and exit codes."""
    import spbc
    from spbc.engine.backend import BackendError
    from spbc.source.diagnostics import RulesError

    try:
        return spbc.load_rules(rules, backend)
    except RulesError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None
    except BackendError as error:
        fail(str(error))
    except OSError as error:  # the cache folder of a rules file's engine cannot be made or written
        from spbc.engine.backend import cache_dir

        fail(f"cannot prepare the engine of {rules} in {cache_dir()}: {error.strerror or error}; "
             "set SPBC_CACHE_DIR to a folder you can write")
    except ValueError as error:
        fail(str(error), code=2)
