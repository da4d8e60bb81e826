"""The layers of spbc import one way: a module imports only from its own layer or the layers below it.

The layers, lowest first, are the packages of spbc (README "Layout"); frontends/ is the top. A mechanic's
folder (spbc/mechanics/<kind>/) spans the layers, each file in the layer its name gives: effect.py and the
kind's package in lang, lower.py in engine, reference.py in reference, present.py in play. The registry that
finds them is spbc.contract.mechanics, on the contract floor like any module of it; spbc/mechanics/ itself is
a bare package marker that nothing imports. Imports under ``if TYPE_CHECKING:`` are
checked for direction too, but are not run, so they do not count as cycles; imports inside functions are
not allowed in spbc/ (they hide cycles), except where a module documents why it defers one import.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("source", "contract", "lang", "engine", "reference", "build", "play", "ai", "table", "lab", "pbem",
          "frontends")
#: Mechanic files by the layer they belong to.
MECHANIC_PARTS = {"__init__": "lang", "effect": "lang", "lower": "engine", "reference": "reference",
                  "present": "play"}
#: Imports inside a function that a module defers on purpose: (module, imported module prefix).
DEFERRED = {
    ("spbc.engine.backend", "spbc.engine.emit"),  # the code generator (Jinja2) only when an engine is emitted
    ("spbc.lab.report", "spbc.lab.page"),  # matplotlib (half a CPU-second) only when the HTML page is written
    ("spbc.lang.load", "spbc.lang.parse"),  # the parser (Lark) and the checker only for a model not found kept
    ("spbc.lang.load", "spbc.lang.check"),
}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module
    line: int
    runtime: bool  # not under TYPE_CHECKING
    in_function: bool


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[0] == "frontends":
        parts = ["spbc", *parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int | None:
    """The rank of a module's layer (0 lowest), or None for modules outside the layers (generated engines)."""
    parts = module.split(".")
    if parts[0] != "spbc":
        return None
    if len(parts) == 1:
        return LAYERS.index("play")  # the package's front door re-exports the Game API
    if parts[1] == "mechanics" and len(parts) == 2:
        return LAYERS.index("source")  # a package marker with no code (test below), under every kind's files
    if parts[1] == "mechanics":
        part = parts[3] if len(parts) > 3 else "__init__"
        return LAYERS.index(MECHANIC_PARTS[part]) if part in MECHANIC_PARTS else None
    if parts[1] in ("generated", "rules"):
        return None
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else None


def _imports_of(tree: ast.AST, module: str) -> list[Import]:
    found: list[Import] = []

    def visit(node: ast.AST, runtime: bool, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            child_runtime, child_function = runtime, in_function
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for item in child.body:
                    visit_one(item, False, in_function)
                for item in child.orelse:
                    visit_one(item, runtime, in_function)
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                child_function = True
            visit_one(child, child_runtime, child_function)

    def visit_one(node: ast.AST, runtime: bool, in_function: bool) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(module, alias.name, node.lineno, runtime, in_function))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:  # `from spbc.x import y` may name the module spbc.x.y
                found.append(Import(module, f"{node.module}.{alias.name}", node.lineno, runtime, in_function))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            in_function = True
        visit(node, runtime, in_function)

    visit(tree, True, False)
    return found


def collect_imports(root: Path) -> tuple[set[str], list[Import]]:
    """Every module of spbc/ and frontends/ below root and the spbc modules each imports."""
    files = [p for p in (root / "spbc").rglob("*.py")
             if not any(part.is_symlink() for part in (p, *p.parents))]
    files += list((root / "frontends").rglob("*.py")) if (root / "frontends").is_dir() else []
    modules = {module_name(path, root): path for path in files}
    imports = []
    for module, path in modules.items():
        for found in _imports_of(ast.parse(path.read_text(encoding="utf-8")), module):
            target = found.target
            while target and target not in modules:  # `from spbc.x import name`: the module is spbc.x
                target = target.rpartition(".")[0]
            if target.startswith("spbc"):
                imports.append(Import(found.module, target, found.line, found.runtime, found.in_function))
    return set(modules), imports


