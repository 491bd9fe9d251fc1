"""`ExactCoverPuzzle`: any placement puzzle solved by the generic exact-cover engine.

A subclass declares what must be covered and where pieces may go; it gets
`solutions`, `count` and an independent `is_solution` for free::

    class Dominoes(ExactCoverPuzzle):
        def __init__(self, height, width):
            self._board = Grid.empty(height, width)

        @property
        def board(self):
            return self._board

        def primary_items(self):                 # covered exactly once
            return self._board.board_cells()

        def candidates(self):                    # (placement, items it covers)
            for r, c in self._board.board_cells():
                for cells in (((r, c), (r, c + 1)), ((r, c), (r + 1, c))):
                    if all(self._board.on_board(cell) for cell in cells):
                        yield Placement("domino", cells), cells

Items are any hashable values (cells, ``("row", 3)``, piece names). Secondary
items (`secondary_items`) are covered at most once. With ``unique=True`` solutions
are counted once per class of the board's symmetries, if the subclass lists them
in `symmetries` (maps of cells; `grid_symmetries` gives a board's own); a
subclass that lists none counts every solution as distinct (unique == count).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Union

import numpy as np

from gridgames.errors import PuzzleError
from gridgames.game import CountResult, Placement, ProgressCallback, Puzzle, Solution
from gridgames.grid import HOLE, Cell, Grid
from gridgames.search.exact_cover import ExactCover
from gridgames.search.symmetry import board_symmetries

CellMap = Union[Mapping[Cell, Cell], Callable[[Cell], Cell]]
"""A symmetry of the board: where each cell goes (a mapping, or a function of the cell)."""

SolutionKey = tuple[tuple[str, tuple[Cell, ...]], ...]


def grid_symmetries(board: Grid) -> list[dict[Cell, Cell]]:
    """The rotations and reflections (other than the identity) that map the board's cells onto themselves."""
    cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(board.cells != HOLE))]
    if not cells:
        return []
    perms = board_symmetries(cells)
    return [{cell: cells[int(j)] for cell, j in zip(cells, perm)} for perm in perms[1:]]


def _apply(cell_map: CellMap, cell: Cell) -> Cell:
    if callable(cell_map):
        return cell_map(cell)
    return cell_map[cell]


def solution_key(solution: Iterable[Placement]) -> SolutionKey:
    """A solution as a sorted tuple of (piece, cells): equal for the same placements in any order."""
    return tuple(sorted((p.piece, p.cells) for p in solution))


class ExactCoverPuzzle(Puzzle):
    """A placement puzzle declared as items and candidate placements, solved by `ExactCover`."""

    def primary_items(self) -> Sequence[Hashable]:
        """Items every solution covers exactly once (by default the board's cells)."""
        return self.board.board_cells()

    def secondary_items(self) -> Sequence[Hashable]:
        """Items a solution covers at most once (none by default)."""
        return ()

    def candidates(self) -> Iterable[tuple[Placement, Iterable[Hashable]]]:
        """Every placement a solution may use, with the items it covers."""
        raise NotImplementedError(f"{type(self).__name__} must define candidates()")

    def symmetries(self) -> Sequence[CellMap]:
        """The board's symmetries besides the identity, for ``unique=True`` (none by default)."""
        return ()

    # --- derived ------------------------------------------------------------
    def exact_cover(self) -> ExactCover:
        """The exact-cover problem of this puzzle (built once)."""
        cached = self.__dict__.get("_gridgames_exact_cover")
        if cached is None:
            options = list(self.candidates())
            placements = [placement for placement, _ in options]
            repeated = [p for p, n in Counter(placements).items() if n > 1]
            if repeated:
                raise PuzzleError(f"the candidate placement {repeated[0]} is declared twice")
            cached = ExactCover.from_items(
                list(self.primary_items()), ((p, tuple(items)) for p, items in options), list(self.secondary_items())
            )
            self.__dict__["_gridgames_exact_cover"] = cached
        return cached

    def is_canonical(self, solution: Solution) -> bool:
        """True when ``solution`` is the smallest of its images under `symmetries` (one per class)."""
        key = solution_key(solution)
        for cell_map in self.symmetries():
            image = solution_key(Placement(p.piece, tuple(_apply(cell_map, c) for c in p.cells)) for p in solution)
            if image < key:
                return False
        return True

    def solutions(
        self, *, limit: int | None = None, unique: bool = False, on_progress: ProgressCallback | None = None
    ) -> Iterator[Solution]:
        """Solutions, lazily (one per symmetry class when ``unique``), at most ``limit`` of them."""
        if limit is not None and limit <= 0:
            return
        problem = self.exact_cover()
        found = 0
        for chosen in problem.search().solutions(on_progress=on_progress):
            solution = tuple(problem.labels[k] for k in chosen)
            if unique and not self.is_canonical(solution):
                continue
            yield solution
            found += 1
            if limit is not None and found >= limit:
                return

    def count(self, *, unique: bool = False, on_progress: ProgressCallback | None = None) -> CountResult:
        """Count every solution (one per symmetry class when ``unique``); partial when interrupted by Ctrl-C."""
        problem = self.exact_cover()
        if not unique or not self.symmetries():
            result = problem.count(on_progress=on_progress)
            return CountResult(result.count, partial=result.partial, unique=unique, seconds=result.seconds, nodes=result.nodes)
        started = time.perf_counter()
        search = problem.search()
        found = 0
        try:
            for chosen in search.solutions(on_progress=None if on_progress is None else lambda f, _: on_progress(f, found)):
                if self.is_canonical(tuple(problem.labels[k] for k in chosen)):
                    found += 1
        except KeyboardInterrupt:
            pass
        return CountResult(found, partial=not search.done, unique=True, seconds=time.perf_counter() - started, nodes=search.nodes)

    def is_solution(self, solution: Solution) -> bool:
        """True when every placement is a candidate and together they cover each primary item once, no secondary twice."""
        problem = self.exact_cover()
        index = self.__dict__.get("_gridgames_placement_index")
        if index is None:
            index = {label: k for k, label in enumerate(problem.labels)}
            self.__dict__["_gridgames_placement_index"] = index
        chosen = []
        for placement in solution:
            if not isinstance(placement, Placement) or placement not in index:
                return False
            chosen.append(index[placement])
        return problem.is_cover(chosen)


__all__ = ["CellMap", "ExactCoverPuzzle", "grid_symmetries", "solution_key"]

