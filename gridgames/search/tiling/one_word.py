"""The one-word kernel's arrays of a tiling problem (boards of at most 64 cells and 64 pieces): its probe table of
first-blank candidates, the MRV columns' candidates, masks, borders and deadlines."""

from __future__ import annotations

import numpy as np
from attrs import frozen

__all__ = ["MAX_TABLE", "PROBE_BITS", "OneWordArrays"]

PROBE_BITS = 8
"""Cells after the first blank one whose occupancy selects the candidate list (one-word boards)."""

MAX_TABLE = 1 << 21
"""Most entries of the probe table; the probe window shrinks until the table fits."""


@frozen(eq=False)
class OneWordArrays:
    """The one-word kernel's arrays of a problem: candidate entries of first-blank and MRV search, masks, borders."""

    probe_bits: int  # cells of the probe window after the first blank cell
    # int32 (cells << probe_bits + 1): entry ranges by (cell, occupancy of the probe window)
    blank_start: np.ndarray
    blank_mask: np.ndarray  # uint64 per entry: option masks
    blank_piece: np.ndarray  # uint8 per entry: piece indices
    blank_run_end: np.ndarray  # int32 per entry: end of the entry's run of one piece
    blank_option: np.ndarray  # int32 per entry: option indices
    mrv_mask: np.ndarray  # the same four for the MRV columns (ranges: TilingProblem.column_start)
    mrv_piece: np.ndarray
    mrv_run_end: np.ndarray
    mrv_option: np.ndarray
    option_mask: np.ndarray  # uint64 per option
    neighbours: np.ndarray  # uint64 per cell: neighbour masks
    option_border: np.ndarray  # uint64 per option: cells next to the option, outside it
    # uint64 per cell: pieces with no option anchored at or after the cell (when all must be used)
    late: np.ndarray
    region_sizes: np.uint64  # fillable region sizes when all pieces have one size, else 0
