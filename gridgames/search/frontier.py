"""Counting tilings with unlimited copies of each piece by a frontier (transfer-matrix) dynamic programme.

The backtracking engines enumerate tilings one by one, which is right when each piece is
used once. When any number of copies of each piece may be used (dominoes, L-trominoes,
...), the counts grow far beyond what enumeration can reach (12,988,816 domino tilings of
8x8; about 10^44 of 20x20), and a dynamic programme over the board's cells counts them
exactly in time linear in the area.

Vocabulary:

* **scan order**: cells column by column along the board's shorter side (``index = col * h + row``
  once the board is turned so that ``h <= w``), the order of the tiling engine.
* **anchor**: a placement's first cell in scan order. Every placement is added at its anchor,
  so each tiling is built in exactly one way.
* **frontier** (the DP state): a bit mask of which of the next ``span`` cells, starting at the
  current one, are already covered. ``span`` is one more than the largest distance (in scan
  order) from an anchor to another cell of its placement: ``h + 1`` for dominoes.

The counts are computed modulo a few 61-bit primes in a compiled loop, and put together
exactly by the Chinese remainder theorem; a floating-point run of the same programme tells
how many primes the exact count needs.

>>> count_tilings(Grid.empty(2, 3), [[(0, 0), (0, 1)], [(0, 0), (1, 0)]])
3
>>> count_tilings(Grid.empty(8, 8), DOMINOES)
12988816
"""

from __future__ import annotations

import math
from decimal import Decimal, getcontext, localcontext
from collections.abc import Callable, Iterable, Sequence

import numba
import numpy as np

from gridgames.errors import PuzzleError, ShapeError
from gridgames.grid import EMPTY, Cell, Grid
from gridgames.pieces import Piece
from gridgames.shapes import normalise, scan_key

from gridgames.native import jit_cache

jit_cache(__file__)  # numba caches these kernels in the user's cache folder, never beside them

__all__ = ["DOMINOES", "MAX_SPAN", "Progress", "count_tilings", "fixed_shapes", "frontier_span", "kasteleyn_dominoes"]

DOMINOES: tuple[tuple[Cell, ...], ...] = (((0, 0), (0, 1)), ((0, 0), (1, 0)))
"""The domino, flat and upright: with unlimited copies, the classic domino tilings."""
MAX_SPAN = 24
"""The widest frontier counted (2^24 states, 128 MiB per modulus): dominoes on boards up to 23 cells across."""
_PRIMES = (
    2305843009213693951,  # 2^61 - 1
    2305843009213693921,
    2305843009213693907,
    2305843009213693669,
    2305843009213693613,
    2305843009213693561,
    2305843009213693557,
    2305843009213693537,
)
_BITS_PER_PRIME = 60  # each prime exceeds 2^60


def _normalised(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """The piece's cells by the shared vocabulary (`gridgames.shapes.normalise`), its errors as `PuzzleError`."""
    try:
        return normalise(cells)
    except ShapeError as error:
        raise PuzzleError(f"bad piece: {error}") from None


def _scan_board(board: Grid) -> tuple[np.ndarray, bool]:
    """The board as a boolean "cell to fill" array with rows along the shorter side, and whether it was turned."""
    fill = board.cells == EMPTY
    if fill.shape[0] > fill.shape[1]:
        return fill.T.copy(), True
    return fill, False


def _placement_table(fill: np.ndarray, shapes: Sequence[tuple[Cell, ...]]) -> tuple[np.ndarray, np.ndarray, int]:
    """For each cell (scan order) the frontier masks of the placements anchored there, as a CSR table, and the span."""
    h, w = fill.shape
    starts = [0]
    masks: list[int] = []
    span = 1
    for col in range(w):
        for row in range(h):
            if fill[row, col]:
                for shape in shapes:
                    # the anchor: first cell in scan order
                    ar, ac = min(shape, key=scan_key("column"))
                    offsets = []
                    for r, c in shape:
                        rr, cc = row + r - ar, col + c - ac
                        if not (0 <= rr < h and 0 <= cc < w and fill[rr, cc]):
                            break
                        offsets.append((cc - col) * h + (rr - row))
                    else:
                        span = max(span, max(offsets) + 1)
                        # too wide to count (the caller says so): stop before masks overflow 64 bits
                        if span > MAX_SPAN:
                            return np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64), span
                        masks.append(sum(1 << k for k in offsets))
            starts.append(len(masks))
    return np.array(starts, dtype=np.int64), np.array(masks, dtype=np.int64), span


