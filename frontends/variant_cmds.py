"""Commands: variants, diff, new-variant."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from spbc.frontends.common import fail
from spbc.frontends.options import complete_rules
from spbc.lang.model import RulesModel


def register(app: typer.Typer) -> None:
    """Add this module's commands to the spb app."""
    app.command("variants")(variants)
    app.command("diff")(diff)
    app.command("new-variant")(new_variant)


def _model(rules: str) -> RulesModel:
    from spbc.lang.load import load_model
    from spbc.source.diagnostics import RulesError

    try:
        return load_model(rules)
    except RulesError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None


def variants() -> None:
    """List the shipped rulesets, one line each: name, title, the ruleset it extends."""
    from spbc.lang.load import shipped_names
    from spbc.source import locate

    models = [_model(name) for name in shipped_names()]
    width = max(len(model.name) for model in models)
    for model in models:
        extends = f" (extends {model.base.name})" if model.base is not None else ""
        typer.echo(f"{model.name.replace('_', '-'):<{width}}  {model.title}, "
                   f"{model.game.min_players}-{model.game.max_players} players{extends}")
    typer.echo(f"the rules files are in {locate.rules_dir()}; spb new-variant NAME --from RULES starts your own")


def diff(
    old: Path = typer.Argument(..., metavar="A", autocompletion=complete_rules, help="A shipped ruleset by name, or the path of a rules file."),
    new: Path = typer.Argument(..., metavar="B", autocompletion=complete_rules, help="The ruleset to compare with A, the same way."),
    as_json: bool = typer.Option(False, "--json", help="Print the differences as JSON."),
) -> None:
    """Print what differs between two rulesets: settings, cards added, removed and changed, abilities."""
    from spbc.reference.diff import diff_json, diff_lines, diff_models

    a, b = _model(str(old)), _model(str(new))  # a name is looked up among the shipped rulesets
    if as_json:
        typer.echo(diff_json(a, b), nl=False)
        return
    lines = diff_lines(diff_models(a, b))
    for line in lines:
        typer.echo(line)
    if not lines:
        typer.echo(f"{a.name} and {b.name} play by the same rules")


def new_variant(
    name_given: Path = typer.Argument(..., metavar="NAME", help="The variant's name; writes NAME.spb here (or the path NAME.spb)."),
    base: str = typer.Option("base", "--from", metavar="RULES", autocompletion=complete_rules,
                             help="The ruleset it extends: a shipped name or the path of a rules file."),
) -> None:
    """Write a starter rules file that extends a ruleset, with comments on what can be changed."""
    from spbc.lang.load import resolve_rules, shipped_names
    from spbc.reference.starter import starter_text
    from spbc.source.files import write_text_atomic

    name = str(name_given)
    target = Path(name if name.endswith(".spb") else f"{name}.spb")
    if target.exists():
        fail(f"{target.as_posix()} already exists; give another name or remove it first")
    model = _model(base)
    own = target.stem.replace("-", "_")  # the ruleset's name, as the file's stem gives it
    if own == model.name or own in {shipped.replace("-", "_") for shipped in shipped_names()}:
        whose = "the ruleset it extends" if own == model.name else "a shipped ruleset"
        fail(f"{target.stem} is the name of {whose}; a variant needs a name of its own, such as my-{target.stem}")
    path = resolve_rules(base)
    shipped = not Path(base).suffix and len(Path(base).parts) == 1  # a shipped name stays a name
    written = base if shipped else Path(os.path.relpath(path.resolve(), target.resolve().parent)).as_posix()
    try:
        write_text_atomic(target, starter_text(target.stem, model, written))
    except OSError as error:
        fail(f"cannot write {target.as_posix()}: {error.strerror or error}")
    typer.echo(f"wrote {target.as_posix()}, a variant of {model.name}; "
               f"check it with: spb check {target.as_posix()}")
