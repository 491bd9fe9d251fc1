"""The one-word kernel's arrays of a tiling problem (boards of at most 64 cells and 64 pieces): its probe table of
first-blank candidates, the MRV columns' candidates, masks, borders and deadlines."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from attrs import frozen

from gridgames.search.tiling import kernels

if TYPE_CHECKING:
    from gridgames.search.tiling.problem import TilingProblem

__all__ = ["MAX_TABLE", "PROBE_BITS", "OneWordArrays"]

PROBE_BITS = 8
"""Cells after the first blank one whose occupancy selects the candidate list (one-word boards)."""

MAX_TABLE = 1 << 21
"""Most entries of the probe table; the probe window shrinks until the table fits."""


@frozen(eq=False)
class OneWordArrays:
    """The one-word kernel's arrays of a problem: candidate entries of first-blank and MRV search, masks, borders."""

    probe_bits: int  # cells of the probe window after the first blank cell
    blank_start: np.ndarray  # int32 (cells << probe_bits + 1): entry ranges by (cell, occupancy of the probe window)
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
    late: np.ndarray  # uint64 per cell: pieces with no option anchored at or after the cell (when all must be used)
    region_sizes: np.uint64  # fillable region sizes when all pieces have one size, else 0

    @classmethod
    def compile(cls, problem: TilingProblem) -> OneWordArrays:
        """The one-word arrays of a problem of at most 64 cells and 64 pieces."""
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
        return cls(
            probe, blank_start, blank_mask, blank_piece, blank_run_end, blank_option, masks[mrv_option],
            piece[mrv_option].astype(np.uint8), problem.column_run_end, mrv_option, masks, neighbours, border, late,
            regions
        )