def fixed_shapes(pieces: Iterable[Piece], one_sided: bool = False) -> list[tuple[Cell, ...]]:
    """Every fixed orientation each piece may take (one-sided: no mirror images), as `count_tilings` takes them."""
    return [orientation.cells for piece in pieces for orientation in piece.orientations(one_sided)]


def frontier_span(board: Grid, pieces: Sequence[Iterable[Cell]]) -> int:
    """The number of cells the frontier tracks (the DP has 2^span states) for this board and these pieces."""
    fill, turned = _scan_board(board)
    shapes = [_normalised(((c, r) if turned else (r, c)) for r, c in p) for p in pieces]
    return _placement_table(fill, shapes)[2]


@numba.njit(cache=True, nogil=True)
def _steps_modular(cur, nxt, blocked, starts, masks, span, prime, i0, i1):  # pragma: no cover - compiled
    """Advance the DP modulo ``prime`` (< 2^62) over cells i0..i1 in scan order; the result is left in ``cur``."""
    size = cur.shape[0]
    n = blocked.size
    a, b = cur, nxt
    for i in range(i0, i1):
        incoming = 0
        if i + span < n and blocked[i + span]:
            incoming = 1 << (span - 1)
        b[:] = 0
        for s in range(size):
            value = a[s]
            if value == 0:
                continue
            if s & 1:
                t = (s >> 1) | incoming
                v = b[t] + value  # both below the prime: one subtraction reduces the sum
                b[t] = v - prime if v >= prime else v
            else:
                for j in range(starts[i], starts[i + 1]):
                    m = masks[j]
                    if s & m == 0:
                        t = ((s | m) >> 1) | incoming
                        v = b[t] + value
                        b[t] = v - prime if v >= prime else v
        a, b = b, a
    if (i1 - i0) % 2 == 1:
        cur[:] = a


@numba.njit(cache=True, nogil=True)
def _steps_log2(cur, nxt, blocked, starts, masks, span, i0, i1):  # pragma: no cover - compiled
    """The same DP in floating point, rescaled at every cell; returns the log2 of the scale taken out (-inf: no
    tiling)."""
    size = cur.shape[0]
    n = blocked.size
    scale = 0.0
    a, b = cur, nxt
    for i in range(i0, i1):
        incoming = 0
        if i + span < n and blocked[i + span]:
            incoming = 1 << (span - 1)
        b[:] = 0.0
        for s in range(size):
            value = a[s]
            if value == 0.0:
                continue
            if s & 1:
                t = (s >> 1) | incoming
                b[t] += value
            else:
                for j in range(starts[i], starts[i + 1]):
                    m = masks[j]
                    if s & m == 0:
                        t = ((s | m) >> 1) | incoming
                        b[t] += value
        top = b.max()
        if top == 0.0:
            return -np.inf
        b /= top
        scale += np.log2(top)
        a, b = b, a
    if (i1 - i0) % 2 == 1:
        cur[:] = a
    return scale


Progress = Callable[[float], None]
"""Called with the fraction of the work done (0..1) between chunks of cells."""


class _Passes:
    """The DP's passes over the cells (one in floating point, then one per prime), in chunks, with progress."""

    def __init__(
        self, blocked: np.ndarray, starts: np.ndarray, masks: np.ndarray, span: int, on_progress: Progress | None
    ) -> None:
        self.blocked, self.starts, self.masks, self.span = blocked, starts, masks, span
        self.on_progress = on_progress
        self.chunk = max(1, (1 << 22) >> span)  # cells per compiled call: about 2^22 state visits
        self.first = 0
        for b in range(min(span, blocked.size)):
            if blocked[b]:
                self.first |= 1 << b
        self.passes = 3.0  # expected passes, for progress (corrected after the first)
        self.done = 0
        self.shown = 0.0

    def _tick(self, cells: int) -> None:
        self.done += cells
        # never backwards
        self.shown = max(self.shown, min(1.0, self.done / (self.passes * self.blocked.size)))
        if self.on_progress is not None:
            self.on_progress(self.shown)

    def log2(self) -> float:
        """log2 of the number of tilings (-inf when there is none)."""
        cur = np.zeros(1 << self.span, dtype=np.float64)
        nxt = np.empty_like(cur)
        cur[self.first] = 1.0
        total = 0.0
        for i in range(0, self.blocked.size, self.chunk):
            j = min(i + self.chunk, self.blocked.size)
            total += _steps_log2(cur, nxt, self.blocked, self.starts, self.masks, self.span, i, j)
            self._tick(j - i)
            if total == -math.inf:
                return -math.inf
        return -math.inf if cur[0] == 0.0 else total + math.log2(cur[0])

    def modular(self, prime: int) -> int:
        """The number of tilings modulo ``prime``."""
        cur = np.zeros(1 << self.span, dtype=np.uint64)
        nxt = np.empty_like(cur)
        cur[self.first] = 1
        for i in range(0, self.blocked.size, self.chunk):
            j = min(i + self.chunk, self.blocked.size)
            _steps_modular(cur, nxt, self.blocked, self.starts, self.masks, self.span, np.uint64(prime), i, j)
            self._tick(j - i)
        return int(cur[0])


