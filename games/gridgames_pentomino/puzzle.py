"""`TilingPuzzle`: a board to cover exactly with a set of polyomino pieces.

    puzzle = TilingPuzzle.create(board="6x10")              # the 12 pentominoes
    first = next(puzzle.solutions())
    puzzle.count().count                                     # 9356
    puzzle.count(unique=True).count                          # 2339

Building a puzzle checks it before any search: an empty board, a board whose area
differs from the pieces' area, or a piece that fits nowhere is a `PuzzleError`
saying why. A puzzle that chessboard colouring rules out (`colouring_obstruction`:
the 5 tetrominoes, the 35 hexominoes on any rectangle) has 0 solutions at once. The search is `gridgames.search.tiling`; `is_solution` is written
separately from it (its own orientation arithmetic), so tests can trust it.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from attrs import define, field

from gridgames.errors import PuzzleError
from gridgames.game import CountResult, Placement, ProgressCallback, Puzzle, Solution
from gridgames.grid import Cell, Grid

from gridgames_pentomino.boards import DEFAULT_BOARD, Board
from gridgames_pentomino.pieces import DEFAULT_PIECES, Piece, PieceSet

if TYPE_CHECKING:  # numba is imported only when searching
    from gridgames.search.parallel_tiling import ParallelCount

_ROTATIONS = ((1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0))
"""The four rotations as 2x2 matrices (a, b, c, d) taking (row, col) to (a row + b col, c row + d col)."""


def _normalised(cells: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


@functools.lru_cache(maxsize=1024)
def allowed_images(cells: tuple[Cell, ...], *, rotate: bool = True, reflect: bool = True) -> frozenset[tuple[Cell, ...]]:
    """The normalised images of a cell set under the rotations (and reflections) allowed."""
    images = set()
    for a, b, c, d in _ROTATIONS if rotate else _ROTATIONS[:1]:
        for mirror in (1, -1) if reflect else (1,):
            images.add(_normalised((a * row + b * mirror * col, c * row + d * mirror * col) for row, col in cells))
    return frozenset(images)


def _fits(mask: np.ndarray, shape_cells: Sequence[Cell]) -> bool:
    """True when the cells fit inside the on-board mask at some offset."""
    h = 1 + max(r for r, _ in shape_cells)
    w = 1 + max(c for _, c in shape_cells)
    height, width = mask.shape
    if h > height or w > width:
        return False
    ok = np.ones((height - h + 1, width - w + 1), dtype=bool)
    for r, c in shape_cells:
        ok &= mask[r : r + height - h + 1, c : c + width - w + 1]
    return bool(ok.any())


@define(eq=False)
class TilingPuzzle(Puzzle):
    """Cover every cell of a board exactly once with pieces (free by default, one-sided when asked)."""

    layout: Board
    pieces: PieceSet
    one_sided: bool = field(default=False, kw_only=True)
    _problem: Any = field(default=None, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._check()

    # --- construction ---------------------------------------------------
    @classmethod
    def create(
        cls,
        board: str = DEFAULT_BOARD,
        pieces: str | None = None,
        one_sided: bool = False,
        *,
        board_file: str | Path | None = None,
        pieces_file: str | Path | None = None,
    ) -> TilingPuzzle:
        """A puzzle from specifications: a board name or file, a piece specification and/or pieces file."""
        layout = Board.from_file(board_file) if board_file is not None else Board.parse(board)
        if pieces_file is not None:
            piece_set = PieceSet.from_file(pieces_file)
            if pieces is not None:
                piece_set = PieceSet.parse(pieces) + piece_set
        else:
            piece_set = PieceSet.parse(pieces if pieces is not None else DEFAULT_PIECES)
        return cls(layout, piece_set, one_sided=bool(one_sided))

    def _check(self) -> None:
        """Refuse an impossible puzzle with a one-line reason, before any search."""
        if self.layout.area == 0:
            raise PuzzleError(f"the board {self.layout.name} has no cells to fill")
        if self.layout.area != self.pieces.area:
            raise PuzzleError(
                f"the board {self.layout.name} has {self.layout.area} cells but the pieces ({self.pieces.describe()}) "
                f"cover {self.pieces.area}"
            )
        mask = self.layout.grid.cells == 0
        for piece in self.pieces:
            if not any(_fits(mask, o.cells) for o in piece.orientations(self.one_sided)):
                raise PuzzleError(f"piece {piece.name!r} fits nowhere on the board {self.layout.name}")

    def colouring_obstruction(self) -> str | None:
        """Why chessboard colouring rules out every tiling (one line), or None when it does not."""
        rows, cols = np.nonzero(self.layout.grid.cells == 0)
        dark = int(((rows + cols) % 2 == 0).sum())
        light = len(rows) - dark
        reach = {0}
        unbalanced = []
        for piece in self.pieces:
            imbalance = abs(sum(1 if (r + c) % 2 == 0 else -1 for r, c in piece.shape.cells))
            if imbalance:
                unbalanced.append(piece.name)
                for _ in range(piece.count):
                    reach = {x + imbalance for x in reach} | {x - imbalance for x in reach}
        if dark - light in reach:
            return None
        names = ", ".join(unbalanced[:6]) + (", ..." if len(unbalanced) > 6 else "")
        return (
            f"impossible by chessboard colouring: the board has {dark} dark and {light} light cells, "
            f"which the pieces covering unequal colours ({names or 'none'}) cannot match"
        )

    # --- the Puzzle protocol ---------------------------------------------
    @property
    def board(self) -> Grid:
        """The empty board (holes are not part of it)."""
        return self.layout.grid.copy()

    @property
    def order(self) -> str:
        """The scan order: along the short side of the board (down the columns when it is wider than high)."""
        return "column" if self.layout.height <= self.layout.width else "row"

    def engine_pieces(self) -> list[tuple[str, tuple[Any, ...], int]]:
        """The pieces as the tiling engine takes them: (name, fixed orientations, count)."""
        return [(p.name, p.orientations(self.one_sided), p.count) for p in self.pieces]

    def problem(self) -> Any:
        """The compiled `gridgames.search.tiling.TilingProblem` (built once, on first use)."""
        if self._problem is None:
            from gridgames.search.tiling import TilingProblem

            self._problem = TilingProblem.build(self.layout.grid, self.engine_pieces(), order=self.order)
        return self._problem

    def solutions(
        self,
        *,
        limit: int | None = None,
        unique: bool = False,
        on_progress: ProgressCallback | None = None,
        mrv: bool = False,
        prune: bool = True,
    ) -> Iterator[Solution]:
        """Tilings, lazily (one per symmetry class of the board when ``unique``), at most ``limit``.

        A Ctrl-C during the search ends the stream with KeyboardInterrupt after the solutions found so far.
        """
        if limit is not None and limit < 0:
            raise PuzzleError(f"limit must be 0 or more, got {limit}")
        if limit == 0 or self.colouring_obstruction() is not None:
            return
        from gridgames.search import tiling

        stream = tiling.solve(self.problem(), limit=limit, unique=unique, on_progress=on_progress, mrv=mrv, prune=prune)
        try:
            for solution in stream:
                yield tuple(Placement(p.piece, p.cells) for p in solution)
        finally:
            interrupted = stream.partial  # set by a Ctrl-C inside the search (read before close() sets it)
            stream.close()
        if interrupted:
            raise KeyboardInterrupt

    def count(
        self, *, unique: bool = False, on_progress: ProgressCallback | None = None, mrv: bool = False, prune: bool = True
    ) -> CountResult:
        """Count every tiling (or one per symmetry class); partial when interrupted by Ctrl-C."""
        from gridgames.search import tiling

        start = time.perf_counter()
        if self.colouring_obstruction() is not None:
            return CountResult(0, False, unique, time.perf_counter() - start)
        result = tiling.count(self.problem(), unique=unique, on_progress=on_progress, mrv=mrv, prune=prune)
        return CountResult(result.count, result.partial, unique, time.perf_counter() - start, result.nodes)

    def count_parallel(
        self, *, jobs: int | str | None = 1, scheduler: str | None = None, unique: bool = False,
        on_progress: ProgressCallback | None = None, mrv: bool = False, prune: bool = True,
    ) -> ParallelCount:  # fmt: skip
        """Count by independent parts in ``jobs`` local processes or on a Dask ``scheduler`` (a `ParallelCount`)."""
        from gridgames.search.parallel_tiling import ParallelCount, count_parallel

        if self.colouring_obstruction() is not None:
            return ParallelCount(0, False, unique, 0.0, 0, "colouring", parts=0, parts_done=0)
        return count_parallel(self.problem(), jobs=jobs, scheduler=scheduler, unique=unique, on_progress=on_progress, mrv=mrv, prune=prune)

    def is_solution(self, solution: Solution) -> bool:
        """True when the placements cover every cell once, within piece counts, each a real orientation of its piece."""
        try:
            return self._check_solution(solution)
        except (TypeError, ValueError, AttributeError):
            return False

    def _check_solution(self, solution: Solution) -> bool:
        cells = {(int(r), int(c)) for r, c in zip(*np.nonzero(self.layout.grid.cells == 0))}
        pieces: dict[str, Piece] = self.pieces.by_name()
        used: Counter[str] = Counter()
        covered: set[Cell] = set()
        for placement in solution:
            piece = pieces.get(placement.piece)
            if piece is None:
                return False
            used[piece.name] += 1
            if used[piece.name] > piece.count:
                return False
            placed = [(int(r), int(c)) for r, c in placement.cells]
            if len(set(placed)) != len(placed) or len(placed) != piece.size:
                return False
            if not set(placed) <= cells or not covered.isdisjoint(placed):
                return False
            rotate = piece.kind != "fixed"
            reflect = piece.kind == "free" and not self.one_sided
            if _normalised(placed) not in allowed_images(piece.shape.cells, rotate=rotate, reflect=reflect):
                return False
            covered.update(placed)
        return covered == cells

    # --- description -------------------------------------------------------
    def describe(self) -> str:
        """One line: the board and the pieces."""
        sided = ", one-sided" if self.one_sided else ""
        return f"{self.layout.name} ({self.layout.area} cells) with {self.pieces.describe()}{sided}"
