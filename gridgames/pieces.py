"""Pieces and boards: the vocabulary every tiling solver shares (reference, fast engine, pentomino puzzles).

* `Piece`: a named `Shape`, how many copies may be used, and how it may turn
  (``kind``: "free" = rotations and reflections, "one-sided" = rotations only, "fixed" =
  as drawn). `Piece.orientations()` gives its distinct fixed orientations as `Shape`s.
* `as_pieces(...)` reads a piece description: a ``{name: Shape}`` mapping, `Shape`s,
  `Piece`s, or ``(name, orientations, count)`` tuples.
* `board_cells(board, order)`: the cells to cover in scan order -- the empty cells of a
  `Grid` (holes and filled cells are not part of the problem), or any iterable of cells;
  `short_side_order` is the default rule (scan along the shorter side).
* `colouring_allows(board, pieces)`: the checkerboard test (False proves there is no tiling).
* `is_tiling(board, pieces, solution)`: an independent checker of a solution.
* `LatticePiece`: a named polyform of another lattice (`gridgames.lattices`: triangles,
  hexagons, cubes), which the tiling engine takes with ``lattice=``; `is_lattice_tiling`
  checks its solutions.
"""

from __future__ import annotations

import functools
import math
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs
from attrs import field, frozen

from gridgames.errors import PuzzleError, ShapeError
from gridgames.game import Placement
from gridgames.grid import Cell, Grid
from gridgames.lattices import Form, Lattice, lattice_named
from gridgames.shapes import KINDS, Cells, Shape, normalise, scan_key

__all__ = [
    "LatticePiece",
    "Piece",
    "as_pieces",
    "board_cells",
    "colour_balance",
    "colouring_allows",
    "is_lattice_tiling",
    "is_tiling",
    "reachable_balances",
    "short_side_order",
]


def _check_name(_: Any, __: Any, name: str) -> None:  # checked: a plugin may pass anything
    if not isinstance(name, str) or not name:
        raise PuzzleError("every piece needs a non-empty name")


def _check_count(piece: Any, _: Any, count: object) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise PuzzleError(f"piece {piece.name!r}: a count must be a positive integer, got {count!r}")


def _check_kind(_: Any, __: Any, kind: object) -> None:
    if kind not in KINDS:
        raise PuzzleError(f"unknown piece kind {kind!r}; expected one of {', '.join(KINDS)}")


@frozen
class Piece:
    """A piece of a tiling puzzle: its name, shape, how many copies, and how it may turn (free, one-sided, fixed)."""

    name: str = field(validator=_check_name)
    shape: Shape
    count: int = field(default=1, validator=_check_count)
    kind: str = field(default="free", validator=_check_kind)

    @classmethod
    def of(cls, shape: Shape, count: int = 1, one_sided: bool = False, name: str | None = None) -> Piece:
        """A free piece from a `Shape` (one-sided when asked), named after the shape unless ``name`` is given."""
        return cls(name if name is not None else shape.name, shape, count, "one-sided" if one_sided else "free")

    @classmethod
    def from_orientations(cls, name: str, orientations: Iterable[Any], count: int = 1) -> Piece:
        """A piece from its fixed orientations (Shapes or cell lists): all of a shape's, its rotations, or one."""
        found: dict[Cells, None] = {}
        try:
            for orientation in orientations:
                found.setdefault(normalise(getattr(orientation, "cells", orientation)))
        except ShapeError as error:
            raise PuzzleError(f"piece {name!r}: {error}") from None
        if not found:
            raise PuzzleError(f"piece {name!r} has no orientations")
        sizes = {len(o) for o in found}
        if len(sizes) != 1:
            raise PuzzleError(f"piece {name!r}: orientations differ in size {sorted(sizes)}")
        # connected or not, as given
        shape = Shape(next(iter(found)), name if isinstance(name, str) else "")
        given = set(found)
        for kind in KINDS:
            piece = cls(name, shape, count, kind)
            if {o.cells for o in piece.orientations()} == given:
                return piece
        raise PuzzleError(f"piece {name!r}: orientations must be all of a shape's, its four rotations, or one")

    @property
    def size(self) -> int:
        """Cells of one copy."""
        return self.shape.size

    @property
    def area(self) -> int:
        """Cells of all its copies."""
        return self.shape.size * self.count

    def orientations(self, one_sided: bool = False) -> tuple[Shape, ...]:
        """The distinct fixed orientations it may take: itself first, then rotations, then mirror images."""
        if self.kind == "fixed":
            return (self.shape,)
        return self.shape.orientations(one_sided or self.kind == "one-sided")

    def with_count(self, count: int) -> Piece:
        """This piece with another number of copies."""
        return attrs.evolve(self, count=count)

    def renamed(self, name: str) -> Piece:
        """This piece under another name."""
        return attrs.evolve(self, name=name)


