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


import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from gridgames.native import jit_cache
from gridgames.search.tiling.kernel_types import (
    ALL,
    BASE,
    CAP,
    DEPTH,
    DONE,
    ENTER,
    FREE,
    ITER,
    MRV,
    NODES,
    ONE,
    ORBITS,
    PHASE,
    PRIMARY,
    SCALARS,
    SOLUTIONS,
    STORE,
    TARGET,
    ZERO,
    MultiWordTables,
    OneWordTables,
    SearchState,
)

# the kernel modules take the structured arguments and the state's slots from here (re-exported from kernel_types)
__all__ = [
    "ALL",
    "BASE",
    "CAP",
    "DEPTH",
    "DONE",
    "ENTER",
    "FREE",
    "ITER",
    "MRV",
    "NODES",
    "ONE",
    "ORBITS",
    "PHASE",
    "PRIMARY",
    "SCALARS",
    "SOLUTIONS",
    "STORE",
    "TARGET",
    "ZERO",
    "MultiWordTables",
    "OneWordTables",
    "SearchState",
    "canonical_weight",
    "ctz",
    "record",
    "subset_sums",
]

# before any kernel of this folder compiles or loads: numba caches them in the user's cache folder, stale when any
# source of the folder changed (the other kernel modules import this one first)
jit_cache(__file__)


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
