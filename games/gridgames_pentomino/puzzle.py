"""`TilingPuzzle`: a board to cover exactly with a set of polyomino pieces.

    puzzle = TilingPuzzle.create(board="6x10")              # the 12 pentominoes
    first = next(puzzle.solutions())
    puzzle.count().count                                     # 9356
    puzzle.count(unique=True).count                          # 2339

Building a puzzle checks it before any search: an empty board, or a board whose area
differs from the pieces' area, is a `PuzzleError` saying why (`create` compares the
areas before enumerating a whole set such as ``10-ominoes``). A puzzle with a piece that
fits nowhere, or that chessboard colouring rules out (the 5 tetrominoes, the 35
hexominoes on any rectangle), has 0 solutions at once, and `obstruction` says why. The
search is `gridgames.search.tiling`; `is_solution` is `gridgames.pieces.is_tiling`,
written separately from it, so tests can trust it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from attrs import define, field

from gridgames.errors import PuzzleError
from gridgames.game import Puzzle, Solution
from gridgames.grid import Cell, Grid
from gridgames.pieces import Piece, as_pieces, colour_balance, colouring_allows, is_tiling, short_side_order

from gridgames_pentomino.boards import DEFAULT_BOARD, Board
from gridgames_pentomino.pieces import DEFAULT_PIECES, PieceSet, cheap_to_list, spec_area
from gridgames_pentomino.solving import EngineSolving


def _listed(spec: str | None, from_file: PieceSet | None) -> PieceSet:
    """The pieces of a specification and/or a pieces file (read already), in that order."""
    parts = ([PieceSet.parse(spec)] if spec is not None else []) + ([from_file] if from_file is not None else [])
    return parts[0] if len(parts) == 1 else parts[0] + parts[1]


def _area_mismatch(layout: Board, pieces: str, area: int) -> PuzzleError:
    """The one-line error of a board and pieces whose areas differ."""
    return PuzzleError(f"the board {layout.name} has {layout.area} cells but the pieces ({pieces}) cover {area}")


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
class TilingPuzzle(EngineSolving, Puzzle):
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
        from_file = PieceSet.from_file(pieces_file) if pieces_file is not None else None
        spec = pieces if pieces is not None else (None if from_file is not None else DEFAULT_PIECES)
        if layout.area:  # compare the areas before listing a large set of pieces
            area = (spec_area(spec) if spec is not None else 0) + (from_file.area if from_file is not None else 0)
            if area != layout.area:
                if spec is None or cheap_to_list(spec):
                    _listed(spec, from_file)  # a bad or repeated piece name is the better message
                label = " + ".join(x for x in (spec.strip() if spec else "", from_file.label if from_file else "") if x)
                raise _area_mismatch(layout, label, area)
        return cls(layout, _listed(spec, from_file), one_sided=bool(one_sided))

    def _check(self) -> None:
        """Refuse an impossible puzzle with a one-line reason, before any search."""
        if self.layout.area == 0:
            raise PuzzleError(f"the board {self.layout.name} has no cells to fill")
        if self.layout.area != self.pieces.area:
            raise _area_mismatch(self.layout, self.pieces.describe(), self.pieces.area)

    def misfit(self) -> str | None:
        """Why some piece cannot be placed at all (one line), or None when every piece fits somewhere."""
        mask = self.layout.grid.cells == 0
        for piece in self.pieces:
            if not any(_fits(mask, o.cells) for o in piece.orientations(self.one_sided)):
                return f"piece {piece.name!r} fits nowhere on the board {self.layout.name}"
        return None

    def obstruction(self) -> str | None:
        """Why there is no tiling, found before any search (a piece that fits nowhere, or colouring), or None."""
        return self.misfit() or self.colouring_obstruction()

    def colouring_obstruction(self) -> str | None:
        """Why chessboard colouring rules out every tiling (one line), or None when it does not."""
        rows, cols = np.nonzero(self.layout.grid.cells == 0)
        board = colour_balance(zip(rows.tolist(), cols.tolist()))
        dark, light = (len(rows) + board) // 2, (len(rows) - board) // 2
        balances = [(piece.name, abs(colour_balance(piece.shape.cells)), piece.count) for piece in self.pieces]
        if colouring_allows(board, (({b, -b}, count) for _, b, count in balances)):
            return None
        unbalanced = [name for name, b, _ in balances if b]
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
        return short_side_order(self.layout.grid.board_cells())

    def engine_pieces(self) -> tuple[Piece, ...]:
        """The pieces as the tiling engine takes them (one-sided when the puzzle is)."""
        return as_pieces(self.pieces.pieces, one_sided=self.one_sided)

    def problem(self) -> Any:
        """The compiled `gridgames.search.tiling.TilingProblem` (built once, on first use)."""
        if self._problem is None:
            from gridgames.search.tiling import TilingProblem

            self._problem = TilingProblem.build(self.layout.grid, self.engine_pieces(), order=self.order)
        return self._problem

    def is_solution(self, solution: Solution) -> bool:
        """True when the placements cover every cell once, within piece counts, each a real orientation of its piece."""
        try:
            return self._check_solution(solution)
        except (TypeError, ValueError, AttributeError):
            return False

    def _check_solution(self, solution: Solution) -> bool:
        return is_tiling(self.layout.grid, self.engine_pieces(), solution)

    # --- description -------------------------------------------------------
    def describe(self) -> str:
        """One line: the board and the pieces."""
        sided = ", one-sided" if self.one_sided else ""
        return f"{self.layout.name} ({self.layout.area} cells) with {self.pieces.describe()}{sided}"
