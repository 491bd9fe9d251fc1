"""The fast tiling engine: exact cover of a set of cells by pieces, on bit masks, with numba.

A `TilingProblem` is compiled once from a board and a piece set::

    problem = TilingProblem.build(Grid.empty(6, 10), PENTOMINOES)
    count(problem).count                  # 9356
    count(problem, unique=True).count     # 2339 (up to the board's symmetries)
    for solution in solve(problem, limit=3): ...

* The board is any set of cells: a `Grid`'s empty cells (holes and filled cells are
  not part of it) or an iterable of (row, col). Pieces are described as in
  `gridgames.search.backtrack.as_pieces`: ``{name: Shape}`` (free pieces, one copy
  each), `Piece`s, or ``(name, orientations, count)`` tuples. Copies of a piece are
  interchangeable, so they never multiply solutions.
* Cells get bit indices in scan order (``order="column"``: down each column, the
  default when the board is at most as tall as wide; ``"row"`` otherwise), so the
  first-blank-cell search runs along the short side. Boards of up to 64 cells use
  the one-word kernel, larger ones the multi-word kernel.
* Search options: ``mrv=True`` branches, as Knuth's Algorithm X, on the column with
  the fewest fitting placements -- a cell, or (when every copy must be used) a piece
  with one copy left -- instead of the first blank cell; ``prune=True`` (default) abandons a
  placement that encloses a small empty region no multiset of the remaining pieces
  can fill exactly.
* ``unique=True`` counts/solves up to the board's symmetries (``"canonical"`` or a piece
  name choose the method): see `Unique` and `prepare_unique`.
* When every copy must be used, a checkerboard-colouring test first proves some problems
  empty (5 tetrominoes on 4x5, 35 hexominoes on 6x35) without searching.

The search is resumable: the kernel runs for a node budget, returns, and the driver
calls it again. Hence `solve` streams solutions (a `SolutionStream`: stop any time,
``limit``, ``partial`` after Ctrl-C or ``close()``), `count` reports progress through
``on_progress(fraction, solutions)`` (Knuth's estimate from the stack) and returns a
`CountResult` flagged ``partial`` on Ctrl-C. For parallel runs, ``split(problem,
min_parts)`` (or ``depth=``) lists independent `Part`s -- plain, picklable prefixes of
option indices with weights -- whose counts by ``count_part(problem, part)`` add up to the
total (pass the same ``mrv``/``prune``/``unique`` to both); `solve` and `count` also accept
``start=`` a `Part`, option indices or `Placement`s. `TilingProblem` pickles too.
``multiword=True`` forces the multi-word kernel (for testing it on small boards).
"""

from __future__ import annotations

import functools
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import attrs
import numpy as np
from attrs import field, frozen

from gridgames.errors import PuzzleError, SolverError
from gridgames.game import CountResult
from gridgames.grid import ALPHABET, Cell, Grid
from gridgames.search import _tiling_kernel as K
from gridgames.search import symmetry
from gridgames.search.backtrack import Piece, Placement, Solution, as_pieces, board_cells, is_solution

__all__ = [
    "CountResult",
    "Part",
    "Piece",
    "Placement",
    "Prepared",
    "Solution",
    "SolutionStream",
    "TilingProblem",
    "Unique",
    "colour_feasible",
    "count",
    "count_part",
    "is_solution",
    "prepare_unique",
    "solve",
    "split",
]

Progress = Callable[[float, int], None]

PROBE_BITS = 8
"""Cells after the first blank one whose occupancy selects the candidate list (one-word boards)."""

MAX_TABLE = 1 << 21
"""Most entries of the probe table; the probe window shrinks until the table fits."""


def prune_cap(sizes: Iterable[int]) -> int:
    """Largest enclosed region the pruning test flood-fills: below the piece size, or twice the largest of mixed sizes."""
    sizes = set(int(s) for s in sizes)
    return min(63, max(sizes) - 1 if len(sizes) == 1 else 2 * max(sizes))


def _pick_order(cells: Sequence[Cell], order: str) -> str:
    """The scan order: "column" or "row" as given, or "auto" = along the shorter side of the bounding box."""
    if order in ("column", "row"):
        return order
    if order != "auto":
        raise PuzzleError(f"scan order must be 'auto', 'column' or 'row', not {order!r}")
    height = 1 + max(r for r, _ in cells) - min(r for r, _ in cells)
    width = 1 + max(c for _, c in cells) - min(c for _, c in cells)
    return "column" if height <= width else "row"


