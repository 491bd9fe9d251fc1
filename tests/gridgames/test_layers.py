"""The layers the docs promise, checked on every module: the framework never imports a game module; each framework
module imports only its own layer and those below (board and files -> game protocol -> generic engines -> registry
-> CLI and web); game modules use only gridgames' public API; no package imports itself in a cycle, lazy
(function-local) imports counted."""

from __future__ import annotations

import pytest

import ast
from pathlib import Path

import gridgames

GAME_PACKAGES = ("gridgames_connect4", "gridgames_pentomino", "gridgames_mnk", "gridgames_nqueens")
REPOSITORY = Path(__file__).resolve().parents[2]
GAME_ROOTS = sorted(
    [*(REPOSITORY / "games").glob("gridgames_*"), *(REPOSITORY / "examples").glob("*/gridgames_*")],
)
"""The package folder of every game in the repository: the built-in games and the example plugins."""
GAME_ROOTS = [root for root in GAME_ROOTS if (root / "__init__.py").is_file()]


def _is_type_checking(node: ast.AST) -> bool:
    """Whether ``node`` is an ``if TYPE_CHECKING:`` block (its body never runs: no import at run time)."""
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` that can run: function bodies (lazy imports) included, ``if TYPE_CHECKING:`` bodies
    left out (their else branch kept)."""
    found: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        found.append(node)
        if isinstance(node, ast.If) and _is_type_checking(node):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return found


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


def _module_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at ``root`` with the package's modules it imports at run time (lazily too, not under
    TYPE_CHECKING; ``from package import submodule`` names the submodule, relative imports resolved)."""
    modules: dict[str, Path] = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported: set[str] = set()
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
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
    # imports into the cycle, not part of it
    (package / "d.py").write_text("from pkg.a import thing\n")
    graph = _module_graph(package)
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.sub.c"} and graph["pkg.d"] == {"pkg.a"}
    assert _cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]


def test_no_import_cycle_among_the_modules_of_any_game() -> None:
    assert GAME_ROOTS and any(root.name == "gridgames_connect4" for root in GAME_ROOTS)
    cycles = {root.name: _cycles(_module_graph(root)) for root in GAME_ROOTS}
    assert not any(cycles.values()), f"game modules that import each other (even lazily): {cycles}"


def test_the_cycle_scan_leaves_out_type_checking_imports_only(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from pkg import b\nelse:\n    import pkg.c\n"
    )
    (package / "b.py").write_text("import pkg.a\n")
    (package / "c.py").write_text("def f():\n    import pkg.a\n")
    graph = _module_graph(package)
    assert graph["pkg.a"] == {"pkg.c"}
    assert _cycles(graph) == [["pkg.a", "pkg.c"]]


LAYERS: dict[str, int] = {
    # 1. board and files
    **dict.fromkeys(
        (
            "gridgames.errors",
            "gridgames.grid",
            "gridgames.lattices",
            "gridgames.shapes",
            "gridgames.files",
            "gridgames.placement_moves",
            "gridgames.parsing",
            # the installed metadata and compiled modules: files too (the stdlib and gridgames.files only)
            "gridgames.entry_points",
            "gridgames.native",
        ),
        1,
    ),
    # 2. the game protocol
    **dict.fromkeys(
        ("gridgames.game", "gridgames.pieces", "gridgames.drawing", "gridgames.saves", "gridgames.compiled_rules"), 2
    ),
    # 3. the generic engines
    "gridgames.search": 3,
    # 4. the registry (and what finds, vets and runs plugins through it)
    **dict.fromkeys(
        (
            "gridgames.registry",
            "gridgames._plugin_probe",
            "gridgames.testing",
            "gridgames.rl",
        ),
        4,
    ),
    # 5. the command line and the web page
    **dict.fromkeys(
        (
            "gridgames",
            "gridgames.__main__",
            "gridgames.launch",
            "gridgames.cli",
            "gridgames.cli_support",
            "gridgames.cli_generic",
            "gridgames.cli_look",
            "gridgames.cli_play",
            "gridgames.cli_solve",
            "gridgames.progress",
            "gridgames.web",
        ),
        5,
    ),
}
"""Each framework module's layer (a package stands for its modules): the order CONTRIBUTING.md and the README give."""
LAYER_NAMES = {1: "board and files", 2: "game protocol", 3: "engines", 4: "registry", 5: "CLI and web"}


def _layer(module: str) -> int | None:
    """The layer of a framework module: its own entry, else its closest package's; None when it has none."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        found = LAYERS.get(".".join(parts[:end]))
        if found is not None:
            return found
    return None


def _layer_offenders(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a higher layer than the importer's, as "importer (layer) -> imported (layer)"."""
    offenders = []
    for name in sorted(graph):
        own = _layer(name)
        for imported in sorted(graph[name]):
            theirs = _layer(imported)
            if own is not None and theirs is not None and theirs > own:
                offenders.append(f"{name} ({LAYER_NAMES[own]}) -> {imported} ({LAYER_NAMES[theirs]})")
    return offenders


def test_every_framework_module_has_a_layer() -> None:
    graph = _module_graph(Path(gridgames.__file__).parent)
    assert not [name for name in sorted(graph) if _layer(name) is None], "give new modules a layer in LAYERS"


def test_each_framework_module_imports_only_its_layer_and_those_below() -> None:
    offenders = _layer_offenders(_module_graph(Path(gridgames.__file__).parent))
    assert not offenders, f"imports from a higher layer (even lazily): {offenders}"


def test_the_layer_check_flags_a_misplaced_import(tmp_path: Path) -> None:
    package = tmp_path / "gridgames"
    (package / "search").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "search" / "__init__.py").write_text("")
    # board -> engines
    (package / "grid.py").write_text("def f():\n    from gridgames.search import negamax\n")
    # engines -> board: fine
    (package / "search" / "negamax.py").write_text("from gridgames.grid import Grid\n")
    (package / "saves.py").write_text("from gridgames import cli_support\n")  # protocol -> CLI
    # CLI -> engines: fine
    (package / "cli_support.py").write_text("from gridgames.search.negamax import search\n")
    assert _layer_offenders(_module_graph(package)) == [
        "gridgames.grid (board and files) -> gridgames.search.negamax (engines)",
        "gridgames.saves (game protocol) -> gridgames.cli_support (CLI and web)",
    ]


def _private_uses(path: Path) -> set[str]:
    """The imports of gridgames' private parts in a file: a module or name whose own part starts with an underscore."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found.update(
            name
            for name in names
            if name.split(".")[0] == "gridgames" and any(part.startswith("_") for part in name.split(".")[1:])
        )
    return found


def test_game_modules_use_only_the_public_api() -> None:
    offenders = {
        f"{path.relative_to(REPOSITORY)}: {name}"
        for root in GAME_ROOTS
        for path in sorted(root.rglob("*.py"))
        for name in _private_uses(path)
    }
    assert not offenders, f"game modules import private parts of gridgames: {sorted(offenders)}"


def test_the_public_api_check_flags_private_modules_and_names(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from gridgames.search import _workers\nfrom gridgames.game import _private, Game\n"
        "import gridgames.search._parallel_dask\nfrom gridgames.grid import Grid\n"
    )
    assert _private_uses(module) == {
        "gridgames.search._workers",
        "gridgames.game._private",
        "gridgames.search._parallel_dask",
    }
