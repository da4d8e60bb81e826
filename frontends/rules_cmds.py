"""Commands: check, cards, docs, compile."""

from __future__ import annotations

import enum
import sys
from pathlib import Path

import typer
from rich.table import Table

from spbc.frontends.options import complete_rules
from spbc.lang.model import RulesModel


def register(app: typer.Typer) -> None:
    """Add this module's commands to the spb app."""
    app.command("check")(check)
    app.command("cards")(cards)
    app.command("docs")(docs)
    app.command("compile")(compile_rules)


# --- check -------------------------------------------------------------------------------


class DumpKind(str, enum.Enum):
    ast = "ast"
    model = "model"
    ir = "ir"


def _default_rules() -> str:
    """rules/base.spb of the current folder if there is one, else the shipped base rules."""
    here = Path("rules/base.spb")
    return here.as_posix() if here.is_file() else "base"


def check(
    files: list[str] | None = typer.Argument(
        None, metavar="[FILES]...", help="Rules files or shipped ruleset names (default: rules/base.spb if present here, else the shipped base)."
    ),
    dump: DumpKind | None = typer.Option(
        None, "--dump", metavar="[ast|model|ir]", help="Print the syntax tree (ast), the checked model (model) or the engine IR (ir) as text."
    ),
) -> None:
    """Check rules files: every error with its place on stderr, or a one-line summary."""
    from spbc.source.diagnostics import RulesError
    from spbc.engine.dump import dump_ir
    from spbc.lang.dump import dump_ast, dump_model
    from spbc.engine.lower import lower
    from spbc.lang.load import check_loaded, load_program, resolve_rules
    from spbc.lang.names import display_path

    failed = False
    for name in files or [_default_rules()]:
        label = display_path(resolve_rules(name))
        try:
            program = load_program(name)
            if dump is DumpKind.ast:
                typer.echo(dump_ast(program), nl=False)
            model = check_loaded(program)
        except RulesError as error:
            count = len(error.diagnostics)
            typer.echo(f"{error}\n\n{label}: {count} error{'s' if count != 1 else ''}", err=True)
            failed = True
            continue
        if dump is DumpKind.model:
            typer.echo(dump_model(model), nl=False)
        elif dump is DumpKind.ir:
            typer.echo(dump_ir(lower(model)), nl=False)
        elif dump is None:
            copies = sum(card.copies for card in model.cards)
            typer.echo(f"{label}: ok, {len(model.cards)} cards ({copies} copies), "
                       f"{len(model.decks)} decks, {len(model.phases)} phases")
    if failed:
        raise typer.Exit(1)


# --- cards, docs, compile ----------------------------------------------------------------

RULES_HELP = "A shipped ruleset by name, or the path of a rules file."