def as_pieces(pieces: Any, one_sided: bool = False) -> tuple[Piece, ...]:
    """Read a piece description ({name: Shape}, Shapes, Pieces or (name, orientations, count)); names must be unique.

    With ``one_sided``, free pieces may only turn, not flip over.
    """
    if isinstance(pieces, Mapping):
        items = [Piece.of(shape, name=name) for name, shape in pieces.items()]
    else:
        items = []
        for item in pieces:
            if isinstance(item, Piece):
                items.append(item)
            elif isinstance(item, Shape):
                items.append(Piece.of(item))
            elif isinstance(item, tuple) and len(item) in (2, 3) and isinstance(item[0], str):
                items.append(Piece.from_orientations(item[0], item[1], item[2] if len(item) == 3 else 1))
            else:
                raise PuzzleError(
                    f"cannot read a piece from {item!r}: expected a Shape, a Piece or (name, orientations, count)"
                )
    if not items:
        raise PuzzleError("the piece set is empty")
    dup = [n for n, k in Counter(p.name for p in items).items() if k > 1]
    if dup:
        raise PuzzleError(f"piece names must be unique; repeated: {', '.join(dup)} (use a count instead)")
    if one_sided:
        items = [attrs.evolve(p, kind="one-sided") if p.kind == "free" else p for p in items]
    return tuple(items)


def _lattice_name(_: Any, __: Any, name: str) -> None:
    lattice_named(name)  # raises ShapeError for an unknown one


def _sorted_coords(cells: Iterable[Iterable[int]]) -> Form:
    return tuple(sorted(tuple(int(v) for v in c) for c in cells))


@frozen
class LatticePiece:
    """A piece on another lattice: its name, its cells (lattice coordinates), copies, and how it may turn.

    ``kind``: "free" (rotations and reflections of the lattice), "one-sided" (rotations only:
    what a solid piece can do in space) or "fixed" (as given). The lattice is kept by name,
    so pieces pickle.
    """

    name: str = field(validator=_check_name)
    lattice: str = field(validator=_lattice_name)
    cells: Form = field(converter=_sorted_coords)
    count: int = field(default=1, validator=_check_count)
    kind: str = field(default="free", validator=_check_kind)

    @classmethod
    def of(
        cls, lattice: Lattice | str, cells: Iterable[tuple[int, ...]], name: str, count: int = 1, kind: str = "free"
    ) -> LatticePiece:
        """A piece from cells of a lattice (moved to the lattice's canonical position)."""
        grid = lattice_named(lattice)
        cells = list(cells)
        if not cells:
            raise PuzzleError(f"piece {name!r} has no cells")
        return cls(name, grid.name, grid.normalise(cells), count, kind)

    @property
    def size(self) -> int:
        """Cells of one copy."""
        return len(self.cells)

    @property
    def area(self) -> int:
        """Cells of all its copies."""
        return len(self.cells) * self.count

    def orientations(self, one_sided: bool = False) -> tuple[Form, ...]:
        """The distinct fixed orientations it may take (normalised cell tuples), itself first."""
        grid = lattice_named(self.lattice)
        own = grid.normalise(self.cells)
        if self.kind == "fixed":
            return (own,)
        found = grid.orientations(self.cells, "one-sided" if one_sided or self.kind == "one-sided" else "free")
        return (own, *(o for o in found if o != own))

    def with_count(self, count: int) -> LatticePiece:
        """This piece with another number of copies."""
        return attrs.evolve(self, count=count)

    def renamed(self, name: str) -> LatticePiece:
        """This piece under another name."""
        return attrs.evolve(self, name=name)


