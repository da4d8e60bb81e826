"""What every command shares: loading a ruleset with errors rendered, and failing with an exit code."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

import typer

if TYPE_CHECKING:  # spbc itself is imported by the command that runs, for a fast start of the others
    from spbc.play.game import Ruleset


def fail(message: str, code: int = 1) -> NoReturn:
    """Print an error to stderr and exit (1: bad input, 2: usage)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def load_ruleset(rules: str, backend: str = "auto") -> Ruleset:
    """spbc.load_rules with its failures turned into messages and exit codes.

    The first build of a rules file's engine shows a progress bar on a terminal; when the
    compiled engine cannot be had and the twin serves, one line on stderr says so.
    """
    import warnings

    import spbc
    from spbc.engine.backend import BackendError, builds_shown_by
    from spbc.source.diagnostics import RulesError

    try:
        with warnings.catch_warnings(record=True) as caught, builds_shown_by(building):
            warnings.simplefilter("always", RuntimeWarning)
            loaded = spbc.load_rules(rules, backend)
        for warning in caught:
            if issubclass(warning.category, RuntimeWarning):
                typer.echo(f"note: {warning.message}", err=True)
            else:
                warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
        return loaded
    except RulesError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None
    except BackendError as error:
        fail(str(error))
    except OSError as error:  # the cache folder of a rules file's engine cannot be made or written
        from spbc.source.locate import cache_dir

        fail(f"cannot prepare the engine of {rules} in {cache_dir()}: {error.strerror or error}; "
             "set SPBC_CACHE_DIR to a folder you can write")
    except ValueError as error:
        fail(str(error), code=2)


@contextmanager
def building(rules: str) -> Iterator[None]:
    """A progress bar on stderr while an engine is built (a pulsing bar and the time so far: a
    build says nothing of how far it has come); nothing when stderr is no terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from spbc.engine.backend import build_estimate

    console = Console(stderr=True)
    if not console.is_terminal:
        yield
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        progress.add_task(f"building the engine for {rules}, {build_estimate()}", total=None)
        yield


class Bar:
    """A progress bar's handle: ``bar(done)`` moves it to a count done (of a new total, when given),
    ``bar.describe(what)`` changes the text before it."""

    def __init__(self, progress: Any = None, task: Any = None) -> None:
        self.progress, self.task = progress, task

    def __call__(self, done: int, total: int | None = None) -> None:
        if self.progress is not None:
            self.progress.update(self.task, completed=done, **({} if total is None else {"total": total}))

    def describe(self, what: str) -> None:
        if self.progress is not None:
            self.progress.update(self.task, description=what)


@contextmanager
def progress_bar(what: str, total: int) -> Iterator[Bar]:
    """A progress bar on stderr (when it is a terminal) and its handle, which moves it (:class:`Bar`)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        yield Bar()
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True) as progress:
        yield Bar(progress, progress.add_task(what, total=total))
