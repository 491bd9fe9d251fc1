"""Cell lattices beyond the square grid: triangles, hexagons and cubes, with their symmetries and n-forms.

A lattice names its cells by integer tuples and knows three things about them: which cells
are neighbours, the point group (the rotations and reflections that map the lattice onto
itself, fixing a point), and the translations. From those alone come the polyforms: the
free n-forms (up to every symmetry), the one-sided ones (up to rotations) and the fixed ones
(up to translations), and the symmetries of any finite board.

Coordinates (vocabulary):

* ``square``: ``(row, col)``; 4 neighbours; point group of 8 (4 rotations): the polyomino
  vocabulary of `gridgames.shapes` (`SQUARE_SYMMETRIES`, `normalise`), seen as a lattice.
* ``triangular``: a triangle is ``(a, b, c)`` with ``a + b + c`` equal to 1 (pointing up) or
  2 (pointing down): the indices of the three strips of the three line families that hold it.
  3 neighbours (one coordinate off by one); point group of 12 (6 rotations).
* ``hexagonal``: cube coordinates ``(x, y, z)`` with ``x + y + z == 0``; 6 neighbours; point
  group of 12 (6 rotations).
* ``cubic``: ``(x, y, z)``; 6 neighbours; point group of 48 (24 rotations).

>>> [len(free_forms(TRIANGULAR, n)) for n in range(1, 7)]
[1, 1, 1, 3, 4, 12]
>>> [len(free_forms(HEXAGONAL, n)) for n in range(1, 5)]
[1, 1, 3, 7]
>>> len(free_forms(CUBIC, 4)), len(one_sided_forms(CUBIC, 4))
(7, 8)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import cast

import attrs

from gridgames.errors import ShapeError
from gridgames.shapes import SQUARE_SYMMETRIES, normalise

__all__ = [
    "CUBIC",
    "HEXAGONAL",
    "LATTICES",
    "MAX_FORM_SIZE",
    "SQUARE",
    "TRIANGULAR",
    "Form",
    "Lattice",
    "board_symmetries",
    "cell_at",
    "fixed_forms",
    "free_forms",
    "lattice_named",
    "LAYER_BREAK",
    "one_sided_forms",
    "picture",
    "position",
    "read_picture",
    "scan_sorted",
    "translation",
]

Coord = tuple[int, ...]
Form = tuple[Coord, ...]
"""A polyform: its cells as sorted coordinate tuples, translated to the lattice's canonical position."""
Transform = Callable[[Coord], Coord]
MAX_FORM_SIZE = 12
"""The largest n for which n-forms are enumerated (the counts grow about fourfold per cell)."""


@attrs.frozen
class Lattice:
    """A cell lattice: its neighbours, point group (each element with whether it is a rotation) and canonical
    translation."""

    name: str
    neighbours: Callable[[Coord], tuple[Coord, ...]]
    point_group: tuple[tuple[Transform, bool], ...] = attrs.field(repr=False)
    """Every symmetry fixing a point, paired with True for a rotation (False for a reflection)."""
    translate_home: Callable[[Iterable[Coord]], Form] = attrs.field(repr=False)
    """The cells moved by the translation that puts them in canonical position, sorted."""
    origin: Coord

    @property
    def rotations(self) -> tuple[Transform, ...]:
        """The proper rotations of the point group."""
        return tuple(t for t, proper in self.point_group if proper)

    def normalise(self, cells: Iterable[Coord]) -> Form:
        """The cells translated to canonical position (equal for translated copies)."""
        return self.translate_home(cells)

    def canonical(self, cells: Iterable[Coord], kind: str = "free") -> Form:
        """One representative for the cells up to translation and, by kind, rotations ("one-sided") or all symmetries
        ("free")."""
        return self.orientations(cells, kind)[0]

    def orientations(self, cells: Iterable[Coord], kind: str = "free") -> list[Form]:
        """The distinct fixed images of the cells under the group the kind allows, normalised."""
        cells = list(cells)
        if kind == "fixed":
            return [self.normalise(cells)]
        if kind not in ("free", "one-sided"):
            raise ShapeError(f"unknown kind {kind!r}; expected free, one-sided or fixed")
        group = self.rotations if kind == "one-sided" else tuple(t for t, _ in self.point_group)
        return sorted({self.normalise(t(c) for c in cells) for t in group})


