"""The lattice puzzles (triangles, hexagons, cubes) on the web pages: presets, and `LatticePuzzle` as a `Puzzle`.

The web pages serve `gridgames.game.Puzzle` objects; `LatticeWebPuzzle` wraps a `LatticePuzzle` as one (its
``board`` a square grid of the drawing's rows and columns, used for size limits only; its pictures the lattice's
own, `gridgames.drawing.lattice_svg`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from gridgames.errors import PuzzleError
from gridgames.game import CountResult, ProgressCallback, Puzzle, Solution
from gridgames.grid import Grid
from gridgames.lattices import lattice_named, position

from gridgames_pentomino.lattice_boards import PRESETS
from gridgames_pentomino.lattice_puzzle import LatticePuzzle

__all__ = ["LATTICE_PRESETS", "LatticeWebPuzzle", "lattice_presets", "lattice_puzzle"]

LATTICE_PRESETS: dict[str, tuple[str, str, str]] = {
    "triangle:6x6": ("triangle", "6x6", "hexiamonds"),
    "triangle:2x5": ("triangle", "2x5", "pentiamonds"),
    "hex:4x7": ("hex", "4x7", "tetrahexes"),
    "hex:hexagon-4": ("hex", "hexagon-4", "trihexes+tetrahexes"),
    "cube:2x3x10": ("cube", "2x3x10", "flat-pentacubes"),
    "cube:2x5x6": ("cube", "2x5x6", "flat-pentacubes"),
    "cube:3x3x3": ("cube", "3x3x3", "soma"),
}
"""The lattice presets the web pages offer: name -> (lattice, board, pieces)."""


class LatticeWebPuzzle(Puzzle):
    """A `LatticePuzzle` as a `Puzzle` for the web pages."""

    def __init__(self, inner: LatticePuzzle) -> None:
        self.inner = inner

    @property
    def board(self) -> Grid:
        """The drawing's rows and columns as a square grid (a box's layers side by side), for size limits."""
        grid = lattice_named(self.inner.lattice)
        places = [position(grid, c) for c in self.inner.layout.cells]
        if grid.name == "cubic":
            cols = 1 + max(p[2] for p in places)
            places = [(p[1], p[0] * (cols + 1) + p[2]) for p in places]
        top, left = min(p[0] for p in places), min(p[1] for p in places)
        rows, cols = 1 + max(p[0] for p in places) - top, 1 + max(p[1] for p in places) - left
        mask = np.zeros((rows, cols), dtype=bool)
        for row, col in places:
            mask[row - top, col - left] = True
        return Grid.from_mask(mask)

    def solutions(
        self, *, limit: int | None = None, unique: bool = False, on_progress: ProgressCallback | None = None
    ) -> Iterator[Solution]:
        """The inner puzzle's solutions."""
        return self.inner.solutions(limit=limit, unique=unique, on_progress=on_progress)

    def count(self, *, unique: bool = False, on_progress: ProgressCallback | None = None) -> CountResult:
        """The inner puzzle's count."""
        return self.inner.count(unique=unique, on_progress=on_progress)

    def is_solution(self, solution: Solution) -> bool:
        """The inner puzzle's independent check."""
        return self.inner.is_solution(solution)

    def to_text(self, solution: Solution) -> str:
        """One character per cell (a box's layers side by side)."""
        return self.inner.text(solution)

    def svg(self, solution: Solution, *, title: str = "") -> str:
        """The solution drawn on the lattice (a box as a row of its layers), each piece labelled."""
        from gridgames.drawing import lattice_svg
        from gridgames_pentomino.render import Palette

        palette = Palette.for_pieces(self.inner.pieces.names)
        return lattice_svg(
            self.inner.lattice,
            self.inner.layout.cells,
            solution,
            title=title or self.describe(),
            colours=palette.colours,
            letters=palette.letters,
        )

    def describe(self) -> str:
        """One line: the board and the pieces."""
        return self.inner.describe()

    def problem(self) -> Any:
        """The inner puzzle's compiled `TilingProblem` (tiling by hand counts completions on it)."""
        return self.inner.problem()


def lattice_presets() -> list[dict[str, Any]]:
    """The lattice presets as the puzzle page lists them (built from ``{"preset": NAME}``)."""
    found = []
    for name, (lattice, board, pieces) in LATTICE_PRESETS.items():
        description = PRESETS[lattice_named(lattice).name][board][0]
        found.append(
            {
                "name": name,
                "description": f"{description}, with {pieces}",
                "options": None,
                "lattice": lattice_named(lattice).name,
            }
        )
    return found


def lattice_puzzle(name: str) -> LatticeWebPuzzle:
    """The puzzle of a lattice preset."""
    if name not in LATTICE_PRESETS:
        raise PuzzleError(f"no preset {name!r} (lattice presets: {', '.join(LATTICE_PRESETS)})")
    lattice, board, pieces = LATTICE_PRESETS[name]
    return LatticeWebPuzzle(LatticePuzzle.create(lattice, board, pieces))
