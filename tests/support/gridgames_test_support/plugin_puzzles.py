"""Puzzles written as a plugin author would (issue 14): dominoes named as the test likes, and a board of 64 named
monominoes."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

from gridgames.game import GameKind, GameSpec, Option, Placement
from gridgames.grid import Cell, Grid
from gridgames.search.puzzle import CellMap, ExactCoverPuzzle, grid_symmetries


def horizontal_or_vertical(cells: tuple[Cell, Cell]) -> str:
    """'H' for a flat domino, 'V' for an upright one."""
    return "H" if cells[0][0] == cells[1][0] else "V"


class Dominoes(ExactCoverPuzzle):
    """Tile a board with dominoes; ``name(cells)`` names each placement (default: H or V)."""

    def __init__(self, board: Grid, name: Callable[[tuple[Cell, Cell]], str] | None = None) -> None:
        self._board = board
        self._name = name or horizontal_or_vertical

    @property
    def board(self) -> Grid:
        """The board."""
        return self._board

    def candidates(self) -> Iterable[tuple[Placement, Iterable[Hashable]]]:
        """Every domino on the board, flat or upright."""
        for r, c in self._board.board_cells():
            for cells in (((r, c), (r, c + 1)), ((r, c), (r + 1, c))):
                if all(self._board.on_board(x) for x in cells):
                    yield Placement(self._name(cells), cells), cells

    def symmetries(self) -> Sequence[CellMap]:
        """The board's own symmetries."""
        return grid_symmetries(self._board)


class Monominoes(ExactCoverPuzzle):
    """Cover a side x side board with one-cell pieces, each named after its cell (64 pieces on 8x8)."""

    def __init__(self, side: int = 8) -> None:
        self._board = Grid.empty(side, side)

    @property
    def board(self) -> Grid:
        """The board."""
        return self._board

    def candidates(self) -> Iterable[tuple[Placement, Iterable[Hashable]]]:
        """One placement per cell."""
        for r, c in self._board.board_cells():
            yield Placement(f"m{r}{c}", ((r, c),)), ((r, c),)


SQUARES = GameSpec(
    name="squares",
    summary="Cover a board with named monominoes",
    kind=GameKind.PUZZLE,
    create=Monominoes,
    options=(Option("side", int, 8, "the board's side"),),
)


def _connect4_without_commands() -> GameSpec:
    import attrs
    from gridgames_connect4 import SPEC

    return attrs.evolve(SPEC, name="c4generic", app=None)


C4_GENERIC = _connect4_without_commands()
"""Connect Four as a plugin without commands of its own: the generic play, with the game's own computer levels."""
