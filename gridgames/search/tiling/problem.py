"""Compiling a tiling problem: board cells in bit order, pieces, and every placement (option) as arrays.

`TilingProblem.build(board, pieces)` lists every placement of every orientation of
every piece on the board, and lays them out for the kernels: option masks, the
candidate lists of first-blank search (options by anchor cell) and of MRV search
(options by column), neighbour tables and deadlines; boards of at most 64 cells (and
at most 64 pieces) also get the one-word kernel's probe table (`one_word.OneWordArrays`). Those are
built by compiled loops (`kernel_build`: placements of a square board, layout, tables); larger
problems by numpy (all translations of the orientations of one size at once, `lexsort`s), with
the same arrays. A piece's orientations are kept from one board to the next.

``lattice=`` (a `gridgames.lattices.Lattice` or its name) builds a problem on the triangular,
hexagonal or cubic lattice: the board is then cells in that lattice's coordinates and the
pieces are `gridgames.pieces.LatticePiece`s; the cells go to bits in the lattice's scan order
(`gridgames.lattices.scan_sorted`), and the kernels search it as they search a square board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

import functools

import attrs
import numpy as np
from attrs import field, frozen

from gridgames.errors import PuzzleError, SolverError
from gridgames.game import Placement, Solution
from gridgames.grid import ALPHABET, Cell, Grid
from gridgames.lattices import AXIS_ORDERS, Coord, Lattice, lattice_named, scan_sorted, translation
from gridgames.parsing import check_memory
from gridgames.pieces import LatticePiece, Piece, as_pieces, board_cells, short_side_order
from gridgames.search.tiling import kernels
from gridgames.search.tiling.one_word import MAX_TABLE, PROBE_BITS, OneWordArrays
from gridgames.shapes import ORDERS, Shape


def prune_cap(sizes: Iterable[int]) -> int:
    """Largest enclosed region the pruning test flood-fills: below the piece size, or twice the largest of mixed
    sizes."""
    sizes = {int(s) for s in sizes}
    return min(63, max(sizes) - 1 if len(sizes) == 1 else 2 * max(sizes))


def run_ends(keys: np.ndarray) -> np.ndarray:
    """For each position, the end of the run of equal keys it belongs to."""
    keys = np.asarray(keys)
    if not len(keys):
        return np.zeros(0, dtype=np.int32)
    ends = np.append(np.flatnonzero(keys[1:] != keys[:-1]) + 1, len(keys)).astype(np.int32)
    return np.repeat(ends, np.diff(ends, prepend=0))


SCAN_ORDERS = (*ORDERS, "diagonal")
"""Scan orders of square boards: down each column, along each row, or along the diagonals (r + c, then r)."""


def _pick_order(cells: Sequence[Cell], order: str) -> str:
    """The scan order: "column", "row" or "diagonal" as given, or "auto" = along the shorter side
    (`short_side_order`)."""
    if order in SCAN_ORDERS:
        return order
    if order != "auto":
        raise PuzzleError(f"scan order must be 'auto', 'column', 'row' or 'diagonal', not {order!r}")
    return short_side_order(cells)


def _scan_sorted(cells: Iterable[Cell], order: str) -> tuple[Cell, ...]:
    """Square cells in a scan order of `SCAN_ORDERS`."""
    if order == "diagonal":
        return tuple(sorted(cells, key=lambda rc: (rc[0] + rc[1], rc[0])))
    return board_cells(list(cells), order)


def one_word_arrays(problem: TilingProblem) -> OneWordArrays:
    """The one-word kernel's arrays of a problem of at most 64 cells and 64 pieces."""
    n = problem.n_cells
    masks = np.ascontiguousarray(problem.option_masks[:, 0])
    piece = problem.option_piece
    probe = min(PROBE_BITS, n)
    while kernels.probe_size(masks, problem.anchor_start, probe) > MAX_TABLE and probe > 1:
        probe -= 2
    blank_start, blank_option, blank_run_end, blank_mask, blank_piece = kernels.probe_entries(
        masks, piece, problem.anchor_start, probe
    )
    mrv_option = problem.column_options
    neighbours, border, late = kernels.one_word_tables(
        masks, problem.option_cell_rows, problem.neighbour_list, problem.deadline_piece, problem.deadline_anchor
    )
    sizes = set(problem.sizes.tolist())
    regions = np.uint64(sum(1 << k for k in range(0, 64, sizes.pop()))) if len(sizes) == 1 else np.uint64(0)
    return OneWordArrays(
        probe,
        blank_start,
        blank_mask,
        blank_piece,
        blank_run_end,
        blank_option,
        masks[mrv_option],
        piece[mrv_option].astype(np.uint8),
        problem.column_run_end,
        mrv_option,
        masks,
        neighbours,
        border,
        late,
        regions,
    )