def _group_ends(keys: np.ndarray) -> np.ndarray:
    """For each position, the end of the run of equal keys it belongs to."""
    keys = np.asarray(keys)
    starts = np.flatnonzero(keys[1:] != keys[:-1]) + 1
    ends = np.append(starts, len(keys)).astype(np.int32)
    return ends[np.searchsorted(starts, np.arange(len(keys)), side="right")]


@frozen(eq=False)
class OneWordTables:
    """Arrays of the one-word kernel: candidate entries for first-blank and most-constrained-cell search, masks."""

    probe: int  # bits of the probe window after the first blank cell
    fb_start: np.ndarray  # int32 (cells << probe + 1): entry ranges by (cell, occupancy of the probe window)
    fb_mask: np.ndarray  # uint64 entries: option masks
    fb_piece: np.ndarray  # uint8 entries: piece indices
    fb_grp: np.ndarray  # int32 entries: end of the entry's run of one piece
    fb_opt: np.ndarray  # int32 entries: option indices
    cv_mask: np.ndarray  # the same four for the MRV columns (ranges: TilingProblem.col_start)
    cv_piece: np.ndarray
    cv_grp: np.ndarray
    cv_opt: np.ndarray
    masks: np.ndarray  # uint64 (options,)
    nbr: np.ndarray  # uint64 (cells,): neighbour masks
    border: np.ndarray  # uint64 (options,): cells next to the option, outside it
    late: np.ndarray  # uint64 (cells,): pieces with no option anchored at or after the cell (when all must be used)
    reach0: np.uint64  # fillable region sizes when all pieces have one size, else 0

    @classmethod
    def compile(cls, problem: TilingProblem) -> OneWordTables:
        """The one-word tables of a problem of at most 64 cells and 64 pieces."""
        n = problem.n_cells
        masks = np.ascontiguousarray(problem.masks[:, 0])
        opt_piece = problem.opt_piece
        probe = min(PROBE_BITS, n)
        while True:
            lists = _probe_lists(masks, problem.anchor_start, probe)
            total = sum(len(x) for x in lists)
            if total <= MAX_TABLE or probe <= 1:
                break
            probe -= 2
        fb_start = np.zeros(len(lists) + 1, dtype=np.int32)
        fb_start[1:] = np.cumsum([len(x) for x in lists])
        fb_opt = np.concatenate(lists).astype(np.int32)
        entry = np.repeat(np.arange(len(lists), dtype=np.int64), [len(x) for x in lists])
        fb_grp = _group_ends(entry * len(problem.pieces) + opt_piece[fb_opt])
        cv_opt = problem.col_list
        nbr = np.zeros(n, dtype=np.uint64)
        for i, row in enumerate(problem.nbr_list):
            for j in row[row >= 0]:
                nbr[i] |= np.uint64(1 << int(j))
        padded = np.append(nbr, np.uint64(0))  # index -1 (padding) reads 0
        border = np.bitwise_or.reduce(padded[problem.opt_cells], axis=1) & ~masks
        late = np.zeros(n, dtype=np.uint64)
        for p, anchor in zip(problem.dl_piece, problem.dl_anchor):
            late[anchor + 1 :] |= np.uint64(1 << int(p))
        sizes = set(problem.sizes.tolist())
        reach0 = np.uint64(sum(1 << k for k in range(0, 64, sizes.pop()))) if len(sizes) == 1 else np.uint64(0)
        return cls(
            probe, fb_start, masks[fb_opt], opt_piece[fb_opt].astype(np.uint8), fb_grp, fb_opt,
            masks[cv_opt], opt_piece[cv_opt].astype(np.uint8), problem.col_grp, cv_opt,
            masks, nbr, border, late, reach0,
        )  # fmt: skip


def _probe_lists(masks: np.ndarray, anchor_start: np.ndarray, probe: int) -> list[np.ndarray]:
    """For each cell c and occupancy of cells c+1..c+probe, the options anchored at c that miss it."""
    windows = np.arange(1 << probe, dtype=np.uint64)
    lists: list[np.ndarray] = []
    for c in range(len(anchor_start) - 1):
        opts = np.arange(anchor_start[c], anchor_start[c + 1])
        own = (masks[opts] >> np.uint64(c)) >> np.uint64(1) & np.uint64((1 << probe) - 1)
        fits = (own[None, :] & windows[:, None]) == 0
        lists.extend(opts[row] for row in fits)
    return lists


