"""The framework never imports a game module: built-in games are plugins like any other."""

from __future__ import annotations

import pytest

import ast
from pathlib import Path

import gridgames

GAME_PACKAGES = ("gridgames_connect4", "gridgames_pentomino", "gridgames_mnk", "gridgames_nqueens")


def _imported_modules(path: Path) -> set[str]:
    """Every module named by an import statement of the file (at any depth: lazy imports inside functions too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_framework_module_imports_a_game_module() -> None:
    root = Path(gridgames.__file__).parent
    offenders = {
        f"{path.relative_to(root.parent)}: {name}"
        for path in sorted(root.rglob("*.py"))
        for name in _imported_modules(path)
        if name.split(".")[0] in GAME_PACKAGES
    }
    assert not offenders, f"framework modules import game modules: {sorted(offenders)}"


def test_the_import_scan_sees_lazy_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from gridgames_connect4.solve.solver import Solver\n    import gridgames_mnk\n")
    assert _imported_modules(module) == {"gridgames_connect4.solve.solver", "gridgames_mnk"}


BOARD_LAYER = {
    "gridgames.errors", "gridgames.grid", "gridgames.lattices", "gridgames.shapes", "gridgames.files",
    "gridgames.placement_moves", "gridgames.parsing"
}
"""The board-and-files layer: its modules import gridgames' modules of this layer only (not the protocol or above)."""


def test_the_board_layer_imports_nothing_above_it() -> None:
    root = Path(gridgames.__file__).parent
    offenders = {
        f"{name}: {imported}"
        for name in sorted(BOARD_LAYER - {"gridgames.errors"})
        for imported in _imported_modules(root / f"{name.split('.')[1]}.py")
        if imported.split(".")[0] == "gridgames" and imported not in BOARD_LAYER
    }
    assert not offenders, f"board-layer modules import from higher layers: {sorted(offenders)}"


def _module_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at ``root`` with the package's modules it imports (lazily or under TYPE_CHECKING
    too; ``from package import submodule`` names the submodule, relative imports resolved)."""
    modules: dict[str, Path] = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                imported.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
        graph[name] = {other for other in imported if other in modules and other != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


@pytest.mark.slow
def test_no_import_cycle_among_the_framework_modules() -> None:
    cycles = _cycles(_module_graph(Path(gridgames.__file__).parent))
    assert not cycles, f"modules of gridgames that import each other (even lazily): {cycles}"


def test_the_cycle_scan_finds_lazy_relative_and_submodule_cycles(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def f():\n    from .sub import c\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text("from pkg.a import thing\n")  # imports into the cycle, not part of it
    graph = _module_graph(package)
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.sub.c"} and graph["pkg.d"] == {"pkg.a"}
    assert _cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