def is_lattice_tiling(
    lattice: Lattice | str,
    board: Iterable[tuple[int, ...]],
    pieces: Iterable[LatticePiece],
    solution: Iterable[Placement],
) -> bool:
    """True when the placements cover every board cell once, respect piece counts, and are orientations of their
    pieces."""
    grid = lattice_named(lattice)
    by_name = {p.name: p for p in pieces}
    allowed = {name: set(p.orientations()) for name, p in by_name.items()}
    return _covers_once(
        {tuple(c) for c in board},
        by_name,
        allowed,
        solution,
        lambda placed: tuple(tuple(int(v) for v in c) for c in placed),
        grid.normalise,
    )


def short_side_order(cells: Iterable[Cell]) -> str:
    """The scan order along the shorter side of the cells' bounding box ("column" when it is at most as tall as
    wide)."""
    cells = list(cells)
    height = 1 + max(r for r, _ in cells) - min(r for r, _ in cells)
    width = 1 + max(c for _, c in cells) - min(c for _, c in cells)
    return "column" if height <= width else "row"


def board_cells(board: Grid | Iterable[Cell], order: str = "column") -> Cells:
    """The cells to cover, in scan order: a Grid's empty cells, or the given cells."""
    if isinstance(board, Grid):
        cells = [(int(r), int(c)) for r, c in zip(*(board.cells == 0).nonzero())]
    else:
        cells = [(int(r), int(c)) for r, c in board]
        if len(set(cells)) != len(cells):
            raise PuzzleError("the board lists a cell twice")
    if not cells:
        raise PuzzleError("the board has no empty cell to cover")
    try:
        key = scan_key(order)
    except ShapeError as error:
        raise PuzzleError(str(error)) from None
    return tuple(sorted(cells, key=key))


def colour_balance(cells: Iterable[tuple[int, ...]]) -> int:
    """Dark minus light cells on a checkerboard whose dark cells have an even coordinate sum (row + col even).

    On the other lattices' coordinates the same rule colours cubes as a 3D checkerboard and
    triangles by pointing down (dark) or up; every hexagon is dark, so there it only counts cells.
    """
    return sum(1 if sum(cell) % 2 == 0 else -1 for cell in cells)


REACH_WORK = 50_000_000
"""The most machine words `colouring_allows` may shift for the exact test (about 0.1 s); beyond it the test is the
weaker one of `_balance_range_allows` (never wrong: it only proves less), so the pre-check is bounded by size."""


