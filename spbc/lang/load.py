"""Load a ruleset: read the main rules file and its includes, parse, check, build the model.

>>> model = load_model("base")          # a shipped ruleset, by name
>>> model = load_model("rules/base.spb")  # or any rules file, by path

Includes are relative to the including file and spliced in where they stand. Every
file is read once; a cycle, a missing file or a second include of the same file is
an error at the ``include`` line. A file with a syntax error is reported (its first
error) and the files it includes are still read and parsed, so one run reports a
syntax error in every broken file; the semantic check only runs when all files parse.
"""

from __future__ import annotations

import dataclasses
import difflib
import errno
import functools
import hashlib
from pathlib import Path, PurePosixPath

from spbc.contract import mechanics
from spbc.source import locate

from spbc.lang import cache, syntax
from spbc.lang.names import display_path, name_problem, shown_name
from spbc.lang.reader import MAX_RULES_BYTES as MAX_RULES_BYTES, Disk, resolve_base as resolve_base
from spbc.lang.reader import is_dir as _is_dir, is_file as _is_file, read_rules_text as _read_rules_text
from spbc.lang.extend import apply_variant, refuse_without_base
from spbc.source.diagnostics import Diagnostic, Note, RulesError, did_you_mean, file_span
from spbc.source.files import FileReadError
from spbc.source.span import Span
from spbc.lang.model import RulesModel


#: Includes nest at most this deep; a deeper chain is refused at the include that goes too far.
MAX_INCLUDE_DEPTH = 64


#: How many parsed files and checked models one process keeps (a process loads a handful of rulesets).
CACHED = 64

@functools.lru_cache(maxsize=CACHED)
def _parsed(text: str, path: str, name: str) -> syntax.File:
    """A file's parse by its text and names: every variant of base reads base's files again, but parses them
    once a process (syntax trees are frozen, so they are shared).

    The parser (Lark) and the checker are imported where they are first needed, not above: a command whose
    models are all found kept (spbc.lang.cache) starts without either."""
    from spbc.lang.parse import parse_text

    return parse_text(text, path, name)


def _check(program: syntax.Program) -> RulesModel:
    from spbc.lang.check import check_program  # see _parsed

    return check_program(program)

def _reason(error: FileReadError) -> str:
    return "a symlink loop" if error.errno == errno.ELOOP else error.reason


def shipped_names() -> list[str]:
    """The names of the shipped rulesets (``["base"]``)."""
    return sorted(path.stem for path in locate.rules_dir().glob("*.spb"))


def resolve_rules(name_or_path: str | Path) -> Path:
    """The rules file meant by a shipped ruleset name or a path.

    A bare name without a suffix that is not an existing file is looked up among the
    shipped rulesets; anything else is taken as a path (which may not exist).
    """
    path = Path(name_or_path)
    if isinstance(name_or_path, str) and not path.suffix and len(path.parts) == 1 and not _is_file(path):
        try:
            shipped = locate.shipped_rules(name_or_path)
        except (OSError, ValueError):  # a name too long for a file, or holding a NUL
            shipped = None
        if shipped is not None:
            return shipped
    return path


