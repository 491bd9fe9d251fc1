"""The solver's search driver: its tables and kernels, and the windows it asks them (internal to the solver).

`SearchDriver` allocates the transposition table and the search stack, picks the compiled kernels (built ahead
of time, or numba's JIT), binds their structured arguments (`engine.layout`) once, and runs null-window searches
in slices, so that a watcher (``on_progress`` of a `Solver` call) can stop them and helper threads can join a
long one. Positions are Python ints in `geometry.Geometry`'s layout; ``p`` holds the stones of the side to move,
``mask`` every stone, ``n`` the plies played. Scores follow Pons' convention (see `gridgames_connect4.solve.solver`).
`gridgames_connect4.solve.policy` chooses moves with it; `gridgames_connect4.solve.solver.Solver` is the public face.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np
from attrs import define, field, frozen

from gridgames.errors import GameOverError, IllegalMoveError, InvalidMoveError, SolverError
from gridgames_connect4.solve.engine import aot as _kernels
from gridgames_connect4.solve.engine import layout as L
from gridgames_connect4.position.geometry import Geometry, board_bits, fits_one_word
from gridgames_connect4.solve.table_memory import SearchTable

if TYPE_CHECKING:
    from gridgames_connect4.solve.book import Book
    from gridgames_connect4.solve.engine.smp import Helpers

# Conservative positions/second of the exact search on one core: about half of the 9-12 M/s measured on Pons'
# 7x6 sets and below the 6-8 M/s of opening positions on this project's loaded two-core VM (bench/README.md), to
# leave room for slower machines. A fixed rate keeps seeded games repeatable.
DEFAULT_NODE_RATE = 5_000_000
UNLIMITED = 1 << 62
"""A budget of positions that never runs out."""
_MIN_CONNECT, _MAX_CONNECT = 3, 6
_MASK64 = (1 << 64) - 1
_SLICE = 1 << 18  # positions per kernel call when someone watches the search (about 0.03 s)
# positions one disc past the book search this many by bisection before using its bounds
_PLAIN_FIRST = 1 << 14
_SLICE_SECONDS = 0.03  # what a slice aims at: a large board searches several times slower than 7x6
# positions searched alone before a parallel search starts its helpers (about 0.3 s)
_SMP_START = 1 << 21
_NO_BUSY = np.zeros(0, np.uint64)  # no busy marks: one searcher
KERNEL_SOURCES = ("auto", "jit", "aot")


@frozen
class SearchProgress:
    """Where a running search stands: positions explored so far, seconds, and the window [lo, hi] of its score."""

    explored: int
    seconds: float
    lo: int
    hi: int


Watch = Callable[[SearchProgress], "bool | None"]
"""Told of a search's progress between slices; returning False stops the search."""


class Kernels(Protocol):
    """The compiled kernels the driver calls (`engine.aot`: built ahead of time, or numba's JIT ones)."""

    run_search: Callable[..., Any]
    solve_moves: Callable[..., Any]
    replay: Callable[..., Any]
    limited_search: Callable[..., Any]


def nodes_for_seconds(seconds: float, rate: float = DEFAULT_NODE_RATE) -> int:
    """Node budget that a search at `rate` positions/second spends in about `seconds`."""
    if seconds < 0:
        raise SolverError(f"time budget must be non-negative, got {seconds}")
    return max(1, int(seconds * rate))


