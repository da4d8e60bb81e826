"""The compile driver: every ruleset of a rules folder into generated/, and the check that it is current.

Each top-level ``*.spb`` file of the rules folder is one ruleset; its files
(the engine and its C interface, its pure-Python twin, the rules reference) go to
``generated/<ruleset>/``. File maps use relative POSIX paths as keys::

    {"base/engine.pxd": ..., "base/engine.pyx": ..., "base/twin.py": ...,
     "base/reference.md": ..., "base/reference.html": ...,          # English
     "base/reference.de.md": ..., "base/reference.de.html": ...}    # and every other language it speaks

Writing is atomic per file and leaves unchanged files untouched. A file belongs
to the compiler when its first kilobyte carries the "do not edit ... spb
compile" banner every generated file starts with; only such files are ever
removed as stale. Build products beside them (a compiled engine, Cython's C
file) are left alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from spbc.engine import emit as codegen

from spbc.reference import docs
from spbc.source.diagnostics import Diagnostic, RulesError
from spbc.source.files import write_text_atomic
from spbc.lang.load import load_model
from spbc.lang.model import RulesModel

BANNER_WORDS = ("do not edit", "spb compile")  # every generated file names both in its header
_HEAD_BYTES = 1024


def find_rulesets(rules_dir: Path) -> list[Path]:
    """The ruleset files of a rules folder: its top-level ``*.spb`` files, sorted by name.

    Included files live in subfolders and are not rulesets of their own.
    """
    return sorted(path for path in Path(rules_dir).glob("*.spb") if path.is_file())


def compile_ruleset(model: RulesModel) -> dict[str, str]:
    """Every generated file of one checked ruleset, keyed ``<ruleset>/<file>``, sorted by key.

    The reference is written in every language of the ruleset (``languages`` in its ruleset block).
    Raises :class:`spbc.reference.docs.MissingProseError` naming every text missing in any of them: a
    mechanic's prose in a language, a macro or label of the reference's own templates.
    """
    reference = docs.emit_references(model)
    files = {**codegen.emit_engine(model), **reference}
    return {f"{model.name}/{name}": files[name] for name in sorted(files)}


def compile_rules_dir(rules_dir: Path) -> dict[str, str]:
    """Load and compile every ruleset of ``rules_dir``.

    Raises :class:`spbc.source.diagnostics.RulesError` with the diagnostics of every
    ruleset that fails to load (all of them, not only the first).
    """
    files: dict[str, str] = {}
    diagnostics: list[Diagnostic] = []
    sources: dict[str, str] = {}
    for path in find_rulesets(rules_dir):
        try:
            model = load_model(path)
        except RulesError as error:
            diagnostics += error.diagnostics
            sources.update(error.sources)
            continue
        files.update(compile_ruleset(model))
    if diagnostics:
        raise RulesError(diagnostics, sources)
    return dict(sorted(files.items()))


# --- the generated folder --------------------------------------------------------------


def _check_key(key: str) -> PurePosixPath:
    path = PurePosixPath(key)
    if path.is_absolute() or ".." in path.parts or len(path.parts) < 2:
        raise ValueError(f"not a generated file path: {key!r} (expected '<ruleset>/<file>')")
    return path


def _rulesets(files: Mapping[str, str]) -> list[str]:
    return sorted({_check_key(key).parts[0] for key in files})


def is_generated(path: Path) -> bool:
    """Whether a file carries the generated-file banner in its first kilobyte."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace").lower()
    except OSError:
        return False
    return all(words in head for words in BANNER_WORDS)


def _owned_files(out_dir: Path, ruleset: str) -> list[str]:
    """Relative keys of the compiler's files now in ``out_dir/<ruleset>``."""
    folder = Path(out_dir) / ruleset
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and is_generated(path):
            found.append(path.relative_to(out_dir).as_posix())
    return found


@dataclass(frozen=True)
class WriteResult:
    """What :func:`write_generated` did, as relative keys."""

    written: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: tuple[str, ...]


def write_generated(out_dir: Path, files: Mapping[str, str]) -> WriteResult:
    """Write ``files`` under ``out_dir`` and remove the stale generated files of their rulesets.

    A file whose bytes are already right is not rewritten. Only the folders of the
    rulesets named in ``files`` are touched. Raises ``ValueError`` for a key that
    is not ``<ruleset>/<file>``, ``OSError`` when writing fails.
    """
    out_dir = Path(out_dir)
    written, unchanged = [], []
    for key in sorted(files):
        path = out_dir / _check_key(key)
        data = files[key].encode("utf-8")
        if path.is_file() and path.read_bytes() == data:
            unchanged.append(key)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, files[key])
        written.append(key)
    removed = []
    for ruleset in _rulesets(files):
        for key in _owned_files(out_dir, ruleset):
            if key not in files:
                (out_dir / key).unlink()
                removed.append(key)
    return WriteResult(tuple(written), tuple(removed), tuple(unchanged))


def diff_generated(out_dir: Path, files: Mapping[str, str]) -> list[str]:
    """How ``out_dir`` differs from ``files``: ``"<key>: missing"``, ``"<key>: differs"``, ``"<key>: extra"``.

    Sorted by key; empty when the generated folder is up to date. "extra" is a
    generated file of one of these rulesets that the rules no longer produce.

    >>> diff_generated(Path("generated"), compile_rules_dir(Path("rules")))   # doctest: +SKIP
    []
    """
    out_dir = Path(out_dir)
    problems = {}
    for key in files:
        path = out_dir / _check_key(key)
        if not path.is_file():
            problems[key] = "missing"
        elif path.read_bytes() != files[key].encode("utf-8"):
            problems[key] = "differs"
    for ruleset in _rulesets(files):
        for key in _owned_files(out_dir, ruleset):
            if key not in files:
                problems[key] = "extra"
    return [f"{key}: {problems[key]}" for key in sorted(problems)]
