"""Checked models kept on the disk between processes, so that a command that only needs a ruleset's model
(``spb variants``, a mail to the server) neither parses nor checks its rules files again.

An entry is found by what decides its model besides the files: the main file's absolute path, the code of
the rules language and of every registered mechanic (the names, sizes and times of their source files), and
Python's version. It holds the model and what it was made from: each file read with the digest of its text
and the name spans give it (relative to the working directory when below it), and each ``extends`` with
the file it found. It is used only while every one of those files has the same text and name and every
``extends`` finds the same file again, so an edited rules file, include or parent ruleset, a new file beside
a variant that its ``extends`` would now find, another working directory that names the files otherwise, a
new spbc or another mechanic each make it miss; the model is then made and checked as usual and kept anew.

Entries live in ``models/`` of spbc's cache folder (:func:`spbc.source.locate.cache_dir`, a test run's own
folder in tests), a folder of its user's alone; an entry is used only when its user owns it and nobody else
may write it, is written whole or not at all (a temporary file renamed into place), and one that cannot be
read back is a miss. Rules with errors are never kept: their diagnostics come from a new check every time.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spbc.contract import mechanics
from spbc.lang import syntax
from spbc.lang.model import RulesModel
from spbc.source import locate
from spbc.source.files import FileWriteError, write_bytes_atomic
from spbc.source.version import VERSION

#: Bumped when an entry's layout changes.
FORMAT = 1
#: The folders of spbc whose code decides a checked model.
_CODE = ("source", "contract", "lang")


@dataclass(frozen=True)
class Found:
    """What a model was made from: each file read (its absolute path, how spans name it, the digest of its
    text) and each ``extends`` (as written, the absolute path of its file, how spans name the file found)."""

    files: tuple[tuple[str, str, str], ...]
    bases: tuple[tuple[str, str, str], ...]


def made_from(program: syntax.Program) -> Found:
    """The files and extends a program loaded from the working directory was made from."""
    files: list[tuple[str, str, str]] = []
    bases: list[tuple[str, str, str]] = []
    while True:
        own = program.files if program.base is None else program.files[:len(program.files) - len(program.base.files)]
        files += [(os.path.abspath(file.path), file.path, text_digest(file.text)) for file in own]
        if program.base is None:
            return Found(tuple(files), tuple(bases))
        extends = next(item for item in own[0].items if isinstance(item, syntax.Extends))
        bases.append((extends.path.value, os.path.abspath(own[0].path), program.base.files[0].path))
        program = program.base


def entry_path(main: Path) -> Path:
    """The cache file of a main rules file, as loaded from the working directory with today's code."""
    key = hashlib.sha256()
    for part in (str(FORMAT), VERSION, sys.version, os.path.abspath(main), _code_digest(_mechanics())):
        key.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return locate.cache_dir() / "models" / f"{key.hexdigest()[:40]}.pickle"


#: The entries this process read or wrote, by their path: a model found again is the same object.
_read: dict[Path, tuple[Found, RulesModel]] = {}


def find(main: Path, still: Callable[[Found], bool]) -> RulesModel | None:
    """The kept model of a main rules file, when it is kept and ``still`` says its files and extends stand
    as they were; else None."""
    try:
        path = entry_path(main)
    except (OSError, ValueError):  # no working directory any more, the code unreadable: nothing is kept
        return None
    known = _read.get(path)
    if known is not None and still(known[0]):
        return known[1]
    try:
        with open(path, "rb") as stream:
            info = os.fstat(stream.fileno())
            if info.st_uid != os.getuid() or info.st_mode & 0o022:
                return None  # not ours alone: never unpickled
            found, model = pickle.load(stream)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a torn, foreign or stale entry is a miss, whatever unpickling says
        return None
    if not isinstance(found, Found) or not isinstance(model, RulesModel) or not still(found):
        return None
    _read[path] = (found, model)
    return model


def keep(main: Path, found: Found, model: RulesModel) -> None:
    """Keep a checked model for the next process; a cache that cannot be written is no error."""
    try:
        path = entry_path(main)
    except (OSError, ValueError):
        return
    _read[path] = (found, model)
    try:
        data = pickle.dumps((found, model), protocol=pickle.HIGHEST_PROTOCOL)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_bytes_atomic(path, data)
        os.chmod(path, 0o600)  # its user's alone, even where an entry it replaced was not
    except (OSError, FileWriteError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        pass


def text_digest(text: str) -> str:
    """The digest a file's text is kept by."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _mechanics() -> tuple[tuple[str, str], ...]:
    return tuple((mechanic.package, str(mechanic.folder)) for mechanic in mechanics.mechanics())


@functools.lru_cache(maxsize=8)
def _code_digest(registered: tuple[tuple[str, str], ...]) -> str:
    """sha256 of the name, size and modification time of each source file of the rules language and of each
    registered mechanic (what Python's own bytecode cache trusts), with the mechanics' names."""
    folders = [str(locate.PACKAGE / name) for name in _CODE] + [folder for _, folder in registered]
    digest = hashlib.sha256(repr(registered).encode("utf-8", "surrogateescape"))
    for folder in folders:
        for root, subfolders, names in os.walk(folder):
            subfolders.sort()
            for name in sorted(names):
                if name.endswith((".py", ".lark", ".pxd")):
                    info = os.stat(os.path.join(root, name))
                    digest.update(f"{root}/{name}\0{info.st_size}\0{info.st_mtime_ns}\0".encode(
                        "utf-8", "surrogateescape"))
    return digest.hexdigest()
