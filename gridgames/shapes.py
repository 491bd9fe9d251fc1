"""Polyomino shapes: parsing, symmetry, the standard piece sets and n-omino generation.

The one geometry vocabulary of gridgames: `normalise` (translate to row 0, column 0
and sort), `Shape` and its `orientations` (rotations, then mirror images),
`SQUARE_SYMMETRIES` (the 8 maps of the square grid, also used for boards by
`gridgames.search.symmetry`), `scan_key` (the scan orders "column" and "row").
Pieces with counts, boards and the colouring test build on it in `gridgames.pieces`.

Generation is iterative and bounded: `polyominoes(n)` enumerates up to
`MAX_GENERATED` cells and refuses larger sizes with `TooLargeError` (naming the
limit); `KNOWN_COUNTS` (OEIS) give a set's size and area (`set_area`) without
enumerating it.

Naming of generated pieces (see `polyominoes`):

* free pieces: n = 1 "M" (monomino), n = 2 "D" (domino), n = 3 "I", "L",
  n = 4 "I O T S L", n = 5 "F I L N P T U V W X Y Z" (Golomb/Conway letters),
  n = 6 "H01".."H35", other n "N{n}-{index}" with the index zero-padded
  ("N7-001".."N7-108").
* one-sided pieces: each free piece under its own name (in the drawn
  orientation of PENTOMINOES / TETROMINOES), followed by its mirror image named
  with a trailing apostrophe when it is chiral: "L", "L'", "H07", "H07'".
* fixed pieces: the free name plus the 1-based index of the orientation in
  `Shape.orientations()`: "L1".."L8" for letter names, "H07-1".."H07-8" for
  numbered names.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from attrs import field, frozen

from collections.abc import Callable

from gridgames.errors import ShapeError
from gridgames.grid import Cell
from gridgames.parsing import parse_whole

Cells = tuple[Cell, ...]
"""A shape's or a placement's cells: (row, col) pairs, sorted when normalised."""

ORDERS = ("column", "row")
"""Scan orders: "column" = down each column, left to right; "row" = along each row, top to bottom."""

Transform = Callable[[int, int], Cell]

SQUARE_SYMMETRIES: tuple[tuple[str, Transform], ...] = (
    ("identity", lambda r, c: (r, c)),
    ("rotate 90", lambda r, c: (c, -r)),
    ("rotate 180", lambda r, c: (-r, -c)),
    ("rotate 270", lambda r, c: (-c, r)),
    ("mirror left-right", lambda r, c: (r, -c)),
    ("mirror up-down", lambda r, c: (-r, c)),
    ("mirror diagonal", lambda r, c: (c, r)),
    ("mirror anti-diagonal", lambda r, c: (-c, -r)),
)
"""The 8 symmetries of the square grid as maps of (row, col), identity first (shapes and boards alike)."""


def normalise(cells: Iterable[Cell]) -> Cells:
    """Cells translated to min row = min col = 0 and sorted; ShapeError when empty, repeated or not integers."""
    return _normalise(cells)


def scan_key(order: str) -> Callable[[Cell], tuple[int, int]]:
    """Sort key of a cell in scan order: "column" = (col, row), "row" = (row, col)."""
    if order == "column":
        return lambda rc: (rc[1], rc[0])
    if order == "row":
        return lambda rc: (rc[0], rc[1])
    raise ShapeError(f"unknown scan order {order!r}; expected one of {', '.join(ORDERS)}")


def _normalise(cells: Iterable[Cell]) -> Cells:
    """Translate cells so min row = min col = 0 and sort them; reject empty, duplicate or non-integer cells."""
    try:
        raw = [(_as_int(r), _as_int(c)) for r, c in cells]
    except (TypeError, ValueError) as exc:
        raise ShapeError(f"shape cells must be (row, col) integer pairs: {exc}") from None
    if not raw:
        raise ShapeError("a shape needs at least one cell")
    unique = set(raw)
    if len(unique) != len(raw):
        dup = next(cell for cell in raw if raw.count(cell) > 1)
        raise ShapeError(f"shape has duplicate cell {dup}")
    return _shift(unique)


def _as_int(value: object) -> int:
    """Return value as an int, refusing bools, floats and other non-integers."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{value!r} is not an integer")
    return int(value.__index__())


