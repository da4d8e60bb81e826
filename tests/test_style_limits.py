"""Every module of spbc/ and frontends/ is under 400 lines, and no function is longer than 60 (STYLE.md
"Size and shape"): a module past the limit has a seam to split along, a function past it parts to name.

Modules are the .py files (generated/ is the compiler's output, not counted); a function's length runs
from its ``def`` line to its last line, docstring and nested functions included.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 399  # "under 400"
MAX_FUNCTION_LINES = 60

def modules(root: Path) -> list[Path]:
    """The .py files of spbc/ and frontends/ below root, each once (spbc/frontends is a link to
    frontends/), without generated/."""
    files = [path for path in (root / "spbc").rglob("*.py")
             if not any(part.is_symlink() for part in (path, *path.parents))]
    if (root / "frontends").is_dir():
        files += (root / "frontends").rglob("*.py")
    return sorted(path for path in files if "generated" not in path.relative_to(root).parts)


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
        for node in ast.walk(ast.parse(text, filename=name)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found[(name, node.name)] = (f"{name}:{node.lineno}: function {node.name} has {length} lines; "
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
