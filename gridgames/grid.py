"""The shared numpy-backed `Grid` that every game stands on.

A grid has ``height`` rows and ``width`` columns; cells are addressed ``(row, col)``
with row 0 at the top. Each cell is empty (``EMPTY``), holds a positive value
(a piece id or a player id), or is not part of the board (``HOLE``), so boards of
any shape work.

Pictures round-trip: ``Grid.from_text(grid.to_text()) == grid``. In a picture '.'
is an empty cell, '#' a hole, and the characters of ``ALPHABET`` stand for the
values 1, 2, 3, ... in order.

>>> grid = Grid.from_text("..#\\n...")
>>> grid.can_place([(0, 0), (1, 0)], at=(0, 0))
True
>>> grid.place([(0, 0), (1, 0)], at=(0, 0), value=1)
>>> print(grid.to_text())
1.#
1..
>>> grid.next_blank_cell()
(0, 1)
>>> Grid.from_text(grid.to_text()) == grid
True

A grid may stand on another lattice (``lattice="hexagonal"`` or ``"triangular"``; the
default is ``"square"``). Cells are still ``(row, col)`` of the array; only which cells
touch changes (`Grid.neighbours`):

* hexagonal: axial coordinates of a rhombus (a Hex board is the whole array), each row
  drawn half a cell right of the one above; the neighbours of (r, c) are (r, c - 1),
  (r, c + 1), (r - 1, c), (r + 1, c), (r - 1, c + 1) and (r + 1, c - 1). In
  `gridgames.lattices` the cell is the hexagon x = c, z = r, y = -x - z.
* triangular: `gridgames.lattices.position`'s (row, col) of the triangular lattice: the
  triangle points up when row + col is even; its neighbours are (r, c - 1), (r, c + 1)
  and (r + 1, c) when it points up, (r - 1, c) when it points down. A shape moves only by
  steps with an even row + col (other steps would turn its triangles over).

>>> hexes = Grid.empty(3, 3, lattice="hexagonal")
>>> hexes.neighbours((0, 0))
((0, 1), (1, 0))
>>> print(hexes.picture())
. . .
 . . .
  . . .
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import Enum
from typing import TYPE_CHECKING, Any, Literal

import attrs

from gridgames.errors import GridError

if TYPE_CHECKING:
    import numpy as np

Cell = tuple[int, int]
Order = Literal["column", "row"]

EMPTY = 0
HOLE = -1
ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
EMPTY_CHAR = "."
HOLE_CHAR = "#"

Lattice = Literal["square", "hexagonal", "triangular"]
LATTICES: tuple[str, ...] = ("square", "hexagonal", "triangular")
"""The lattices a `Grid` may stand on (names as in `gridgames.lattices`)."""

_SQUARE_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_HEX_STEPS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1))


class Direction(Enum):
    """The four line directions, each as a (row step, column step)."""

    HORIZONTAL = (0, 1)
    VERTICAL = (1, 0)
    DIAGONAL = (1, 1)
    ANTI_DIAGONAL = (1, -1)

    @property
    def step(self) -> Cell:
        """The (row, column) step of one cell along this direction."""
        return self.value


def _offsets(shape: Any) -> tuple[Cell, ...]:
    """The (dr, dc) offsets of a shape: a `Shape`'s cells, or any iterable of pairs."""
    cells = getattr(shape, "cells", shape)
    return tuple((int(r), int(c)) for r, c in cells)


def _check_lattice(lattice: str) -> str:
    if lattice not in LATTICES:
        raise GridError(f"unknown lattice {lattice!r}: a grid's lattice is one of {', '.join(LATTICES)}")
    return lattice


def _value_char(value: int, alphabet: str) -> str:
    """The picture character of one cell value."""
    if value == EMPTY:
        return EMPTY_CHAR
    if value == HOLE:
        return HOLE_CHAR
    if 1 <= value <= len(alphabet):
        return alphabet[value - 1]
    raise GridError(f"value {value} has no character in the alphabet (1..{len(alphabet)})")


def _int32_array(values: Any) -> np.ndarray:
    """The cells as an int32 array (numpy is imported at the first grid: commands that need none start without it)."""
    import numpy as np

    return np.array(values, dtype=np.int32)