def _shift(cells: Iterable[Cell]) -> Cells:
    """Translate cells to min row = min col = 0 and return them sorted."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def _rotate(cells: Cells) -> Cells:
    """Rotate normalised cells 90 degrees clockwise, normalised."""
    height = 1 + max(r for r, _ in cells)
    return tuple(sorted((c, height - 1 - r) for r, c in cells))


def _reflect(cells: Cells) -> Cells:
    """Mirror normalised cells left-right, normalised."""
    width = 1 + max(c for _, c in cells)
    return tuple(sorted((r, width - 1 - c) for r, c in cells))


def _orientations(cells: Cells, one_sided: bool) -> tuple[Cells, ...]:
    """Distinct orientations: the four rotations, then (unless one_sided) the four of the mirror image."""
    found: dict[Cells, None] = {}
    current = cells
    for _ in range(4):
        found.setdefault(current)
        current = _rotate(current)
    if not one_sided:
        current = _reflect(cells)
        for _ in range(4):
            found.setdefault(current)
            current = _rotate(current)
    return tuple(found)


def _canonical(cells: Cells, one_sided: bool = False) -> Cells:
    """The least orientation of normalised cells (tuple order); the generation hot spot, so written flat."""
    bottom = max(r for r, _ in cells)
    right = max(c for _, c in cells)
    images = [
        [(c, bottom - r) for r, c in cells],
        [(bottom - r, right - c) for r, c in cells],
        [(right - c, r) for r, c in cells],
    ]
    if not one_sided:
        images += [
            [(r, right - c) for r, c in cells],
            [(right - c, bottom - r) for r, c in cells],
            [(bottom - r, c) for r, c in cells],
            [(c, r) for r, c in cells],
        ]
    best = cells
    for image in images:
        image.sort()
        candidate = tuple(image)
        if candidate < best:
            best = candidate
    return best


def _connected(cells: Cells) -> bool:
    """True when the cells form one edge-connected piece."""
    remaining = set(cells)
    stack = [cells[0]]
    remaining.discard(cells[0])
    while stack:
        r, c = stack.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in remaining:
                remaining.discard(nb)
                stack.append(nb)
    return not remaining


def _cells_repr(cells: Cells) -> str:
    """Text picture of normalised cells, rows joined by newlines."""
    height = 1 + max(r for r, _ in cells)
    width = 1 + max(c for _, c in cells)
    grid = [["."] * width for _ in range(height)]
    for r, c in cells:
        grid[r][c] = "#"
    return "\n".join("".join(row) for row in grid)


def _parse_text(text: str) -> Cells:
    """Cells of a text picture ('#' or a letter = square, '.' or ' ' = none), unnormalised."""
    lines = text.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    cells: list[Cell] = []
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch == "#" or ch.isalpha():
                cells.append((r, c))
            elif ch not in ". ":
                raise ShapeError(f"bad character {ch!r} in shape picture at line {r + 1}, column {c + 1}")
    if not cells:
        raise ShapeError("shape picture has no squares")
    return tuple(cells)


def _require_connected(cells: Cells, name: str) -> None:
    """Raise ShapeError when cells are not one edge-connected piece."""
    if not _connected(cells):
        label = f"shape {name!r}" if name else "shape"
        raise ShapeError(f"{label} is not connected: {_cells_repr(cells)!r}")


@frozen(repr=False)
class Shape:
    """A polyomino: grid cells normalised to min row = min col = 0 and sorted (the constructors check connectivity)."""

    cells: Cells = field(converter=_normalise)
    name: str = field(default="", eq=False)

    @classmethod
    def from_text(cls, text: str, name: str = "") -> Shape:
        """Parse a picture: '#' or any letter is a square, '.' or ' ' is empty; must be connected."""
        cells = _shift(_parse_text(text))
        _require_connected(cells, name)
        return cls(cells, name)

    @classmethod
    def from_cells(cls, cells: Iterable[Cell], name: str = "") -> Shape:
        """Build a connected shape from (row, col) cells in any position."""
        shape = cls(tuple(cells), name)
        _require_connected(shape.cells, name)
        return shape

    def to_text(self) -> str:
        """Picture with '#' for squares and '.' for gaps, one line per row."""
        return _cells_repr(self.cells)

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    @property
    def height(self) -> int:
        """Number of rows spanned."""
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        """Number of columns spanned."""
        return 1 + max(c for _, c in self.cells)

    def rotate(self) -> Shape:
        """This shape turned 90 degrees clockwise."""
        return _make(_rotate(self.cells), self.name)

    def reflect(self) -> Shape:
        """This shape mirrored left-right."""
        return _make(_reflect(self.cells), self.name)

    def orientations(self, one_sided: bool = False) -> tuple[Shape, ...]:
        """Distinct fixed orientations, self first, then rotations, then (unless one_sided) mirror images."""
        return tuple(_make(cells, self.name) for cells in _orientations(self.cells, one_sided))

    def canonical(self, one_sided: bool = False) -> Shape:
        """The orientation with the least cells tuple (the free, or one-sided, representative)."""
        return _make(_canonical(self.cells, one_sided), self.name)

    def symmetry_order(self) -> int:
        """Number of the 8 square symmetries that map this shape onto itself."""
        return 8 // len(_orientations(self.cells, False))

    def first_cell(self, order: str = "column") -> Cell:
        """First cell in scan order: "column" = least (col, row), "row" = least (row, col)."""
        return min(self.cells, key=scan_key(order))

    def is_connected(self) -> bool:
        """True when the cells form one edge-connected piece."""
        return _connected(self.cells)

    def __str__(self) -> str:
        """The text picture."""
        return self.to_text()

    def __repr__(self) -> str:
        """An expression that evaluates back to an equal shape with the same name."""
        name = f", name={self.name!r}" if self.name else ""
        if self.is_connected():
            return f"Shape.from_text({self.to_text()!r}{name})"
        return f"Shape({self.cells!r}{name})"


def _make(cells: Cells, name: str = "") -> Shape:
    """Build a Shape from cells already normalised, skipping validation (internal fast path)."""
    shape = object.__new__(Shape)
    object.__setattr__(shape, "cells", cells)
    object.__setattr__(shape, "name", name)
    return shape


def _named(pictures: dict[str, str]) -> dict[str, Shape]:
    """Shapes from a name -> picture mapping."""
    return {name: Shape.from_text(text, name) for name, text in pictures.items()}


PENTOMINOES: dict[str, Shape] = _named(
    {
        "F": ".##\n##.\n.#.",
        "I": "#####",
        "L": "#.\n#.\n#.\n##",
        "N": ".#\n.#\n##\n#.",
        "P": "##\n##\n#.",
        "T": "###\n.#.\n.#.",
        "U": "#.#\n###",
        "V": "#..\n#..\n###",
        "W": "#..\n##.\n.##",
        "X": ".#.\n###\n.#.",
        "Y": ".#\n##\n.#\n.#",
        "Z": "##.\n.#.\n.##",
    }
)
"""The 12 free pentominoes under their Golomb/Conway letters."""

TETROMINOES: dict[str, Shape] = _named(
    {
        "I": "####",
        "O": "##\n##",
        "T": "###\n.#.",
        "S": ".##\n##.",
        "L": "#.\n#.\n##",
    }
)
"""The 5 free tetrominoes."""

_SMALL: dict[int, tuple[Shape, ...]] = {
    1: tuple(_named({"M": "#"}).values()),
    2: tuple(_named({"D": "##"}).values()),
    3: tuple(_named({"I": "###", "L": "#.\n##"}).values()),
    4: tuple(TETROMINOES.values()),
    5: tuple(PENTOMINOES.values()),
}

KINDS = ("free", "one-sided", "fixed")
"""How a piece may turn: rotations and reflections, rotations only, not at all."""

MAX_GENERATED = 10
"""The largest polyominoes `polyominoes` enumerates (the 4,655 free 10-ominoes take about a second)."""

KNOWN_COUNTS: dict[str, tuple[int, ...]] = {
    "free": (1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655),  # OEIS A000105
    "one-sided": (1, 1, 2, 7, 18, 60, 196, 704, 2500, 9189),  # OEIS A000988
    "fixed": (1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446),  # OEIS A001168
}
"""Number of n-ominoes of each kind for n = 1..MAX_GENERATED: the area of a set is known before enumerating it."""


class TooLargeError(ShapeError):
    """Polyominoes asked for above `MAX_GENERATED` cells: too many to enumerate."""


def polyomino_count(n: int, kind: str = "free") -> int:
    """How many n-ominoes of a kind there are (from `KNOWN_COUNTS`, without enumerating them)."""
    _check_size(n, kind)
    return KNOWN_COUNTS[kind][n - 1]


def _check_size(n: int, kind: str) -> None:
    """Refuse a size that is not a positive integer or above `MAX_GENERATED`, and an unknown kind."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ShapeError(f"polyomino size must be a positive integer, got {n!r}")
    if kind not in KINDS:
        raise ShapeError(f"unknown polyomino kind {kind!r}; expected one of {', '.join(KINDS)}")
    if n > MAX_GENERATED:
        raise TooLargeError(f"{n}-ominoes are too many to enumerate: polyomino sets go up to {MAX_GENERATED} squares")


