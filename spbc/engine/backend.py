"""Finding, building and loading the engine modules of a ruleset.

A ruleset's engine is the pair of modules the compiler emits from it: the compiled
``engine`` (Cython, with the ``engine.pxd`` that declares its C interface) and the
pure-Python ``twin``. Shipped rulesets carry both in generated/<name>/ (setup.py
compiles the .pyx on install). Any other rules file, or a shipped one edited since
it was compiled, is emitted into a cache folder on first use and its extension built
there; without a C compiler the twin serves.
Modules are matched to rules by the digest of the rules' source text.

A module built into the cache is flushed to the disk before it is moved into place, with its size
and sha256 recorded beside it (``engine....so.sha256``); one that is empty, does not match its
record or cannot be imported (a crash during a build, a full disk) is built again, once.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from pathlib import Path, PurePath

from spbc.contract.protocol import EngineModule
from spbc.source import locate
from spbc.source.locate import cache_dir as cache_dir  # where engines are built (its home since models are kept too)
from spbc.source.files import write_text_atomic
from spbc.lang.model import RulesModel

BACKENDS = ("auto", "compiled", "python")


class BackendError(RuntimeError):
    """The requested engine cannot be had (for example: compiled, without a C compiler)."""


class NoCompilerError(BackendError):
    """No C compiler is there to build a compiled engine with."""


#: How long a first build of a rules file's engine takes (Cython, then the C compiler) before one has been
#: timed here: about 5 s of one core's time, 16 s of wall clock measured on two busy cores.
BUILD_RANGE = "usually 5 to 60 s"
#: The file in the cache folder that keeps the wall-clock seconds of the last build, for the next estimate.
LAST_BUILD = "last-build-seconds"  # the wall-clock seconds of the last build here, for build_estimate
_SHOW_BUILD: ContextVar[Callable[[str], AbstractContextManager[object]] | None] = ContextVar(
    "show_build", default=None)


@contextmanager
def builds_shown_by(show: Callable[[str], AbstractContextManager[object]]) -> Iterator[None]:
    """While the block runs, every build of an engine runs inside ``show(rules file name)``: a
    frontend's progress bar, say ("building the engine for house.spb, usually 5 to 60 s"). The library
    itself shows nothing.

    >>> with builds_shown_by(progress_bar):      # doctest: +SKIP
    ...     rules = spbc.load_rules("house.spb")
    """
    token = _SHOW_BUILD.set(show)
    try:
        yield
    finally:
        _SHOW_BUILD.reset(token)


def _compiler() -> tuple[str, bool]:
    """The C compiler a build would run ($CC, else the one Python was built with), and whether it is there."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    name = (shlex.split(command) or ["cc"])[0]
    return name, shutil.which(name) is not None