def _crt(residues: Sequence[int], moduli: Sequence[int]) -> int:
    """The smallest non-negative integer with these residues (Chinese remainder theorem)."""
    value, modulus = 0, 1
    for r, m in zip(residues, moduli):
        step = ((r - value) * pow(modulus, -1, m)) % m
        value += modulus * step
        modulus *= m
    return value


def count_tilings(board: Grid, pieces: Sequence[Iterable[Cell]], on_progress: Progress | None = None) -> int:
    """The exact number of tilings of ``board``'s empty cells by any number of copies of ``pieces``.

    ``pieces`` are fixed shapes (cells as (row, col)): list every orientation that may be used
    (a rotated domino is a second shape). Holes in the board are left uncovered. ``on_progress``
    gets the fraction done between compiled chunks of about 2^22 state visits, where a Ctrl-C
    (KeyboardInterrupt) also stops the count: a dynamic programme has no partial count to give.
    """
    shapes = sorted({_normalised(p) for p in pieces})
    if not shapes:
        raise PuzzleError("no pieces to tile with")
    fill, turned = _scan_board(board)
    if turned:  # the board was turned a quarter (transposed): so are the pieces
        shapes = sorted({_normalised((c, r) for r, c in shape) for shape in shapes})
    if not fill.any():
        return 1
    starts, masks, span = _placement_table(fill, shapes)
    if span > MAX_SPAN:
        raise PuzzleError(
            f"the frontier would track {span} cells (2^{span} states); at most {MAX_SPAN}: use a narrower board or "
            "smaller pieces"
        )
    blocked = (~fill).T.reshape(-1).copy()  # scan order: column by column
    passes = _Passes(blocked, starts, masks, span, on_progress)
    log2 = passes.log2()
    if log2 == -math.inf:
        return 0
    needed = min(len(_PRIMES), int(log2 // _BITS_PER_PRIME) + 2)
    if log2 > needed * _BITS_PER_PRIME - 2:
        raise PuzzleError(f"the count has about {log2:.0f} bits, more than this counter can put together exactly")
    moduli = _PRIMES[:needed]
    passes.passes = 1.0 + needed
    residues = [passes.modular(p) for p in moduli]
    return _crt(residues, moduli)


_PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899")


def _cos(x: Decimal) -> Decimal:
    """cos(x) by its Taylor series, to the current decimal precision."""
    term, total, k = Decimal(1), Decimal(1), 0
    tiny = Decimal(10) ** -(getcontext().prec - 2)
    while True:
        k += 2
        term = -term * x * x / (k * (k - 1))
        if abs(term) < tiny:
            return total
        total += term


def kasteleyn_dominoes(m: int, n: int) -> int:
    """Domino tilings of the m x n rectangle by Kasteleyn's (and Temperley and Fisher's) product formula.

    An independent check of `count_tilings` (the product of 4cos^2(pi j/(m+1)) + 4cos^2(pi k/(n+1))
    over j <= ceil(m/2), k <= ceil(n/2), evaluated in high-precision decimals and rounded).

    >>> kasteleyn_dominoes(8, 8)
    12988816
    """
    with localcontext() as context:
        # about 0.13 decimal digits per cell in the count, and a margin
        context.prec = 40 + (m * n) // 3
        product = Decimal(1)
        for j in range(1, (m + 1) // 2 + 1):
            for k in range(1, (n + 1) // 2 + 1):
                a = _cos(_PI * j / (m + 1))
                b = _cos(_PI * k / (n + 1))
                product *= 4 * a * a + 4 * b * b
        return int(product.to_integral_value())
