"""Board symmetries and counting solutions up to symmetry, for any board shape.

A symmetry of a board is one of the 8 rotations/reflections of the square grid
(`gridgames.shapes.SQUARE_SYMMETRIES`, the same maps that turn shapes),
followed by the translation that maps the board's cell set onto itself. It is
represented as a permutation of cell indices (``perm[i]`` = index of the image of
cell ``i``); `board_symmetries` returns them as an ``(G, n)`` array, identity first.

Two ways of counting distinct solutions (orbits of the group on solutions):

* restriction -- pick a piece used exactly once whose placements the group acts
  on freely (no non-identity symmetry maps a placement onto itself), keep one
  placement per orbit (`orbit_representatives`). Then the group acts freely on
  solutions too, each orbit holds exactly one solution with the piece on a kept
  placement, and the restricted count equals the number of distinct solutions.
* canonicalisation -- map each solution by every group element and count it only
  when it is the least of its images (`canonical_form`); slower, always valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from gridgames.grid import Cell
from gridgames.shapes import SQUARE_SYMMETRIES


def board_symmetries(cells: Sequence[Cell]) -> np.ndarray:
    """The board's symmetry group as an (G, n) int32 array of cell-index permutations, identity first."""
    index = {cell: i for i, cell in enumerate(cells)}
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    perms = []
    for _, transform in SQUARE_SYMMETRIES:
        image = [transform(r, c) for r, c in cells]
        dr = r0 - min(r for r, _ in image)
        dc = c0 - min(c for _, c in image)
        moved = [index.get((r + dr, c + dc), -1) for r, c in image]
        if -1 not in moved and moved not in perms:
            perms.append(moved)
    return np.array(perms, dtype=np.int32).reshape(len(perms), len(cells))


def option_images(perms: np.ndarray, option_cells: Sequence[Sequence[int]], option_piece: Sequence[int]) -> np.ndarray:
    """For each symmetry and option, the index of the image option of the same piece, or -1 when there is none."""
    lookup = {(int(p), frozenset(int(c) for c in cs)): o for o, (p, cs) in enumerate(zip(option_piece, option_cells))}
    images = np.full((len(perms), len(option_cells)), -1, dtype=np.int64)
    for g, perm in enumerate(perms):
        for o, (p, cs) in enumerate(zip(option_piece, option_cells)):
            images[g, o] = lookup.get((int(p), frozenset(int(perm[c]) for c in cs)), -1)
    return images


def problem_symmetries(
    perms: np.ndarray, option_cells: Sequence[Sequence[int]], option_piece: Sequence[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The board symmetries mapping every placement onto a placement of the same piece, with their option images."""
    images = option_images(perms, option_cells, option_piece)
    keep = (images >= 0).all(axis=1)
    return perms[keep], images[keep]


def free_pieces(
    images: np.ndarray, option_piece: np.ndarray | Sequence[int], counts: np.ndarray | Sequence[int]
) -> list[int]:
    """Pieces used exactly once on whose placements the group acts freely (no placement fixed by a non-identity)."""
    piece_of = np.asarray(option_piece)
    out = []
    for p, count in enumerate(counts):
        if count != 1:
            continue
        opts = np.flatnonzero(piece_of == p)
        if opts.size and not any((images[g, opts] == opts).any() for g in range(1, len(images))):
            out.append(p)
    return out


def orbit_representatives(images: np.ndarray, options: Iterable[int]) -> list[int]:
    """One option per orbit under the group (the least index of each orbit), sorted."""
    return sorted({int(images[:, o].min()) for o in options})


CanonicalForm = tuple[tuple[int, tuple[int, ...]], ...]
"""A solution as sorted pairs of piece index and sorted cell indices."""


def canonical_form(perms: np.ndarray, solution: Iterable[tuple[int, Iterable[int]]]) -> CanonicalForm:
    """The least image of a solution (pairs of piece index and cell indices) under the group: equal for one orbit."""
    pairs = [(int(p), tuple(int(c) for c in cs)) for p, cs in solution]
    return min(tuple(sorted((p, tuple(sorted(int(perm[c]) for c in cs))) for p, cs in pairs)) for perm in perms)


def count_distinct(perms: np.ndarray, solutions: Iterable[Iterable[tuple[int, Iterable[int]]]]) -> int:
    """The number of orbits among the solutions, by canonicalising each (the reference method)."""
    return len({canonical_form(perms, s) for s in solutions})