@functools.cache
def _free_cells(n: int) -> tuple[Cells, ...]:
    """Canonical cells of every free n-omino, sorted, grown level by level from the monomino (iterative)."""
    level: set[Cells] = {((0, 0),)}
    for _ in range(n - 1):
        grown_level: set[Cells] = set()
        for parent in level:
            occupied = set(parent)
            grown: set[Cell] = set()
            for r, c in parent:
                for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if nb not in occupied:
                        grown.add(nb)
            for cell in grown:
                grown_level.add(_canonical(_shift((*parent, cell))))
        level = grown_level
    return tuple(sorted(level))


def _free_names(n: int, count: int) -> list[str]:
    """Generic names of the free n-ominoes: "H01".. for n = 6, "N{n}-{index}" otherwise."""
    digits = len(str(count))
    if n == 6:
        return [f"H{i:0{digits}d}" for i in range(1, count + 1)]
    return [f"N{n}-{i:0{digits}d}" for i in range(1, count + 1)]


@functools.cache
def _free(n: int) -> tuple[Shape, ...]:
    """The free n-ominoes, named, in deterministic order."""
    if n in _SMALL:
        return _SMALL[n]
    cells = _free_cells(n)
    return tuple(_make(c, name) for c, name in zip(cells, _free_names(n, len(cells))))