def upward_imports(imports: list[Import]) -> list[str]:
    problems = []
    for found in imports:
        low, high = layer_of(found.target), layer_of(found.module)
        if low is not None and high is not None and low > high:
            problems.append(f"{found.module}:{found.line} imports {found.target}: "
                            f"{LAYERS[high]} may not import from {LAYERS[low]}")
    return problems


def cycles(modules: set[str], imports: list[Import]) -> list[list[str]]:
    """Cycles of imports that run when a module is first imported (module level, not TYPE_CHECKING)."""
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for found in imports:
        if found.runtime and not found.in_function and found.target != found.module:
            graph[found.module].add(found.target)
    found_cycles, state, stack = [], {}, []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found_cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)
    return found_cycles


def hidden_imports(imports: list[Import]) -> list[str]:
    """Imports of spbc modules inside functions of spbc/ (frontends/ may defer imports for a fast start)."""
    return [f"{i.module}:{i.line} imports {i.target} inside a function" for i in imports
            if i.in_function and i.runtime and not i.module.startswith("spbc.frontends")
            and not any(i.module == m and i.target.startswith(t) for m, t in DEFERRED)]


def test_every_import_points_down_or_sideways():
    _, imports = collect_imports(ROOT)
    assert len(imports) > 100
    assert upward_imports(imports) == []


def test_no_import_cycle_runs_at_import_time():
    modules, imports = collect_imports(ROOT)
    assert cycles(modules, imports) == []


def test_no_import_is_hidden_in_a_function():
    _, imports = collect_imports(ROOT)
    assert hidden_imports(imports) == []


def test_every_module_is_in_a_layer():
    modules, _ = collect_imports(ROOT)
    assert [m for m in sorted(modules) if layer_of(m) is None] == []


def test_nothing_imports_the_mechanics_package_itself():
    """The registry moved to spbc.contract.mechanics: spbc.mechanics is a folder of kinds, with no code of its own."""
    _, imports = collect_imports(ROOT)
    assert [f"{i.module}:{i.line}" for i in imports if i.target == "spbc.mechanics"] == []
    marker = ast.parse((ROOT / "spbc" / "mechanics" / "__init__.py").read_text(encoding="utf-8"))
    assert [type(node).__name__ for node in marker.body] == ["Expr"]  # its docstring only


def test_the_check_fails_on_a_lower_layer_importing_a_higher_one(tmp_path):
    """The test above can fail: a tree where lang imports play, and a cycle, are caught."""
    (tmp_path / "spbc" / "lang").mkdir(parents=True)
    (tmp_path / "spbc" / "play").mkdir()
    (tmp_path / "spbc" / "__init__.py").write_text("")
    (tmp_path / "spbc" / "lang" / "__init__.py").write_text("")
    (tmp_path / "spbc" / "play" / "__init__.py").write_text("")
    (tmp_path / "spbc" / "lang" / "model.py").write_text("from spbc.play.game import Game\n")
    (tmp_path / "spbc" / "play" / "game.py").write_text(
        "from spbc.play import view\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from spbc.play.save import write\n")
    (tmp_path / "spbc" / "play" / "view.py").write_text("import spbc.play.game\n\ndef f():\n"
                                                        "    from spbc.lang import model\n")
    (tmp_path / "spbc" / "play" / "save.py").write_text("from spbc.play.game import Game\n")
    modules, imports = collect_imports(tmp_path)
    assert upward_imports(imports) == [
        "spbc.lang.model:1 imports spbc.play.game: lang may not import from play"]
    assert cycles(modules, imports) == [["spbc.play.game", "spbc.play.view", "spbc.play.game"]]
    assert hidden_imports(imports) == ["spbc.play.view:4 imports spbc.lang.model inside a function"]
