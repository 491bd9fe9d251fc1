"""The readable reference tiling solver: plain backtracking, slow on purpose, to test the fast engine against.

`solutions(board, pieces)` and `count_solutions` take the shared vocabulary of
`gridgames.pieces` (pieces as `as_pieces` reads them, boards as `board_cells` reads
them; check solutions with `gridgames.pieces.is_tiling`). The algorithm is the
textbook one: find the next blank cell in scan order; for each piece with copies
left, each orientation, anchor the orientation's first cell (in the same scan order)
on the blank cell; if it fits, place it, recurse, and remove it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from gridgames.errors import PuzzleError, ShapeError
from gridgames.game import Placement, Solution
from gridgames.grid import Cell, Grid, Order
from gridgames.pieces import as_pieces, board_cells
from gridgames.shapes import scan_key

__all__ = ["count_solutions", "solutions"]


def _to_grid(board: Grid | Iterable[Cell]) -> Grid:
    """A Grid whose empty cells are exactly the board's cells to cover."""
    if isinstance(board, Grid):
        return board.copy()
    cells = board_cells(board)
    height = 1 + max(r for r, _ in cells)
    width = 1 + max(c for _, c in cells)
    if min(min(r for r, _ in cells), min(c for _, c in cells)) < 0:
        raise PuzzleError("board cells must have non-negative coordinates")
    grid = Grid.empty(height, width)
    grid.cells[:] = -1
    for cell in cells:
        grid.cells[cell] = 0
    return grid


def solutions(board: Grid | Iterable[Cell], pieces: Any, order: str = "column") -> Iterator[Solution]:
    """Every tiling of the board's empty cells by the pieces, by plain backtracking (slow, for reference)."""
    grid = _to_grid(board)
    items = as_pieces(pieces)
    try:
        key = scan_key(order)
    except ShapeError as error:
        raise PuzzleError(str(error)) from None
    # scan_key accepted it: one of the two
    grid_order: Order = "row" if order == "row" else "column"
    # Each orientation with the offset of its first cell in scan order, so it can be anchored there.
    shapes = [[(o.cells, min(o.cells, key=key)) for o in p.orientations()] for p in items]
    left = [p.count for p in items]
    chosen: list[Placement] = []

    def search(start: Cell | None) -> Iterator[Solution]:
        blank = grid.next_blank_cell(start, order=grid_order)
        if blank is None:
            yield tuple(chosen)
            return
        for index, piece in enumerate(items):
            if left[index] == 0:
                continue
            for orientation, (fr, fc) in shapes[index]:
                at = (blank[0] - fr, blank[1] - fc)
                if not grid.can_place(orientation, at):
                    continue
                grid.place(orientation, at, index + 1)
                left[index] -= 1
                chosen.append(Placement(piece.name, tuple(sorted((at[0] + r, at[1] + c) for r, c in orientation))))
                yield from search(blank)
                chosen.pop()
                left[index] += 1
                grid.remove(orientation, at)

    yield from search(None)


def count_solutions(board: Grid | Iterable[Cell], pieces: Any, order: str = "column") -> int:
    """The number of tilings found by `solutions`."""
    return sum(1 for _ in solutions(board, pieces, order))
