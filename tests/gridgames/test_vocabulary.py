"""One vocabulary: no two classes of the framework or the built-in games share a name; shared routines live once."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import defaultdict

from gridgames import pieces, shapes
from gridgames.search import symmetry

PACKAGES = ("gridgames", "gridgames_pentomino", "gridgames_connect4")
OPTIONAL = ("gridgames.rl", "gridgames.web")


def _classes() -> dict[str, list[str]]:
    """Every class defined in the packages' modules, by name: the modules defining it."""
    found: dict[str, list[str]] = defaultdict(list)
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names = [package_name] + [i.name for i in pkgutil.walk_packages(package.__path__, package_name + ".")]
        for name in names:
            try:
                module = importlib.import_module(name)
            except ImportError:
                if name.startswith(OPTIONAL):
                    continue
                raise
            for cls_name, cls in vars(module).items():
                if inspect.isclass(cls) and cls.__module__ == name and cls_name == cls.__name__:
                    found[cls_name].append(name)
    return found


def test_no_two_classes_share_a_name() -> None:
    shared = {name: modules for name, modules in _classes().items() if len(modules) > 1}
    assert shared == {}


def test_boards_and_shapes_turn_by_the_same_eight_maps() -> None:
    assert len(shapes.SQUARE_SYMMETRIES) == 8 and shapes.SQUARE_SYMMETRIES[0][0] == "identity"
    f = shapes.Shape.from_text(".##\n##.\n.#.")
    images = {shapes.normalise(transform(r, c) for r, c in f.cells) for _, transform in shapes.SQUARE_SYMMETRIES}
    assert images == {o.cells for o in f.orientations()}
    assert "SQUARE_SYMMETRIES" in vars(symmetry)  # imported, not redefined
    assert not hasattr(symmetry, "TRANSFORMS")


def test_the_scan_order_rule_is_shared() -> None:
    assert pieces.short_side_order([(0, 0), (5, 9)]) == "column"
    assert pieces.short_side_order([(0, 0), (9, 5)]) == "row"
    assert pieces.board_cells([(1, 0), (0, 1), (0, 0)]) == ((0, 0), (1, 0), (0, 1))
    assert pieces.board_cells([(1, 0), (0, 1), (0, 0)], "row") == ((0, 0), (0, 1), (1, 0))
    assert shapes.Shape.from_text("#.\n##").first_cell("column") == (0, 0)