@frozen(eq=False, getstate_setstate=False)
class TilingProblem:
    """A compiled tiling problem: board cells in bit order, pieces, and every placement (option) as arrays."""

    cells: tuple[Cell, ...]
    order: str
    pieces: tuple[Piece, ...]
    opt_piece: np.ndarray = field(repr=False)  # int32 (options,): piece index of each option
    opt_cells: np.ndarray = field(repr=False)  # int32 (options, max size): cell indices, ascending, -1 padded
    masks: np.ndarray = field(repr=False)  # uint64 (options, words)
    w0: np.ndarray = field(repr=False)  # int32 (options,): first word an option touches
    w1: np.ndarray = field(repr=False)  # int32 (options,): last word an option touches
    grp_end: np.ndarray = field(repr=False)  # int32 (options,): end of the option's (first cell, piece) run
    anchor_start: np.ndarray = field(repr=False)  # int32 (cells + 1): options whose first cell is c
    col_start: np.ndarray = field(repr=False)  # int32 (cells + pieces + 1): MRV columns' ranges in col_list
    col_list: np.ndarray = field(repr=False)  # int32: option indices covering each cell (by piece), then of each piece
    col_grp: np.ndarray = field(repr=False)  # int32: end of each position's (column, piece) run
    nbr_list: np.ndarray = field(repr=False)  # int32 (cells, 4): neighbour cell indices, -1 padded
    dl_piece: np.ndarray = field(repr=False)  # int64: pieces by their last anchor cell (empty unless all must be used)
    dl_anchor: np.ndarray = field(repr=False)  # int64: the last anchor cell of each of those pieces
    fast: OneWordTables | None = field(default=None, repr=False)  # the one-word kernel's tables, when it applies
    _placements: dict[int, Placement] = field(factory=dict, init=False, repr=False)  # cache of placement()

    def __getstate__(self) -> dict[str, Any]:
        """Pickle every field but the placement cache."""
        return {a.name: getattr(self, a.name) for a in attrs.fields(type(self)) if a.name != "_placements"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_placements", {})

    # --- construction ---------------------------------------------------
    @classmethod
    def build(cls, board: Grid | Iterable[Cell], pieces: Any, order: str = "auto", one_sided: bool = False) -> TilingProblem:
        """Compile a board (a Grid's empty cells, or cells) and pieces ({name: Shape}, Pieces or tuples)."""
        raw = board_cells(board)
        order = _pick_order(raw, order)
        cells = board_cells(raw, order)
        items = as_pieces(pieces, one_sided=one_sided)
        index = {cell: i for i, cell in enumerate(cells)}
        options: list[tuple[int, tuple[int, ...]]] = []
        for p, piece in enumerate(items):
            for orientation in piece.orientations:
                fr, fc = orientation[0]
                for ar, ac in cells:
                    dr, dc = ar - fr, ac - fc
                    idx = [index.get((r + dr, c + dc), -1) for r, c in orientation]
                    if -1 not in idx:
                        options.append((p, tuple(sorted(idx))))
        return cls.from_options(cells, order, items, options)

    @classmethod
    def from_options(
        cls, cells: Sequence[Cell], order: str, pieces: Sequence[Piece], options: Iterable[tuple[int, Sequence[int]]]
    ) -> TilingProblem:
        """Compile explicit options: (piece index, cell indices) pairs over ``cells`` (already in bit order)."""
        cells = tuple(cells)
        n = len(cells)
        unique = sorted({(min(cs), p, tuple(sorted(cs))) for p, cs in options})
        if not unique:
            raise PuzzleError("no piece fits anywhere on the board")
        words = (n + 63) // 64
        size = max(len(cs) for _, _, cs in unique)
        n_opt = len(unique)
        opt_piece = np.array([p for _, p, _ in unique], dtype=np.int32)
        opt_cells = np.full((n_opt, size), -1, dtype=np.int32)
        masks = np.zeros((n_opt, words), dtype=np.uint64)
        for o, (_, _, cs) in enumerate(unique):
            opt_cells[o, : len(cs)] = cs
            for c in cs:
                masks[o, c >> 6] |= np.uint64(1 << (c & 63))
        w0 = (opt_cells[:, 0] >> 6).astype(np.int32)
        w1 = (opt_cells.max(axis=1) >> 6).astype(np.int32)
        anchors = opt_cells[:, 0].astype(np.int64)
        grp_end = _group_ends(anchors * len(pieces) + opt_piece)
        anchor_start = np.searchsorted(anchors, np.arange(n + 1)).astype(np.int32)
        # MRV columns: each cell (options covering it, by piece), then each piece (its options).
        columns: list[list[int]] = [[] for _ in range(n + len(pieces))]
        for o, (_, p, cs) in enumerate(unique):
            for c in cs:
                columns[c].append(o)
            columns[n + p].append(o)
        col_list = np.array([o for col in columns for o in sorted(col, key=lambda o: (opt_piece[o], o))], dtype=np.int32)
        col_start = np.zeros(len(columns) + 1, dtype=np.int32)
        col_start[1:] = np.cumsum([len(x) for x in columns])
        col_id = np.repeat(np.arange(len(columns), dtype=np.int64), [len(x) for x in columns])
        col_grp = _group_ends(col_id * len(pieces) + opt_piece[col_list])
        index = {cell: i for i, cell in enumerate(cells)}
        nbr_list = np.full((n, 4), -1, dtype=np.int32)
        for i, (r, c) in enumerate(cells):
            near = [index[x] for x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if x in index]
            nbr_list[i, : len(near)] = near
        if sum(p.count * p.size for p in pieces) == n:  # every copy must be used: deadlines apply
            last = np.full(len(pieces), -1, dtype=np.int64)
            np.maximum.at(last, opt_piece, anchors)
            dl_piece = np.argsort(last, kind="stable").astype(np.int64)
            dl_anchor = last[dl_piece]
        else:
            dl_piece = dl_anchor = np.zeros(0, dtype=np.int64)
        problem = cls(
            cells, order, tuple(pieces), opt_piece, opt_cells, masks, w0, w1, grp_end, anchor_start,
            col_start, col_list, col_grp, nbr_list, dl_piece, dl_anchor,
        )  # fmt: skip
        if words == 1 and len(pieces) <= 64:
            object.__setattr__(problem, "fast", OneWordTables.compile(problem))
        return problem

    def restrict(self, keep: Iterable[int]) -> TilingProblem:
        """The same problem with only the given options (indices into this problem)."""
        keep = sorted(set(int(o) for o in keep))
        options = ((int(self.opt_piece[o]), self.option_cells(o)) for o in keep)
        return TilingProblem.from_options(self.cells, self.order, self.pieces, options)

    # --- properties -------------------------------------------------------
    @property
    def n_cells(self) -> int:
        """Number of cells to cover."""
        return len(self.cells)

    @property
    def n_options(self) -> int:
        """Number of placements of all pieces."""
        return len(self.opt_piece)

    @property
    def words(self) -> int:
        """Number of 64-bit words of a board mask."""
        return int(self.masks.shape[1])

    @property
    def piece_names(self) -> tuple[str, ...]:
        """Piece names, in piece index order."""
        return tuple(p.name for p in self.pieces)

    @property
    def counts(self) -> np.ndarray:
        """Copies available of each piece (int64)."""
        return np.array([p.count for p in self.pieces], dtype=np.int64)

    @property
    def sizes(self) -> np.ndarray:
        """Cells of each piece (int64)."""
        return np.array([p.size for p in self.pieces], dtype=np.int64)

    @property
    def exact(self) -> bool:
        """True when the pieces' total area equals the board's, so every copy must be used."""
        return sum(p.count * p.size for p in self.pieces) == self.n_cells

    @property
    def max_depth(self) -> int:
        """An upper bound on the number of placements in a solution."""
        fit = sum(min(p.count, self.n_cells // p.size) for p in self.pieces)
        return min(fit, self.n_cells // int(self.sizes.min()))

    # --- options and solutions -------------------------------------------
    def option_cells(self, option: int) -> tuple[int, ...]:
        """The cell indices of an option."""
        row = self.opt_cells[option]
        return tuple(int(c) for c in row[row >= 0])

    def placement(self, option: int) -> Placement:
        """The placement of an option: piece name and board cells."""
        found = self._placements.get(option)
        if found is None:
            found = self._placements[option] = self._make_placement(option)
        return found

    def _make_placement(self, option: int) -> Placement:
        """Build the placement of an option."""
        cells = tuple(sorted(self.cells[c] for c in self.option_cells(option)))
        return Placement(self.pieces[int(self.opt_piece[option])].name, cells)

    def option_index(self, placement: Placement | tuple[str, Iterable[Cell]]) -> int:
        """The option of a placement; SolverError when that piece cannot go there."""
        name, cells = placement
        index = {cell: i for i, cell in enumerate(self.cells)}
        try:
            wanted = tuple(sorted(index[(int(r), int(c))] for r, c in cells))
            p = self.piece_names.index(name)
        except (KeyError, ValueError):
            raise SolverError(f"placement of {name!r} on {list(cells)} is not on this board or not a piece") from None
        for o in range(self.anchor_start[wanted[0]], self.anchor_start[wanted[0] + 1]):
            if self.opt_piece[o] == p and self.option_cells(o) == wanted:
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
        alphabet = "".join(names) if all(len(n) == 1 for n in names) and len(set(names)) == len(names) else ALPHABET
        return self.paint(solution).to_text(alphabet=alphabet)


# ----------------------------------------------------------------------------- unique counting


@frozen(eq=False)
class Prepared:
    """A problem ready to search: possibly restricted for unique counting, with the permutations to canonicalise by."""

    problem: TilingProblem
    perms: np.ndarray  # (G, n) int32; one row (identity) when no canonicalisation is needed
    method: str  # "all", "restricted to <piece>", "canonical (G symmetries)", "no symmetry"
    group: np.ndarray  # the problem's symmetry group (G, n)


Unique = bool | str
"""How to treat symmetric solutions: False (count all), True (one per symmetry class, method chosen
automatically), "canonical" (one per class, by canonicalising each solution), or a piece name
(one per class, by restricting that piece; it must qualify, see `prepare_unique`)."""


@functools.lru_cache(maxsize=16)
def prepare_unique(problem: TilingProblem, unique: Unique = True) -> Prepared:
    """How to count up to symmetry: restrict a piece to one placement per orbit if one qualifies, else canonicalise.

    The group is the board's symmetries that also map the placements of each piece onto
    placements of that piece. A restricted piece must be used exactly once in every solution
    (so the pieces' area must equal the board's), and no
    non-identity symmetry may fix any of its placements; it keeps the least option
    (the earliest anchor in scan order) of each orbit. Automatically, the qualifying
    piece whose kept placements end earliest in scan order is chosen (fewest kept
    placements on ties): the search then abandons, as soon as the scan passes them,
    every branch that has not placed it.
    """
    identity = np.arange(problem.n_cells, dtype=np.int32)[None, :]
    if unique is False:
        return Prepared(problem, identity, "all", identity)
    options = [problem.option_cells(o) for o in range(problem.n_options)]
    perms, images = symmetry.problem_symmetries(symmetry.board_symmetries(problem.cells), options, problem.opt_piece)
    if len(perms) == 1:
        return Prepared(problem, identity, "no symmetry", perms)
    # a restricted piece must appear in every solution: only when every copy must be used
    eligible = symmetry.free_pieces(images, problem.opt_piece, problem.counts) if problem.exact else []
    if isinstance(unique, str) and unique != "canonical":
        if unique not in problem.piece_names:
            raise SolverError(f"cannot restrict {unique!r}: no piece of that name")
        piece = problem.piece_names.index(unique)
        if piece not in eligible:
            raise SolverError(
                f"cannot restrict piece {unique!r}: it is used more than once, may be left unused,"
                " or a symmetry fixes one of its placements"
            )
        eligible = [piece]
    if not eligible or unique == "canonical":
        return Prepared(problem, perms, f"canonical ({len(perms)} symmetries)", perms)
    kept = {p: symmetry.orbit_representatives(images, np.flatnonzero(problem.opt_piece == p)) for p in eligible}
    piece = min(eligible, key=lambda p: (max(problem.opt_cells[o, 0] for o in kept[p]), len(kept[p]), p))
    others = np.flatnonzero(problem.opt_piece != piece)
    restricted = problem.restrict([*others.tolist(), *kept[piece]])
    return Prepared(restricted, identity, f"restricted to {problem.pieces[piece].name}", perms)


# ----------------------------------------------------------------------------- driver


def colour_feasible(problem: TilingProblem, remaining: Sequence[int], prefix: Sequence[int] = ()) -> bool:
    """Checkerboard test: can the remaining copies' black-minus-white counts add up to the uncovered cells'?

    Only meaningful when every copy must be used (`TilingProblem.exact`); False proves there is no solution.
    """
    index = np.array([(r + c) % 2 for r, c in problem.cells], dtype=np.int64) * 2 - 1
    value = np.where(problem.opt_cells >= 0, index[np.maximum(problem.opt_cells, 0)], 0).sum(axis=1)
    wanted = int(index.sum()) - sum(int(value[o]) for o in prefix)
    reach = {0}
    for p, copies in enumerate(remaining):
        values = set(value[problem.opt_piece == p].tolist())
        for _ in range(int(copies)):
            reach = {r + v for r in reach for v in values}
    return wanted in reach


class _Run:
    """One resumable search: the kernel's state arrays and the calls that advance them."""

    def __init__(
        self, prep: Prepared, *, mrv: bool, prune: bool, prefix: Sequence[int], target: int, store: bool, buffer: int,
        multiword: bool = False,
    ) -> None:  # fmt: skip
        problem = prep.problem
        self.problem = problem
        self.prep = prep
        self.fast = None if multiword else problem.fast
        n = problem.n_cells
        maxd = problem.max_depth + 2
        occ = np.zeros(problem.words, dtype=np.uint64)
        if n % 64:
            occ[-1] = ~np.uint64((1 << (n % 64)) - 1)
        rem = problem.counts.copy()
        self.sizes = problem.sizes
        free = n
        for o in prefix:
            o = int(o)
            if not 0 <= o < problem.n_options:
                raise SolverError(f"option {o} is not an option of this problem (0..{problem.n_options - 1})")
            if (problem.masks[o] & occ).any():
                raise SolverError(f"the starting placement {problem.placement(o)} overlaps another or leaves the board")
            p = int(problem.opt_piece[o])
            if rem[p] == 0:
                raise SolverError(f"the starting placements use piece {problem.pieces[p].name!r} too often")
            occ |= problem.masks[o]
            rem[p] -= 1
            free -= int(self.sizes[p])
        self.occ0, self.rem0 = occ.copy(), rem.copy()
        self.occ, self.rem = occ, rem
        self.beg, self.pos, self.lim, self.chosen = (np.zeros(maxd + 1, dtype=np.int64) for _ in range(4))
        self.chosen[: len(prefix)] = prefix
        self.wt = np.ones(maxd + 2, dtype=np.float64)
        rows = buffer if store or target >= 0 else 0
        self.out = np.zeros((rows, maxd + 1), dtype=np.int32)
        self.out_len = np.zeros(rows, dtype=np.int32)
        self.out_w = np.zeros(rows, dtype=np.float64)
        self.st = st = np.zeros(K.STATE_SIZE, dtype=np.int64)
        st[K.DEPTH] = st[K.BASE] = len(prefix)
        st[K.PHASE] = K.ENTER
        st[K.STORE] = int(store)
        st[K.TARGET] = target
        st[K.CAP] = prune_cap(self.sizes) if prune else 0
        st[K.MRV] = int(mrv)
        st[K.FREE] = free
        st[K.PRIMARY] = int(problem.exact)
        self.seconds = 0.0
        if problem.exact and not colour_feasible(problem, rem, prefix):
            st[K.PHASE] = K.DONE  # proved empty by the checkerboard colouring
        if self.fast is not None:
            f = self.fast
            if mrv:
                self.entries = (f.cv_mask, f.cv_piece, f.cv_grp, f.cv_opt, problem.col_start)
            else:
                self.entries = (f.fb_mask, f.fb_piece, f.fb_grp, f.fb_opt, f.fb_start)
        elif mrv:
            self.lst, self.grp = problem.col_list, problem.col_grp
        else:
            self.lst, self.grp = np.arange(problem.n_options, dtype=np.int32), problem.grp_end

    @property
    def done(self) -> bool:
        """True when the whole subtree has been searched."""
        return bool(self.st[K.PHASE] == K.DONE)

    @property
    def nodes(self) -> int:
        """Placements made so far."""
        return int(self.st[K.NODES])

    @property
    def solutions(self) -> int:
        """Solutions counted so far."""
        return int(self.st[K.SOLUTIONS])

    def step(self, budget: int, room: int | None = None) -> list[tuple[tuple[int, ...], float]]:
        """Run the kernel for about ``budget`` nodes (or ``room`` output rows); return the rows written."""
        pr, f = self.problem, self.fast
        out = self.out if room is None else self.out[:room]
        limit = self.nodes + budget
        start = time.perf_counter()
        if f is not None:
            rows = K.run_one_word(
                *self.entries, f.probe, f.late, f.masks, pr.opt_piece, f.border, f.nbr, self.sizes, f.reach0,
                pr.opt_cells, self.prep.perms, self.st, self.occ, self.rem, self.beg, self.pos, self.lim, self.chosen,
                self.wt, out, self.out_len, self.out_w, limit,
            )  # fmt: skip
        else:
            rows = K.run_multi_word(
                pr.masks, pr.w0, pr.w1, pr.opt_piece, self.lst, self.grp, pr.anchor_start, pr.col_start, pr.dl_piece,
                pr.dl_anchor, pr.nbr_list, self.sizes, pr.opt_cells, self.prep.perms,
                self.st, self.occ, self.rem, self.beg, self.pos, self.lim, self.chosen, self.wt,
                out, self.out_len, self.out_w, limit,
            )  # fmt: skip
        self.seconds += time.perf_counter() - start
        return [(tuple(int(x) for x in self.out[i, : self.out_len[i]]), float(self.out_w[i])) for i in range(rows)]

    def fraction(self) -> float:
        """Knuth's estimate of the share of the search tree explored so far."""
        pr, f = self.problem, self.fast
        if f is not None:
            e_mask, e_piece = self.entries[:2]
            return float(
                K.fraction_one_word(
                    e_mask, e_piece, pr.opt_piece, f.masks, self.st, self.occ0[0], self.rem0,
                    self.chosen, self.beg, self.pos, self.lim,
                )
            )  # fmt: skip
        return float(
            K.fraction_multi_word(
                pr.masks, pr.w0, pr.w1, pr.opt_piece, self.lst, self.st, self.occ0, self.rem0,
                self.chosen, self.beg, self.pos, self.lim,
            )
        )  # fmt: skip


# ----------------------------------------------------------------------------- public API


@frozen
class Part:
    """An independent piece of a split search: a prefix of option indices, and its estimated share of the tree."""

    prefix: tuple[int, ...]
    weight: float


class _Budget:
    """Adapts the node budget of kernel calls so that each call lasts about ``seconds``."""

    def __init__(self, seconds: float = 0.1, first: int = 1 << 13) -> None:
        self.seconds = seconds
        self.nodes = first

    def update(self, nodes_done: int, elapsed: float) -> None:
        """Rescale the budget from the last call's speed."""
        if nodes_done > 0 and elapsed > 0:
            wanted = nodes_done * self.seconds / elapsed
            self.nodes = int(min(max(wanted, self.nodes / 4, 1 << 10), self.nodes * 4, 1 << 30))


def _prefix(prep: Prepared, start: Part | Sequence[int] | Sequence[Placement] | None) -> tuple[int, ...]:
    """Option indices of a starting state given as a Part, option indices, or placements."""
    if start is None:
        return ()
    if isinstance(start, Part):
        return start.prefix
    items = list(start)
    if all(isinstance(x, (int, np.integer)) for x in items):
        return tuple(int(x) for x in items)
    if prep.method.startswith("restricted"):
        raise SolverError("a start given as placements cannot be combined with unique=True; use a Part from split()")
    return tuple(prep.problem.option_index(p) for p in items)


class SolutionStream(Iterator[Solution]):
    """Solutions as the search finds them; ``count``, ``nodes``, ``seconds``, ``partial`` tell how it went."""

    def __init__(self, run: _Run, limit: int | None, on_progress: Progress | None, buffer: int) -> None:
        self._run = run
        self._limit = limit
        self._on_progress = on_progress
        self._queue: deque[Solution] = deque()
        self._budget = _Budget(first=1 << 12)
        self._buffer = buffer
        self.count = 0
        self.partial = False
        self.finished = False

    @property
    def nodes(self) -> int:
        """Search nodes visited so far."""
        return self._run.nodes

    @property
    def seconds(self) -> float:
        """Seconds spent in the kernel so far."""
        return self._run.seconds

    @property
    def method(self) -> str:
        """How solutions are counted: all, or how symmetric copies are left out."""
        return self._run.prep.method

    def fraction(self) -> float:
        """Estimated share of the search tree explored so far."""
        return self._run.fraction()

    def __iter__(self) -> SolutionStream:
        return self

    def __next__(self) -> Solution:
        while not self._queue:
            if self.finished or self._run.done or (self._limit is not None and self.count >= self._limit):
                self.finished = True
                raise StopIteration
            room = self._buffer if self._limit is None else min(self._buffer, self._limit - self.count)
            try:
                before = self._run.nodes
                start = time.perf_counter()
                rows = self._run.step(self._budget.nodes, room)
                self._budget.update(self._run.nodes - before, time.perf_counter() - start)
                self.count += len(rows)
                self._queue.extend(self._run.problem.solution(options) for options, _ in rows)
                if self._on_progress is not None:
                    self._on_progress(self._run.fraction(), self.count)
            except KeyboardInterrupt:
                self.partial = True
                self.finished = True
                if not self._queue:
                    raise StopIteration from None
        return self._queue.popleft()

    def close(self) -> None:
        """Stop the search: iteration ends at once, flagged ``partial`` unless the search had finished."""
        if not self._run.done:
            self.partial = True
        self.finished = True
        self._queue.clear()


def solve(
    problem: TilingProblem, *, limit: int | None = None, mrv: bool = False, prune: bool = True, unique: Unique = False,
    start: Part | Sequence[int] | Sequence[Placement] | None = None, on_progress: Progress | None = None,
    buffer: int = 1024, multiword: bool = False,
) -> SolutionStream:  # fmt: skip
    """Stream the solutions (up to ``limit``; one per symmetry class when ``unique``), resumably."""
    if limit is not None and limit < 0:
        raise SolverError(f"limit must be at least 0, got {limit}")
    prep = prepare_unique(problem, unique)
    prefix = _prefix(prep, start)
    run = _Run(prep, mrv=mrv, prune=prune, prefix=prefix, target=-1, store=True, buffer=buffer, multiword=multiword)
    return SolutionStream(run, limit, on_progress, buffer)


def count(
    problem: TilingProblem, *, mrv: bool = False, prune: bool = True, unique: Unique = False,
    start: Part | Sequence[int] | Sequence[Placement] | None = None, on_progress: Progress | None = None,
    multiword: bool = False,
) -> CountResult:  # fmt: skip
    """Count the solutions (up to symmetry when ``unique``); a Ctrl-C returns the partial count flagged partial."""
    prep = prepare_unique(problem, unique)
    prefix = _prefix(prep, start)
    run = _Run(prep, mrv=mrv, prune=prune, prefix=prefix, target=-1, store=False, buffer=0, multiword=multiword)
    budget = _Budget(first=1 << 14)
    partial = False
    try:
        while not run.done:
            before = run.nodes
            start_time = time.perf_counter()
            run.step(budget.nodes)
            budget.update(run.nodes - before, time.perf_counter() - start_time)
            if on_progress is not None:
                on_progress(run.fraction(), run.solutions)
    except KeyboardInterrupt:
        partial = True
    return CountResult(run.solutions, partial=partial or not run.done, unique=prep.method != "all", seconds=run.seconds, nodes=run.nodes, method=prep.method)


def split(
    problem: TilingProblem, min_parts: int = 1, *, depth: int | None = None, mrv: bool = False, prune: bool = True,
    unique: Unique = False,
) -> list[Part]:  # fmt: skip
    """Independent parts of the search whose counts (`count_part`) add up to the whole count.

    The parts are the search nodes at ``depth`` placements, or at the first depth giving at least
    ``min_parts`` of them (fewer when the whole tree is smaller); solutions found above that depth
    are parts too. Weights (Knuth's estimate of each part's share of the tree) sum to 1.
    """
    if min_parts < 1:
        raise SolverError(f"min_parts must be at least 1, got {min_parts}")
    if depth is not None and depth < 1:
        raise SolverError(f"depth must be at least 1, got {depth}")
    prep = prepare_unique(problem, unique)
    parts: list[Part] = []
    for level in [depth] if depth is not None else range(1, prep.problem.max_depth + 1):
        run = _Run(prep, mrv=mrv, prune=prune, prefix=(), target=level, store=True, buffer=4096)
        rows: list[tuple[tuple[int, ...], float]] = []
        while not run.done:
            rows.extend(run.step(1 << 40))
        parts = [Part(prefix, weight) for prefix, weight in rows]
        if len(parts) >= min_parts or all(len(p.prefix) < level for p in parts):
            break
    total = sum(p.weight for p in parts)
    return [Part(p.prefix, p.weight / total) for p in parts] if total > 0 else parts


def count_part(
    problem: TilingProblem, part: Part, *, mrv: bool = False, prune: bool = True, unique: Unique = False,
    on_progress: Progress | None = None,
) -> CountResult:  # fmt: skip
    """Count the solutions under one part of `split` (pass the same ``mrv``, ``prune`` and ``unique``)."""
    return count(problem, mrv=mrv, prune=prune, unique=unique, start=part, on_progress=on_progress)
