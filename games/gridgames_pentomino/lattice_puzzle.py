"""`LatticePuzzle`: cover a board of triangles, hexagons or cubes exactly with polyform pieces.

    puzzle = LatticePuzzle.create("triangle", "6x6", "hexiamonds")
    puzzle.count(unique=True).count        # 156 (up to the rhombus's symmetries)
    puzzle = LatticePuzzle.create("cube", "2x3x10", "flat-pentacubes")
    puzzle.count(unique=True).count        # 12

The search is the same tiling engine as the square puzzle's (`gridgames.search.tiling`,
``lattice=``); ``unique`` counts one tiling per class of the board's own symmetry group
(`gridgames.lattices.board_symmetries`) that maps every piece's placements onto its own.
Solid pieces turn in space but are not mirrored, so on a box the group is its rotations.
When no piece qualifies for the engine's restriction (a box with an odd side), the unique
count splits one piece's placements by their stabilisers (`gridgames.search.tiling.stabilisers`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
from attrs import define, field

from gridgames.errors import PuzzleError
from gridgames.game import Solution
from gridgames.lattices import lattice_named
from gridgames.pieces import colour_balance, colouring_allows, is_lattice_tiling

from gridgames_pentomino.lattice_boards import LatticeBoard
from gridgames_pentomino.lattice_pieces import LatticePieceSet, default_pieces
from gridgames_pentomino.solving import EngineSolving


@define(eq=False)
class LatticePuzzle(EngineSolving):
    """Cover every cell of a lattice board exactly once with polyform pieces (free by default, one-sided when asked)."""

    SPLIT_BY_STABILISERS = True  # boxes with an odd side have no piece to restrict

    layout: LatticeBoard
    pieces: LatticePieceSet
    one_sided: bool = field(default=False, kw_only=True)
    _problem: Any = field(default=None, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.layout.lattice != self.pieces.lattice:
            raise PuzzleError(
                f"the board is on the {self.layout.lattice} lattice but the pieces on the {self.pieces.lattice}"
            )
        if self.layout.area != self.pieces.area:
            raise PuzzleError(
                f"the board {self.layout.name} has {self.layout.area} cells but the pieces ({self.pieces.describe()}) "
                f"cover {self.pieces.area}"
            )

    @classmethod
    def create(
        cls,
        lattice: str,
        board: str | None = None,
        pieces: str | None = None,
        one_sided: bool = False,
        *,
        board_file: str | Path | None = None,
        pieces_file: str | Path | None = None,
    ) -> LatticePuzzle:
        """A puzzle from specifications: the lattice, a board name or file, a piece specification and/or pieces file."""
        grid = lattice_named(lattice)
        layout = LatticeBoard.from_file(grid, board_file) if board_file is not None else LatticeBoard.parse(grid, board)
        parts = []
        if pieces is not None or pieces_file is None:
            parts.append(LatticePieceSet.parse(grid, pieces if pieces is not None else default_pieces(grid)))
        if pieces_file is not None:
            parts.append(LatticePieceSet.from_file(grid, pieces_file))
        piece_set = parts[0] if len(parts) == 1 else parts[0] + parts[1]
        return cls(layout, piece_set, one_sided=bool(one_sided))

    @property
    def lattice(self) -> str:
        """The lattice's name: triangular, hexagonal or cubic."""
        return self.layout.lattice

    def problem(self) -> Any:
        """The compiled `gridgames.search.tiling.TilingProblem` (built once, on first use)."""
        if self._problem is None:
            from gridgames.search.tiling import TilingProblem

            self._problem = TilingProblem.build(
                self.layout.cells, self.pieces.pieces, one_sided=self.one_sided, lattice=self.lattice
            )
        return self._problem

    def obstruction(self) -> str | None:
        """Why there is no tiling, found before any search (a piece that fits nowhere, or colouring), or None."""
        try:
            problem = self.problem()
        except PuzzleError as error:
            return str(error)
        placed = set(problem.option_piece.tolist())
        missing = [p.name for i, p in enumerate(problem.pieces) if i not in placed]
        if missing:
            return f"piece {missing[0]!r} fits nowhere on the board {self.layout.name}"
        if self.lattice != "hexagonal":
            board = colour_balance(self.layout.cells)
            balances = [({colour_balance(o) for o in self._orientations(p)}, p.count) for p in problem.pieces]
            if not colouring_allows(board, balances):
                what = "up and down triangles" if self.lattice == "triangular" else "checkerboard colouring"
                return f"impossible by {what}: the pieces cannot match the board's balance of {board:+d}"
        return None

    def _orientations(self, piece: Any) -> tuple[Any, ...]:
        """A piece's orientations as placed: on the cubic lattice every translation keeps the colour, so sign both
        ways."""
        found = piece.orientations()
        if self.lattice == "cubic":  # a translation by an odd vector swaps the colours
            return found + tuple(tuple((x + 1, y, z) for x, y, z in o) for o in found)
        return found

    def symmetries(self) -> int:
        """The size of the group ``unique`` counts up to (the board's symmetries that keep every piece's placements)."""
        from gridgames.search.tiling import prepare_unique

        return len(prepare_unique(self.problem(), True).group)

    def is_solution(self, solution: Solution) -> bool:
        """True when the placements cover every cell once, within piece counts, each an orientation of its piece."""
        pieces = [attrs.evolve(p, kind="one-sided") if self.one_sided and p.kind == "free" else p for p in self.pieces]
        try:
            return is_lattice_tiling(self.lattice, self.layout.cells, pieces, solution)
        except (TypeError, ValueError):
            return False

    def describe(self) -> str:
        """One line: the board and the pieces."""
        sided = ", one-sided" if self.one_sided else ""
        return f"the {self.lattice} board {self.layout.describe()} with {self.pieces.describe()}{sided}"

    def text(self, solution: Solution) -> str:
        """A solution as text: one character per cell (a box's layers side by side)."""
        from gridgames.drawing import lattice_text

        return lattice_text(self.lattice, self.layout.cells, solution, self.letters())

    def letters(self) -> dict[str, str]:
        """One character per piece (its name when that is one character)."""
        from gridgames_pentomino.render import Palette

        return dict(Palette.for_pieces(self.pieces.names).letters)

    def svg(self, solutions: list[Solution], title: str = "") -> str:
        """An SVG document of the solutions, one drawing under another (triangles, hexagons, or a box's layers in a
        row)."""
        from gridgames.drawing import lattice_svg, svg_document
        from gridgames_pentomino.render import Palette

        palette = Palette.for_pieces(self.pieces.names)
        drawings = [
            lattice_svg(
                self.lattice,
                self.layout.cells,
                s,
                title=f"solution {i}",
                colours=palette.colours,
                letters=palette.letters,
            )
            for i, s in enumerate(solutions, start=1)
        ]
        return svg_document(drawings, title=title or self.describe())
