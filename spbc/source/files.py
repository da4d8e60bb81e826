"""Reading and writing the project's text files safely: bounded reads, atomic writes.

Every file the project reads from a user (rules files, saved games, game records)
goes through :func:`read_text`, which reads only regular files, never more than a
limit, and only UTF-8 text; every file it writes (saves, records, generated files,
the engine cache, a rules reference) goes through :func:`write_text_atomic`, which
writes a temporary file beside the target and renames it into place, so a failure
leaves the old file as it was and never a truncated one.

>>> text = read_text(Path("game.json"), 1_000_000, "saved game")      # doctest: +SKIP
>>> write_text_atomic(Path("game.json"), text)                          # doctest: +SKIP
"""

from __future__ import annotations

import codecs
import errno
import os
import secrets
import stat
from pathlib import Path

from typing_extensions import override

#: Flags for opening a file to read: never wait on a pipe, never take a terminal as ours.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


class FileReadError(OSError):
    """A file that cannot be read as the text it should be.

    ``path`` is the file as given, ``what`` the kind of file ("saved game"),
    ``reason`` why it cannot be read, in words ("no such file", "not a regular
    file", "not UTF-8 text"...), and ``offset`` the byte at which text that is
    not UTF-8 goes wrong (None for other problems). ``missing`` is True when
    there is no such file. It is an OSError, so callers that handle failed
    reads in general handle it too.
    """

    def __init__(self, path: Path, what: str, reason: str, offset: int | None = None,
                 code: int = 0) -> None:
        super().__init__(code, reason, str(path))
        self.path = path
        self.what = what
        self.reason = reason
        self.offset = offset
        self.missing = code == errno.ENOENT

    @override
    def __str__(self) -> str:
        if self.offset is not None:
            return f"{self.path}: not a {self.what} ({self.reason}): the bytes from offset {self.offset} are not UTF-8"
        return f"cannot read {self.path}: {self.reason}"

    @override
    def __reduce__(self) -> tuple[type[FileReadError], tuple[Path, str, str, int | None, int]]:
        # rebuilt with its own fields, as when sent back from a worker process
        return type(self), (self.path, self.what, self.reason, self.offset, self.errno or 0)


class FileWriteError(OSError):
    """A file that could not be written; the old file, if any, is unchanged.

    ``path`` is the file as given and ``reason`` why it could not be written.
    """

    def __init__(self, path: Path, reason: str, code: int = 0) -> None:
        super().__init__(code, reason, str(path))
        self.path = path
        self.reason = reason

    @override
    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.reason}"

    @override
    def __reduce__(self) -> tuple[type[FileWriteError], tuple[Path, str, int]]:
        return type(self), (self.path, self.reason, self.errno or 0)


def _size_words(limit: int) -> str:
    if limit >= 1_000_000 and limit % 1_000_000 == 0:
        return f"{limit // 1_000_000} MB"
    if limit >= 1_000 and limit % 1_000 == 0:
        return f"{limit // 1_000} kB"
    return f"{limit} bytes"


def _os_reason(error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, IsADirectoryError):
        return "it is a folder"
    return error.strerror or str(error) or type(error).__name__


def _write_reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__


def read_bytes(path: Path, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Raises :class:`FileReadError` for a missing file, a folder, anything that is
    no regular file (a device, a pipe, a socket: refused before reading, and
    never waited on), a file larger than ``limit`` (of which at most limit + 1
    bytes are read, whatever its size seems to be), a name holding a NUL
    character, and any error of the system.
    """
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "it is a folder")
        if not stat.S_ISREG(mode):
            raise FileReadError(path, what, "not a regular file")
        handle = os.open(path, _READ_FLAGS | _BINARY)
        with os.fdopen(handle, "rb") as stream:
            # checked again on what was opened: the name may have been replaced meanwhile
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise FileReadError(path, what, "not a regular file")
            data = stream.read(limit + 1)
    except FileReadError:
        raise
    except OSError as error:
        raise FileReadError(path, what, _os_reason(error), code=error.errno or 0) from None
    except ValueError:  # a NUL in the name
        raise FileReadError(path, what, "the file name holds a NUL character") from None
    if len(data) > limit:
        raise FileReadError(path, what, f"larger than {_size_words(limit)}, too large for a {what}")
    return data


def read_text(path: Path, limit: int, what: str) -> str:
    """The text of a UTF-8 file of at most ``limit`` bytes, as ``Path.read_text`` gives it.

    A byte order mark at the start (as some editors write) is dropped, and line
    ends are translated to ``\\n``. ``what`` names the kind of file in messages
    ("saved game", "game record", "rules file"). Raises :class:`FileReadError`
    as :func:`read_bytes` does, and for bytes that are not UTF-8 (with
    ``offset``, the position in the file of the first bad byte).

    >>> read_text(Path("/dev/zero"), 1_000_000, "saved game")   # doctest: +SKIP
    Traceback (most recent call last):
    spbc.source.files.FileReadError: cannot read /dev/zero: not a regular file
    """
    data = read_bytes(path, limit, what)
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[start:].decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileReadError(Path(path), what, "not UTF-8 text", offset=start + error.start) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def write_text_atomic(path: Path, text: str) -> None:
    """Replace (or create) the file ``path`` with ``text`` as UTF-8, in one step.

    The whole text is encoded first, so a text that is not writable as UTF-8
    (a lone surrogate) raises UnicodeEncodeError before anything touches the disk.
    The bytes go to a new temporary file in the same folder, are flushed to the
    disk, and the file is renamed over the target: a reader sees the old file or
    the new one, never part of one, and a failure at any step leaves the old file
    as it was and removes the temporary file. Line ends are written as given.
    A link is written through; an existing file keeps its permissions.

    Raises :class:`FileWriteError` when the file cannot be written: no such
    folder, no permission, the target is a folder or anything else that is not a
    regular file (a device, a pipe: never replaced), a full disk.
    """
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """:func:`write_text_atomic` for bytes."""
    given = Path(path)
    try:
        mode = _existing_mode(given)  # through links: /dev/stdout is refused as the pipe it names
        target = Path(os.path.realpath(given)) if mode is not None or given.is_symlink() else given
        temporary, handle = _create_beside(target)
    except OSError as error:
        raise FileWriteError(given, _write_reason(error), error.errno or 0) from None
    except ValueError:
        raise FileWriteError(given, "the file name holds a NUL character") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise FileWriteError(given, _write_reason(error), error.errno or 0) from None
        raise
    _sync_folder(target.parent)


def _existing_mode(target: Path) -> int | None:
    """The permission bits of the file now at target (None: there is none); refuses anything else."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    if not stat.S_ISREG(mode):
        raise OSError(0, "not a regular file")
    return stat.S_IMODE(mode)


def _create_beside(target: Path) -> tuple[str, int]:
    """A new, empty, hidden file in target's folder, created with the usual permissions (umask)."""
    folder = target.parent
    for _ in range(100):
        name = os.path.join(folder, f".{target.name}.{secrets.token_hex(6)}.tmp")
        try:
            return name, os.open(name, _WRITE_FLAGS | _BINARY, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no free temporary name in {folder}")


def _sync_folder(folder: Path) -> None:
    """Flush the rename to the disk where the system allows it (not on Windows)."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
