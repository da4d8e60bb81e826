"""Every module of spbc/ and frontends/ is under 400 lines, and no function is longer than 60 (STYLE.md
"Size and shape"): a module past the limit has a seam to split along, a function past it parts to name.

Modules are the .py files and the Cython sources (.pyx, and the .pxi they include; generated/ is the
compiler's output, not counted). A Python function's length runs from its ``def`` line to its last line,
docstring and nested functions included; a top-level Cython ``def``, ``cdef`` or ``cpdef`` function's from
its line to the last indented line after it.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 399  # "under 400"
MAX_FUNCTION_LINES = 60
#: A top-level Cython function's first line: def, cdef or cpdef, a return type perhaps, its name and "(";
#: not a struct, enum, class, extern block or variable (their lines have no "(" straight after the name).
CYTHON_FUNCTION = re.compile(r"^(?:def|cpdef|cdef)\s+(?:[\w*\[\]]+\s+)*?\**(?P<name>\w+)\s*\(")
CYTHON_SUFFIXES = (".pyx", ".pxi")

def modules(root: Path) -> list[Path]:
    """The .py, .pyx and .pxi files of spbc/ and frontends/ below root, each once (spbc/frontends is a
    link to frontends/), without generated/."""
    files = [path for path in (root / "spbc").rglob("*")
             if not any(part.is_symlink() for part in (path, *path.parents))]
    if (root / "frontends").is_dir():
        files += (root / "frontends").rglob("*")
    return sorted(path for path in files if path.suffix in (".py", *CYTHON_SUFFIXES) and path.is_file()
                  and "generated" not in path.relative_to(root).parts)


def python_functions(text: str, name: str) -> list[tuple[str, int, int]]:
    """(name, first line, length) of every function of a Python module, nested ones and methods too."""
    return [(node.name, node.lineno, (node.end_lineno or node.lineno) - node.lineno + 1)
            for node in ast.walk(ast.parse(text, filename=name))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def cython_functions(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, length) of every top-level def, cdef or cpdef function of a Cython source: from
    its line to the last indented (or continued) line before the next line that starts at column 0."""
    lines = text.splitlines()
    found = []
    for start, line in enumerate(lines):
        match = CYTHON_FUNCTION.match(line)
        if match is None:
            continue
        end = start
        for number in range(start + 1, len(lines)):
            following = lines[number]
            if following.strip() and not following[0].isspace():
                break
            if following.strip():
                end = number
        found.append((match["name"], start + 1, end - start + 1))
    return found


@functools.cache  # both tests below read the same tree
def offenders(root: Path) -> dict[str | tuple[str, str], str]:
    """Each module of 400 lines or more (by its path) and each function of more than 60 (by path and
    name), with what is wrong with it."""
    found: dict[str | tuple[str, str], str] = {}
    for path in modules(root):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(root).as_posix()
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            found[name] = f"{name}: {lines} lines; a module has fewer than 400"
        functions = cython_functions(text) if path.suffix in CYTHON_SUFFIXES else python_functions(text, name)
        for function, line, length in functions:
            if length > MAX_FUNCTION_LINES:
                found[(name, function)] = (f"{name}:{line}: function {function} has {length} lines; "
                                           f"a function has {MAX_FUNCTION_LINES} at most")
    return found


def test_every_module_is_under_400_lines_and_every_function_at_most_60():
    problems = list(offenders(ROOT).values())
    assert not problems, "too long (split it along a seam, or name its parts):\n" + "\n".join(problems)


def test_a_long_module_and_a_long_function_are_named(tmp_path):
    (tmp_path / "spbc" / "lang").mkdir(parents=True)
    (tmp_path / "spbc" / "generated").mkdir()
    (tmp_path / "frontends").mkdir()
    (tmp_path / "spbc" / "lang" / "long.py").write_text("x = 1\n" * 400)
    (tmp_path / "spbc" / "lang" / "short.py").write_text("x = 1\n" * 399)
    statements = [f"x{n} = {n}" for n in range(60)]
    (tmp_path / "frontends" / "cmds.py").write_text(
        "def fits():\n" + "".join(f"    {line}\n" for line in statements[:59])  # 60 lines
        + "\n\nclass Command:\n    def long(self):\n" + "".join(f"        {line}\n" for line in statements))  # 61
    (tmp_path / "spbc" / "generated" / "engine.py").write_text("x = 1\n" * 1000)  # the compiler's: not counted
    assert offenders(tmp_path) == {
        "spbc/lang/long.py": "spbc/lang/long.py: 400 lines; a module has fewer than 400",
        ("frontends/cmds.py", "long"): "frontends/cmds.py:64: function long has 61 lines; a function has 60 at most",
    }


def test_a_long_cython_module_and_function_are_named(tmp_path):
    (tmp_path / "spbc" / "ai").mkdir(parents=True)
    (tmp_path / "spbc" / "generated" / "base").mkdir(parents=True)
    body = "".join(f"    x{n} = {n}\n" for n in range(59))
    (tmp_path / "spbc" / "ai" / "loop.pyx").write_text(
        "cdef struct State:\n" + body + body  # a struct is no function, however long
        + "\ncdef inline int fits(int* s,\n        int n) noexcept nogil:\n" + body[:-len("    x58 = 58\n")]  # 60
        + "\n\ndef long(object capsule):\n" + body[:-len("    x58 = 58\n")] + "\n    return 0\n"  # 61: blank lines inside count
        + "\n\ncdef int x = max(1, 2)\n")
    (tmp_path / "spbc" / "ai" / "part.pxi").write_text("cdef double* weight(int code):\n" + body + "    pass\n")  # 61
    (tmp_path / "spbc" / "ai" / "big.pyx").write_text("x = 1\n" * 400)
    (tmp_path / "spbc" / "ai" / "fine.pyx").write_text("x = 1\n" * 399)
    (tmp_path / "spbc" / "generated" / "base" / "engine.pyx").write_text("x = 1\n" * 1000)
    assert offenders(tmp_path) == {
        ("spbc/ai/loop.pyx", "long"): "spbc/ai/loop.pyx:183: function long has 61 lines; a function has 60 at most",
        ("spbc/ai/part.pxi", "weight"): "spbc/ai/part.pxi:1: function weight has 61 lines; a function has 60 at most",
        "spbc/ai/big.pyx": "spbc/ai/big.pyx: 400 lines; a module has fewer than 400",
    }