class _Loader:
    """Reads files depth first in include order, collecting files, blocks and problems."""

    def __init__(self, main: Path, disk: Disk) -> None:
        self.disk = disk  # where the files are read (spbc.lang.reader)
        self.root = disk.resolve(main).parent
        self.files: list[syntax.File] = []
        self.items: list[syntax.Block | syntax.Remove] = []  # top-level blocks and removes, includes spliced in
        self.extends: syntax.Extends | None = None
        self.diagnostics: list[Diagnostic] = []
        self.sources: dict[str, str] = {}
        self.included_at: dict[Path, Span | None] = {}  # file -> its include (None: the main file)

    def _name(self, path: Path, display: str) -> str:
        try:
            return self.disk.resolve(path).relative_to(self.root).as_posix()
        except ValueError:
            return display

    def _unreadable(self, path: Path, via: syntax.Include | None, reason: str) -> None:
        if via is None:
            hint = None
            if not path.suffix:
                hint = "shipped rulesets: " + ", ".join(shipped_names())
            shown = shown_name(self.disk.display(path))
            message = f"cannot read rules file '{shown}': {reason}"
            self.diagnostics.append(Diagnostic("SPB100", message, file_span(shown), hint))
            return
        code = "SPB120" if reason == "no such file" else "SPB100"
        missing = code == "SPB120"  # only a missing file may be a misspelt one
        siblings = [p.name for p in path.parent.glob("*.spb")] if missing and _is_dir(path.parent) else []
        close = difflib.get_close_matches(path.name, sorted(siblings), n=1)
        written = PurePosixPath(via.path.value)
        hint = f"did you mean '{written.with_name(close[0])}'?" if close else None
        message = f"cannot include '{via.path.value}': {reason}"
        self.diagnostics.append(Diagnostic(code, message, via.path.span, hint))

    def _refuse_name(self, path: Path, via: syntax.Include | None, name: str) -> bool:
        """Report a file whose name (as written in the include, or as recorded) cannot be shown; True if reported."""
        problem = name_problem(name)
        if problem is None:
            return False
        hint = ("rename the file: the names of rules files are printed into generated code, "
                "the rules reference and messages, so they hold only printable characters")
        if via is None:
            shown = shown_name(self.disk.display(path))
            message = f"cannot read rules file '{shown}': the file name holds {problem}"
            self.diagnostics.append(Diagnostic("SPB123", message, file_span(shown), hint))
            return True
        written = shown_name(via.path.value)
        if name == via.path.value:
            message = f"cannot include '{written}': the file name holds {problem}"
        else:
            message = f"cannot include '{written}': it is the file '{shown_name(name)}', whose name holds {problem}"
        self.diagnostics.append(Diagnostic("SPB123", message, via.path.span, hint))
        return True

    def _refuse_again(self, resolved: Path, via: syntax.Include, stack: tuple[Path, ...]) -> bool:
        """Report a cycle or a second include of ``resolved``; True if reported."""
        if resolved in stack:
            cycle = [self._name(p, p.as_posix()) for p in stack[stack.index(resolved):]]
            chain = " -> ".join([*cycle, self._name(resolved, resolved.as_posix())])
            self.diagnostics.append(Diagnostic("SPB121", f"include cycle: {chain}", via.span))
            return True
        if resolved in self.included_at:
            first = self.included_at[resolved]
            notes = (Note("first included here", first),) if first is not None else ()
            message = f"'{via.path.value}' is already included"
            self.diagnostics.append(Diagnostic("SPB122", message, via.span, notes=notes))
            return True
        return False

    def read(self, path: Path, via: syntax.Include | None, stack: tuple[Path, ...]) -> None:
        if via is not None and self._refuse_name(path, via, via.path.value):
            return
        resolved = self.disk.resolve(path)
        if via is not None and self._refuse_again(resolved, via, stack):
            return
        if via is not None and len(stack) >= MAX_INCLUDE_DEPTH:
            return self._unreadable(path, via, f"includes are nested more than {MAX_INCLUDE_DEPTH} files deep")
        try:
            text = self.disk.read(path)
        except FileReadError as error:
            return self._unreadable(path, via, _reason(error))
        display = self.disk.display(path)
        # the name the file is recorded under (a link's target), and for the main file how messages name it
        if self._refuse_name(path, via, self._name(path, display)) or (
                via is None and self._refuse_name(path, via, display)):
            return
        self.included_at[resolved] = via.span if via is not None else None
        self.sources[display] = text
        try:
            file = _parsed(text, display, self._name(path, display))
        except RulesError as error:
            self.diagnostics += error.diagnostics
            from spbc.lang.parse import find_includes  # see _parsed; it is imported by now

            items: tuple[syntax.Item, ...] = find_includes(text, display)
        else:
            self.files.append(file)
            items = file.items
        for index, item in enumerate(items):
            if isinstance(item, syntax.Include):
                self.read(path.parent / item.path.value, item, (*stack, resolved))
            elif isinstance(item, syntax.Extends):
                self._extends(item, via is None and index == 0)
            else:
                self.items.append(item)

    def _extends(self, item: syntax.Extends, first: bool) -> None:
        if first:
            self.extends = item
            return
        self.diagnostics.append(Diagnostic(
            "SPB125", "'extends' stands only once, first in the main rules file", item.span,
            hint="move it to the top of the file that names the variant; included files extend nothing"))


def _digest(files: list[syntax.File], items: list[syntax.Block | syntax.Remove]) -> str:
    """sha256 of every file's name (relative to the main file), a newline and its text, in read order.

    The main file counts under the name its ruleset block gives it (``ruleset mine`` is ``mine.spb``),
    not the name it has on the disk: the same rules under another file name are the same rules, and a
    save or record of them loads (a shipped ruleset's file has its ruleset's name, so its digest is as
    it always was)."""
    ruleset = next((item.id.value for item in items if isinstance(item, syntax.Block)
                    and item.kind.value == "ruleset" and item.id is not None), None)
    digest = hashlib.sha256()
    for index, file in enumerate(files):
        name = f"{ruleset}.spb" if index == 0 and ruleset is not None else file.name
        digest.update(f"{name}\n{file.text}".encode("utf-8"))
    return digest.hexdigest()


def _load_base(extends: syntax.Extends, main: Path, chain: tuple[Path, ...], disk: Disk) -> syntax.Program:
    """The program a variant extends; RulesError when it cannot be found, runs in a cycle or is broken."""
    written = extends.path.value
    base = disk.base(written, main)
    if base is None:
        hint = did_you_mean(written, shipped_names()) or \
            "shipped rulesets: " + ", ".join(shipped_names()) + "; or the path of a rules file"
        raise RulesError([Diagnostic("SPB126", f"cannot extend '{shown_name(written)}': no such ruleset",
                                     extends.path.span, hint)])
    if disk.resolve(base) in chain:
        names = [disk.display(p) for p in chain[chain.index(disk.resolve(base)):]]
        cycle = " -> ".join([*names, disk.display(base)])
        raise RulesError([Diagnostic("SPB124", f"extends cycle: {cycle}", extends.span)])
    if len(chain) >= MAX_INCLUDE_DEPTH:
        raise RulesError([Diagnostic("SPB124", f"variants are nested more than {MAX_INCLUDE_DEPTH} deep",
                                     extends.span)])
    return _load(base, chain, disk)


