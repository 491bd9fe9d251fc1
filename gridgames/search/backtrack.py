"""The readable reference tiling solver, and the vocabulary every tiling engine shares.

Vocabulary:

* `Piece`: a named piece with its distinct fixed orientations (each a normalised
  tuple of (row, col) cells) and how many copies may be used (`count`).
  `Piece.of(shape)` takes a `Shape` and its free (or one-sided) orientations;
  `as_pieces(...)` accepts a ``{name: Shape}`` mapping, `Shape`s, `Piece`s or
  ``(name, orientations, count)`` tuples.
* `Placement(piece, cells)`: one piece put on the board; a `Solution` is a tuple
  of placements covering every board cell exactly once.
* `board_cells(board, order)`: the cells to cover -- the empty cells of a `Grid`
  (holes and filled cells are not part of the problem), or any iterable of cells.
* `is_solution(board, pieces, solution)`: an independent checker.

The solver (`solutions`, `count_solutions`) is the textbook algorithm, kept plain
and slow on purpose so that the fast engine (`gridgames.search.tiling`) can be
tested against it: find the next blank cell in scan order; for each piece with
copies left, each orientation, anchor the orientation's first cell (in the same
scan order) on the blank cell; if it fits, place it, recurse, and remove it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from attrs import frozen

from gridgames.errors import PuzzleError
from gridgames.game import Placement, Solution
from gridgames.grid import Cell, Grid
from gridgames.shapes import Shape

Cells = tuple[Cell, ...]




def normalise_cells(cells: Iterable[Cell]) -> Cells:
    """Cells translated to min row = min col = 0, sorted (the form of an orientation)."""
    cells = [(int(r), int(c)) for r, c in cells]
    if not cells:
        raise PuzzleError("a piece orientation needs at least one cell")
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    out = tuple(sorted({(r - r0, c - c0) for r, c in cells}))
    if len(out) != len(cells):
        raise PuzzleError(f"a piece orientation repeats a cell: {sorted(cells)}")
    return out


def scan_key(order: str) -> Any:
    """Sort key of a cell in scan order: "column" = (col, row), "row" = (row, col)."""
    if order == "column":
        return lambda rc: (rc[1], rc[0])
    if order == "row":
        return lambda rc: (rc[0], rc[1])
    raise PuzzleError(f"scan order must be 'column' or 'row', not {order!r}")


@frozen
class Piece:
    """A named piece: its distinct fixed orientations (normalised cells) and how many copies are available."""

    name: str
    orientations: tuple[Cells, ...]
    count: int = 1

    @classmethod
    def of(cls, shape: Shape, count: int = 1, one_sided: bool = False, name: str | None = None) -> Piece:
        """A piece from a `Shape`: all its free orientations (or one-sided: rotations only)."""
        return cls.create(name if name is not None else shape.name, shape.orientations(one_sided), count)

    @classmethod
    def create(cls, name: str, orientations: Iterable[Any], count: int = 1) -> Piece:
        """A validated piece: orientations are `Shape`s or iterables of (row, col) offsets; duplicates dropped."""
        if not isinstance(name, str) or not name:
            raise PuzzleError("every piece needs a non-empty name")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise PuzzleError(f"piece {name!r}: count must be a positive integer, got {count!r}")
        seen: dict[Cells, None] = {}
        for orientation in orientations:
            seen.setdefault(normalise_cells(getattr(orientation, "cells", orientation)))
        if not seen:
            raise PuzzleError(f"piece {name!r} has no orientations")
        sizes = {len(o) for o in seen}
        if len(sizes) != 1:
            raise PuzzleError(f"piece {name!r}: orientations differ in size {sorted(sizes)}")
        return cls(name, tuple(seen), count)

    @property
    def size(self) -> int:
        """Number of cells of one copy."""
        return len(self.orientations[0])


def as_pieces(pieces: Any, one_sided: bool = False) -> tuple[Piece, ...]:
    """Normalise a piece description: {name: Shape}, Shapes, Pieces or (name, orientations, count) tuples."""
    if isinstance(pieces, Mapping):
        items: list[Any] = [Piece.of(shape, one_sided=one_sided, name=name) for name, shape in pieces.items()]
    else:
        items = []
        for item in pieces:
            if isinstance(item, Piece):
                items.append(item)
            elif isinstance(item, Shape):
                items.append(Piece.of(item, one_sided=one_sided))
            elif isinstance(item, tuple) and len(item) in (2, 3) and isinstance(item[0], str):
                items.append(Piece.create(item[0], item[1], item[2] if len(item) == 3 else 1))
            else:
                raise PuzzleError(f"cannot read a piece from {item!r}: expected a Shape, a Piece or (name, orientations, count)")
    if not items:
        raise PuzzleError("the piece set is empty")
    names = Counter(p.name for p in items)
    dup = [n for n, k in names.items() if k > 1]
    if dup:
        raise PuzzleError(f"piece names must be unique; repeated: {', '.join(dup)} (use a count instead)")
    return tuple(items)


def board_cells(board: Grid | Iterable[Cell], order: str = "column") -> Cells:
    """The cells to cover, in scan order: a Grid's empty cells, or the given cells."""
    if isinstance(board, Grid):
        cells = [(int(r), int(c)) for r, c in zip(*(board.cells == 0).nonzero())]
    else:
        cells = [(int(r), int(c)) for r, c in board]
        if len(set(cells)) != len(cells):
            raise PuzzleError("the board lists a cell twice")
    if not cells:
        raise PuzzleError("the board has no empty cell to cover")
    return tuple(sorted(cells, key=scan_key(order)))


def is_solution(board: Grid | Iterable[Cell], pieces: Any, solution: Iterable[Placement]) -> bool:
    """True when the placements cover every board cell once, respect piece counts, and use real orientations."""
    cells = set(board_cells(board))
    by_name = {p.name: p for p in as_pieces(pieces)}
    used: Counter[str] = Counter()
    covered: set[Cell] = set()
    for piece, placed in solution:
        if piece not in by_name:
            return False
        used[piece] += 1
        if used[piece] > by_name[piece].count:
            return False
        placed = tuple((int(r), int(c)) for r, c in placed)
        if len(set(placed)) != len(placed) or normalise_cells(placed) not in by_name[piece].orientations:
            return False
        if not covered.isdisjoint(placed):
            return False
        covered.update(placed)
    return covered == cells


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
    key = scan_key(order)
    # Each orientation with the offset of its first cell in scan order, so it can be anchored there.
    shapes = [[(o, min(o, key=key)) for o in p.orientations] for p in items]
    left = [p.count for p in items]
    chosen: list[Placement] = []

    def search(start: Cell | None) -> Iterator[Solution]:
        blank = grid.next_blank_cell(start, order=order)  # type: ignore[arg-type]
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
