"""What the two tiling kernels share: the structured arguments, the state slots and phases, and two helpers.

Each kernel takes three arguments: its constant tables (`OneWordTables` or
`MultiWordTables`, named tuples of arrays built once per search by `driver.py`), the
`SearchState` it advances in place, and a node limit. A call stops after the node
limit, or when the output buffer is full, and the next call continues exactly where
it stopped. A kernel reads the fields it needs into locals first and hands its helpers
plain arrays: passing a named tuple of arrays to a helper called per node costs more than
the node (measured: the multi-word kernel ran 1.8x slower that way).

Phases: ENTER (the starting state, not yet examined: it may be a solution, a part to
record, or need its first column), ITER (searching: resume at depth ``d``), DONE (the
subtree under the starting state is exhausted). In split mode (``scalars[TARGET] >= 0``)
a kernel records the prefixes of length TARGET (and shorter solutions) with their
weights instead of descending further.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from gridgames.search.compiled import drop_stale_cache

# the other kernel modules import this one first: before any of them compiles or loads, drop numba's cache of them if
# any of their sources changed since (numba would not notice an edit of this module in their cached kernels)
drop_stale_cache([Path(__file__).with_name(f"{m}.py")
                  for m in ("kernel_build", "kernel_common", "kernel_multi_word", "kernel_one_word")])

# slots of ``SearchState.scalars`` (int64)
DEPTH, BASE, PHASE, NODES, SOLUTIONS, STORE, TARGET, CAP, MRV, FREE, PRIMARY, ORBITS = range(12)
SCALARS = 12
# phases
ENTER, ITER, DONE = 0, 1, 3

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
ZERO = np.uint64(0)
ONE = np.uint64(1)


class SearchState(NamedTuple):
    """The resumable state of one search, owned by the driver and advanced in place by a kernel."""

    scalars: np.ndarray  # int64 (SCALARS,): depth, base depth, phase, nodes, solutions and the options (slots above)
    occupancy: np.ndarray  # uint64 (words,): covered cells (one-word boards: the unused high bits set)
    copies_left: np.ndarray  # int64 (pieces,)
    beg: np.ndarray  # int64 (depths,): first candidate position of each depth's column
    pos: np.ndarray  # int64: next candidate position to try at each depth
    lim: np.ndarray  # int64: end of each depth's candidates
    chosen: np.ndarray  # int64: the option placed at each depth
    weight: np.ndarray  # float64: Knuth's weight of the node at each depth (split mode)
    out: np.ndarray  # int32 (rows, depths): output rows of option indices (solutions or parts)
    out_len: np.ndarray  # int32 (rows,)
    out_weight: np.ndarray  # float64 (rows,)


class OneWordTables(NamedTuple):
    """Constant tables of the one-word kernel (boards of at most 64 cells, at most 64 pieces)."""

    entry_start: np.ndarray  # int32: candidate list k is entries entry_start[k]:entry_start[k + 1]
    entry_mask: np.ndarray  # uint64 per entry: the option's cells
    entry_piece: np.ndarray  # uint8 per entry: the option's piece
    entry_run_end: np.ndarray  # int32 per entry: end of the entry's run of one piece (skips a spent piece)
    entry_option: np.ndarray  # int32 per entry: the option index
    probe_bits: int  # cells after the first blank one whose occupancy selects a first-blank candidate list
    late: np.ndarray  # uint64 per cell: pieces with no option anchored at or after the cell (deadlines)
    option_mask: np.ndarray  # uint64 per option
    option_piece: np.ndarray  # int32 per option
    option_border: np.ndarray  # uint64 per option: cells next to the option, outside it
    neighbours: np.ndarray  # uint64 per cell: its neighbours' bits
    piece_size: np.ndarray  # int64 per piece
    region_sizes: np.uint64  # sizes of regions the pieces fill when they all have one size, else 0
    option_cells: np.ndarray  # int32 (options, max size): cell indices, ascending, -1 padded
    symmetries: np.ndarray  # int32 (G, cells): the permutations to canonicalise by (one row: none)


class MultiWordTables(NamedTuple):
    """Constant tables of the multi-word kernel (any board)."""

    option_masks: np.ndarray  # uint64 (options, words)
    first_word: np.ndarray  # int32 per option: first word its mask touches
    last_word: np.ndarray  # int32 per option: last word its mask touches
    option_piece: np.ndarray  # int32 per option
    candidates: np.ndarray  # int32: option indices, grouped into the columns' candidate lists
    run_end: np.ndarray  # int32 per candidate: end of its run of one piece
    anchor_start: np.ndarray  # int32 (cells + 1): cell c's first-blank candidates: anchor_start[c]:anchor_start[c + 1]
    column_start: np.ndarray  # int32 (columns + 1): MRV candidates of column k
    deadline_piece: np.ndarray  # int64: pieces by their last anchor cell (empty unless every copy must be used)
    deadline_anchor: np.ndarray  # int64: the last anchor cell of each of those pieces
    neighbour_list: np.ndarray  # int32 (cells, 4): neighbour cell indices, -1 padded
    piece_size: np.ndarray  # int64 per piece
    option_cells: np.ndarray  # int32 (options, max size)
    symmetries: np.ndarray  # int32 (G, cells)


@njit(cache=True)
def ctz(x):
    """Index of the lowest set bit of a non-zero uint64 (LLVM's cttz)."""
    return np.int64(trailing_zeros(x))  # type: ignore[call-arg]  # an intrinsic: numba passes its typing context


@njit(cache=True)
def subset_sums(copies_left, piece_size):
    """Bit set (uint64) of the region sizes 0..63 that some multiset of the remaining pieces fills exactly."""
    reach = ONE
    for p in range(copies_left.shape[0]):
        s = piece_size[p]
        if s > 63:
            continue
        for _ in range(copies_left[p]):
            grown = reach | (reach << np.uint64(s))
            if grown == reach:
                break
            reach = grown
    return reach


@njit(cache=True)
def canonical_weight(chosen, d, option_cells, option_piece, symmetries, key, image, orbits):
    """0 unless the solution (options chosen[:d]) is the least of its images under the symmetries; else 1,
    or with ``orbits`` the size of its orbit (the number of symmetries over the number that fix it)."""
    n = key.shape[0]
    for i in range(d):
        o = chosen[i]
        code = option_piece[o] * n + option_cells[o, 0]
        for j in range(option_cells.shape[1]):
            c = option_cells[o, j]
            if c < 0:
                break
            key[c] = code
    fixed = 1
    for g in range(1, symmetries.shape[0]):
        for i in range(d):
            o = chosen[i]
            low = n
            for j in range(option_cells.shape[1]):
                c = option_cells[o, j]
                if c < 0:
                    break
                if symmetries[g, c] < low:
                    low = symmetries[g, c]
            code = option_piece[o] * n + low
            for j in range(option_cells.shape[1]):
                c = option_cells[o, j]
                if c < 0:
                    break
                image[symmetries[g, c]] = code
        same = True
        for c in range(n):
            if image[c] != key[c]:
                if image[c] < key[c]:
                    return 0
                same = False
                break
        if same:
            fixed += 1
    return symmetries.shape[0] // fixed if orbits else 1


@njit(cache=True)
def record(out, out_len, out_weight, row, chosen, d, w):
    """Write chosen[:d] (and weight w) as output row ``row``."""
    out[row, :d] = chosen[:d]
    out_len[row] = d
    out_weight[row] = w