def _sums(choices: Iterable[tuple[Iterable[int], int]], work: int | None) -> tuple[int, int] | None:
    """The totals of `reachable_balances` as a bit set: (its lowest total, bits from it), or None past ``work`` words.

    Each copy adds one of its balances: the set shifted by each, OR-ed (Python's integers are the bit sets). A piece
    with one balance, or two (b and -b: a flipped piece), adds all its copies at once by doubling, so a million
    monominoes take about 20 shifts instead of a million; others take their copies one by one."""
    low, bits, spent = 0, 1, 0
    for balances, copies in choices:
        values = sorted({int(v) for v in balances})
        copies = int(copies)
        if copies <= 0:
            continue
        if not values:  # a piece that fits nowhere: no total at all
            return 0, 0
        base = values[0]
        steps = [v - base for v in values]
        low += base * copies
        if len(steps) == 1:
            continue
        if len(steps) == 2:  # copies of {0, d}: every multiple k*d for k in 0..copies, by doubling
            bits = _add_progression(bits, steps[1], copies)
            spent += 2 * copies.bit_length() * (bits.bit_length() // 64 + 1)
        else:
            for _ in range(copies):
                spent += len(steps) * (bits.bit_length() // 64 + 1)
                if work is not None and spent > work:
                    return None
                bits = functools.reduce(operator.or_, (bits << d for d in steps))
        if work is not None and spent > work:
            return None
    return low, bits


def _add_progression(bits: int, step: int, copies: int) -> int:
    """The bit set plus {0, step, ..., copies*step}: OR of ``bits << k*step`` for k = 0..copies, in O(log copies)
    shifts."""
    result, terms = bits, 1  # result = bits + {0, ..., (terms - 1) * step}
    # build terms up to copies + 1 from its binary digits, most significant first
    for digit in bin(copies + 1)[3:]:
        result |= result << (terms * step)
        terms *= 2
        if digit == "1":
            result |= bits << (terms * step)
            terms += 1
    return result


def reachable_balances(choices: Iterable[tuple[Iterable[int], int]]) -> set[int]:
    """Every total of picking, for each (balances, copies), one of the balances per copy."""
    found = _sums(choices, None)  # without a work bound it always answers
    assert found is not None
    low, bits = found
    return {low + i for i, bit in enumerate(reversed(bin(bits)[2:])) if bit == "1"} if bits else set()


def _balance_range_allows(board_balance: int, pieces: list[tuple[list[int], int]]) -> bool:
    """A necessary condition of `colouring_allows` in linear time: the balance lies between the least and greatest
    totals, in their residue class modulo the gcd of every difference of a piece's balances."""
    low = high = 0
    step = 0
    for values, copies in pieces:
        if copies > 0 and not values:
            return False
        if values and copies > 0:
            low += min(values) * copies
            high += max(values) * copies
            for v in values:
                step = math.gcd(step, v - min(values))
    if not low <= board_balance <= high:
        return False
    return step == 0 and board_balance == low or step > 0 and (board_balance - low) % step == 0


def colouring_allows(
    board_balance: int, pieces: Iterable[tuple[Iterable[int], int]], *, work: int = REACH_WORK
) -> bool:
    """The checkerboard test: can copies of pieces with these balances (balances, copies) match the board's balance?

    A piece's balance is that of its cells (`colour_balance`) on the board, so ± that of its
    shape; False proves that no tiling using every copy exists. Bounded by size: past ``work`` machine words
    of shifting it answers the weaker range-and-residue test (a True that proves nothing, never a wrong False).
    """
    listed = [(sorted({int(v) for v in values}), int(copies)) for values, copies in pieces]
    if not _balance_range_allows(board_balance, listed):
        return False
    found = _sums(listed, work)
    if found is None:
        return True
    low, bits = found
    return board_balance >= low and bool(bits >> (board_balance - low) & 1)


def is_tiling(board: Grid | Iterable[Cell], pieces: Any, solution: Iterable[Placement]) -> bool:
    """True when the placements cover every board cell once, respect piece counts, and use allowed orientations."""
    by_name = {p.name: p for p in as_pieces(pieces)}
    allowed = {name: {o.cells for o in p.orientations()} for name, p in by_name.items()}
    return _covers_once(
        set(board_cells(board)),
        by_name,
        allowed,
        solution,
        lambda placed: tuple((int(r), int(c)) for r, c in placed),
        normalise,
    )


def _covers_once(
    cells: set[Any],
    by_name: dict[str, Any],
    allowed: dict[str, set[Any]],
    solution: Iterable[Placement],
    convert: Callable[[Any], tuple[Any, ...]],
    normal: Callable[[Any], Any],
) -> bool:
    """The check of `is_tiling` and `is_lattice_tiling`: every placement a known piece within its count, its cells
    (``convert``-ed) distinct and, ``normal``-ised, an allowed orientation; no cell covered twice; all covered."""
    used: Counter[str] = Counter()
    covered: set[Any] = set()
    for piece, placed in solution:
        if piece not in by_name:
            return False
        used[piece] += 1
        if used[piece] > by_name[piece].count:
            return False
        placed = convert(placed)
        if len(set(placed)) != len(placed) or normal(placed) not in allowed[piece]:
            return False
        if not covered.isdisjoint(placed):
            return False
        covered.update(placed)
    return covered == cells
