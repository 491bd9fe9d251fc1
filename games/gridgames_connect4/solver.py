"""Connect Four strong and weak solver (Pascal Pons' algorithm on a numba-compiled bitboard kernel).

Scores follow Pons' convention, from the side to move's view: a win with one's own i-th disc of the game
scores (cells + 1 - plies_before_that_disc) // 2 (22 - i on 7x6), a loss the negative of the winner's score,
a draw 0. Moves are 0-based column indices.
"""

from __future__ import annotations

import operator
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from attrs import define, field, frozen

from gridgames_connect4.engine import aot as _kernels
from gridgames_connect4.engine import layout as L
from gridgames_connect4.geometry import Geometry
from gridgames.errors import GameOverError, IllegalMoveError, InvalidMoveError, SolverError

if TYPE_CHECKING:
    from gridgames_connect4.book import Book
    from gridgames_connect4.engine.smp import Helpers

__all__ = [
    "DEFAULT_NODE_RATE",
    "SearchProgress",
    "SearchResult",
    "Solver",
    "kernels_compiled",
    "nodes_for_seconds",
    "parse_pons_moves",
]

# Conservative positions/second of the exact search on one core: about half of the 9-12 M/s measured on Pons'
# 7x6 sets and below the 6-8 M/s of opening positions on this project's loaded two-core VM (bench/README.md), to
# leave room for slower machines. A fixed rate keeps seeded games repeatable.
DEFAULT_NODE_RATE = 5_000_000
_UNLIMITED = 1 << 62
_MIN_CONNECT, _MAX_CONNECT = 3, 6
_MIN_TABLE_BITS, _MAX_TABLE_BITS = 10, 30
_LINE = 64  # bytes per cache line: one table bucket
_MASK64 = (1 << 64) - 1
DEFAULT_TABLE_MB = 56
"""Default transposition table size in MiB (7.3 M entries of 8 bytes on boards up to about 80 cells)."""
_SLICE = 1 << 18  # positions per kernel call when someone watches the search (about 0.03 s)
_PLAIN_FIRST = 1 << 14  # positions one disc past the book search this many by bisection before using its bounds
_SLICE_SECONDS = 0.03  # what a slice aims at: a large board searches several times slower than 7x6
_SMP_START = 1 << 21  # positions searched alone before a parallel search starts its helpers (about 0.3 s)
_NO_BUSY = np.zeros(0, np.uint64)  # no busy marks: one searcher
_KERNEL_SOURCES = ("auto", "jit", "aot")


def kernels_compiled(ahead: bool = True) -> bool:
    """Whether the search kernels are ready (False: the next solve compiles them): built ahead of time (when they
    serve this solver: ``ahead``), else compiled in this process or in numba's cache on disk."""
    from gridgames.search.compiled import kernels_ready

    if ahead and _kernels.load() is not None:
        return True
    return kernels_ready(_kernels.jit().run_search)


def kernels_to_build() -> bool:
    """Whether the kernels built ahead of time are missing for the current sources and worth building now (no build
    of these sources failed here before: without a C compiler every run would try again)."""
    return _kernels.load() is None and not _kernels.failed_before()


def compile_kernels() -> Path:
    """Build the solver's kernels ahead of time (numba.pycc, which needs a C compiler); the module's path.

    Later processes then run a one-word board's searches without importing numba (half a second less at every
    start). Raises OSError (with the compiler's last message) when it cannot build; the JIT kernels still work.
    """
    return _kernels.build()


FIRST_USE_NOTICE = "Compiling the Connect Four solver (first use only)..."


def prepare_kernels(say: Callable[[str], None], ahead: bool = True) -> None:
    """At the first use of the solver: tell ``say`` (FIRST_USE_NOTICE), and where kernels built ahead of time serve
    (``ahead``: a board of at most 64 bits, one searcher) build them now; a failed build is remembered and numba's JIT
    compiles the kernels at the first search instead. Does nothing when the kernels are ready."""
    if ahead and kernels_to_build():  # a fresh install, or new kernel sources: build them (seconds, once)
        say(FIRST_USE_NOTICE)
        try:
            compile_kernels()
        except OSError as exc:  # no C compiler, say: numba's JIT compiles them at the first search instead
            _kernels.remember_failure(str(exc))
    elif not kernels_compiled(ahead):  # numba's JIT compiles them at the first search (seconds, once)
        say(FIRST_USE_NOTICE)


def nodes_for_seconds(seconds: float, rate: float = DEFAULT_NODE_RATE) -> int:
    """Node budget that a search at `rate` positions/second spends in about `seconds`."""
    if seconds < 0:
        raise SolverError(f"time budget must be non-negative, got {seconds}")
    return max(1, int(seconds * rate))


def parse_pons_moves(text: str) -> list[int]:
    """Column list from Pons' notation (1-based digits, e.g. "4453") as 0-based columns."""
    if not text.isdigit():
        raise InvalidMoveError(f"move string must be 1-based column digits, got {text!r}")
    columns = [int(ch) - 1 for ch in text]
    if -1 in columns:
        raise InvalidMoveError(f"column digit 0 in {text!r}: Pons notation is 1-based")
    return columns


def _prev_prime(n: int) -> int:
    """Largest prime <= n (n >= 2)."""
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n -= 1
    return n


@frozen
class SearchProgress:
    """Where a running search stands: positions explored so far, seconds, and the window [lo, hi] of its score."""

    explored: int
    seconds: float
    lo: int
    hi: int