def _placement_rows(
    cells: Sequence[Cell], shapes: Sequence[Sequence[Sequence[Cell]]], lattice: Lattice | None
) -> tuple[np.ndarray, np.ndarray]:
    """Every translation of every orientation (``shapes[p]``: piece p's, as cell tuples) that lies on the board:
    piece indices and cell-index rows (-1 padded), computed for all translations of the orientations of one size at
    once.

    A translation carries the orientation's first cell onto a board cell; on a lattice where only some
    translations exist (triangles: up onto up), ``gridgames.lattices.translation`` says which.
    """
    coords = np.array(cells, dtype=np.int64).reshape(len(cells), -1)
    low = coords.min(axis=0)
    extent = coords.max(axis=0) - low + 1
    dense = np.full(tuple(extent.tolist()), -1, dtype=np.int64)
    dense[tuple((coords - low).T)] = np.arange(len(cells))
    if lattice is None and coords.shape[1] == 2:  # square: compiled, all forms at once
        square_forms, square_sizes, square_owners = _square_forms(tuple(tuple(forms) for forms in shapes))
        placed_pieces: tuple[np.ndarray, np.ndarray] = kernels.place(
            coords, low, extent, dense.reshape(-1), square_forms, square_sizes, square_owners
        )
        return placed_pieces
    width = max(len(o) for forms in shapes for o in forms)
    by_size: dict[int, tuple[list[int], list[Sequence[Cell]]]] = {}
    for p, forms in enumerate(shapes):
        for form in forms:
            owners, group = by_size.setdefault(len(form), ([], []))
            owners.append(p)
            group.append(form)
    pieces_out, rows_out = [], []
    for size, (owners, group) in sorted(by_size.items()):
        # (forms, size, dims)
        stacked = np.array(group, dtype=np.int64).reshape(len(group), size, -1)
        # (forms, anchors, dims): first cell onto each board cell
        shifts = coords[None, :, :] - stacked[:, None, 0, :]
        # (forms, anchors, size, dims)
        placed = stacked[:, None, :, :] + shifts[:, :, None, :] - low
        inside = ((placed >= 0) & (placed < extent)).all(axis=3)
        idx = np.where(inside, dense[tuple(np.moveaxis(np.clip(placed, 0, extent - 1), 3, 0))], -1)
        fits = (idx >= 0).all(axis=2)
        if lattice is not None and lattice.name != "square":
            allowed = np.array(
                [[translation(lattice, tuple(form[0]), cell) is not None for cell in cells] for form in group]
            )
            fits &= allowed
        form_of, _ = np.nonzero(fits)
        rows = np.full((len(form_of), width), -1, dtype=np.int64)
        rows[:, :size] = idx[fits]
        rows_out.append(rows)
        pieces_out.append(np.array(owners, dtype=np.int64)[form_of])
    return np.concatenate(pieces_out), np.concatenate(rows_out)


