"""Boards on the triangular, hexagonal and cubic lattices: presets, ``RxC`` parallelograms, ``AxBxC`` boxes, board
files.

On the triangular lattice ``RxC`` is a parallelogram of R rows of C rhombi (2RC triangles),
``hexagon-N`` the regular hexagon of side N (6N² triangles) and ``triangle-N`` the triangle of
side N (N² triangles). On the hexagonal lattice ``RxC`` is a parallelogram of R rows of C
hexagons and ``hexagon-N`` the hexagon of side N (3N² - 3N + 1 hexagons). On the cubic
lattice ``AxBxC`` is a box of A layers of B rows of C cubes.

A board file is a text picture in the lattice's layout (docs/lattices.md): ``.`` is a cell,
``#`` or a space none. Triangles alternate up and down along a line, the one in line r and
column c (from 0) pointing up when r + c is even; hexagons sit two columns apart, each line
shifted by one column against the next; a box's layers are separated by a line of ``-``.
`LatticeBoard.to_text` writes that picture back, and reading it gives the same board.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from attrs import frozen

from gridgames.errors import PuzzleError, ShapeError
from gridgames.files import MAX_PUZZLE_FILE_BYTES, read_user_text
from gridgames.lattices import Form, Lattice, cell_at, lattice_named, picture, read_picture
from gridgames.parsing import parse_whole

MAX_CELLS = 20000
_PLANE_RE = re.compile(r"^\s*(\d+)\s*[xX\u00d7]\s*(\d+)\s*$")
_BOX_RE = re.compile(r"^\s*(\d+)\s*[xX\u00d7]\s*(\d+)\s*[xX\u00d7]\s*(\d+)\s*$")
_SIDE_RE = re.compile(r"^\s*(hexagon|triangle)-(\d+)\s*$")


def parallelogram(lattice: Lattice, rows: int, cols: int) -> Form:
    """R rows of C rhombi (triangular lattice) or of C hexagons (hexagonal lattice), each row shifted half a cell."""
    if lattice.name == "triangular":
        cells = [(a, b, s - a - b) for a in range(rows) for b in range(cols) for s in (1, 2)]
    else:
        cells = [(x, -x - z, z) for z in range(rows) for x in range(cols)]
    return lattice.normalise(cells)


def hexagon(lattice: Lattice, side: int) -> Form:
    """The regular hexagon of the given side: 6 side² triangles, or 3 side² - 3 side + 1 hexagons."""
    if lattice.name == "triangular":
        span = range(1 - side, side + 1)
        cells = [(a, b, s - a - b) for s in (1, 2) for a in span for b in span if 1 - side <= s - a - b <= side]
    else:
        span = range(1 - side, side)
        cells = [(x, y, -x - y) for x in span for y in span if abs(x + y) < side]
    return lattice.normalise(cells)


def triangle(lattice: Lattice, side: int) -> Form:
    """The triangle of the given side on the triangular lattice (side² triangles), pointing up."""
    cells = [cell_at(lattice, (r, c)) for r in range(side) for c in range(-r, r + 1)]
    return lattice.normalise(c for c in cells if c is not None)


def box(depth: int, rows: int, cols: int) -> Form:
    """A box of ``depth`` layers of ``rows`` x ``cols`` cubes."""
    return tuple((x, y, z) for x in range(depth) for y in range(rows) for z in range(cols))


PRESETS: dict[str, dict[str, tuple[str, Callable[[Lattice], Form]]]] = {
    "triangular": {
        "6x6": (
            "the hexiamonds' 6 x 6 rhombus: 156 tilings by the 12 hexiamonds up to symmetry",
            lambda g: parallelogram(g, 6, 6),
        ),
        "4x9": ("4 x 9 parallelogram (72 triangles, the hexiamonds' area)", lambda g: parallelogram(g, 4, 9)),
        "3x12": ("3 x 12 parallelogram (72 triangles)", lambda g: parallelogram(g, 3, 12)),
        "2x5": ("2 x 5 parallelogram (20 triangles, the pentiamonds' area)", lambda g: parallelogram(g, 2, 5)),
        "hexagon-3": ("hexagon of side 3 (54 triangles)", lambda g: hexagon(g, 3)),
        "triangle-6": ("triangle of side 6 (36 triangles)", lambda g: triangle(g, 6)),
    },
    "hexagonal": {
        "4x7": ("4 x 7 parallelogram (28 hexagons, the tetrahexes' area)", lambda g: parallelogram(g, 4, 7)),
        "2x14": ("2 x 14 parallelogram (28 hexagons)", lambda g: parallelogram(g, 2, 14)),
        "hexagon-4": ("hexagon of side 4 (37 hexagons: the trihexes and tetrahexes)", lambda g: hexagon(g, 4)),
    },
    "cubic": {
        "2x3x10": ("2 x 3 x 10 box: 12 packings by the flat pentacubes up to symmetry", lambda g: box(2, 3, 10)),
        "2x5x6": ("2 x 5 x 6 box: 264 packings by the flat pentacubes up to symmetry", lambda g: box(2, 5, 6)),
        "3x4x5": ("3 x 4 x 5 box: 3,940 packings by the flat pentacubes up to symmetry", lambda g: box(3, 4, 5)),
        "3x3x3": ("3 x 3 x 3 cube: the Soma cube (--pieces soma)", lambda g: box(3, 3, 3)),
    },
}
"""Named boards per lattice: name -> (description, builder of the cells)."""

DEFAULT_BOARDS = {"triangular": "6x6", "hexagonal": "4x7", "cubic": "2x3x10"}


@frozen(eq=False)
class LatticeBoard:
    """A named board of a lattice: its cells (lattice coordinates, in canonical position)."""

    name: str
    lattice: str
    cells: Form

    @classmethod
    def parse(cls, lattice: Lattice | str, spec: str | None = None) -> LatticeBoard:
        """A preset, ``RxC`` (plane), ``hexagon-N``/``triangle-N``, or ``AxBxC`` (a box)."""
        grid = lattice_named(lattice)
        text = (spec if spec is not None else DEFAULT_BOARDS[grid.name]).strip().lower()
        presets = PRESETS[grid.name]
        if text in presets:
            return cls(text, grid.name, presets[text][1](grid))
        if grid.name == "cubic":
            match = _BOX_RE.match(text)
            if not match:
                raise PuzzleError(
                    f"unknown board {spec!r} on the cubic lattice: use a preset ({', '.join(presets)}) or AxBxC"
                )
            sizes = [parse_whole(v, what="a board's size", error=PuzzleError) for v in match.groups()]
            cls._check_size(sizes, spec)
            return cls(text, grid.name, box(*sizes))
        match = _PLANE_RE.match(text)
        if match:
            rows, cols = (parse_whole(v, what="a board's size", error=PuzzleError) for v in (match[1], match[2]))
            cls._check_size([rows, cols, 2 if grid.name == "triangular" else 1], spec)
            return cls(text, grid.name, parallelogram(grid, rows, cols))
        match = _SIDE_RE.match(text)
        if match and not (match[1] == "triangle" and grid.name != "triangular"):
            side = parse_whole(match[2], what="a board's side", error=PuzzleError)
            cls._check_size([side, side, 6], spec)
            return cls(text, grid.name, (hexagon if match[1] == "hexagon" else triangle)(grid, side))
        shapes = "RxC, hexagon-N" + (", triangle-N" if grid.name == "triangular" else "")
        raise PuzzleError(
            f"unknown board {spec!r} on the {grid.name} lattice: use a preset ({', '.join(presets)}) or {shapes}"
        )

    @staticmethod
    def _check_size(sizes: list[int], spec: str | None) -> None:
        if min(sizes) < 1:
            raise PuzzleError(f"board {spec!r}: every side must be at least 1")
        total = 1
        for size in sizes:
            total *= size
        if total > MAX_CELLS:
            raise PuzzleError(f"board {spec!r} is too large (more than {MAX_CELLS:,} cells)")

    @classmethod
    def from_text(cls, lattice: Lattice | str, text: str, name: str = "board") -> LatticeBoard:
        """Read a board picture ('.' a cell; '#' or a space none); a malformed one is a one-line PuzzleError."""
        grid = lattice_named(lattice)
        try:
            cells = read_picture(grid, text, cell=".", empty="# ", what=name)
        except ShapeError as error:
            raise PuzzleError(str(error)) from None
        if len(cells) > MAX_CELLS:
            raise PuzzleError(f"{name} is too large (more than {MAX_CELLS:,} cells)")
        return cls(name, grid.name, cells)

    @classmethod
    def from_file(cls, lattice: Lattice | str, path: str | Path) -> LatticeBoard:
        """Read a board file."""
        path = Path(path)
        text = read_user_text(path, what="board file", max_bytes=MAX_PUZZLE_FILE_BYTES, error=PuzzleError)
        return cls.from_text(lattice, text, name=path.name)

    @property
    def area(self) -> int:
        """Number of cells."""
        return len(self.cells)

    def to_text(self) -> str:
        """The board's picture in the board-file format ('.' for each cell)."""
        return picture(lattice_named(self.lattice), dict.fromkeys(self.cells, "."))

    def describe(self) -> str:
        """One line: name, cells and lattice."""
        unit = {"triangular": "triangles", "hexagonal": "hexagons", "cubic": "cubes"}[self.lattice]
        return f"{self.name} ({self.area} {unit})"