def load_program(name_or_path: str | Path, disk: Disk | None = None) -> syntax.Program:
    """Read and parse a rules file and everything it includes, and for a variant its base.

    Raises :class:`RulesError` with every file, include and syntax problem found
    (SPB1xx), and for a variant what does not fit its base (SPB215-SPB218); does not
    check meaning (see :func:`load_model`). ``disk`` is where the files are read (spbc.lang.reader: the
    disk, by default; or the texts a lab client sent, spbc.lang.sent).
    """
    if isinstance(name_or_path, str) and not name_or_path.strip():
        message = "no rules file given: name a shipped ruleset (" + ", ".join(shipped_names()) + \
            ") or the path of a rules file"
        raise RulesError([Diagnostic("SPB100", message, file_span("<rules>"))])
    return _load(resolve_rules(name_or_path), (), disk or Disk())


def _load(path: Path, chain: tuple[Path, ...], disk: Disk) -> syntax.Program:
    loader = _Loader(path, disk)
    loader.read(path, None, ())
    if loader.diagnostics:
        raise RulesError(loader.diagnostics, loader.sources)
    if loader.extends is None:
        problems = refuse_without_base(loader.items)
        if problems:
            raise RulesError(problems, loader.sources)
        blocks = tuple(item for item in loader.items if isinstance(item, syntax.Block))
        return syntax.Program(tuple(loader.files), blocks, _digest(loader.files, loader.items))
    try:
        base = _load_base(loader.extends, path, (*chain, disk.resolve(path)), disk)
    except RulesError as error:
        raise RulesError(error.diagnostics, {**loader.sources, **error.sources}) from None
    files = (*loader.files, *base.files)
    merged, problems = apply_variant(base, loader.extends, loader.items)
    program = syntax.Program(files, merged, _digest(list(files), loader.items), base)
    if problems:  # the rest of the variant is checked too: every error at once, not the first kind
        try:
            _check(program)
        except RulesError as error:
            problems = [*problems, *error.diagnostics]
        raise RulesError(problems, {file.path: file.text for file in files})
    return program


#: Checked models by what they were checked from: the program's digest, the names its files are shown by
#: (spans carry them) and the registered mechanics (which decide what an ability means).
_checked: dict[tuple[str, tuple[str, ...], tuple[mechanics.Mechanic, ...]], RulesModel] = {}


def check_loaded(program: syntax.Program) -> RulesModel:
    """The checked model of a loaded program (for a variant, with the model of its base);
    raises :class:`RulesError` with every semantic error, carrying the source texts for rendering.

    A program checked before in this process is not checked again (see _checked): ``spb variants`` loads
    base once for each variant that extends it."""
    key = (program.digest, tuple(file.path for file in program.files), mechanics.mechanics())
    model = _checked.get(key)
    if model is None:
        model = _check_loaded(program)
        if len(_checked) >= CACHED:
            del _checked[next(iter(_checked))]
        _checked[key] = model
    return model


def _check_loaded(program: syntax.Program) -> RulesModel:
    base = check_loaded(program.base) if program.base is not None else None
    try:
        model = _check(program)
    except RulesError as error:
        raise RulesError(error.diagnostics, program.sources()) from None
    return dataclasses.replace(model, base=base) if base is not None else model


def load_model(name_or_path: str | Path, kept: bool = True) -> RulesModel:
    """The checked model of a shipped ruleset (``"base"``) or of a rules file path.

    Raises :class:`RulesError` carrying every diagnostic: the syntax errors of every
    file if any file fails to parse, else every semantic error at once. With ``kept``, the model
    comes from (and goes to) the cache of checked models (spbc.lang.cache) while its files stand as
    they were; without, as for rules in a folder that is gone after, it is made anew.
    """
    main = resolve_rules(name_or_path) if kept and (not isinstance(name_or_path, str) or name_or_path.strip()) \
        else None
    model = cache.find(main, _stands) if main is not None else None
    if model is not None:
        return model
    program = load_program(name_or_path)
    model = check_loaded(program)
    if main is not None:
        cache.keep(main, cache.made_from(program), model)
    return model


def _stands(found: cache.Found) -> bool:
    """Whether every file a kept model was made from has the same text and is named alike from here, and
    every extends finds the same file."""
    for path, shown, digest in found.files:
        try:
            if display_path(Path(path)) != shown or cache.text_digest(_read_rules_text(Path(path))) != digest:
                return False
        except FileReadError:
            return False
    return all((base := resolve_base(written, Path(extending))) is not None and display_path(base) == found_base
               for written, extending, found_base in found.bases)
