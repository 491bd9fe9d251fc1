"""N queens: put n queens on an n x n chessboard so that no two attack each other.

Rules
    Queens attack along rows, columns and both diagonals, so a solution has one
    queen in every row and every column and at most one on each diagonal. The board
    size is the option ``n`` (8 by default). Known counts: 1, 0, 0, 2, 10, 4, 40, 92,
    352, 724 solutions for n = 1..10; 92 for the eight queens, 12 of them distinct up
    to the board's rotations and reflections.

How it is solved
    As an exact-cover problem through gridgames' generic engine: the rows and the
    columns are primary items (each covered exactly once), the diagonals secondary
    items (covered at most once), and each of the n x n squares is an option covering
    its row, its column and its two diagonals. Up to n = 11 the 2n + 2(2n - 1) items
    fit one 64-bit word and the bitmask kernel counts (in parallel with ``--jobs``);
    larger boards run on dancing links.

Usage
    ``gridgames solve nqueens --n 8`` draws a solution (Q marks a queen);
    ``--count`` counts them, ``--unique`` one per symmetry class, ``--json`` for
    machines, ``--svg FILE`` draws them, ``--jobs 2`` counts in two processes.

Notation
    A solution is a list of placements ``Placement("Q", ((row, column),))``, row 0
    at the top.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from gridgames.errors import OptionError
from gridgames.game import GameKind, GameSpec, Option, Placement, Solution
from gridgames.grid import ALPHABET, Grid
from gridgames.search.puzzle import CellMap, ExactCoverPuzzle, grid_symmetries

__all__ = ["NQueens", "SPEC"]

QUEEN = ALPHABET.index("Q") + 1  # the cell value drawn as "Q" in pictures
MAX_N = 64


class NQueens(ExactCoverPuzzle):
    """The n-queens puzzle as an exact-cover problem: rows and columns primary, diagonals secondary."""

    def __init__(self, n: int = 8) -> None:
        if not isinstance(n, int) or not 1 <= n <= MAX_N:
            raise OptionError(f"n must be an integer from 1 to {MAX_N}, got {n!r}")
        self.n = n
        self._board = Grid.empty(n, n)

    @classmethod
    def create(cls, n: int = 8) -> NQueens:
        """The puzzle on an n x n board."""
        return cls(n)

    @property
    def board(self) -> Grid:
        """The empty n x n board."""
        return self._board

    def primary_items(self) -> Sequence[Hashable]:
        """Every row and every column holds exactly one queen."""
        return [("row", r) for r in range(self.n)] + [("column", c) for c in range(self.n)]

    def secondary_items(self) -> Sequence[Hashable]:
        """Every diagonal holds at most one queen."""
        diagonals = range(2 * self.n - 1)
        return [("diagonal", d) for d in diagonals] + [("anti-diagonal", d) for d in diagonals]

    def candidates(self) -> Iterable[tuple[Placement, Iterable[Hashable]]]:
        """A queen on each square, covering its row, column and two diagonals."""
        for r in range(self.n):
            for c in range(self.n):
                items = (("row", r), ("column", c), ("diagonal", r + c), ("anti-diagonal", r - c + self.n - 1))
                yield Placement("Q", ((r, c),)), items

    def symmetries(self) -> Sequence[CellMap]:
        """The square's 7 rotations and reflections besides the identity."""
        return grid_symmetries(self._board)

    def picture(self, solution: Solution) -> Grid:
        """The board with a Q on each queen's square."""
        grid = self._board.copy()
        for placement in solution:
            for cell in placement.cells:
                grid.set(cell, QUEEN)
        return grid


SPEC = GameSpec(
    name="nqueens",
    summary="N queens: place n queens on an n x n board, none attacking another",
    kind=GameKind.PUZZLE,
    create=NQueens.create,
    options=(Option("n", int, 8, "the board's side and the number of queens (1-64)"),),
    doc=__doc__ or "",
)
