"""The framework never imports a game module: built-in games are plugins like any other."""

from __future__ import annotations

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
    module.write_text("def f():\n    from gridgames_connect4.solver import Solver\n    import gridgames_mnk\n")
    assert _imported_modules(module) == {"gridgames_connect4.solver", "gridgames_mnk"}


BOARD_LAYER = {
    "gridgames.errors",
    "gridgames.grid",
    "gridgames.lattices",
    "gridgames.shapes",
    "gridgames.files",
    "gridgames.placement_moves",
    "gridgames.parsing",
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
