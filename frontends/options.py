"""What every command's options share: numbers read with Click's wording, plain usage lines, and the shell
completion of a ruleset.

Typer reads an ``int`` or ``float`` option through pydantic when pydantic is installed, and a bad value
then reads "Input should be a valid integer, unable to parse string as an integer". An option given
``parser=integer()`` or ``parser=number()`` says what Click says instead::

    Error: Invalid value for '--games': 'abc' is not a valid integer.

:class:`PlainCommand` writes the usage line and the Arguments section with an argument's metavar as it
is (``spb diff [OPTIONS] A B``, ``RULES``), where Typer writes ``{A} {B}`` and ``RULES <path>``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typing_extensions import override

import typer
from typer._click import Context, HelpFormatter  # Typer 0.29 carries its own Click; its commands take these
from typer.core import TyperArgument, TyperCommand

#: The extension of a rules file: what the completion of a ruleset offers beside the shipped names.
RULES_SUFFIX = ".spb"


def _range_problem(value: float, low: float | None, high: float | None) -> str | None:
    """Click's wording for a number outside its range ("0 is not in the range x>=1."), or None."""
    if (low is None or value >= low) and (high is None or value <= high):
        return None
    if low is not None and high is not None:
        bounds = f"{low}<=x<={high}"
    else:
        bounds = f"x>={low}" if low is not None else f"x<={high}"
    return f"{value} is not in the range {bounds}."


def integer(low: int | None = None, high: int | None = None) -> Callable[[Any], int]:
    """A parser of whole numbers (at least ``low``, at most ``high`` when given) that fails as Click does."""
    def parse(value: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):  # a default, already a number
            number = value
        else:
            try:
                number = int(str(value).strip(), 10)
            except ValueError:
                raise typer.BadParameter(f"{value!r} is not a valid integer.") from None
        problem = _range_problem(number, low, high)
        if problem is not None:
            raise typer.BadParameter(problem)
        return number
    return parse


def integers(low: int | None = None, high: int | None = None) -> dict[str, Any]:
    """The keywords of typer.Option for a whole number within bounds: the parser of :func:`integer`, and
    min and max for the help's ``[x>=1]`` (the parser checks them; Typer's own check would word it
    otherwise)."""
    return {"parser": integer(low, high), "min": low, "max": high}


def number(low: float | None = None, high: float | None = None) -> Callable[[Any], float]:
    """A parser of finite decimal numbers (within ``low``..``high`` when given) that fails as Click does."""
    def parse(value: Any) -> float:
        try:
            found = float(value if isinstance(value, (int, float)) else str(value).strip())
        except ValueError:
            raise typer.BadParameter(f"{value!r} is not a valid float.") from None
        if not math.isfinite(found):
            raise typer.BadParameter(f"{value!r} is not a finite number.")
        problem = _range_problem(found, low, high)
        if problem is not None:
            raise typer.BadParameter(problem)
        return found
    return parse


def _plain_name(argument: TyperArgument) -> str:
    """An argument as the usage line shows it: its metavar as written, in brackets when it may be left out."""
    name = argument.metavar or (argument.name or "").upper()
    if argument.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name if argument.required or name.startswith("[") else f"[{name}]"


class PlainCommand(TyperCommand):
    """A command whose usage line and Arguments section show each argument's metavar plainly."""

    @override
    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                pieces.append(_plain_name(param))
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces

    @override
    def format_options(self, ctx: Context, formatter: HelpFormatter) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if isinstance(param, TyperArgument):  # its metavar alone, without Typer's "<path>"
                arguments.append((param.metavar or (param.name or "").upper(), record[1]))
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def plain_commands(app: typer.Typer) -> None:
    """Give every command of app and of its groups the plain usage of :class:`PlainCommand`."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):  # Typer's own, unless a command asked for another
            info.cls = PlainCommand
    for group in app.registered_groups:
        if group.typer_instance is not None:
            plain_commands(group.typer_instance)


def complete_rules(incomplete: str) -> list[str]:
    """What the shell offers for a ruleset: the shipped names, then the rules files (``*.spb``) and the
    folders of the path typed so far."""
    from spbc.lang.load import shipped_names

    offers = [shown for name in shipped_names() if (shown := name.replace("_", "-")).startswith(incomplete)]
    head, slash, start = incomplete.rpartition("/")
    folder, prefix = Path(head or ("/" if slash else ".")), head + slash
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return offers
    for entry in entries:
        if not entry.name.startswith(start) or (entry.name.startswith(".") and not start.startswith(".")):
            continue
        if entry.is_dir():
            offers.append(f"{prefix}{entry.name}/")
        elif entry.name.endswith(RULES_SUFFIX):
            offers.append(f"{prefix}{entry.name}")
    return offers