@define(eq=False)
class SearchDriver:
    """Tables, kernels and null-window searches of one board size (see the module docstring)."""

    width: int
    height: int
    connect: int
    table_bits: int | None = None
    table_mb: float | None = None
    two_words: bool = False
    jobs: int = 1
    book: Book | None = None
    kernels: str = "auto"
    explored: int = field(default=0, init=False)
    geom: Geometry = field(init=False, repr=False)
    cells: int = field(init=False, repr=False)
    order: list[int] = field(init=False, repr=False)
    book_arrays: L.BookArrays = field(init=False, repr=False)
    stats: np.ndarray = field(init=False, repr=False)  # the search state (L.S_* slots)
    helpers: Helpers | None = field(default=None, init=False, repr=False)
    _watch: Watch | None = field(default=None, init=False, repr=False)
    compiled: Kernels = field(init=False, repr=False)
    """The kernels this driver runs (`engine.aot`'s module built ahead of time, or numba's JIT ones)."""
    _words: int = field(default=1, init=False, repr=False)
    _busy: np.ndarray = field(init=False, repr=False)
    _named: L.BoardConstants = field(init=False, repr=False)
    _constants: tuple[Any, ...] = field(init=False, repr=False)  # _named as a plain tuple
    _ttable: tuple[Any, ...] = field(init=False, repr=False)  # a plain L.Table
    _stack: tuple[np.ndarray, ...] = field(init=False, repr=False)  # a plain L.Stack
    # solve_moves' arguments after the batch
    _kargs: tuple[Any, ...] = field(init=False, repr=False)
    _io: np.ndarray = field(init=False, repr=False)
    table: SearchTable = field(init=False, repr=False)
    _rate_nodes: int = field(default=0, init=False, repr=False)
    _rate_seconds: float = field(default=0.0, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        w, h, k = self.width, self.height, self.connect
        if not (isinstance(w, int) and isinstance(h, int) and w >= 1 and h >= 1):
            raise SolverError(f"board size must be positive integers, got {w}x{h}")
        if board_bits(w, h) > 128:
            raise SolverError(f"board {w}x{h} needs {board_bits(w, h)} bits, more than the solver's 128-bit bitboard")
        self._words = 2 if self.two_words or not fits_one_word(w, h) else 1
        if not (isinstance(k, int) and _MIN_CONNECT <= k <= _MAX_CONNECT):
            raise SolverError(f"connect length must be {_MIN_CONNECT}..{_MAX_CONNECT}, got {k}")
        self.table = SearchTable.allocate(w, h, self.table_bits, self.table_mb)
        self._start_helpers()
        self.cells = w * h
        geom = self.geom = Geometry.of(w, h, k)
        self.order = list(geom.order)
        depth = self.cells + 2
        pair = (2,) if self._words == 2 else ()
        self.stats = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self._stack = tuple(
            L.Stack(
                self.stats,
                np.zeros((depth, 5, *pair), np.uint64),
                np.zeros((depth, L.FRAME_INTS), np.int64),
                # moves, their columns
                np.zeros((depth, w, *pair), np.uint64),
                np.zeros((depth, w), np.int64),
                # children's keys and buckets
                np.zeros((depth, w, *pair), np.uint64),
                np.zeros((depth, w), np.int64),
                np.zeros(w, np.int64),  # move scores
            )
        )
        self.book_arrays = self.arrays_of_book(self.book)
        self._io = np.zeros(5, dtype=np.int64)  # one solve's starts, score, explored, replay status
        self.compiled = self._choose_kernels()
        self._named = L.BoardConstants(
            w,
            h,
            k,
            self.cells,
            self.b(geom.bottom),
            self.b(geom.board),
            np.array(geom.order, dtype=np.int64),
            self._board_array(geom.columns),
            np.array(geom.cell_values, dtype=np.int64),
            self.b(geom.lower_rows),
        )
        self._constants = tuple(self._named)
        self._ttable = self.table.kernel_arg()
        self._kargs = (self._stack, self._constants, self._ttable, tuple(self.book_arrays), _NO_BUSY)

    # -- set-up ----------------------------------------------------------------------------------------

    def _choose_kernels(self) -> Kernels:
        """The compiled kernels this solver runs: built ahead of time where one fits, else numba's JIT."""
        if self.kernels not in KERNEL_SOURCES:
            raise SolverError(f"kernels must be one of {', '.join(KERNEL_SOURCES)}, got {self.kernels!r}")
        # one word, one searcher (helper threads need the JIT's)
        fits = self._words == 1 and self.helpers is None
        ahead = _kernels.load() if fits and self.kernels != "jit" else None
        if ahead is not None:
            return cast(Kernels, ahead)
        if self.kernels == "aot":
            why = "this board or jobs > 1 runs on numba's JIT kernels" if not fits else _kernels.missing_reason()
            raise SolverError(f"no ahead-of-time kernels: {why}")
        return cast(Kernels, _kernels.jit())

    def arrays_of_book(self, book: Book | None) -> L.BookArrays:
        """An opening book as the kernel probes it: sorted canonical keys, scores, depth (-1: no book)."""
        if book is None:
            return L.BookArrays(np.zeros(0, np.uint64), np.zeros(0, np.int8), -1)
        try:
            keys, scores, depth = book.keys, book.scores, book.depth
        except AttributeError:
            raise SolverError(
                "book must have depth, keys and scores (see gridgames_connect4.solve.book.Book)"
            ) from None
        size = tuple(getattr(book, name, None) for name in ("width", "height", "connect"))
        if size != (None, None, None) and size != (self.width, self.height, self.connect):
            raise SolverError(
                f"the book is for {size[0]}x{size[1]} connect {size[2]}, not"
                f" {self.width}x{self.height} connect {self.connect}"
            )
        if self._words != 1:
            raise SolverError("an opening book needs a board whose bitboard fits 64 bits")
        keys = np.ascontiguousarray(keys, dtype=np.uint64)
        scores = np.ascontiguousarray(scores, dtype=np.int8)
        if keys.ndim != 1 or keys.shape != scores.shape:
            raise SolverError("the book's keys and scores must be two arrays of the same length")
        return L.BookArrays(keys, scores, int(depth))

    def b(self, x: int) -> L.Bitboard:
        """A bitboard as the kernels take it: a uint64, or a (low, high) pair of them."""
        if self._words == 1:
            return np.uint64(x)
        return (np.uint64(x & _MASK64), np.uint64(x >> 64))

    def _board_array(self, boards: Sequence[int]) -> np.ndarray:
        """Bitboards as a kernel array: uint64 of shape (n,), or (n, 2) for pairs."""
        if self._words == 1:
            return np.array(boards, dtype=np.uint64)
        return np.array([(x & _MASK64, x >> 64) for x in boards], dtype=np.uint64).reshape(len(boards), 2)

    @property
    def words(self) -> int:
        """uint64 words per bitboard: 1, or 2 on boards of more than 64 bits (or with ``two_words``)."""
        return self._words

    def board_rows(self, rows: int) -> np.ndarray:
        """Zeroed rows of one bitboard a column, as the kernels take them: shape (rows, width[, 2])."""
        return np.zeros((rows, *self._named.column_masks.shape), np.uint64)

    def _start_helpers(self) -> None:
        """With jobs > 1: the helper threads that share the table, and their busy marks."""
        if not (isinstance(self.jobs, int) and self.jobs >= 1):
            raise SolverError(f"jobs must be a positive integer, got {self.jobs!r}")
        self._busy = _NO_BUSY  # alone: no busy marks
        if self.jobs > 1:  # numba's JIT kernels: helper threads need the GIL released
            from gridgames_connect4.solve.engine import smp as _smp

            self.helpers = _smp.Helpers(self.jobs - 1)
            self._busy = np.zeros(L.BUSY_SLOTS, np.uint64)

    # -- the table ---------------------------------------------------------------------------------------

    @property
    def table_bytes(self) -> int:
        """Memory used by the transposition table, in bytes."""
        return self.table.entries.nbytes

    def reset(self) -> None:
        """Forget the transposition table (in O(1): its buckets are tagged with a generation)."""
        self.table.reset()

    @contextmanager
    def watching(self, on_progress: Watch | None) -> Iterator[None]:
        """Run one call's searches in slices told to ``on_progress`` (None: one kernel call when alone)."""
        before, self._watch = self._watch, on_progress
        try:
            yield
        finally:
            self._watch = before

    # -- positions ---------------------------------------------------------------------------------------

    def can_play(self, mask: int, column: int) -> bool:
        """True when ``column`` is not full."""
        return self.geom.can_play(mask, column)

    def cell(self, mask: int, column: int) -> int:
        """The cell a disc dropped in `column` lands on (the column must not be full)."""
        return self.geom.drop(mask, column)

    def wins(self, p: int, mask: int) -> int:
        """Empty cells that complete a line for the stones p."""
        return self.geom.winning_cells(p, mask)

    def wins_at_once(self, p: int, mask: int) -> int:
        """Playable cells that complete a line for the stones p (0: no win at once)."""
        return self.geom.wins_at_once(p, mask)

    def win_score(self, n: int) -> int:
        """The score of winning with the next disc after ``n`` plies."""
        return (self.cells + 1 - n) // 2

    def loss_score(self, n: int) -> int:
        """The score of the side to move after ``n`` plies when the opponent wins with its next disc."""
        return -((self.cells - n) // 2)

    def columns_array(self, moves: Sequence[int]) -> np.ndarray:
        """Moves as a uint8 array (what the kernels take), every item checked to be an in-range integer."""
        if type(moves) is list or type(moves) is tuple:
            try:
                return np.frombuffer(bytes(moves), np.uint8)  # fast path: small non-negative ints
            except (TypeError, ValueError):
                pass
        try:
            columns = [operator.index(m) for m in moves]
        except TypeError:
            bad = next(m for m in moves if not _is_small_int(m))
            raise InvalidMoveError(f"moves must be column numbers, got {bad!r}") from None
        for i, c in enumerate(columns):
            if not 0 <= c < self.width:
                raise InvalidMoveError(f"move {i + 1}: column {c} is out of range 0..{self.width - 1}")
        return np.array(columns, dtype=np.uint8)

    def position(self, moves: Sequence[int]) -> tuple[int, int, int]:
        """Bitboards (stones of the side to move, all stones) and ply count after `moves`, validated."""
        columns = self.columns_array(moves)
        c = self._named
        p, mask, status, i = self.compiled.replay(
            columns, 0, len(columns), self.width, self.height, self.connect, c.bottom, c.full
        )
        if status:
            self.raise_replay(columns, int(status), int(i))
        return _int(p), _int(mask), len(columns)

    def raise_replay(self, columns: np.ndarray, status: int, i: int) -> None:
        """The error of a replay status (see engine.board.replay)."""
        if status == 1:
            raise InvalidMoveError(f"move {i + 1}: column {columns[i]} is out of range 0..{self.width - 1}")
        if status == 2:
            raise IllegalMoveError(f"move {i + 1}: column {columns[i]} is full")
        if status == 3:
            raise GameOverError(f"move {i + 1}: the game is already won")
        if status == 4:
            raise SolverError(f"the position is already won (move {i + 1} completes {self.connect} in a row)")

    # -- compiled calls ------------------------------------------------------------------------------------

    def solve_one(self, moves: Sequence[int], weak: bool) -> int:
        """The kernel's score after ``moves`` in one compiled call (replay and search); sets explored."""
        cols = self.columns_array(moves)
        io = self._io
        io[1] = cols.shape[0]
        self.compiled.solve_moves((cols, io[:2], weak, False, io[2:3], io[3:4], io[4:5]), *self._kargs)
        if io[4]:
            self.raise_replay(cols, int(io[4]), int(io[2]))
        self.explored = int(io[3])
        return int(io[2])

    def solve_batch(
        self, cols: np.ndarray, starts: np.ndarray, weak: bool, reset: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        """Run the batch kernel on positions cols[starts[i]:starts[i + 1]]; raise the replay's error of the first bad
        position. (scores, positions explored) of each."""
        count = starts.shape[0] - 1
        out = np.zeros(count, np.int64)
        explored = np.zeros(count, np.int64)
        status = np.zeros(count, np.int64)
        self.compiled.solve_moves((cols, starts, weak, reset, out, explored, status), *self._kargs)
        if status.any():
            i = int(np.flatnonzero(status)[0])
            self.raise_replay(cols[starts[i] : starts[i + 1]], int(status[i]), int(out[i]))
        return out, explored

    def shared_args(self, book: L.BookArrays) -> tuple[Any, ...]:
        """The kernels' arguments every searcher of one search shares: board constants, table, book, busy marks."""
        return (self._constants, self._ttable, tuple(book), self._busy)

    def search(
        self, p: int, mask: int, n: int, lo: int, hi: int, budget: int, book: L.BookArrays | None = None
    ) -> int | None:
        """The score, or where it lies against [lo, hi]; None when the budget ran out (or the watcher said stop).

        The side to move must not be able to win at once. Adds to explored. With jobs > 1, a search still running
        after _SMP_START positions gets jobs - 1 helper threads on the shared table; the first to finish answers.
        ``book``: the book the kernel probes (as `arrays_of_book` gives it), default the solver's.
        """
        shared = self.shared_args(self.book_arrays if book is None else book)
        st = self.stats
        fresh = True
        start = time.perf_counter()
        watch = self._watch
        base = self.explored
        stopped = False
        helpers = self.helpers
        answer = None
        # grows to _SLICE on a fast board (a slow one, e.g. 10x10, keeps slices short); never 0 positions
        slice_nodes = max(1, _SLICE >> 4)
        try:
            while True:
                step = budget - (0 if fresh else int(st[L.S_NODES]))
                if step <= 0:
                    stopped = True
                    break
                if watch is not None or helpers is not None:
                    step = min(step, slice_nodes)
                sliced = time.perf_counter()
                # a plain L.SearchStep
                job = (n, step, fresh, self.b(p), self.b(mask), int(lo), int(hi), 0)
                paused = self.compiled.run_search(self._stack, *shared, job)
                fresh = False
                self.explored = base + int(st[L.S_NODES])
                if not paused:
                    break
                # slices of about _SLICE_SECONDS, whatever the board's rate
                took = time.perf_counter() - sliced
                if took > 2 * _SLICE_SECONDS:
                    slice_nodes = max(1, _SLICE >> 6, slice_nodes // 2)
                elif took < _SLICE_SECONDS / 2:
                    slice_nodes = min(_SLICE, slice_nodes * 2)
                if helpers is not None:
                    answer = helpers.answer()
                    if answer is not None:
                        break
                    if not helpers.threads and st[L.S_NODES] >= _SMP_START:
                        helpers.start(self._stack, shared, (n, self.b(p), self.b(mask), int(lo), int(hi)))
                if watch is not None:
                    phase_window = (int(st[L.S_LO]), int(st[L.S_HI]))
                    if watch(SearchProgress(self.explored, time.perf_counter() - start, *phase_window)) is False:
                        stopped = True
                        break
        finally:
            if helpers is not None:
                self.explored += helpers.stop()
        self._rate_seconds += time.perf_counter() - start
        self._rate_nodes += int(st[L.S_NODES])
        if answer is not None:
            return answer
        return None if stopped else int(st[L.S_SCORE])

    def limited(
        self, p: int, mask: int, n: int, depth: int, beta: int, budget: int, scratch: tuple[np.ndarray, np.ndarray]
    ) -> int:
        """The depth-limited search's value of a position (window (-INF, beta)); stats[0]: positions, [1]: stopped."""
        c = self._named
        return int(
            self.compiled.limited_search(
                self.b(p),
                self.b(mask),
                n,
                depth,
                -L.INF,
                beta,
                self.height,
                self.connect,
                self.cells,
                c.bottom,
                c.full,
                c.order,
                c.column_masks,
                self.stats,
                budget,
                *scratch,
            )
        )

    @property
    def watch(self) -> Watch | None:
        """The current call's watcher (None: nobody watches)."""
        return self._watch

    def nodes_for_seconds(self, seconds: float) -> int:
        """Node budget for about `seconds`, from this driver's measured rate (or the conservative default)."""
        rate: float = DEFAULT_NODE_RATE
        if self._rate_nodes >= 1_000_000 and self._rate_seconds > 0:
            rate = min(self._rate_nodes / self._rate_seconds, 4 * DEFAULT_NODE_RATE)
        return nodes_for_seconds(seconds, rate)

    # -- windows -------------------------------------------------------------------------------------------

    def solve_raw(self, p: int, mask: int, n: int, weak: bool, budget: int) -> int | None:
        """Kernel solve (its bisection); adds to explored; None when the budget ran out."""
        if self.wins_at_once(p, mask):
            return self.win_score(n)
        if weak:
            return self.search(p, mask, n, -1, 1, budget)
        return self.search(p, mask, n, self.loss_score(n), self.win_score(n), budget)

    def solve_probing(self, p: int, mask: int, n: int, weak: bool, budget: int, lower: int | None = None) -> int | None:
        """As `solve_raw`, but the null windows step out from the draw, not by bisection (for positions in play).

        The kernel's bisection probes halfway towards 0 (Pons'), which suits a position whose score is far from 0 (the
        roots of Pons' Begin-Easy set: 18x the positions when stepping). A child of a position being analysed usually
        scores near 0, where every null window is expensive and bisection asks several of them: so each probe asks
        the next score out from 0 ("above lo?" when lo >= 0, "above hi - 1?" when hi <= 0, else "above 0?"), its
        fail-soft bound moving the window. Exact as `solve_raw`; bench/README.md, "Null windows stepping out from the
        draw". ``lower`` (strong only): a score the position is known to reach; the null window at it is asked first.
        """
        top = self.win_score(n)
        if weak or self.wins_at_once(p, mask):
            return self.solve_raw(p, mask, n, weak, budget)
        lo, hi = self.loss_score(n), top  # the score lies in [lo, hi]
        if lower is not None:
            if isinstance(lower, bool) or not isinstance(lower, int) or lower >= top:
                raise SolverError(f"a lower bound of {lower!r} is impossible after {n} moves on this board")
            lo = max(lower, lo)  # a bound below the worst score bounds nothing more
        return self.step_search(p, mask, n, lo, hi, budget, at_lo=lower is not None)

    def step_search(self, p: int, mask: int, n: int, lo: int, hi: int, budget: int, at_lo: bool = False) -> int | None:
        """The exact score, known to lie in [lo, hi], by null windows stepping out from 0 (see `solve_probing`).

        ``at_lo``: ask "above lo?" first (lo is a bound that is often the score). None when the budget ran out.
        """
        start = self.explored
        while lo < hi:
            med = lo if at_lo or lo >= 0 else hi - 1 if hi <= 0 else 0
            at_lo = False
            found = self.search(p, mask, n, med, med + 1, budget - (self.explored - start))
            if found is None:
                return None
            if found > med:
                lo = found
            # the kernel keeps the fail-soft bound of a probe that failed low (one searcher: its own)
            else:
                hi = min(med, int(self.stats[L.S_HI])) if self.helpers is None else med
        return lo

    def solve_bounded(self, moves: Sequence[int], lower: int | None) -> int | None:
        """The exact score, searched from `lower`, else from its parents' bound in the book (None: they give none)."""
        p, mask, n = self.position(moves)
        self.explored = 0
        if lower is None:
            # The kernel's bisection first, on a small budget: most such positions are settled in a few hundred
            # positions, where stepping from the parents' bound explores more (Begin-Easy's 11 discs: 2.4x the
            # positions, 3x the time); the bound serves the positions that outlast it (bench/README.md).
            score = self.solve_raw(p, mask, n, False, _PLAIN_FIRST)
            if score is not None:
                return score
            # its parents are in the book: their scores bound its score
            lower = self.book_lower(p, mask, n)
            if lower is None:
                return self.solve_raw(p, mask, n, False, UNLIMITED)
        return self.solve_probing(p, mask, n, False, UNLIMITED, lower)

    # -- the book's bounds ---------------------------------------------------------------------------------

    def past_book(self, n: int) -> bool:
        """Whether a position after ``n`` plies is one disc past the solver's book (its parents there bound it)."""
        return 0 <= self.book_arrays.depth == n - 1

    def bounds_by_parents(self, p: int, mask: int) -> dict[int, int]:
        """Each child's least score by its parents' scores in the book (those it holds), by column.

        A child after a move in column c has a parent for every column whose top disc is the last mover's (the
        position before that disc); it scores at least minus each parent's score (`BookKeys.parent_bounds`).
        """
        columns = [c for c in range(self.width) if self.can_play(mask, c)]
        found = self.parents_bounds([(p ^ mask) + (mask | self.cell(mask, c)) for c in columns])
        return {c: b for c, b in zip(columns, found) if b is not None}

    def book_lower(self, p: int, mask: int, n: int) -> int | None:
        """A position one disc past the book's depth: its least score by its parents' in the book (None: none)."""
        if not self.past_book(n):
            return None
        return self.parents_bounds([p + mask])[0]

    def parents_bounds(self, keys: list[int]) -> list[int | None]:
        """The least score of each position (key: stones to move + all stones) by its parents' scores in the book."""
        from gridgames_connect4.solve.book import UNKNOWN, BookKeys, scores_of_keys

        if not keys:
            return []
        geometry = BookKeys(self.width, self.height, self.connect)
        book = self.book
        # one position's parents in Python ints (no numpy)
        if book is not None and hasattr(book, "score_of_key"):
            found_one = []
            for key in keys:
                mask = self.geom.mask_of_key(key)
                found_one.append(geometry.parent_bound_of(key - mask, mask, book.score_of_key))
            return found_one
        book_keys, book_scores = self.book_arrays.keys, self.book_arrays.scores
        found = geometry.parent_bounds(
            geometry.canonical(np.array(keys, dtype=np.uint64)),
            lambda wanted: scores_of_keys(book_keys, book_scores, wanted),
        )
        return [None if b == UNKNOWN else int(b) for b in found.tolist()]


def _int(board: Any) -> int:
    """A kernel bitboard (uint64 or (low, high) pair) as a Python int."""
    if isinstance(board, tuple):
        return int(board[0]) | int(board[1]) << 64
    return int(board)


def _is_small_int(value: Any) -> bool:
    try:
        return abs(operator.index(value)) < 2**63
    except TypeError:
        return False