def _fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``message`` on stderr and give the exit to raise."""
    typer.echo(message, err=True)
    return typer.Exit(code)


def _load(rules: str) -> RulesModel:
    """The checked model of ``rules``; rules errors end the command with exit code 1."""
    from spbc.source.diagnostics import RulesError
    from spbc.lang.load import load_model

    try:
        return load_model(rules)
    except RulesError as error:
        raise _fail(str(error)) from None


def cards(
    rules: str = typer.Option("base", "--rules", metavar="RULES", help=RULES_HELP, autocompletion=complete_rules),
    as_json: bool = typer.Option(False, "--json", help="Print the cards as a JSON list."),
) -> None:
    """List every card of a ruleset: deck, colour, cost, copies, income, symbol, abilities."""
    from spbc.reference import cards as card_data

    model = _load(rules)
    if as_json:
        typer.echo(card_data.cards_json(model), nl=False)
    elif sys.stdout.isatty():
        _print_card_table(model)
    else:
        typer.echo(card_data.format_card_table(model), nl=False)


#: Shorter headings for a card table that would not fit the terminal with the full ones.
SHORT_HEADINGS = {"Copies": "#", "Rubles": "R", "Points": "P", "Symbol": "Sym", "Displace value": "Disp"}


def _print_card_table(model: RulesModel) -> None:
    """The card table drawn by rich, for a terminal, as wide as the terminal at most."""
    from rich.console import Console

    from spbc.reference.cards import card_table

    console = Console()
    columns, rows = card_table(model, deck=True, names=False)
    title = f"{model.title}: {sum(card.copies for card in model.cards)} cards"
    table = _card_table(title, [column.title for column in columns], [c.numeric for c in columns], rows)
    if not _fits(table, [column.title for column in columns], console.width):
        short = [SHORT_HEADINGS.get(column.title, column.title) for column in columns]
        table = _card_table(title + " (#: copies, R: rubles, P: points)", short,
                            [c.numeric for c in columns], rows)
    console.print(table)


def _fits(table: Table, headings: list[str], width: int) -> bool:
    """Whether the table drawn that wide shows every heading whole (rich cuts what does not fit)."""
    import io

    from rich.console import Console

    probe = Console(file=io.StringIO(), width=width, no_color=True)
    probe.print(table)
    drawn = probe.file.getvalue()  # type: ignore[attr-defined]
    return all(word in drawn.split() for heading in headings for word in heading.split())


def _card_table(title: str, headings: list[str], numeric: list[bool], rows: list[list[str]]) -> Table:
    """The terminal's width is shared out by wrapping the words of names and headings, never by
    cutting a value short: each column is at least as wide as its longest word."""
    from rich import box
    from rich.table import Table

    table = Table(title=title, box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    for index, heading in enumerate(headings):
        words = [word for row in rows for word in row[index].split()] + heading.split()
        table.add_column(heading, justify="right" if numeric[index] else "left", overflow="fold",
                         min_width=max(len(word) for word in words))
    for row in rows:
        table.add_row(*row)
    return table


class DocFormat(str, enum.Enum):
    md = "md"
    html = "html"


class DocLanguage(str, enum.Enum):
    en = "en"
    de = "de"
    zh = "zh"


def docs(
    rules: str = typer.Option("base", "--rules", metavar="RULES", help=RULES_HELP, autocompletion=complete_rules),
    doc_format: DocFormat = typer.Option(DocFormat.md, "--format", metavar="[md|html]",
                                         help="Markdown or a self-contained HTML page (printable)."),
    language: DocLanguage = typer.Option(DocLanguage.en, "--lang", metavar="[en|de|zh]",
                                         help="The language: English, German or Chinese."),
    output: Path | None = typer.Option(None, "-o", "--output", metavar="FILE", help="Write to this file instead of stdout."),
) -> None:
    """Print the rules reference of a ruleset, generated from its rules."""
    from spbc.reference.docs import MissingProseError, emit_reference, notation_section, reference_names

    model = _load(rules)
    try:
        files = emit_reference(model, notation_section(model, language.value), language.value)
    except MissingProseError as error:
        raise _fail(str(error)) from None
    markdown, html = reference_names(language.value)
    text = files[markdown if doc_format is DocFormat.md else html]
    if output is None:
        typer.echo(text, nl=False)
        return
    from spbc.source.files import write_text_atomic

    try:
        write_text_atomic(output, text)
    except OSError as error:
        raise _fail(_cannot_write(output, error)) from None


def _cannot_write(path: Path, error: OSError) -> str:
    """``error: cannot write reference.md: No such file or directory`` with a hint for the usual causes."""
    reason = error.strerror or str(error)
    if path.is_dir():
        hint = "; give a file name, not a folder"
    elif not path.parent.is_dir():
        hint = f"; there is no folder {path.parent.as_posix()}"
    else:
        hint = ""
    return f"error: cannot write {path.as_posix()}: {reason}{hint}"


def _compile_folders(rules_dir: Path | None, out: Path | None) -> tuple[Path, Path]:
    """The rules and output folders: given, or ./rules and ./generated in a checkout."""
    if rules_dir is None:
        here = Path("rules")
        if not (here.is_dir() and any(here.glob("*.spb"))):
            raise _fail(
                "spb compile: no rules/ folder with .spb files here; run it at the top of an spbc"
                " checkout, or pass --rules-dir (and --out)",
                2,
            )
        rules_dir = here
    elif not rules_dir.is_dir():
        raise _fail(f"error: spb compile: the rules folder {rules_dir.as_posix()} "
                    f"{'is a file' if rules_dir.exists() else 'does not exist'}; give the folder that holds the .spb files", 2)
    elif not any(rules_dir.glob("*.spb")):
        raise _fail(f"error: spb compile: no .spb files in {rules_dir.as_posix()}", 1)
    if out is None:
        out = rules_dir.parent / "generated"
    return rules_dir, out


def compile_rules(
    rules_dir: Path | None = typer.Option(None, "--rules-dir", metavar="DIR", help="The rules folder [default: ./rules]."),
    out: Path | None = typer.Option(None, "--out", metavar="DIR",
                                    help="The generated folder [default: beside the rules folder]."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 if the generated files are stale."),
) -> None:
    """Compile every ruleset of the rules folder into the generated folder (--check: exit 1 if it is stale)."""
    from spbc.build.compile import compile_rules_dir, diff_generated, write_generated
    from spbc.source.diagnostics import RulesError
    from spbc.reference.docs import MissingProseError

    rules_dir, out = _compile_folders(rules_dir, out)
    try:
        files = compile_rules_dir(rules_dir)
    except (RulesError, MissingProseError) as error:
        raise _fail(str(error)) from None
    if check:
        stale = diff_generated(out, files)
        if stale:
            lines = [f"{out.as_posix()} is out of date with {rules_dir.as_posix()}:", *stale]
            raise _fail("\n".join(lines + ["run spb compile to regenerate"]))
        typer.echo(f"{len(files)} generated files up to date")
        return
    try:
        result = write_generated(out, files)
    except OSError as error:
        where = Path(error.filename) if error.filename else out
        raise _fail(f"error: spb compile: cannot write into {out.as_posix()}: "
                    f"{error.strerror or error} ({where.as_posix()})") from None
    for key in result.written:
        typer.echo(f"wrote {key}")
    for key in result.removed:
        typer.echo(f"removed {key}")
    typer.echo(f"{len(result.unchanged)} files unchanged")