@attrs.define(eq=False, repr=False)
class Grid:
    """A height x width board of cells: empty (0), a value (> 0) or a hole (-1)."""

    cells: np.ndarray = attrs.field(converter=_int32_array)
    lattice: str = attrs.field(default="square", kw_only=True, converter=_check_lattice)
    """Which cells touch: "square" (the default), "hexagonal" or "triangular" (see the module's docstring)."""

    def __attrs_post_init__(self) -> None:
        if self.cells.ndim != 2 or self.cells.shape[0] < 1 or self.cells.shape[1] < 1:
            raise GridError(f"a grid needs a non-empty 2-D array, got shape {self.cells.shape}")
        if (self.cells < HOLE).any():
            raise GridError("cell values must be -1 (hole), 0 (empty) or positive")

    # --- construction -------------------------------------------------
    @classmethod
    def empty(cls, height: int, width: int, *, lattice: str = "square") -> Grid:
        """A rectangular grid with every cell empty (on the square lattice unless told)."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        if height < 1 or width < 1:
            raise GridError(f"a grid must be at least 1x1, got {height}x{width}")
        return cls(np.zeros((height, width), dtype=np.int32), lattice=lattice)

    @classmethod
    def from_mask(cls, on_board: np.ndarray, *, lattice: str = "square") -> Grid:
        """A grid whose cells are empty where ``on_board`` is true and holes elsewhere."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        mask = np.asarray(on_board, dtype=bool)
        return cls(np.where(mask, EMPTY, HOLE), lattice=lattice)

    @classmethod
    def from_text(cls, text: str, alphabet: str = ALPHABET, *, lattice: str = "square") -> Grid:
        """Parse a picture: '.' empty, '#' hole, alphabet characters for values 1, 2, ..."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        lines = [line.rstrip() for line in text.strip("\n").splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise GridError("the grid picture is empty")
        width = max(len(line) for line in lines)
        codes = {EMPTY_CHAR: EMPTY, HOLE_CHAR: HOLE, " ": HOLE}
        codes.update({ch: i + 1 for i, ch in enumerate(alphabet)})
        rows = []
        for r, line in enumerate(lines):
            row = []
            for c, ch in enumerate(line.ljust(width)):
                if ch not in codes:
                    raise GridError(f"unexpected character {ch!r} at row {r + 1}, column {c + 1} of the grid picture")
                row.append(codes[ch])
            rows.append(row)
        return cls(np.array(rows, dtype=np.int32), lattice=lattice)

    def to_text(self, alphabet: str = ALPHABET) -> str:
        """The picture of this grid, one line per row (parses back with `from_text`)."""
        return "\n".join("".join(_value_char(int(v), alphabet) for v in row) for row in self.cells)

    def picture(self, alphabet: str = ALPHABET) -> str:
        """A picture for terminals: cells one space apart, each hexagonal row shifted half a cell right of the one
        above."""
        lines = []
        for r, row in enumerate(self.cells):
            indent = " " * r if self.lattice == "hexagonal" else ""
            lines.append(indent + " ".join(_value_char(int(v), alphabet) for v in row))
        return "\n".join(lines)

    def copy(self) -> Grid:
        """An independent copy of this grid."""
        if self.lattice == "square":
            return Grid(self.cells.copy())
        return Grid(self.cells.copy(), lattice=self.lattice)

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Grid:
        return self.copy()

    # --- basic properties ---------------------------------------------
    @property
    def height(self) -> int:
        """Number of rows."""
        return int(self.cells.shape[0])

    @property
    def width(self) -> int:
        """Number of columns."""
        return int(self.cells.shape[1])

    def __eq__(self, other: object) -> bool:
        import numpy as np  # imported when used: start-up (docs/startup.md)

        if not isinstance(other, Grid):
            return NotImplemented
        return self.lattice == other.lattice and np.array_equal(self.cells, other.cells)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        lattice = "" if self.lattice == "square" else f", lattice={self.lattice!r}"
        return (
            f"Grid.from_text({self.to_text()!r}{lattice})"
            if self.cells.max(initial=0) <= len(ALPHABET)
            else (f"Grid(np.array({self.cells.tolist()!r}){lattice})")
        )

    def __str__(self) -> str:
        return self.to_text()

    def __getitem__(self, cell: Cell) -> int:
        if not self.in_bounds(cell):
            raise GridError(f"cell {cell} is outside the {self.height}x{self.width} grid")
        return int(self.cells[cell])

    def in_bounds(self, cell: Cell) -> bool:
        """True when the cell lies inside the height x width rectangle (hole or not)."""
        r, c = cell
        return 0 <= r < self.height and 0 <= c < self.width

    def on_board(self, cell: Cell) -> bool:
        """True when the cell is inside the rectangle and not a hole."""
        return self.in_bounds(cell) and int(self.cells[cell]) != HOLE

    def is_empty(self, cell: Cell) -> bool:
        """True when the cell is on the board and holds nothing."""
        return self.in_bounds(cell) and int(self.cells[cell]) == EMPTY

    def is_full(self) -> bool:
        """True when no on-board cell is empty."""
        return not (self.cells == EMPTY).any()

    @property
    def area(self) -> int:
        """Number of on-board cells."""
        return int((self.cells != HOLE).sum())

    def board_cells(self, order: Order = "column") -> list[Cell]:
        """Every on-board cell, in scan order ("column": down each column in turn; "row": along each row)."""
        return [cell for cell in self._scan(order) if int(self.cells[cell]) != HOLE]

    def empty_cells(self, order: Order = "column") -> list[Cell]:
        """Every empty cell, in scan order."""
        return [cell for cell in self._scan(order) if int(self.cells[cell]) == EMPTY]

    def _scan(self, order: Order) -> Iterator[Cell]:
        if order == "column":
            return ((r, c) for c in range(self.width) for r in range(self.height))
        if order == "row":
            return ((r, c) for r in range(self.height) for c in range(self.width))
        raise GridError(f"scan order must be 'column' or 'row', not {order!r}")

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The on-board cells that share an edge with ``cell`` on this grid's lattice (4 square, 6 hexagonal, 3
        triangular at most)."""
        if not self.in_bounds(cell):
            raise GridError(f"cell {cell} is outside the {self.height}x{self.width} grid")
        r, c = cell
        if self.lattice == "square":
            steps: tuple[Cell, ...] = _SQUARE_STEPS
        elif self.lattice == "hexagonal":
            steps = _HEX_STEPS
        else:
            steps = ((0, -1), (0, 1), (1, 0) if (r + c) % 2 == 0 else (-1, 0))
        return tuple((r + dr, c + dc) for dr, dc in steps if self.on_board((r + dr, c + dc)))

    def points_up(self, cell: Cell) -> bool:
        """On a triangular grid, True when the cell's triangle points up (row + col even)."""
        return (cell[0] + cell[1]) % 2 == 0

    # --- placing shapes -----------------------------------------------
    def can_place(self, shape: Any, at: Cell) -> bool:
        """True when every cell of the shape, offset by ``at``, is on the board and empty (on triangles: ``at`` an even
        step)."""
        r0, c0 = at
        if self.lattice == "triangular" and (r0 + c0) % 2:
            return False  # an odd step turns every triangle over: not the same shape
        return all(self.is_empty((r0 + dr, c0 + dc)) for dr, dc in _offsets(shape))

    def place(self, shape: Any, at: Cell, value: int) -> None:
        """Fill the shape's cells (offset by ``at``) with ``value``; refuses off-board, hole or overlap."""
        if value <= 0:
            raise GridError(f"a placed value must be positive, got {value}")
        if not self.can_place(shape, at):
            if self.lattice == "triangular" and (at[0] + at[1]) % 2:
                raise GridError(
                    f"cannot place the shape at {at}: on triangles a shape moves by steps with an even row + column"
                )
            raise GridError(f"cannot place the shape at {at}: a cell is off the board, a hole or taken")
        for cell in self._cells_of(shape, at):
            self.cells[cell] = value

    def remove(self, shape: Any, at: Cell) -> int:
        """Empty the shape's cells (offset by ``at``); refuses unless they all hold one value. Returns it."""
        cells = self._cells_of(shape, at)
        values = {int(self.cells[cell]) if self.in_bounds(cell) else HOLE for cell in cells}
        if len(values) != 1 or next(iter(values)) <= 0:
            raise GridError(f"cannot remove the shape at {at}: its cells do not hold one placed value")
        for cell in cells:
            self.cells[cell] = EMPTY
        return values.pop()

    @staticmethod
    def _cells_of(shape: Any, at: Cell) -> list[Cell]:
        r0, c0 = at
        return [(r0 + dr, c0 + dc) for dr, dc in _offsets(shape)]

    def set(self, cell: Cell, value: int) -> None:
        """Set one on-board cell to a value (0 empties it)."""
        if not self.on_board(cell):
            raise GridError(f"cell {cell} is not on the board")
        if value < 0:
            raise GridError(f"a cell value must be 0 or positive, got {value}")
        self.cells[cell] = value

    def next_blank_cell(self, start: Cell | None = None, order: Order = "column") -> Cell | None:
        """The first empty cell at or after ``start`` in scan order, or None when there is none."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        h, w = self.height, self.width
        if order == "column":
            flat = self.cells.T.ravel()
            index = 0 if start is None else start[1] * h + start[0]
        elif order == "row":
            flat = self.cells.ravel()
            index = 0 if start is None else start[0] * w + start[1]
        else:
            raise GridError(f"scan order must be 'column' or 'row', not {order!r}")
        if start is not None and not self.in_bounds(start):
            raise GridError(f"start cell {start} is outside the {h}x{w} grid")
        hits = np.flatnonzero(flat[index:] == EMPTY)
        if hits.size == 0:
            return None
        k = index + int(hits[0])
        return (k % h, k // h) if order == "column" else (k // w, k % w)

    # --- lines ----------------------------------------------------------
    def count_direction(self, cell: Cell, direction: Direction | Cell) -> int:
        """How many cells equal to ``cell``'s value follow it, walking away along ``direction``."""
        dr, dc = direction.step if isinstance(direction, Direction) else direction
        cells = self.cells
        h, w = cells.shape
        value = self[cell]
        r, c = cell[0] + dr, cell[1] + dc
        n = 0
        while 0 <= r < h and 0 <= c < w and cells[r, c] == value:
            n += 1
            r, c = r + dr, c + dc
        return n

    def line_length(self, cell: Cell, direction: Direction | Cell) -> int:
        """Length of the run of equal values through ``cell`` along ``direction`` (both ways, plus the cell)."""
        dr, dc = direction.step if isinstance(direction, Direction) else direction
        return 1 + self.count_direction(cell, (dr, dc)) + self.count_direction(cell, (-dr, -dc))

    def line_cells(self, cell: Cell, direction: Direction | Cell) -> list[Cell]:
        """The cells of the run of equal values through ``cell`` along ``direction``, in order."""
        dr, dc = direction.step if isinstance(direction, Direction) else direction
        back = self.count_direction(cell, (-dr, -dc))
        length = self.line_length(cell, (dr, dc))
        r0, c0 = cell[0] - back * dr, cell[1] - back * dc
        return [(r0 + i * dr, c0 + i * dc) for i in range(length)]

    @property
    def line_directions(self) -> tuple[Direction, ...]:
        """The directions along which cells in a row touch: all four on squares; across, down and anti-diagonal on
        hexagons; across on triangles."""
        if self.lattice == "hexagonal":
            return (Direction.HORIZONTAL, Direction.VERTICAL, Direction.ANTI_DIAGONAL)
        if self.lattice == "triangular":
            return (Direction.HORIZONTAL,)
        return tuple(Direction)

    def longest_line(self, cell: Cell) -> tuple[int, Direction]:
        """The longest run through ``cell`` over the lattice's line directions (`line_directions`), with its
        direction."""
        return max(((self.line_length(cell, d), d) for d in self.line_directions), key=lambda t: t[0])

    # --- gravity --------------------------------------------------------
    def drop_row(self, column: int) -> int | None:
        """The row of the lowest empty cell of ``column`` (where a dropped disc lands), or None when full."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        if not 0 <= column < self.width:
            raise GridError(f"column {column} is outside 0..{self.width - 1}")
        empty_rows = np.flatnonzero(self.cells[:, column] == EMPTY)
        return int(empty_rows[-1]) if empty_rows.size else None

    def values(self) -> Iterable[int]:
        """The distinct positive values on the grid."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        return sorted(int(v) for v in np.unique(self.cells) if v > 0)
