"""The tiling problem's arrays built the slow, obvious way (the construction `TilingProblem.build` used before
it was vectorised): one placement at a time in Python; tests compare the fast build against it field by field."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from gridgames.grid import Cell
from gridgames.lattices import Lattice, lattice_named, translation
from gridgames.pieces import Piece

PROBE_BITS = 8
MAX_TABLE = 1 << 21


def reference_options(
    cells: Sequence[Cell], pieces: Sequence[Any], lattice: Lattice | str = "square"
) -> list[tuple[int, tuple[int, ...]]]:
    """Every placement of every orientation of every piece on the cells: (piece index, sorted cell indices)."""
    grid = lattice_named(lattice)
    index = {cell: i for i, cell in enumerate(cells)}
    options = []
    for p, piece in enumerate(pieces):
        for orientation in piece.orientations():
            form = orientation.cells if isinstance(piece, Piece) else orientation
            first = form[0]
            for anchor in cells:
                shift = translation(grid, first, anchor)
                if shift is None:
                    continue
                idx = [index.get(tuple(a + d for a, d in zip(c, shift)), -1) for c in form]
                if -1 not in idx:
                    options.append((p, tuple(sorted(idx))))
    return options


def _run_ends(keys: np.ndarray) -> np.ndarray:
    starts = np.flatnonzero(keys[1:] != keys[:-1]) + 1
    ends = np.append(starts, len(keys)).astype(np.int32)
    return ends[np.searchsorted(starts, np.arange(len(keys)), side="right")]


def reference_arrays(
    cells: Sequence[Cell], pieces: Sequence[Any], options: Iterable[tuple[int, Sequence[int]]], lattice: str = "square"
) -> dict[str, np.ndarray]:
    """The compiled arrays of the options, by name (the `TilingProblem` and `OneWordArrays` field names)."""
    n = len(cells)
    unique = sorted({(min(cs), p, tuple(sorted(cs))) for p, cs in options})
    words = (n + 63) // 64
    size = max(len(cs) for _, _, cs in unique)
    n_opt = len(unique)
    option_piece = np.array([p for _, p, _ in unique], dtype=np.int32)
    option_cell_rows = np.full((n_opt, size), -1, dtype=np.int32)
    masks = np.zeros((n_opt, words), dtype=np.uint64)
    for o, (_, _, cs) in enumerate(unique):
        option_cell_rows[o, : len(cs)] = cs
        for c in cs:
            masks[o, c >> 6] |= np.uint64(1 << (c & 63))
    anchors = option_cell_rows[:, 0].astype(np.int64)
    columns: list[list[int]] = [[] for _ in range(n + len(pieces))]
    for o, (_, p, cs) in enumerate(unique):
        for c in cs:
            columns[c].append(o)
        columns[n + p].append(o)
    column_options = np.array(
        [o for col in columns for o in sorted(col, key=lambda o: (option_piece[o], o))], dtype=np.int32
    )
    column_start = np.zeros(len(columns) + 1, dtype=np.int32)
    column_start[1:] = np.cumsum([len(x) for x in columns])
    column_id = np.repeat(np.arange(len(columns), dtype=np.int64), [len(x) for x in columns])
    index = {cell: i for i, cell in enumerate(cells)}
    grid = lattice_named(lattice)
    width = 4 if lattice == "square" else max(4, len(grid.neighbours(cells[0])))
    neighbour_list = np.full((n, width), -1, dtype=np.int32)
    for i, cell in enumerate(cells):
        if lattice == "square":
            r, c = cell
            around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        else:
            around = list(grid.neighbours(cell))
        near = [index[x] for x in around if x in index]
        neighbour_list[i, : len(near)] = near
    out = {
        "option_piece": option_piece,
        "option_cell_rows": option_cell_rows,
        "option_masks": masks,
        "first_word": (option_cell_rows[:, 0] >> 6).astype(np.int32),
        "last_word": (option_cell_rows.max(axis=1) >> 6).astype(np.int32),
        "run_end": _run_ends(anchors * len(pieces) + option_piece),
        "anchor_start": np.searchsorted(anchors, np.arange(n + 1)).astype(np.int32),
        "column_start": column_start,
        "column_options": column_options,
        "column_run_end": _run_ends(column_id * len(pieces) + option_piece[column_options]),
        "neighbour_list": neighbour_list,
    }
    if words == 1 and len(pieces) <= 64:
        one = masks[:, 0]
        probe = min(PROBE_BITS, n)
        while True:
            lists = _probe_lists(one, out["anchor_start"], probe)
            if sum(len(x) for x in lists) <= MAX_TABLE or probe <= 1:
                break
            probe -= 2
        blank_start = np.zeros(len(lists) + 1, dtype=np.int32)
        blank_start[1:] = np.cumsum([len(x) for x in lists])
        blank_option = np.concatenate(lists).astype(np.int32)
        entry = np.repeat(np.arange(len(lists), dtype=np.int64), [len(x) for x in lists])
        neighbours = np.zeros(n, dtype=np.uint64)
        for i, row in enumerate(neighbour_list):
            for j in row[row >= 0]:
                neighbours[i] |= np.uint64(1 << int(j))
        padded = np.append(neighbours, np.uint64(0))
        out.update(
            probe_bits=np.array(probe),
            blank_start=blank_start,
            blank_option=blank_option,
            blank_mask=one[blank_option],
            blank_run_end=_run_ends(entry * len(pieces) + option_piece[blank_option]),
            neighbours=neighbours,
            option_border=np.bitwise_or.reduce(padded[option_cell_rows], axis=1) & ~one,
        )
    return out


def _probe_lists(masks: np.ndarray, anchor_start: np.ndarray, probe: int) -> list[np.ndarray]:
    windows = np.arange(1 << probe, dtype=np.uint64)
    lists: list[np.ndarray] = []
    for c in range(len(anchor_start) - 1):
        opts = np.arange(anchor_start[c], anchor_start[c + 1])
        own = (masks[opts] >> np.uint64(c)) >> np.uint64(1) & np.uint64((1 << probe) - 1)
        fits = (own[None, :] & windows[:, None]) == 0
        lists.extend(opts[row] for row in fits)
    return lists
