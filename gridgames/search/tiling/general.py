"""Any exact-cover problem on the bitmask kernel: items as cells, secondary items through slack options.

The kernels cover *cells* exactly once. A general problem -- primary items covered exactly
once, secondary items at most once (Knuth's Algorithm X), options of any items -- compiles
to the same `TilingProblem`:

* item ``i`` is the cell ``(0, i)`` and bit ``i``, primary items first, so the first-blank
  search always branches on a primary item while one is uncovered;
* each secondary item gets a **slack** option covering it alone, so "at most once" becomes
  "exactly once" with exactly one way to stay empty: solutions correspond one for one
  (drop the slack placements);
* options of one name and size form one piece, with more copies than can ever be used, so
  copies never limit the search; an option without a primary item is dropped (it is never
  chosen in Algorithm X either).

Search it with ``prune=False`` (dead-region pruning reads cells as a board) and never ask
the kernel for ``unique`` counts (its symmetries are the board's, and a row of items has
one that means nothing here): count up to symmetry by canonicalising solutions instead.

>>> problem = general_problem(2, 1, [("a", (0, 2)), ("b", (1, 2)), ("c", (0,)), ("d", (1,))])
>>> from gridgames.search.tiling import count
>>> count(problem, prune=False).count  # a+d, c+b, c+d (a and b share the secondary item 2)
3
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gridgames.errors import PuzzleError
from gridgames.game import Placement
from gridgames.pieces import Piece
from gridgames.search.tiling.problem import TilingProblem
from gridgames.shapes import Shape

__all__ = ["SLACK", "decode", "general_problem", "piece_name"]

SLACK = "(empty)"
"""The name of the slack options (one per secondary item)."""


def piece_name(name: str, size: int) -> str:
    """The kernel piece of an option: its name and how many items it covers."""
    return f"{name}#{size}"


def general_problem(
    num_primary: int, num_secondary: int, options: Iterable[tuple[str, Sequence[int]]]
) -> TilingProblem:
    """Compile an exact cover (items ``0..num_primary-1`` primary, the next ``num_secondary`` secondary) for the
    kernel."""
    n = num_primary + num_secondary
    if num_primary < 1:
        raise PuzzleError("an exact-cover problem needs a primary item")
    keys: dict[tuple[str, int], int] = {}
    compiled: list[tuple[int, list[int]]] = []
    seen: set[tuple[int, tuple[int, ...]]] = set()
    for name, items in options:
        row = tuple(sorted(int(i) for i in items))
        if any(not 0 <= i < n for i in row) or len(set(row)) != len(row):
            raise PuzzleError(f"option {name!r} covers items {list(row)} outside 0..{n - 1} or twice")
        if not row or row[0] >= num_primary:
            continue
        key = keys.setdefault((name, len(row)), len(keys))
        if (key, row) in seen:
            raise PuzzleError(f"two options named {name!r} cover the same items {list(row)}")
        seen.add((key, row))
        compiled.append((key, list(row)))
    slack = keys.setdefault((SLACK, 1), len(keys))
    compiled += [(slack, [i]) for i in range(num_primary, n)]
    cells = tuple((0, i) for i in range(n))
    pieces = [
        Piece(piece_name(name, size), Shape(tuple((0, i) for i in range(size))), n // size + 1, "fixed")
        for name, size in keys
    ]
    return TilingProblem.from_options(cells, "row", pieces, compiled)


def decode(placement: Placement) -> tuple[str, tuple[int, ...]] | None:
    """A kernel placement of a general problem as (option name, items), or None for a slack placement."""
    name, _, _ = placement.piece.rpartition("#")
    if name == SLACK:
        return None
    return name, tuple(c for _, c in placement.cells)