# ----------------------------------------------------------------------------------------------
# the four lattices
# ----------------------------------------------------------------------------------------------
def _home_by_minimum(cells: Iterable[Coord]) -> Form:
    """Translate so that every coordinate's minimum is 0 (the cubic lattice; the square one uses `shapes.normalise`)."""
    cells = list(cells)
    low = [min(c[i] for c in cells) for i in range(len(cells[0]))]
    return tuple(sorted(tuple(v - m for v, m in zip(c, low)) for c in cells))


def _home_keeping_sum(cells: Iterable[Coord]) -> Form:
    """Translate by (-min a, -min b, min a + min b), which keeps a + b + c (triangular and hexagonal lattices)."""
    cells = list(cells)
    da = min(c[0] for c in cells)
    db = min(c[1] for c in cells)
    return tuple(sorted((a - da, b - db, c + da + db) for a, b, c in cells))


def _signed_permutations(dimension: int) -> tuple[tuple[Transform, bool], ...]:
    """Every coordinate permutation with every choice of signs: the point group of the square or cubic lattice."""
    group = []
    for perm in itertools.permutations(range(dimension)):
        parity = sum(1 for i, j in itertools.combinations(range(dimension), 2) if perm[i] > perm[j]) % 2
        for signs in itertools.product((1, -1), repeat=dimension):
            negatives = sum(1 for s in signs if s < 0) % 2
            proper = (parity + negatives) % 2 == 0

            def transform(cell: Coord, perm: tuple[int, ...] = perm, signs: tuple[int, ...] = signs) -> Coord:
                return tuple(s * cell[p] for p, s in zip(perm, signs))

            group.append((transform, proper))
    return tuple(group)


def _square_neighbours(cell: Coord) -> tuple[Coord, ...]:
    r, c = cell
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def _cubic_neighbours(cell: Coord) -> tuple[Coord, ...]:
    x, y, z = cell
    return ((x - 1, y, z), (x + 1, y, z), (x, y - 1, z), (x, y + 1, z), (x, y, z - 1), (x, y, z + 1))


def _triangle_neighbours(cell: Coord) -> tuple[Coord, ...]:
    a, b, c = cell
    step = 1 if a + b + c == 1 else -1  # an up triangle's neighbours point down, and the reverse
    return ((a + step, b, c), (a, b + step, c), (a, b, c + step))


def _hexagon_neighbours(cell: Coord) -> tuple[Coord, ...]:
    x, y, z = cell
    return tuple((x + dx, y + dy, z + dz) for dx, dy, dz in itertools.permutations((1, -1, 0)))


def _coordinate_permutations(flip: Callable[[Coord], Coord]) -> tuple[tuple[Transform, bool], ...]:
    """The 12 symmetries of the triangular or hexagonal lattice: the 6 permutations of the 3 coordinates, each with or
    without ``flip`` (the half turn); a permutation is a rotation when it is even (the half turn is a rotation too)."""
    group = []
    for perm in itertools.permutations(range(3)):
        even = perm in ((0, 1, 2), (1, 2, 0), (2, 0, 1))
        for flipped in (False, True):

            def transform(cell: Coord, perm: tuple[int, ...] = perm, flipped: bool = flipped) -> Coord:
                moved = (cell[perm[0]], cell[perm[1]], cell[perm[2]])
                return flip(moved) if flipped else moved

            group.append((transform, even))
    return tuple(group)


def _on_coords(symmetry: Callable[[int, int], tuple[int, int]]) -> Transform:
    """A square-grid symmetry of (row, col) as a map of coordinates."""

    def transform(cell: Coord) -> Coord:
        row, col = cell
        return symmetry(row, col)

    return transform


def _square_home(cells: Iterable[Coord]) -> Form:
    """The polyomino vocabulary's own translation home (gridgames.shapes.normalise, which checks each is a pair)."""
    return normalise(cast("Iterable[tuple[int, int]]", cells))