def build_estimate() -> str:
    """How long a build will take, honestly: as long as the last one timed in this cache folder
    ("about 16 s, as the last build here"), or the usual range before any."""
    try:
        seconds = float((cache_dir() / LAST_BUILD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return BUILD_RANGE
    return f"about {max(1, round(seconds))} s, as the last build here" if 0 < seconds < 3600 else BUILD_RANGE


def _note_build_time(seconds: float) -> None:
    """Keep a build's wall-clock time for :func:`build_estimate` (an estimate lost is no error)."""
    try:
        write_text_atomic(cache_dir() / LAST_BUILD, f"{seconds:.1f}\n")
    except OSError:
        pass


def _load(name: str, path: Path) -> EngineModule:
    """Import an engine module from a file under a name of its own (once per process).

    TypeError for a module that lacks a member of :class:`EngineModule` (a bug: every
    generated engine offers them all).
    """
    module = sys.modules.get(name)
    if module is None:
        loader: importlib.machinery.SourceFileLoader | importlib.machinery.ExtensionFileLoader
        if path.suffix == ".py":
            loader = importlib.machinery.SourceFileLoader(name, str(path))
        else:
            loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        sys.modules[name] = module
    if not isinstance(module, EngineModule):
        raise TypeError(f"{path} does not offer what spbc.contract.protocol.EngineModule describes")
    return module


def _extension(folder: Path) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = folder / f"engine{suffix}"
        if candidate.is_file():
            return candidate
    return None


def _record_of(module: Path) -> Path:
    return module.with_name(module.name + ".sha256")


def _measure(module: Path) -> str:
    """A built module's size and sha256, as its record holds them."""
    data = module.read_bytes()
    return f"{len(data)} {hashlib.sha256(data).hexdigest()}\n"


def _intact(module: Path) -> bool:
    """Whether a module in the cache is whole: not empty, and as its record says when it has one (a
    module built by an older spbc has none; a failing import shows it broken, see load_engine)."""
    try:
        if module.stat().st_size == 0:
            return False
        recorded = _record_of(module).read_text(encoding="utf-8")
    except FileNotFoundError:
        return module.is_file()
    except (OSError, UnicodeDecodeError):
        return False
    return recorded == _measure(module)


def _discard(module: Path) -> None:
    """Remove a broken module from the cache (and its record), so the next build replaces it."""
    for path in (module, _record_of(module)):
        try:
            path.unlink()
        except FileNotFoundError:
            pass


def _sync(path: Path) -> None:
    """Flush a file, or a folder's entries, to the disk."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _module_name(model: RulesModel, kind: str) -> str:
    return f"spbc.generated.{model.name}_{model.digest[:12]}.{kind}"


def _shipped_folder(model: RulesModel) -> Path | None:
    """generated/<name>/ if it was compiled from exactly these rules."""
    folder = locate.generated_dir() / model.name
    twin = folder / "twin.py"
    if twin.is_file() and f"RULES_DIGEST = {model.digest!r}" in twin.read_text(encoding="utf-8"):
        return folder
    return None


def _cache_folder(model: RulesModel) -> Path:
    """A cache folder holding this model's engine sources, emitted there if needed.

    The folder is named by the rules' digest and by a hash of the emitted engine, so an engine
    built by an older spbc (other templates, other safety checks) is never picked up again.
    """
    # The code generator (and Jinja2) is imported here, the one place that emits, so that
    # loading a shipped ruleset never imports it; it is an optional heavy part, not a cycle.
    from spbc.engine.emit import emit_engine

    files = emit_engine(model)
    emitted = hashlib.sha256((files["engine.pxd"] + files["engine.pyx"]).encode("utf-8")).hexdigest()
    folder = cache_dir() / f"{model.name}-{model.digest[:16]}-{emitted[:12]}"
    folder.mkdir(parents=True, exist_ok=True)
    for filename, text in files.items():
        path = folder / filename
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            write_text_atomic(path, text)
    return folder


# -fno-wrapv undoes the -fwrapv of Python's build flags, as setup.py does for the shipped engines: the
# engine's arithmetic never wraps, and without it int indexes need no sign extension; the inline limit keeps
# place() inline in apply_move, as setup.py's does
_BUILD = """
import sys
from setuptools import Distribution, Extension
from Cython.Build import cythonize
flags = ["-O2", "-fno-wrapv", "--param=max-inline-insns-single=200"]
ext = cythonize([Extension("engine", ["engine.pyx"], extra_compile_args=flags)],
                language_level=3, quiet=True, include_path=[sys.argv[1]])
dist = Distribution({"ext_modules": ext, "script_args": ["build_ext", "--inplace", "--build-temp", "tmp"]})
dist.parse_command_line()
dist.run_commands()
"""


def build_extension(folder: Path, label: str = "") -> Path:
    """Compile folder/engine.pyx with the engine.pxd beside it; the path of the built module.
    NoCompilerError when there is no C compiler, BackendError when the build fails.

    The build runs in a private subfolder and its module is moved into place in one
    step, so processes that build the same rules at once never load a half-written file.
    ``label`` names the rules for whoever shows the build (see :func:`builds_shown_by`).
    """
    existing = _extension(folder)
    if existing is not None and _intact(existing):
        return existing
    if existing is not None:
        _discard(existing)  # left empty or cut short by a crash: built again below
    compiler, found = _compiler()
    if not found:
        raise NoCompilerError(f"no C compiler ({compiler}) was found to build the engine in {folder}")
    show = _SHOW_BUILD.get()
    with show(label or folder.name) if show is not None else nullcontext(), \
            tempfile.TemporaryDirectory(prefix="build-", dir=folder) as private:
        shutil.copy(folder / "engine.pyx", private)
        shutil.copy(folder / "engine.pxd", private)  # the declarations Cython reads first
        started = time.monotonic()
        done = subprocess.run(
            # the folder holding the spbc package, where Cython finds spbc/contract/engine_api.pxd
            [sys.executable, "-c", _BUILD, str(locate.PACKAGE.parent)], cwd=private, capture_output=True,
            text=True, check=False
        )
        built = _extension(Path(private))
        if done.returncode != 0 or built is None:
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
            raise BackendError(f"could not compile the engine in {folder}:\n{tail}")
        _sync(built)  # the module's bytes on the disk before its name is, so a crash leaves no empty module
        write_text_atomic(_record_of(folder / built.name), _measure(built))
        os.replace(built, folder / built.name)
        _sync(folder)
        _note_build_time(time.monotonic() - started)
    return folder / built.name


def load_engine(model: RulesModel, backend: str = "auto") -> tuple[EngineModule, str]:
    """The engine module for a model and the name of the backend it is ("compiled" or "python").

    ``backend`` is "auto" (compiled if it can be had, else the twin with a warning),
    "compiled" (BackendError if it cannot be built) or "python". The environment
    variable SPBC_BACKEND=python forces the twin whatever is asked.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if os.environ.get("SPBC_BACKEND", "").strip().lower() == "python":
        backend = "python"
    shipped = _shipped_folder(model)
    emitted: list[Path] = []  # a user's rules are emitted once a load, however many folders want them

    def cache_folder() -> Path:
        if not emitted:
            emitted.append(_cache_folder(model))
        return emitted[0]

    folder = shipped or cache_folder()
    if backend == "python":
        return _load(_module_name(model, "twin"), folder / "twin.py"), "python"
    label = PurePath(model.files[0]).name if model.files else model.name
    try:
        extension = (shipped and _extension(shipped)) or build_extension(cache_folder(), label)
        try:
            return _load(_module_name(model, "engine"), extension), "compiled"
        except ImportError:
            if shipped is not None and extension.parent == shipped:
                raise
            _discard(extension)  # a cached module that does not import (cut short by a crash): built once more
            return _load(_module_name(model, "engine"), build_extension(cache_folder(), label)), "compiled"
    except BackendError as error:
        if backend == "compiled":
            raise
        import warnings

        why = "no C compiler was found" if isinstance(error, NoCompilerError) else "its build failed"
        warnings.warn(
            f"the compiled engine of '{model.name}' is not available ({why}); using the pure-Python twin, "
            "which plays the same game more slowly",
            RuntimeWarning,
            stacklevel=3,
        )
        return _load(_module_name(model, "twin"), folder / "twin.py"), "python"