def _one_sided(n: int) -> tuple[Shape, ...]:
    """Each free n-omino followed by its mirror image (name + "'") when chiral."""
    out: list[Shape] = []
    for shape in _free(n):
        out.append(shape)
        mirror = _reflect(shape.cells)
        if _canonical(mirror, True) != _canonical(shape.cells, True):
            out.append(_make(mirror, shape.name + "'"))
    return tuple(out)


def _fixed(n: int) -> tuple[Shape, ...]:
    """Every orientation of every free n-omino, named free name + orientation index."""
    out: list[Shape] = []
    for shape in _free(n):
        sep = "-" if shape.name[-1:].isdigit() else ""
        for k, cells in enumerate(_orientations(shape.cells, False), start=1):
            out.append(_make(cells, f"{shape.name}{sep}{k}"))
    return tuple(out)


def polyominoes(n: int, kind: str = "free") -> tuple[Shape, ...]:
    """All n-ominoes of a kind ("free", "one-sided" or "fixed"), named and in deterministic order (cached)."""
    _check_size(n, kind)
    return _polyominoes(n, kind)


@functools.cache
def _polyominoes(n: int, kind: str) -> tuple[Shape, ...]:
    """Cached body of `polyominoes` for validated arguments."""
    if kind == "free":
        return _free(n)
    if kind == "one-sided":
        return _one_sided(n)
    return _fixed(n)


_SET_SIZES = {
    "monomino": 1,
    "monominoes": 1,
    "domino": 2,
    "dominoes": 2,
    "tromino": 3,
    "trominoes": 3,
    "triomino": 3,
    "triominoes": 3,
    "tetromino": 4,
    "tetrominoes": 4,
    "pentomino": 5,
    "pentominoes": 5,
    "hexomino": 6,
    "hexominoes": 6,
    "heptomino": 7,
    "heptominoes": 7,
    "octomino": 8,
    "octominoes": 8,
    "nonomino": 9,
    "nonominoes": 9,
    "decomino": 10,
    "decominoes": 10,
}
_SET_KINDS = {"free": "free", "one-sided": "one-sided", "onesided": "one-sided", "fixed": "fixed"}
_SPEC_RE = re.compile(r"^(?:(?P<kind>[a-z-]+)\s+)?(?:(?P<word>[a-z]+)|(?P<n>\d+)-?ominoe?s?|n\s*=\s*(?P<eq>\d+))$")


def set_size(spec: str) -> tuple[int, str]:
    """The size and kind a piece-set name stands for, without enumerating it: "one-sided 7-ominoes" -> (7,
    "one-sided")."""
    match = _SPEC_RE.match(" ".join(spec.lower().split()))
    if match is None:
        raise ShapeError(f"unknown piece set {spec!r}")
    kind = _SET_KINDS.get(match["kind"] or "free")
    if match["word"] is not None:
        n = _SET_SIZES.get(match["word"])
    else:
        n = parse_whole(
            match["n"] or match["eq"],
            what=f"a piece set's size (sets go up to {MAX_GENERATED} squares)",
            error=TooLargeError,
        )
    if kind is None or n is None or n < 1:
        raise ShapeError(f"unknown piece set {spec!r}; try e.g. 'pentominoes', '6-ominoes', 'one-sided tetrominoes'")
    _check_size(n, kind)
    return n, kind


def set_area(spec: str) -> int:
    """Cells covered by one copy of each piece of a named set, from the known counts (nothing is enumerated)."""
    n, kind = set_size(spec)
    return n * polyomino_count(n, kind)


def piece_set(spec: str) -> dict[str, Shape]:
    """A named piece set: "pentominoes", "tetrominoes", "7-ominoes", "n=7", optionally prefixed "one-sided " or "fixed
    "."""
    n, kind = set_size(spec)
    return {shape.name: shape for shape in polyominoes(n, kind)}
