"""Where the loader (spbc.lang.load) finds rules files: the disk, or the texts another process read.

The loader asks four things of a file system, and nothing else: the resolved path of a path (:meth:`Disk.resolve`),
how messages name it (:meth:`Disk.display`), its text (:meth:`Disk.read`) and the file an ``extends`` names
(:meth:`Disk.base`). :class:`Recording` answers from the disk and keeps every answer; :class:`Replay` gives
those answers again where the files are not (a lab worker on another machine), so the loader takes the same
path through the same texts and makes the same program, without reading a file.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from typing_extensions import override

from spbc.lang.names import display_path, resolve_path
from spbc.source import locate
from spbc.source.files import FileReadError, read_text

#: A rules file is text written by a person; anything larger is refused unread.
MAX_RULES_BYTES = 10_000_000


def read_rules_text(path: Path) -> str:
    """The text of a rules file, newlines translated as by ``Path.read_text``, without a byte order mark.

    Raises :class:`spbc.source.files.FileReadError` with its reason: no such file, a folder,
    a device or a pipe, a file over MAX_RULES_BYTES, a name holding a NUL, not UTF-8.
    """
    return read_text(path, MAX_RULES_BYTES, "rules file")


def is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def resolve_base(written: str, extending: Path) -> Path | None:
    """The rules file that ``extends "written"`` in the file ``extending`` names, or None.

    A bare name (``base``, ``new-society``) is the rules file of that name beside the
    extending file, else the shipped ruleset; anything else is a path relative to the
    extending file's folder.
    """
    here = Path(extending).parent
    bare = PurePosixPath(written)
    if not bare.suffix and len(bare.parts) == 1 and written not in ("", ".", ".."):
        for name in dict.fromkeys((written, written.replace("-", "_"))):
            if is_file(here / f"{name}.spb"):
                return here / f"{name}.spb"
        try:
            return locate.shipped_rules(written)
        except (OSError, ValueError):
            return None
    path = here / written
    return path if is_file(path) else None


class Disk:
    """The rules files on the disk, named from the working directory."""

    def resolve(self, path: Path) -> Path:
        return resolve_path(path)

    def display(self, path: Path) -> str:
        return display_path(path)

    def read(self, path: Path) -> str:
        return read_rules_text(path)

    def base(self, written: str, extending: Path) -> Path | None:
        return resolve_base(written, extending)


#: What a Recording kept: resolved paths, display names and texts by the path asked for, and the file of each
#: (extends as written, the extending file's path); every path as the loader formed it (``str``).
Answers = tuple[dict[str, str], dict[str, str], dict[str, str], dict[tuple[str, str], str | None]]


class Recording(Disk):
    """The disk, with every answer kept (:attr:`answers`) for a :class:`Replay` elsewhere."""

    def __init__(self) -> None:
        self.answers: Answers = ({}, {}, {}, {})

    @override
    def resolve(self, path: Path) -> Path:
        found = super().resolve(path)
        self.answers[0][str(path)] = str(found)
        return found

    @override
    def display(self, path: Path) -> str:
        self.answers[1][str(path)] = shown = super().display(path)
        return shown

    @override
    def read(self, path: Path) -> str:
        self.answers[2][str(path)] = text = super().read(path)
        return text

    @override
    def base(self, written: str, extending: Path) -> Path | None:
        found = super().base(written, extending)
        self.answers[3][(written, str(extending))] = None if found is None else str(found)
        return found


class Replay(Disk):
    """The answers a Recording kept, and no file: a question it was not asked is a file that is not there."""

    def __init__(self, answers: Answers) -> None:
        self.answers = answers

    @override
    def resolve(self, path: Path) -> Path:
        return Path(self.answers[0].get(str(path), str(path)))

    @override
    def display(self, path: Path) -> str:
        return self.answers[1].get(str(path), path.as_posix())

    @override
    def read(self, path: Path) -> str:
        try:
            return self.answers[2][str(path)]
        except KeyError:
            raise FileReadError(path, "rules file", "not among the rules sent") from None

    @override
    def base(self, written: str, extending: Path) -> Path | None:
        found = self.answers[3].get((written, str(extending)))
        return None if found is None else Path(found)