@frozen
class SearchResult:
    """A chosen move with per-column scores (None: full or unknown); exact when proven by the solver."""

    column: int
    scores: tuple[int | None, ...]
    exact: bool
    depth: int | None
    weak: bool = False
    """The move keeps the exact outcome, but the strong scores did not fit the budget: scores are +1, 0, -1."""


@define
class Solver:
    """Perfect Connect Four solver for boards whose bitboard fits in 128 bits ((height + 1) * width <= 128).

    Boards up to 64 bits run on one uint64 per bitboard, larger ones on two (``two_words`` forces that layout, to
    test it on small boards). ``jobs`` > 1 lets a long search of one position start jobs - 1 helper threads that
    search it too, sharing the table.
    ``book``: an opening book (``depth``, sorted mirror-canonical uint64 ``keys``, int8 strong ``scores``, as
    `gridgames_connect4.book.Book`), probed by the search at positions within its depth.
    ``kernels``: "auto" runs the kernels built ahead of time (`gridgames_connect4.engine.aot`: no numba in the
    process) when they exist and fit (a one-word board, one searcher), else numba's JIT ones; "jit" always the JIT
    ones; "aot" requires the others.
    """

    width: int = 7
    height: int = 6
    connect: int = 4
    table_bits: int | None = None
    table_mb: float | None = None
    explored: int = field(default=0, init=False)
    explored_each: list[int] = field(factory=list, init=False)
    on_progress: Callable[[SearchProgress], bool | None] | None = field(default=None, kw_only=True)
    _cells: int = field(init=False, repr=False)
    two_words: bool = field(default=False, kw_only=True)
    jobs: int = field(default=1, kw_only=True)
    book: Book | None = field(default=None, kw_only=True)
    kernels: str = field(default="auto", kw_only=True)
    _k: Any = field(init=False, repr=False)
    _book: L.BookArrays = field(init=False, repr=False)
    _helpers: Helpers | None = field(default=None, init=False, repr=False)
    _busy: np.ndarray = field(init=False, repr=False)
    _words: int = field(default=1, init=False, repr=False)
    _geom: Geometry = field(init=False, repr=False)
    _bottom: Any = field(init=False, repr=False)
    _board: Any = field(init=False, repr=False)
    _colmask: np.ndarray = field(init=False, repr=False)
    _order: np.ndarray = field(init=False, repr=False)
    _cell_values: np.ndarray = field(init=False, repr=False)
    _table: np.ndarray = field(init=False, repr=False)
    _buckets: int = field(init=False, repr=False)
    _wide: bool = field(init=False, repr=False)
    _gen: np.ndarray = field(init=False, repr=False)
    _gens: np.ndarray = field(init=False, repr=False)
    _kargs: tuple[Any, ...] = field(init=False, repr=False)  # solve_moves' arguments after the batch
    _geometry: tuple[Any, ...] = field(init=False, repr=False)  # a plain L.BoardConstants
    _ttable: tuple[Any, ...] = field(init=False, repr=False)  # a plain L.Table
    _io: np.ndarray = field(init=False, repr=False)
    _lower_rows: Any = field(init=False, repr=False)
    _stack: tuple[np.ndarray, ...] = field(init=False, repr=False)  # a plain L.Stack
    _stats: np.ndarray = field(init=False, repr=False)
    _rate_nodes: int = field(default=0, init=False, repr=False)
    _rate_seconds: float = field(default=0.0, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        w, h, k = self.width, self.height, self.connect
        if not (isinstance(w, int) and isinstance(h, int) and w >= 1 and h >= 1):
            raise SolverError(f"board size must be positive integers, got {w}x{h}")
        if (h + 1) * w > 128:
            raise SolverError(f"board {w}x{h} needs {(h + 1) * w} bits, more than the solver's 128-bit bitboard")
        self._words = 2 if self.two_words or (h + 1) * w > 64 else 1
        if not (isinstance(k, int) and _MIN_CONNECT <= k <= _MAX_CONNECT):
            raise SolverError(f"connect length must be {_MIN_CONNECT}..{_MAX_CONNECT}, got {k}")
        key_bits = (h + 1) * w
        self._make_table(key_bits)
        self._cells = w * h
        geom = self._geom = Geometry.of(w, h, k)
        self._bottom = self._b(geom.bottom)
        self._board = self._b(geom.board)
        self._colmask = self._board_array(geom.columns)
        self._lower_rows = self._b(geom.lower_rows)
        self._order = np.array(geom.order, dtype=np.int64)
        self._cell_values = np.array(geom.cell_values, dtype=np.int64)
        depth = self._cells + 2
        pair = (2,) if self._words == 2 else ()
        self._stats = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self._stack = tuple(L.Stack(
            self._stats, np.zeros((depth, 5, *pair), np.uint64), np.zeros((depth, L.FRAME_INTS), np.int64),
            np.zeros((depth, w, *pair), np.uint64), np.zeros((depth, w), np.int64),  # moves, their columns
            np.zeros((depth, w, *pair), np.uint64), np.zeros((depth, w), np.int64),  # children's keys and buckets
            np.zeros(w, np.int64),  # move scores
        ))
        self._book = self._book_arrays(self.book)
        self._io = np.zeros(5, dtype=np.int64)  # one solve's starts, score, explored, replay status
        self._k = self._choose_kernels()
        self._bind_kernel_args()

    def _choose_kernels(self) -> Any:
        """The compiled kernels this solver runs: built ahead of time where one fits, else numba's JIT."""
        if self.kernels not in _KERNEL_SOURCES:
            raise SolverError(f"kernels must be one of {', '.join(_KERNEL_SOURCES)}, got {self.kernels!r}")
        fits = self._words == 1 and self._helpers is None  # one word, one searcher (helper threads need the JIT's)
        ahead = _kernels.load() if fits and self.kernels != "jit" else None
        if ahead is not None:
            return ahead
        if self.kernels == "aot":
            why = "this board or jobs > 1 runs on numba's JIT kernels" if not fits else _kernels.missing_reason()
            raise SolverError(f"no ahead-of-time kernels: {why}")
        return _kernels.jit()

    def _book_arrays(self, book: Book | None) -> L.BookArrays:
        """An opening book as the kernel probes it: sorted canonical keys, scores, depth (-1: no book)."""
        if book is None:
            return L.BookArrays(np.zeros(0, np.uint64), np.zeros(0, np.int8), -1)
        try:
            keys, scores, depth = book.keys, book.scores, book.depth
        except AttributeError:
            raise SolverError("book must have depth, keys and scores (see gridgames_connect4.book.Book)") from None
        size = tuple(getattr(book, name, None) for name in ("width", "height", "connect"))
        if size != (None, None, None) and size != (self.width, self.height, self.connect):
            raise SolverError(f"the book is for {size[0]}x{size[1]} connect {size[2]}, not"
                              f" {self.width}x{self.height} connect {self.connect}")
        if self._words != 1:
            raise SolverError("an opening book needs a board of at most 64 bits ((height + 1) x width <= 64)")
        keys = np.ascontiguousarray(keys, dtype=np.uint64)
        scores = np.ascontiguousarray(scores, dtype=np.int8)
        if keys.ndim != 1 or keys.shape != scores.shape:
            raise SolverError("the book's keys and scores must be two arrays of the same length")
        return L.BookArrays(keys, scores, int(depth))

    def _bind_kernel_args(self) -> None:
        """The kernels' structured arguments (plain tuples, see layout), built once: calls stay cheap."""
        self._geometry = tuple(L.BoardConstants(self.width, self.height, self.connect, self._cells, self._bottom,
                                                self._board, self._order, self._colmask, self._cell_values,
                                                self._lower_rows))
        self._ttable = tuple(L.Table(self._table, self._gens, self._buckets, self._wide, self._gen))
        self._kargs = (self._stack, self._geometry, self._ttable, tuple(self._book), _NO_BUSY)

    def _b(self, x: int) -> Any:
        """A bitboard as the kernels take it: a uint64, or a (low, high) pair of them."""
        if self._words == 1:
            return np.uint64(x)
        return (np.uint64(x & _MASK64), np.uint64(x >> 64))

    def _board_array(self, boards: Sequence[int]) -> np.ndarray:
        """Bitboards as a kernel array: uint64 of shape (n,), or (n, 2) for pairs."""
        if self._words == 1:
            return np.array(boards, dtype=np.uint64)
        return np.array([(x & _MASK64, x >> 64) for x in boards], dtype=np.uint64).reshape(len(boards), 2)

    def _make_table(self, key_bits: int) -> None:
        """Allocate the transposition table: buckets of one cache line, a prime number of them."""
        if self.table_bits is not None and self.table_mb is not None:
            raise SolverError("give table_bits or table_mb, not both")
        if self.table_mb is not None:
            mb = self.table_mb
            if not (isinstance(mb, (int, float)) and 0.0625 <= mb <= 16384):
                raise SolverError(f"table_mb must be 0.0625..16384 MiB, got {mb!r}")
            words = int(mb * 2**20) // 8
        else:
            bits = self.table_bits
            if bits is not None and not (isinstance(bits, int) and _MIN_TABLE_BITS <= bits <= _MAX_TABLE_BITS):
                raise SolverError(f"table_bits must be {_MIN_TABLE_BITS}..{_MAX_TABLE_BITS}, got {bits}")
            words = DEFAULT_TABLE_MB * 2**20 // 8 if bits is None else 1 << bits
        self._buckets = _prev_prime(max(words // L.BUCKET_WORDS, 17))
        # narrow entries keep the key's low 32 bits: with the bucket index (key mod a prime) they determine the key
        # when it has fewer than 32 + log2(buckets) bits (Chinese remainder theorem); else the whole key is kept
        self._wide = key_bits > 32 + (self._buckets.bit_length() - 1)
        if key_bits > 96 + (self._buckets.bit_length() - 1):  # the bucket index must supply the key's top bits
            need = 2 ** (key_bits - 95) * _LINE / 2**20  # a prime number of buckets, at least 2 ** (key_bits - 96)
            raise SolverError(f"a {self.width}x{self.height} board needs a table of at least {need:g} MiB to tell its"
                              f" {key_bits}-bit keys apart")
        size = self._buckets * L.BUCKET_WORDS
        self._gen = np.ones(1, dtype=np.int64)
        if not (isinstance(self.jobs, int) and self.jobs >= 1):
            raise SolverError(f"jobs must be a positive integer, got {self.jobs!r}")
        self._busy = np.zeros(0, np.uint64)  # alone: no busy marks
        if self.jobs > 1:  # helper threads share the table
            # numba's JIT kernels: helper threads need the GIL released
            from gridgames_connect4.engine import smp as _smp

            self._helpers = _smp.Helpers(self.jobs - 1)
            self._busy = np.zeros(L.BUSY_SLOTS, np.uint64)
        self._table = _huge_page_zeros(size, np.uint64)  # buckets aligned to cache lines (and huge pages)
        self._gens = _huge_page_zeros(self._buckets, np.uint16)

    @property
    def table_bytes(self) -> int:
        """Memory used by the transposition table, in bytes."""
        return self._table.nbytes

    @property
    def table_entries(self) -> int:
        """Number of positions the transposition table can hold."""
        return self._buckets * L.BUCKET_WORDS // (2 if self._wide else 1)

    def reset(self) -> None:
        """Forget the transposition table (in O(1): its buckets are tagged with a generation)."""
        L.new_generation(self._gen, self._gens)

    def solve_many(self, positions: Sequence[Sequence[int]], weak: bool = False, reset: bool = True) -> list[int]:
        """Scores of many positions in one compiled call (reset: a fresh table for each); explored_each is set.

        A position one disc past the solver's book is solved as `solve` solves it, from its parents' bound in the
        book, so that no position costs more here than alone (the batch kernel bisects from no bound).
        """
        scores = [0] * len(positions)
        each = [0] * len(positions)
        run: list[int] = []  # positions waiting for the batch kernel, in order

        def flush() -> None:
            if not run:
                return
            lengths = [len(positions[i]) for i in run]
            cols = self._columns_array([m for i in run for m in positions[i]])
            starts = np.zeros(len(lengths) + 1, np.int64)
            np.cumsum(lengths, out=starts[1:])
            out, explored = self._solve_moves(cols, starts, weak, reset)
            for i, score, count in zip(run, out.tolist(), explored.tolist()):
                scores[i], each[i] = score, count
            run.clear()

        for i, moves in enumerate(positions):
            if not weak and self._past_book(moves):
                flush()  # the positions before it first: the first bad position's error is the one raised
                if reset:
                    self.reset()
                score = self._solve_bounded(moves, None)
                if score is not None:
                    scores[i], each[i] = score, self.explored
                    continue
            run.append(i)
        flush()
        self.explored_each = each
        self.explored = sum(each)
        return [_sign(x) for x in scores] if weak else scores

    def win_score(self, moves_before: int) -> int:
        """The score (Pons' convention) of winning with the next move after ``moves_before`` moves."""
        return (self.width * self.height + 1 - moves_before) // 2

    def solve(self, moves: Sequence[int], weak: bool = False, *, lower: int | None = None) -> int:
        """Score of the position after `moves` for the side to move (weak: only its sign, -1/0/+1).

        ``lower``: a score the position is known to reach (minus a parent's exact score, from a book), so the
        search first asks whether the score is exactly that: one null window settles a parent's best move.
        A wrong bound gives a wrong score. Ignored when weak. Without it, a position one disc past the solver's
        book takes the best bound of its parents there.
        """
        if not weak and (lower is not None or self._past_book(moves)):
            score = self._solve_bounded(moves, lower)
            if score is not None:
                return score
        if self.on_progress is None and self._helpers is None:  # one compiled call: replay and search
            cols = self._columns_array(moves)
            io = self._io
            io[1] = cols.shape[0]
            self._k.solve_moves((cols, io[:2], weak, False, io[2:3], io[3:4], io[4:5]), *self._kargs)
            if io[4]:
                self._raise_replay(cols, int(io[4]), int(io[2]))
            self.explored = int(io[3])
            score = int(io[2])
            return _sign(score) if weak else score
        p, mask, n = self._position(moves)
        self.explored = 0
        found = self._solve_raw(p, mask, n, weak, _UNLIMITED)
        if found is None:  # no budget runs out here: only on_progress stops the search (solve_within allows that)
            raise SolverError("the search was stopped by on_progress before it had a score (use solve_within)")
        return _sign(found) if weak else found

    def _past_book(self, moves: Sequence[int]) -> bool:
        """Whether the position after `moves` is one disc past the solver's book (its parents there bound it)."""
        return 0 <= self._book[2] == len(moves) - 1

    def _solve_bounded(self, moves: Sequence[int], lower: int | None) -> int | None:
        """The exact score, searched from `lower`, else from its parents' bound in the book (None: they give none)."""
        p, mask, n = self._position(moves)
        self.explored = 0
        if lower is None:
            # The kernel's bisection first, on a small budget: most such positions are settled in a few hundred
            # positions, where stepping from the parents' bound explores more (Begin-Easy's 11 discs: 2.4x the
            # positions, 3x the time); the bound serves the positions that outlast it (bench/README.md).
            score = self._solve_raw(p, mask, n, False, _PLAIN_FIRST)
            if score is not None:
                return score
            lower = self._book_lower(p, mask, n)  # its parents are in the book: their scores bound its score
            if lower is None:
                return self._solve_raw(p, mask, n, False, _UNLIMITED)
        return self._solve_probing(p, mask, n, False, _UNLIMITED, lower)

    def _columns_array(self, moves: Sequence[int]) -> np.ndarray:
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

    def _solve_moves(
        self, cols: np.ndarray, starts: np.ndarray, weak: bool, reset: bool
    ) -> tuple[np.ndarray, np.ndarray]:
        """Run the batch kernel; raise the replay's error of the first bad position."""
        count = starts.shape[0] - 1
        out = np.zeros(count, np.int64)
        explored = np.zeros(count, np.int64)
        status = np.zeros(count, np.int64)
        self._k.solve_moves((cols, starts, weak, reset, out, explored, status), *self._kargs)
        if status.any():
            i = int(np.flatnonzero(status)[0])
            self._raise_replay(cols[starts[i] : starts[i + 1]], int(status[i]), int(out[i]))
        return out, explored

    def _raise_replay(self, columns: np.ndarray, status: int, i: int) -> None:
        """The error of a replay status (see _kernel.replay)."""
        if status == 1:
            raise InvalidMoveError(f"move {i + 1}: column {columns[i]} is out of range 0..{self.width - 1}")
        if status == 2:
            raise IllegalMoveError(f"move {i + 1}: column {columns[i]} is full")
        if status == 3:
            raise GameOverError(f"move {i + 1}: the game is already won")
        if status == 4:
            raise SolverError(f"the position is already won (move {i + 1} completes {self.connect} in a row)")

    def solve_within(
        self, moves: Sequence[int], weak: bool = False, max_nodes: int | None = None, step: bool = False
    ) -> int | None:
        """Like solve, but None when `max_nodes` runs out or on_progress returns False.

        ``step``: null windows step out from 0 instead of bisecting (fewer positions when the score is near 0, as a
        column of a position in play usually is; see `analyze`).
        """
        p, mask, n = self._position(moves)
        self.explored = 0
        solve = self._solve_probing if step else self._solve_raw
        score = solve(p, mask, n, weak, _UNLIMITED if max_nodes is None else max_nodes)
        return None if score is None else _sign(score) if weak else score

    def analyze(
        self, moves: Sequence[int], weak: bool = False, *, into: list[int | None] | None = None
    ) -> list[int | None]:
        """Score of each column for the side to move (None if the column is full, or unsolved when on_progress stopped
        it).

        ``into`` (a list of width items) receives each score as soon as it is known, so that a caller interrupted by
        Ctrl-C keeps the columns already solved.
        """
        p, mask, n = self._position(moves)
        self.explored = 0
        return self._analyze_raw(p, mask, n, weak, _UNLIMITED, into)

    def analyze_many(self, positions: Sequence[Sequence[int]], weak: bool = False) -> list[list[int | None]]:
        """Every column's score of many positions, the children solved in one compiled call (one fresh table for
        all)."""
        children: list[list[int]] = []
        slots: list[tuple[int, int]] = []
        results: list[list[int | None]] = []
        for i, moves in enumerate(positions):
            p, mask, n = self._position(moves)
            row: list[int | None] = [None] * self.width
            wins = self._wins(p, mask)
            for c in range(self.width):
                if not self._can_play(mask, c):
                    continue
                if wins & self._cell(mask, c):
                    row[c] = 1 if weak else (self._cells + 1 - n) // 2
                elif n + 1 == self._cells:
                    row[c] = 0
                else:
                    children.append([*moves, c])
                    slots.append((i, c))
            results.append(row)
        self.reset()  # siblings share subtrees: the table is kept from child to child
        scores = self.solve_many(children, weak=weak, reset=False)
        for (i, c), score in zip(slots, scores):
            results[i][c] = -score
        return results

    def best_move(
        self,
        moves: Sequence[int],
        *,
        max_nodes: int | None = None,
        rng: random.Random | None = None,
        all_scores: bool = True,
    ) -> SearchResult:
        """Best column after `moves`: perfect play, or a depth-limited search if `max_nodes` runs out.

        Exact play first proves the outcome (win, draw or loss), then the score, then which columns keep it (all of
        them when the budget allows, else those proven; ties are broken with `rng`, else the most central column
        wins), then, with `all_scores`, scores the other columns while the budget lasts (None where it ran out).
        When the score does not fit the budget but the outcome did, a column that keeps the win is played
        (`SearchResult.weak`; exact when the score is +1). A depth-limited result only scores the columns that
        lose at once.
        """
        p, mask, n = self._position(moves)
        playable = [c for c in self._order.tolist() if self._can_play(mask, c)]
        if not playable:
            raise SolverError("no legal move: the board is full")
        if max_nodes is not None and (not isinstance(max_nodes, int) or max_nodes < 1):
            raise SolverError(f"max_nodes must be a positive integer, got {max_nodes!r}")
        self.explored = 0
        total = _UNLIMITED if max_nodes is None else max_nodes
        wins = self._wins(p, mask)
        best = [c for c in playable if wins & self._cell(mask, c)]
        score: int | None = (self._cells + 1 - n) // 2
        weak = False
        # at the book's deepest ply every child's other parents are in the book: their scores bound the child's
        bounds = self._bounds_by_parents(p, mask) if n == self._book[2] else {}
        if not best:  # no win at once: prove the outcome, then the score, then which columns reach it
            budget = total - total // 4  # keep a quarter for the depth-limited search
            least = self._book_lower(p, mask, n)  # one disc past the book: its parents' scores bound it
            won = least is not None and least >= 1  # then no search is needed for the outcome
            outcome = 1 if won else self._solve_raw(p, mask, n, True, budget)
            if outcome is not None:  # a sign (a book inside the search can give the exact score at once)
                outcome = _sign(outcome)
            score = None
            if outcome == 0:
                score = 0
            elif outcome is not None:  # the score, within the outcome's side of 0
                lo, hi = (1, (self._cells + 1 - n) // 2) if outcome > 0 else (-((self._cells - n) // 2), -1)
                if least is not None and least > lo:
                    lo = least
                score = self._step_search(p, mask, n, lo, hi, budget - self.explored, at_lo=least is not None)
            if score is not None:  # a won position's score columns get 3/8: the rest, to 7/8, keeps the win if need be
                best = self._columns_reaching(
                    p, mask, n, score, playable, total * 3 // 8 if outcome == 1 else budget, bounds=bounds
                )
            if not best and outcome == 1:  # the score's columns did not fit: keep the win (exact when the score is +1)
                best = self._a_winning_column(p, mask, n, playable, total - total // 8, bounds)
                weak = score != 1
                score = 1
        scores: list[int | None] = [score if c in best else None for c in range(self.width)]
        if best:
            if all_scores and not weak:
                self._fill_scores(p, mask, n, scores, playable, total, bounds)
            column = rng.choice(best) if rng is not None else best[0]
            return SearchResult(column=column, scores=tuple(scores), exact=True, depth=None, weak=weak)
        self._fill_scores(p, mask, n, scores, playable, 0)  # only the moves that lose at once
        column, depth = self._deepening(p, mask, n, max(total - self.explored, total // 8), rng)
        return SearchResult(column=column, scores=tuple(scores), exact=False, depth=depth)

    def nodes_for_seconds(self, seconds: float) -> int:
        """Node budget for about `seconds`, from this solver's measured rate (or the conservative default)."""
        rate: float = DEFAULT_NODE_RATE
        if self._rate_nodes >= 1_000_000 and self._rate_seconds > 0:
            rate = min(self._rate_nodes / self._rate_seconds, 4 * DEFAULT_NODE_RATE)
        return nodes_for_seconds(seconds, rate)

    # -- internals -------------------------------------------------------------------------------------

    def _can_play(self, mask: int, column: int) -> bool:
        return self._geom.can_play(mask, column)

    def _cell(self, mask: int, column: int) -> int:
        """The cell a disc dropped in `column` lands on (the column must not be full)."""
        return self._geom.drop(mask, column)

    def _wins(self, p: int, mask: int) -> int:
        """Empty cells that complete a line for the stones p."""
        return self._geom.winning_cells(p, mask)

    def _wins_at_once(self, p: int, mask: int) -> int:
        """Playable cells that complete a line for the stones p (0: no win at once)."""
        return self._geom.wins_at_once(p, mask)

    def _position(self, moves: Sequence[int]) -> tuple[int, int, int]:
        """Bitboards (stones of the side to move, all stones) and ply count after `moves`, validated."""
        columns = self._columns_array(moves)
        p, mask, status, i = self._k.replay(
            columns, 0, len(columns), self.width, self.height, self.connect, self._bottom, self._board
        )
        if status:
            self._raise_replay(columns, int(status), int(i))
        return _int(p), _int(mask), len(columns)

    def _solve_raw(self, p: int, mask: int, n: int, weak: bool, budget: int) -> int | None:
        """Kernel solve (its bisection); adds to explored; None when the budget ran out."""
        top = (self._cells + 1 - n) // 2
        if self._wins_at_once(p, mask):
            return top
        if weak:
            return self._search(p, mask, n, -1, 1, budget)
        return self._search(p, mask, n, -((self._cells - n) // 2), top, budget)

    def _search(
        self, p: int, mask: int, n: int, lo: int, hi: int, budget: int, book: L.BookArrays | None = None
    ) -> int | None:
        """The score, or where it lies against [lo, hi]; None when the budget ran out (or on_progress said stop).

        The side to move must not be able to win at once. Adds to explored. With jobs > 1, a search still running
        after _SMP_START positions gets jobs - 1 helper threads on the shared table; the first to finish answers.
        ``book``: the book the kernel probes (as `_book_arrays` gives it), default the solver's.
        """
        plain_book = tuple(self._book if book is None else book)
        st = self._stats
        fresh = True
        start = time.perf_counter()
        watch = self.on_progress
        base = self.explored
        stopped = False
        helpers = self._helpers
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
                job = (n, step, fresh, self._b(p), self._b(mask), int(lo), int(hi), 0)  # a plain L.SearchStep
                paused = self._k.run_search(self._stack, self._geometry, self._ttable, plain_book, self._busy, job)
                fresh = False
                self.explored = base + int(st[L.S_NODES])
                if not paused:
                    break
                took = time.perf_counter() - sliced  # slices of about _SLICE_SECONDS, whatever the board's rate
                if took > 2 * _SLICE_SECONDS:
                    slice_nodes = max(1, _SLICE >> 6, slice_nodes // 2)
                elif took < _SLICE_SECONDS / 2:
                    slice_nodes = min(_SLICE, slice_nodes * 2)
                if helpers is not None:
                    answer = helpers.answer()
                    if answer is not None:
                        break
                    if not helpers.threads and st[L.S_NODES] >= _SMP_START:
                        helpers.start(
                            self._stack,
                            (self._geometry, self._ttable, plain_book, self._busy),
                            (n, self._b(p), self._b(mask), int(lo), int(hi)),
                        )
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

    def _analyze_raw(
        self, p: int, mask: int, n: int, weak: bool, budget: int, into: list[int | None] | None = None
    ) -> list[int | None]:
        """Score of each playable column (None: full, or not reached before the budget ran out)."""
        scores: list[int | None] = [None] * self.width if into is None else into
        wins = self._wins(p, mask)
        # at the book's deepest ply a child's parents are in the book (this position among them, unless it wins at
        # once): their scores bound the child's, see solve's lower
        bounds = self._bounds_by_parents(p, mask) if not weak and n == self._book[2] else {}
        for c in self._order.tolist():
            if not self._can_play(mask, c):
                continue
            cell = self._cell(mask, c)
            if wins & cell:
                scores[c] = 1 if weak else (self._cells + 1 - n) // 2
                continue
            if n + 1 == self._cells:
                scores[c] = 0
                continue
            child = self._solve_probing(p ^ mask, mask | cell, n + 1, weak, budget - self.explored, bounds.get(c))
            if child is None:
                break
            scores[c] = -_sign(child) if weak else -child
        return scores

    def _solve_probing(
        self, p: int, mask: int, n: int, weak: bool, budget: int, lower: int | None = None
    ) -> int | None:
        """As `_solve_raw`, but the null windows step out from the draw, not by bisection (for positions in play).

        The kernel's bisection probes halfway towards 0 (Pons'), which suits a position whose score is far from 0 (the
        roots of Pons' Begin-Easy set: 18x the positions when stepping). A child of a position being analysed usually
        scores near 0, where every null window is expensive and bisection asks several of them: so each probe asks
        the next score out from 0 ("above lo?" when lo >= 0, "above hi - 1?" when hi <= 0, else "above 0?"), its
        fail-soft bound moving the window. Exact as `_solve_raw`; bench/README.md, "Null windows stepping out from the
        draw". ``lower`` (strong only): a score the position is known to reach; the null window at it is asked first.
        """
        top = (self._cells + 1 - n) // 2
        if weak or self._wins_at_once(p, mask):
            return self._solve_raw(p, mask, n, weak, budget)
        lo, hi = -((self._cells - n) // 2), top  # the score lies in [lo, hi]
        if lower is not None:
            if isinstance(lower, bool) or not isinstance(lower, int) or lower >= top:
                raise SolverError(f"a lower bound of {lower!r} is impossible after {n} moves on this board")
            lo = max(lower, lo)  # a bound below the worst score bounds nothing more
        return self._step_search(p, mask, n, lo, hi, budget, at_lo=lower is not None)

    def _step_search(self, p: int, mask: int, n: int, lo: int, hi: int, budget: int, at_lo: bool = False) -> int | None:
        """The exact score, known to lie in [lo, hi], by null windows stepping out from 0 (see `_solve_probing`).

        ``at_lo``: ask "above lo?" first (lo is a bound that is often the score). None when the budget ran out.
        """
        start = self.explored
        while lo < hi:
            med = lo if at_lo or lo >= 0 else hi - 1 if hi <= 0 else 0
            at_lo = False
            found = self._search(p, mask, n, med, med + 1, budget - (self.explored - start))
            if found is None:
                return None
            if found > med:
                lo = found
            else:  # the kernel keeps the fail-soft bound of a probe that failed low (one searcher: its own)
                hi = min(med, int(self._stats[L.S_HI])) if self._helpers is None else med
        return lo

    def _bounds_by_parents(self, p: int, mask: int) -> dict[int, int]:
        """Each child's least score by its parents' scores in the book (those it holds), by column.

        A child after a move in column c has a parent for every column whose top disc is the last mover's (the
        position before that disc); it scores at least minus each parent's score (`BookKeys.parent_bounds`).
        """
        columns = [c for c in range(self.width) if self._can_play(mask, c)]
        found = self._parents_bounds([(p ^ mask) + (mask | self._cell(mask, c)) for c in columns])
        return {c: b for c, b in zip(columns, found) if b is not None}

    def _book_lower(self, p: int, mask: int, n: int) -> int | None:
        """A position one disc past the book's depth: its least score by its parents' in the book (None: none)."""
        if self._book[2] < 0 or n != self._book[2] + 1:
            return None
        return self._parents_bounds([p + mask])[0]

    def _parents_bounds(self, keys: list[int]) -> list[int | None]:
        """The least score of each position (key: stones to move + all stones) by its parents' scores in the book."""
        from gridgames_connect4.book import UNKNOWN, BookKeys, scores_of_keys

        if not keys:
            return []
        geometry = BookKeys(self.width, self.height, self.connect)
        book = self.book
        if book is not None and hasattr(book, "score_of_key"):  # one position's parents in Python ints (no numpy)
            found_one = []
            for key in keys:
                mask = self._geom.mask_of_key(key)
                found_one.append(geometry.parent_bound_of(key - mask, mask, book.score_of_key))
            return found_one
        book_keys, book_scores = self._book[0], self._book[1]
        found = geometry.parent_bounds(
            geometry.canonical(np.array(keys, dtype=np.uint64)),
            lambda wanted: scores_of_keys(book_keys, book_scores, wanted),
        )
        return [None if b == UNKNOWN else int(b) for b in found.tolist()]

    def _columns_reaching(
        self,
        p: int,
        mask: int,
        n: int,
        score: int,
        playable: list[int],
        budget: int,
        first: bool = False,
        bounds: dict[int, int] | None = None,
    ) -> list[int]:
        """Playable columns proven to keep `score`, the position's exact score or outcome (no win at once exists).

        Every column is tried with a node budget that doubles each round, so cheap proofs come first: a column is
        settled when its move is proven to keep `score` or to fall short. All of them when the budget allows;
        when it runs out, those proven so far; and when every column but one falls short, that one (some column
        keeps the position's score). [] if none is known when the budget runs out. With `first`, the first found.
        ``bounds``: known least scores of some children, by column; a child bounded at target or more falls short.
        """
        target = 1 - score  # the move keeps `score` unless the opponent then scores at least target
        pending = [c for c in playable if bounds is None or bounds.get(c, target - 1) < target]
        if len(pending) == 1 < len(playable):  # every other column falls short, and some column keeps the score
            return pending
        best: list[int] = []
        step = 1024
        while pending:
            for c in list(pending):
                cp, cm = p ^ mask, mask | self._cell(mask, c)
                reply: int | None
                if self._wins_at_once(cp, cm):
                    reply = (self._cells - n) // 2  # the opponent wins at once
                else:
                    before = self.explored
                    if before >= budget:
                        return [column for column in playable if column in best]
                    given = min(step, budget - before)
                    reply = self._search(cp, cm, n + 1, target - 1, target, given)
                    if reply is None:
                        if self.explored - before < given:  # told to stop (on_progress)
                            return []
                        continue
                pending.remove(c)
                if reply < target:
                    best.append(c)
                    if first:
                        return best
                elif not best and len(pending) == 1:  # every other column falls short, and some column keeps it
                    best = pending
                    pending = []
                    break
            step *= 2
        return [column for column in playable if column in best]

    def _a_winning_column(
        self, p: int, mask: int, n: int, playable: list[int], budget: int, bounds: dict[int, int] | None = None
    ) -> list[int]:
        """One column that keeps a won position's win, [] if out of budget.

        The position is searched for a win first (its best move then sits in the table, so the column is found at
        once); at the opening book's deepest ply the book is left out there, since it would answer at once with
        no move, while the book cannot help below that ply.
        """
        book = self._book_arrays(None) if n >= self._book[2] >= 0 else self._book
        won = self._search(p, mask, n, 0, 1, budget - self.explored, book)
        if won is None or won < 1:
            return []
        return self._columns_reaching(p, mask, n, 1, playable, budget, first=True, bounds=bounds)

    def _fill_scores(
        self,
        p: int,
        mask: int,
        n: int,
        scores: list[int | None],
        playable: list[int],
        budget: int,
        bounds: dict[int, int] | None = None,
    ) -> None:
        """Score the unscored playable columns in place until `budget` (total explored) runs out.

        ``bounds``: known least scores of some children, by column (each child's search starts there).
        """
        lost_at_once = -((self._cells - n) // 2)
        for c in playable:
            if scores[c] is not None:
                continue
            cp, cm = p ^ mask, mask | self._cell(mask, c)
            if self._wins_at_once(cp, cm):
                scores[c] = lost_at_once
                continue
            if self.explored >= budget:
                continue
            child = self._solve_probing(cp, cm, n + 1, False, budget - self.explored, (bounds or {}).get(c))
            if child is not None:
                scores[c] = -child

    def _deepening(self, p: int, mask: int, n: int, budget: int, rng: random.Random | None) -> tuple[int, int]:
        """Iterative-deepening depth-limited search: (best column, deepest completed depth)."""
        stats = self._stats
        moves_at = np.zeros((self._cells + 2, *self._colmask.shape), np.uint64)  # the search's scratch rows by ply
        scores_at = np.zeros((self._cells + 2, self.width), np.int64)
        order = self._order.tolist()
        best_cols = [c for c in order if self._can_play(mask, c)]
        reached = 0
        spent = 0
        wins = self._wins(p, mask)
        watch = self.on_progress
        for depth in range(1, self._cells - n + 1):
            if depth > 1 and watch is not None and watch(SearchProgress(spent, 0.0, -L.INF, L.INF)) is False:
                break  # told to stop (a deadline, Ctrl-C): the deepest completed depth answers
            stats[:] = 0
            limit = _UNLIMITED if depth == 1 else budget - spent
            values: dict[int, int] = {}
            alpha = -L.INF
            for c in best_cols:  # previous best first
                cell = self._cell(mask, c)
                if wins & cell:
                    values[c] = L.WIN_BASE + (self._cells + 1 - n) // 2
                    alpha = max(alpha, values[c])
                    continue
                v = -self._k.limited_search(
                    self._b(p ^ mask),
                    self._b(mask | cell),
                    n + 1,
                    depth - 1,
                    -L.INF,
                    1 - alpha,
                    self.height,
                    self.connect,
                    self._cells,
                    self._bottom,
                    self._board,
                    self._order,
                    self._colmask,
                    stats,
                    limit,
                    moves_at,
                    scores_at,
                )
                if stats[1]:
                    break
                values[c] = v
                alpha = max(alpha, v)
            spent += int(stats[0])
            if stats[1]:
                break
            top = max(values.values())
            ties = [c for c in best_cols if values[c] == top]
            first = rng.choice(ties) if rng is not None else ties[0]
            best_cols = [first] + sorted((c for c in best_cols if c != first), key=lambda c: -values[c])
            reached = depth
            if abs(top) >= L.WIN_BASE:
                break  # proven result: deeper search changes nothing
        self.explored += spent
        return best_cols[0], reached


_HUGE_PAGE = 2 << 20


def _huge_page_zeros(count: int, dtype: Any) -> np.ndarray:
    """A zeroed array aligned to a cache line; from 1 MiB on, to a 2 MiB boundary inside an allocation of at least
    4 MiB: numpy asks Linux for transparent huge pages on those, so random probes of it cost no TLB misses."""
    nbytes = count * np.dtype(dtype).itemsize
    align = _HUGE_PAGE if nbytes >= _HUGE_PAGE // 2 else _LINE
    raw = np.zeros(max(nbytes + align, 2 * _HUGE_PAGE if align == _HUGE_PAGE else 0), np.uint8)
    start = -raw.ctypes.data % align
    return raw[start : start + nbytes].view(dtype)


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


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)