def _piece_facts(pieces: tuple[Piece, ...], n_cells: int) -> tuple[np.ndarray, np.ndarray, bool, int]:
    """Copies and sizes of the pieces (int64), whether their area is the board's, and the most placements a solution
    can have."""
    counts = np.array([p.count for p in pieces], dtype=np.int64)
    sizes = np.array([p.size for p in pieces], dtype=np.int64)
    fit = sum(min(p.count, n_cells // p.size) for p in pieces)
    return counts, sizes, int((counts * sizes).sum()) == n_cells, min(fit, n_cells // int(sizes.min()))


@functools.lru_cache(maxsize=64)
def _square_forms(shapes: tuple[tuple[tuple[Cell, ...], ...], ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The orientations of each piece (``shapes[p]``) as one array for `kernel_build.place`: (forms, size, 2) cells,
    -1 padded, with each form's size and piece (board-independent, so kept for the next board with these pieces)."""
    flat = [(p, form) for p, forms in enumerate(shapes) for form in forms]
    width = max(len(form) for _, form in flat)
    cells = np.full((len(flat), width, 2), -1, dtype=np.int64)
    for f, (_, form) in enumerate(flat):
        cells[f, : len(form)] = form
    return (
        cells,
        np.array([len(form) for _, form in flat], dtype=np.int64),
        np.array([p for p, _ in flat], dtype=np.int64),
    )


def _orientation_cells(piece: Piece) -> tuple[tuple[Cell, ...], ...]:
    """A square piece's orientations as cell tuples (board-independent: computed once per shape and kind)."""
    return _orientations_of(piece.shape.cells, piece.kind)


@functools.lru_cache(maxsize=256)
def _orientations_of(cells: tuple[Cell, ...], kind: str) -> tuple[tuple[Cell, ...], ...]:
    """The fixed orientations' cell tuples of a shape's cells as a piece of that kind turns (`Piece.orientations`)."""
    return tuple(o.cells for o in Piece("piece", Shape(cells), 1, kind).orientations())


def _neighbour_list(cells: tuple[Cell, ...], lattice: str) -> np.ndarray:
    """(cells, 4 or more) int32: each cell's neighbours on the board (cell indices), -1 padded."""
    n = len(cells)
    if lattice == "square":
        neighbours: np.ndarray = kernels.square_neighbours(np.array(cells, dtype=np.int64).reshape(n, 2))
        return neighbours
    index = {cell: i for i, cell in enumerate(cells)}
    grid = lattice_named(lattice)
    neighbour_list = np.full((n, max(4, len(grid.neighbours(cells[0])))), -1, dtype=np.int32)
    for i, cell in enumerate(cells):
        near = [index[x] for x in grid.neighbours(cell) if x in index]
        neighbour_list[i, : len(near)] = near
    return neighbour_list


@frozen(eq=False, getstate_setstate=False)
class TilingProblem:
    """A compiled tiling problem: board cells in bit order, pieces, and every placement (option) as arrays."""

    cells: tuple[Cell, ...]
    order: str
    pieces: tuple[Piece, ...]
    option_piece: np.ndarray = field(repr=False)  # int32 (options,): piece index of each option
    # int32 (options, max size): cell indices, ascending, -1 padded
    option_cell_rows: np.ndarray = field(repr=False)
    option_masks: np.ndarray = field(repr=False)  # uint64 (options, words)
    first_word: np.ndarray = field(repr=False)  # int32 (options,): first word an option touches
    last_word: np.ndarray = field(repr=False)  # int32 (options,): last word an option touches
    # int32 (options,): end of the option's (anchor cell, piece) run
    run_end: np.ndarray = field(repr=False)
    anchor_start: np.ndarray = field(repr=False)  # int32 (cells + 1): options whose first cell is c
    # int32 (cells + pieces + 1): MRV columns' ranges in column_options
    column_start: np.ndarray = field(repr=False)
    # int32: options covering each cell (by piece), then of each piece
    column_options: np.ndarray = field(repr=False)
    # int32: end of each position's (column, piece) run
    column_run_end: np.ndarray = field(repr=False)
    # int32 (cells, 4): neighbour cell indices, -1 padded
    neighbour_list: np.ndarray = field(repr=False)
    # int64: pieces by their last anchor cell (empty unless all must be used)
    deadline_piece: np.ndarray = field(repr=False)
    # int64: the last anchor cell of each of those pieces
    deadline_anchor: np.ndarray = field(repr=False)
    # the one-word kernel's arrays, when it applies
    one_word: OneWordArrays | None = field(default=None, repr=False)
    # the cells' lattice (gridgames.lattices): square, triangular, hexagonal or cubic
    lattice: str = "square"
    # cache of placement()
    _placements: dict[int, Placement] = field(factory=dict, init=False, repr=False)
    # cache of `_piece_facts`
    _facts: tuple[np.ndarray, np.ndarray, bool, int] | None = field(default=None, init=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle every field but the caches."""
        return {
            a.name: getattr(self, a.name) for a in attrs.fields(type(self)) if a.name not in ("_placements", "_facts")
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore the fields, with empty caches."""
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_placements", {})
        object.__setattr__(self, "_facts", None)

    # --- construction ---------------------------------------------------
    @classmethod
    def build(
        cls,
        board: Grid | Iterable[Cell] | Iterable[Coord],
        pieces: Any,
        order: str = "auto",
        one_sided: bool = False,
        *,
        lattice: Lattice | str | None = None,
    ) -> TilingProblem:
        """Compile a board (a Grid's empty cells, or cells) and pieces (anything `as_pieces` reads), or with
        ``lattice``, a board of that lattice's cells and `LatticePiece`s."""
        if lattice is not None and lattice_named(lattice).name != "square":
            if isinstance(board, Grid):
                raise PuzzleError(
                    f"a board on the {lattice_named(lattice).name} lattice is a list of its cells, not a Grid"
                )
            return cls._build_lattice(lattice_named(lattice), board, pieces, order, one_sided)
        # the square lattice's cells: (row, col) pairs
        raw = board_cells(cast("Grid | Iterable[Cell]", board))
        order = _pick_order(raw, order)
        cells = _scan_sorted(raw, order)
        items = as_pieces(pieces, one_sided=one_sided)
        shapes = [_orientation_cells(piece) for piece in items]
        return cls._compile(cells, order, items, *_placement_rows(cells, shapes, None))

    @classmethod
    def _build_lattice(
        cls, lattice: Lattice, board: Iterable[Coord], pieces: Any, order: str, one_sided: bool
    ) -> TilingProblem:
        """`build` on the triangular, hexagonal or cubic lattice: lattice cells and `LatticePiece`s."""
        raw = [tuple(int(v) for v in cell) for cell in board]
        if not raw:
            raise PuzzleError("the board has no cell to cover")
        if len(set(raw)) != len(raw):
            raise PuzzleError("the board lists a cell twice")
        try:
            cells = scan_sorted(lattice, raw, order)
        except ValueError as error:
            raise PuzzleError(str(error)) from None
        items = tuple(pieces)
        if not items or not all(isinstance(p, LatticePiece) for p in items):
            raise PuzzleError(f"pieces on the {lattice.name} lattice must be LatticePieces (gridgames.pieces)")
        wrong = [p.name for p in items if p.lattice != lattice.name]
        if wrong:
            raise PuzzleError(f"pieces {', '.join(wrong)} are not on the {lattice.name} lattice")
        if len({p.name for p in items}) != len(items):
            raise PuzzleError("piece names must be unique (use a count instead)")
        if one_sided:
            items = tuple(attrs.evolve(p, kind="one-sided") if p.kind == "free" else p for p in items)
        # a lattice's coordinates (any length) kept where the square lattice keeps (row, col) pairs
        lattice_cells = cast("tuple[Cell, ...]", cells)
        shapes = [cast("list[tuple[Cell, ...]]", list(piece.orientations())) for piece in items]
        piece_of, rows = _placement_rows(lattice_cells, shapes, lattice)
        return cls._compile(
            lattice_cells, "lattice" if order == "auto" else order, items, piece_of, rows, lattice=lattice.name
        )

    @classmethod
    def from_options(
        cls,
        cells: Sequence[Cell],
        order: str,
        pieces: Sequence[Piece],
        options: Iterable[tuple[int, Sequence[int]]],
        *,
        lattice: str = "square",
    ) -> TilingProblem:
        """Compile explicit options: (piece index, cell indices) pairs over ``cells`` (already in bit order)."""
        listed = [(int(p), [int(c) for c in cs]) for p, cs in options]
        width = max((len(cs) for _, cs in listed), default=1)
        rows = np.full((len(listed), width), -1, dtype=np.int64)
        for o, (_, cs) in enumerate(listed):
            rows[o, : len(cs)] = cs
        piece_of = np.array([p for p, _ in listed], dtype=np.int64)
        return cls._compile(tuple(cells), order, tuple(pieces), piece_of, rows, lattice=lattice)

    @classmethod
    def _compile(
        cls,
        cells: Sequence[Cell],
        order: str,
        pieces: Sequence[Piece],
        piece_of: np.ndarray,
        rows: np.ndarray,
        *,
        lattice: str = "square",
    ) -> TilingProblem:
        """Compile options given as arrays: piece indices, and cell-index rows padded with -1 (any order, repeats
        allowed).

        The options are sorted by (first cell, piece, cells) and repeats dropped, as the kernels want them: compiled
        (`kernel_build.layout`) on one word, else by numpy.
        """
        cells = tuple(cells)
        n = len(cells)
        pieces = tuple(pieces)
        if not len(piece_of):
            raise PuzzleError("no piece fits anywhere on the board")
        # the options' bit masks, sorted and copied: refused in one line when they cannot fit (1,000 distinct dominoes
        # on 20x100, 3.9 million placements: 2.2 GB at its peak, estimated 2.6)
        check_memory(
            20 * len(piece_of) * ((n + 63) // 64 + rows.shape[1]),
            what=f"{len(piece_of):,} placements on {n:,} cells",
            error=PuzzleError,
        )
        if n <= 64 and len(pieces) <= 64:
            laid = kernels.layout(
                np.asarray(piece_of, dtype=np.int64), np.asarray(rows, dtype=np.int64), n, len(pieces)
            )
            if laid[0]:
                return cls._assemble(cells, order, pieces, laid[1:], lattice)
        rows = np.sort(np.where(rows < 0, n, rows), axis=1)  # each row ascending, padding (n) last
        rows = rows[:, : int((rows < n).sum(axis=1).max())]
        rows = np.where(rows >= n, -1, rows)
        keys = [rows[:, j] for j in range(rows.shape[1] - 1, 0, -1)] + [piece_of, rows[:, 0]]
        # by first cell, piece, then the cells (padding -1 before any cell, as tuples)
        ordered = np.lexsort(keys)
        rows, piece_of = rows[ordered], piece_of[ordered]
        fresh = np.ones(len(rows), dtype=bool)
        fresh[1:] = (rows[1:] != rows[:-1]).any(axis=1) | (piece_of[1:] != piece_of[:-1])
        rows, piece_of = rows[fresh], piece_of[fresh]
        words = (n + 63) // 64
        n_opt = len(rows)
        option_piece = piece_of.astype(np.int32)
        option_cell_rows = rows.astype(np.int32)
        valid = rows >= 0
        bits = np.left_shift(np.uint64(1), (np.maximum(rows, 0) & 63).astype(np.uint64))
        masks = np.zeros((n_opt, words), dtype=np.uint64)
        for w in range(words):
            masks[:, w] = np.bitwise_or.reduce(np.where(valid & (rows >> 6 == w), bits, np.uint64(0)), axis=1)
        first_word = (option_cell_rows[:, 0] >> 6).astype(np.int32)
        last_word = (option_cell_rows.max(axis=1) >> 6).astype(np.int32)
        anchors = option_cell_rows[:, 0].astype(np.int64)
        run_end = run_ends(anchors * len(pieces) + option_piece)
        anchor_start = np.searchsorted(anchors, np.arange(n + 1)).astype(np.int32)
        # MRV columns: each cell (options covering it, by piece), then each piece (its options).
        option_ids = np.broadcast_to(np.arange(n_opt)[:, None], rows.shape)[valid]
        column_of = np.concatenate([rows[valid], n + piece_of])
        option_of = np.concatenate([option_ids, np.arange(n_opt)])
        by_column = np.lexsort((option_of, piece_of[option_of], column_of))
        column_options = option_of[by_column].astype(np.int32)
        n_columns = n + len(pieces)
        column_start = np.zeros(n_columns + 1, dtype=np.int32)
        column_start[1:] = np.cumsum(np.bincount(column_of, minlength=n_columns))
        column_run_end = run_ends(column_of[by_column] * len(pieces) + option_piece[column_options])
        neighbour_list = _neighbour_list(cells, lattice)
        if sum(p.area for p in pieces) == n:  # every copy must be used: deadlines apply
            last = np.full(len(pieces), -1, dtype=np.int64)
            np.maximum.at(last, option_piece, anchors)
            deadline_piece = np.argsort(last, kind="stable").astype(np.int64)
            deadline_anchor = last[deadline_piece]
        else:
            deadline_piece = deadline_anchor = np.zeros(0, dtype=np.int64)
        problem = cls(
            cells,
            order,
            pieces,
            option_piece,
            option_cell_rows,
            masks,
            first_word,
            last_word,
            run_end,
            anchor_start,
            column_start,
            column_options,
            column_run_end,
            neighbour_list,
            deadline_piece,
            deadline_anchor,
            lattice=lattice,
        )
        if words == 1 and len(pieces) <= 64:
            object.__setattr__(problem, "one_word", one_word_arrays(problem))
        return problem

    @classmethod
    def _assemble(
        cls, cells: tuple[Cell, ...], order: str, pieces: tuple[Piece, ...], laid: tuple[Any, ...], lattice: str
    ) -> TilingProblem:
        """A one-word problem from `kernel_build.layout`'s arrays (the same arrays as `_compile`'s numpy
        construction)."""
        (
            option_piece,
            option_cell_rows,
            masks,
            run_end,
            anchor_start,
            column_start,
            column_options,
            column_run_end,
            last,
        ) = laid
        n_opt = len(option_piece)
        if sum(p.area for p in pieces) == len(cells):  # every copy must be used: deadlines apply
            deadline_piece = np.argsort(last, kind="stable").astype(np.int64)
            deadline_anchor = last[deadline_piece]
        else:
            deadline_piece = deadline_anchor = np.zeros(0, dtype=np.int64)
        zeros = np.zeros(n_opt, dtype=np.int32)
        problem = cls(
            cells,
            order,
            pieces,
            option_piece,
            option_cell_rows,
            masks,
            zeros,
            zeros.copy(),
            run_end,
            anchor_start,
            column_start,
            column_options,
            column_run_end,
            _neighbour_list(cells, lattice),
            deadline_piece,
            deadline_anchor,
            lattice=lattice,
        )
        object.__setattr__(problem, "one_word", one_word_arrays(problem))
        return problem

    def restrict(self, keep: Iterable[int]) -> TilingProblem:
        """The same problem with only the given options (indices into this problem)."""
        # (not np.unique: it imports numpy.ma)
        keep = np.array(sorted({int(o) for o in keep}), dtype=np.int64)
        return TilingProblem._compile(
            self.cells,
            self.order,
            self.pieces,
            self.option_piece[keep].astype(np.int64),
            self.option_cell_rows[keep].astype(np.int64),
            lattice=self.lattice,
        )

    def reordered(self, order: str) -> TilingProblem:
        """The same problem with its cells (bits) in another scan order (square boards: `SCAN_ORDERS`; cubic ones:
        `gridgames.lattices.AXIS_ORDERS`), which changes the first blank cell of the search and so the size of its
        tree, not the solutions."""
        if self.lattice == "cubic" and order in AXIS_ORDERS:
            cells = cast("tuple[Cell, ...]", scan_sorted(lattice_named("cubic"), self.cells, order))
        elif self.lattice != "square":
            raise PuzzleError(f"scan orders of a {self.lattice} board are not chosen after building")
        else:
            cells = _scan_sorted(self.cells, _pick_order(self.cells, order))
        index = {cell: i for i, cell in enumerate(cells)}
        # old bit -> new bit; -1 stays
        moved = np.array([index[cell] for cell in self.cells] + [-1], dtype=np.int64)
        return TilingProblem._compile(
            cells,
            order,
            self.pieces,
            self.option_piece.astype(np.int64),
            moved[self.option_cell_rows],
            lattice=self.lattice,
        )

    # --- properties -------------------------------------------------------
    @property
    def n_cells(self) -> int:
        """Number of cells to cover."""
        return len(self.cells)

    @property
    def n_options(self) -> int:
        """Number of placements of all pieces."""
        return len(self.option_piece)

    @property
    def words(self) -> int:
        """Number of 64-bit words of a board mask."""
        return int(self.option_masks.shape[1])

    @property
    def piece_names(self) -> tuple[str, ...]:
        """Piece names, in piece index order."""
        return tuple(p.name for p in self.pieces)

    def _piece_facts(self) -> tuple[np.ndarray, np.ndarray, bool, int]:
        """`_piece_facts` of this problem's pieces, computed once (every search asks for them)."""
        if self._facts is None:
            object.__setattr__(self, "_facts", _piece_facts(self.pieces, self.n_cells))
        return self._facts  # type: ignore[return-value]

    @property
    def counts(self) -> np.ndarray:
        """Copies available of each piece (int64)."""
        return self._piece_facts()[0].copy()

    @property
    def sizes(self) -> np.ndarray:
        """Cells of each piece (int64)."""
        return self._piece_facts()[1].copy()

    @property
    def exact(self) -> bool:
        """True when the pieces' total area equals the board's, so every copy must be used."""
        return self._piece_facts()[2]

    @property
    def max_depth(self) -> int:
        """An upper bound on the number of placements in a solution."""
        return self._piece_facts()[3]

    # --- options and solutions -------------------------------------------
    def option_cells(self, option: int) -> tuple[int, ...]:
        """The cell indices of an option."""
        row = self.option_cell_rows[option]
        return tuple(int(c) for c in row[row >= 0])

    def placement(self, option: int) -> Placement:
        """The placement of an option: piece name and board cells."""
        found = self._placements.get(option)
        if found is None:
            cells = tuple(sorted(self.cells[c] for c in self.option_cells(option)))
            found = self._placements[option] = Placement(self.pieces[int(self.option_piece[option])].name, cells)
        return found

    def option_index(self, placement: Placement | tuple[str, Iterable[Cell]]) -> int:
        """The option of a placement; SolverError when that piece cannot go there."""
        name, cells = placement
        index = {cell: i for i, cell in enumerate(self.cells)}
        try:
            wanted = tuple(sorted(index[cast(Cell, tuple(int(v) for v in cell))] for cell in cells))
            p = self.piece_names.index(name)
        except (KeyError, ValueError):
            raise SolverError(f"placement of {name!r} on {list(cells)} is not on this board or not a piece") from None
        for o in range(self.anchor_start[wanted[0]], self.anchor_start[wanted[0] + 1]):
            if self.option_piece[o] == p and self.option_cells(o) == wanted:
                return o
        raise SolverError(f"piece {name!r} has no placement covering exactly {sorted(cells)}")

    def solution(self, options: Iterable[int]) -> Solution:
        """The solution made of these options."""
        return tuple(self.placement(o) for o in options)

    def paint(self, solution: Iterable[Placement]) -> Grid:
        """A Grid of the board's bounding box: each placement painted with its piece index + 1, holes elsewhere."""
        r0 = min(r for r, _ in self.cells)
        c0 = min(c for _, c in self.cells)
        height = 1 + max(r for r, _ in self.cells) - r0
        width = 1 + max(c for _, c in self.cells) - c0
        grid = np.full((height, width), -1, dtype=np.int32)
        for cell in self.cells:
            grid[cell[0] - r0, cell[1] - c0] = 0
        names = self.piece_names
        for piece, cells in solution:
            for r, c in cells:
                grid[r - r0, c - c0] = names.index(piece) + 1
        return Grid(grid)

    def render(self, solution: Iterable[Placement]) -> str:
        """A text picture of a solution: pieces by their one-letter names (else 1, 2, ...), '#' off the board."""
        names = self.piece_names
        if self.lattice != "square":
            from gridgames.drawing import lattice_text

            return lattice_text(self.lattice, self.cells, tuple(solution))
        alphabet = "".join(names) if all(len(n) == 1 for n in names) and len(set(names)) == len(names) else ALPHABET
        return self.paint(solution).to_text(alphabet=alphabet)
