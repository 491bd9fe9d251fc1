"""The tiling kernels' structured arguments, state slots, phases and bit constants, without numba.

The driver and the problem builder import only this module and `kernels` until a kernel runs, so a process that
runs the kernels built ahead of time (`kernels`) never imports numba. `kernel_common` re-exports everything here
for the kernels themselves.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

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

    # int64 (SCALARS,): depth, base depth, phase, nodes, solutions and the options (slots above)
    scalars: np.ndarray
    # uint64 (words,): covered cells (one-word boards: the unused high bits set)
    occupancy: np.ndarray
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
    # int32 per entry: end of the entry's run of one piece (skips a spent piece)
    entry_run_end: np.ndarray
    entry_option: np.ndarray  # int32 per entry: the option index
    # cells after the first blank one whose occupancy selects a first-blank candidate list
    probe_bits: int
    # uint64 per cell: pieces with no option anchored at or after the cell (deadlines)
    late: np.ndarray
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
    # int32 (cells + 1): cell c's first-blank candidates: anchor_start[c]:anchor_start[c + 1]
    anchor_start: np.ndarray
    column_start: np.ndarray  # int32 (columns + 1): MRV candidates of column k
    # int64: pieces by their last anchor cell (empty unless every copy must be used)
    deadline_piece: np.ndarray
    deadline_anchor: np.ndarray  # int64: the last anchor cell of each of those pieces
    neighbour_list: np.ndarray  # int32 (cells, 4): neighbour cell indices, -1 padded
    piece_size: np.ndarray  # int64 per piece
    option_cells: np.ndarray  # int32 (options, max size)
    symmetries: np.ndarray  # int32 (G, cells)


SQUARE_MAPS = np.array(
    [
        (1, 0, 0, 1),
        (0, 1, -1, 0),
        (-1, 0, 0, -1),
        (0, -1, 1, 0),
        (1, 0, 0, -1),
        (-1, 0, 0, 1),
        (0, 1, 1, 0),
        (0, -1, -1, 0),
    ],
    dtype=np.int64,
)
"""`gridgames.shapes.SQUARE_SYMMETRIES` in its order, as matrices: (r, c) -> (a r + b c, c' r + d c) for rows
(a, b, c', d)."""