SQUARE = Lattice(
    "square",
    _square_neighbours,
    tuple((_on_coords(f), name.startswith(("identity", "rotate"))) for name, f in SQUARE_SYMMETRIES),
    _square_home,
    (0, 0),
)
CUBIC = Lattice("cubic", _cubic_neighbours, _signed_permutations(3), _home_by_minimum, (0, 0, 0))
TRIANGULAR = Lattice(
    "triangular",
    _triangle_neighbours,
    # half turn about a vertex: up <-> down
    _coordinate_permutations(lambda t: (1 - t[0], 1 - t[1], 1 - t[2])),
    _home_keeping_sum,
    (0, 0, 1),
)
HEXAGONAL = Lattice(
    "hexagonal",
    _hexagon_neighbours,
    _coordinate_permutations(lambda h: (-h[0], -h[1], -h[2])),
    _home_keeping_sum,
    (0, 0, 0),
)
LATTICES = {lattice.name: lattice for lattice in (SQUARE, TRIANGULAR, HEXAGONAL, CUBIC)}


# ----------------------------------------------------------------------------------------------
# polyforms
# ----------------------------------------------------------------------------------------------
def _check_size(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_FORM_SIZE:
        raise ShapeError(f"a polyform's size must be a whole number from 1 to {MAX_FORM_SIZE}, got {n!r}")


def _forms(lattice: Lattice, n: int, kind: str) -> list[Form]:
    """The n-forms of the lattice up to the kind's symmetries, grown cell by cell (each one a canonical form)."""
    _check_size(n)
    level = {lattice.canonical([lattice.origin], kind)}
    for _ in range(n - 1):
        grown: set[Form] = set()
        # every fixed image of the forms found so far: most extensions stop here
        seen: set[Form] = set()
        for form in level:
            cells = set(form)
            for cell in form:
                for neighbour in lattice.neighbours(cell):
                    if neighbour in cells:
                        continue
                    fixed = lattice.normalise([*form, neighbour])
                    if fixed in seen:
                        continue
                    images = lattice.orientations(fixed, kind)
                    seen.update(images)
                    grown.add(images[0])
        level = grown
    return sorted(level)


def free_forms(lattice: Lattice, n: int) -> list[Form]:
    """The free n-forms: distinct up to rotation, reflection and translation."""
    return _forms(lattice, n, "free")


def one_sided_forms(lattice: Lattice, n: int) -> list[Form]:
    """The one-sided n-forms: distinct up to rotation and translation (mirror images differ)."""
    return _forms(lattice, n, "one-sided")


def fixed_forms(lattice: Lattice, n: int) -> list[Form]:
    """The fixed n-forms: distinct up to translation only."""
    return _forms(lattice, n, "fixed")


def board_symmetries(
    lattice: Lattice, cells: Sequence[Coord], *, rotations_only: bool = False
) -> list[dict[Coord, Coord]]:
    """The symmetries of a finite board (a set of cells) as maps of its cells onto themselves, the identity included."""
    cells = list(dict.fromkeys(cells))
    if not cells:
        raise ShapeError("a board needs at least one cell")
    home = lattice.normalise(cells)
    offset_of = _translation(home, cells)
    found: list[dict[Coord, Coord]] = []
    for transform, proper in lattice.point_group:
        if rotations_only and not proper:
            continue
        moved = [transform(c) for c in cells]
        if lattice.normalise(moved) != home:
            continue
        back = _translation(lattice.normalise(moved), moved)
        mapping = {c: _shift(_unshift(m, back), offset_of) for c, m in zip(cells, moved)}
        if mapping not in found:
            found.append(mapping)
    return found


def _translation(home: Form, cells: Sequence[Coord]) -> Coord:
    """The vector that carries the normalised cells ``home`` back onto ``cells``."""
    first_home = home[0]
    first_cells = min(cells)
    return tuple(a - b for a, b in zip(first_cells, first_home))


def _shift(cell: Coord, by: Coord) -> Coord:
    return tuple(a + b for a, b in zip(cell, by))


def _unshift(cell: Coord, by: Coord) -> Coord:
    return tuple(a - b for a, b in zip(cell, by))


# ----------------------------------------------------------------------------------------------
# positions: where a cell is drawn and scanned
# ----------------------------------------------------------------------------------------------
# A cell's *position* is an integer tuple laid out like a picture: ``(row, col)`` on the square,
# triangular and hexagonal lattices, ``(layer, row, col)`` on the cubic one.
#
# * triangular: row ``a``, column ``b - c + 1``; the triangle points up when row + col is even.
#   Each row alternates up and down triangles, and a column holds one triangle per row.
# * hexagonal: row ``z``, column ``2x + z`` ("doubled" columns): the hexagons of a row sit two
#   columns apart, and each row is shifted by one column against the next, as in a picture
#   drawn with a space between cells.
# * cubic: ``(x, y, z)`` read as (layer, row, col); square: the cell itself.


def lattice_named(lattice: Lattice | str) -> Lattice:
    """The lattice itself, or the one of that name (square, triangular, hexagonal, cubic; also triangle, hex, cube)."""
    if isinstance(lattice, Lattice):
        return lattice
    name = {"triangle": "triangular", "tri": "triangular", "hex": "hexagonal", "cube": "cubic"}.get(lattice, lattice)
    if name not in LATTICES:
        raise ShapeError(f"unknown lattice {lattice!r}; expected square, triangle, hex or cube")
    return LATTICES[name]


def position(lattice: Lattice, cell: Coord) -> Coord:
    """Where the cell is drawn: (row, col) in the plane, (layer, row, col) in space (see the table above)."""
    if lattice.name == "triangular":
        a, b, c = cell
        return (a, b - c + 1)
    if lattice.name == "hexagonal":
        x, _, z = cell
        return (z, 2 * x + z)
    return tuple(cell)


def cell_at(lattice: Lattice, pos: Coord) -> Coord | None:
    """The cell drawn at a position, or None when no cell is drawn there (a hexagonal position of the wrong parity)."""
    if lattice.name == "triangular":
        row, col = pos
        total = 1 if (row + col) % 2 == 0 else 2  # up triangles have a + b + c == 1
        b = (col - 1 + total - row) // 2
        return (row, b, total - row - b)
    if lattice.name == "hexagonal":
        row, col = pos
        if (col - row) % 2:
            return None
        x = (col - row) // 2
        return (x, -x - row, row)
    return tuple(pos)


def translation(lattice: Lattice, source: Coord, target: Coord) -> Coord | None:
    """The translation of the lattice carrying ``source`` onto ``target``, or None when there is none (up onto down)."""
    if lattice.name == "triangular" and sum(source) != sum(target):
        return None
    return tuple(t - s for s, t in zip(source, target))


AXIS_ORDERS = ("xyz", "xzy", "yxz", "yzx", "zxy", "zyx")
"""Scan orders of a cubic board: the axes of its cells' positions (layer x, row y, column z), the slowest first."""


def scan_sorted(lattice: Lattice, cells: Iterable[Coord], order: str = "auto") -> tuple[Coord, ...]:
    """The cells in scan order: by position, down the columns ("column") or along the rows ("row"); "auto" runs
    along the shorter side of the drawing (in space: the shortest axis varies fastest, the longest slowest; or an
    order of `AXIS_ORDERS`)."""
    cells = list(cells)
    places = {cell: position(lattice, cell) for cell in cells}
    extent = [
        1 + max(p[i] for p in places.values()) - min(p[i] for p in places.values())
        for i in range(len(places[cells[0]]))
    ]
    if lattice.name == "cubic":
        if order in AXIS_ORDERS:
            axes = ["xyz".index(axis) for axis in order]
        else:  # "auto": the longest axis first, it varies slowest
            axes = sorted(range(3), key=lambda i: (-extent[i], i))
        return tuple(sorted(cells, key=lambda cell: tuple(places[cell][i] for i in axes)))
    if order == "auto":
        scale = {"triangular": (0.866, 0.5), "hexagonal": (0.75, 0.5)}.get(lattice.name, (1.0, 1.0))
        order = "column" if extent[0] * scale[0] <= extent[1] * scale[1] else "row"
    if order not in ("column", "row"):
        raise ShapeError(f"scan order must be 'auto', 'column' or 'row', not {order!r}")
    if order == "column":
        return tuple(sorted(cells, key=lambda cell: (places[cell][1], places[cell][0])))
    return tuple(sorted(cells, key=lambda cell: places[cell]))


# ----------------------------------------------------------------------------------------------
# pictures: cells as text, and back
# ----------------------------------------------------------------------------------------------
LAYER_BREAK = "-"
"""A line of only these characters separates the layers of a cubic picture."""


def picture(lattice: Lattice, labels: dict[Coord, str], *, across: bool = False, gap: int = 2) -> str:
    """A text picture: each cell's one-character label at its position, spaces elsewhere.

    In the plane the picture is moved to start at row 0 and column 0 (a triangular one keeps its
    triangles' directions, so it may start with an empty column). In space the layers come one
    under another separated by a ``-`` line, or with ``across`` side by side, ``gap`` spaces apart.
    """
    if not labels:
        return ""
    places = {position(lattice, cell): label for cell, label in labels.items()}
    if lattice.name == "cubic":
        layers = sorted({p[0] for p in places})
        r0 = min(p[1] for p in places)
        c0 = min(p[2] for p in places)
        height = 1 + max(p[1] for p in places) - r0
        width = 1 + max(p[2] for p in places) - c0
        blocks = []
        for layer in range(layers[0], layers[-1] + 1):
            rows = [[" "] * width for _ in range(height)]
            for (x, r, c), label in places.items():
                if x == layer:
                    rows[r - r0][c - c0] = label
            blocks.append(["".join(row) for row in rows])
        if across:
            return "\n".join((" " * gap).join(block[i] for block in blocks).rstrip() for i in range(height))
        layer_texts = ("\n".join(line.rstrip() for line in block).rstrip("\n") for block in blocks)
        return f"\n{LAYER_BREAK * max(2, width)}\n".join(layer_texts)
    r0 = min(p[0] for p in places)
    c0 = min(p[1] for p in places)
    if lattice.name == "triangular" and (r0 + c0) % 2:
        c0 -= 1  # keep the triangles' directions: up where row + col is even
    height = 1 + max(p[0] for p in places) - r0
    width = 1 + max(p[1] for p in places) - c0
    rows = [[" "] * width for _ in range(height)]
    for (r, c), label in places.items():
        rows[r - r0][c - c0] = label
    return "\n".join("".join(row).rstrip() for row in rows)


def read_picture(lattice: Lattice, text: str, *, cell: str = ".", empty: str = "# ", what: str = "picture") -> Form:
    """The cells of a text picture (``cell`` characters; ``empty`` ones and spaces are none), normalised.

    The layout is `picture`'s: on the triangular lattice the character in line r, column c is
    the triangle pointing up when r + c is even; on the hexagonal one the cells of a line sit
    two columns apart, each line shifted by one against the next (every cell's line + column
    has one parity); on the cubic one the layers are separated by lines of ``-`` (a layer's rows
    count from the line after its separator). A
    malformed picture is a ShapeError naming the line and column.
    """
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if lattice.name == "cubic":
        layers: list[list[tuple[int, str]]] = [[]]
        for number, line in enumerate(lines, start=1):
            if line.strip() and set(line.strip()) == {LAYER_BREAK}:
                layers.append([])
            else:
                layers[-1].append((number, line))
        found = []
        for x, layer in enumerate(layers):  # rows count from the line after the layer's separator
            for r, (number, line) in enumerate(layer):
                for c, ch in enumerate(line):
                    if ch in cell:
                        found.append((x, r, c))
                    elif ch not in empty and ch != " ":
                        raise ShapeError(
                            f"{what}, line {number}, column {c + 1}: unexpected {ch!r} (use {cell!r} for a cell)"
                        )
        if not found:
            raise ShapeError(f"{what} has no cell ({cell!r})")
        return lattice.normalise(found)
    spots = []
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch in cell:
                spots.append((r, c))
            elif ch not in empty and ch != " ":
                raise ShapeError(f"{what}, line {r + 1}, column {c + 1}: unexpected {ch!r} (use {cell!r} for a cell)")
    if not spots:
        raise ShapeError(f"{what} has no cell ({cell!r})")
    if lattice.name == "hexagonal":
        parity = (spots[0][1] - spots[0][0]) % 2
        for r, c in spots:
            if (c - r) % 2 != parity:
                raise ShapeError(
                    f"{what}, line {r + 1}, column {c + 1}: off the hexagonal grid (the cells of a line sit two columns"
                    " apart, each line shifted by one column against the one above)"
                )
        return lattice.normalise(_drawn(lattice, (r, c - parity)) for r, c in spots)
    return lattice.normalise(_drawn(lattice, spot) for spot in spots)


def _drawn(lattice: Lattice, pos: Coord) -> Coord:
    """The cell drawn at a picture's position (`cell_at`); ShapeError when none is (the parity check rules it out)."""
    cell = cell_at(lattice, pos)
    if cell is None:
        raise ShapeError(f"no cell of the {lattice.name} lattice is drawn at line {pos[0] + 1}, column {pos[1] + 1}")
    return cell
