"""Counting up to symmetry: restrict one piece to one placement per orbit, or canonicalise every solution.

The group is the board's symmetries (`gridgames.search.symmetry.board_symmetries`, or on the
other lattices `gridgames.lattices.board_symmetries`) that also map the placements of each piece
onto placements of that piece.
"""

from __future__ import annotations

import functools

import numpy as np
from attrs import frozen

from gridgames import lattices
from gridgames.errors import PuzzleError, SolverError
from gridgames.parsing import check_memory
from gridgames.search import symmetry
from gridgames.search.tiling import kernels
from gridgames.search.tiling.kernel_types import SQUARE_MAPS
from gridgames.search.tiling.problem import TilingProblem

Unique = bool | str
"""How to treat symmetric solutions: False (count all), True (one per symmetry class, method chosen
automatically), "canonical" (one per class, by canonicalising each solution), or a piece name
(one per class, by restricting that piece; it must qualify, see `prepare_unique`)."""


@frozen(eq=False)
class Prepared:
    """A problem ready to search: possibly restricted for unique counting, with the permutations to canonicalise by."""

    problem: TilingProblem
    perms: np.ndarray  # (G, n) int32; one row (identity) when no canonicalisation is needed
    method: str  # "all", "restricted to <piece>", "canonical (G symmetries)", "no symmetry"
    group: np.ndarray  # the problem's symmetry group (G, n)


def board_permutations(problem: TilingProblem) -> np.ndarray:
    """The board's symmetry group as (G, n) cell-index permutations, identity first, on the problem's lattice."""
    # compiled (`symmetry.board_symmetries` in Python cost 0.2-0.3 ms)
    if problem.lattice == "square":
        square: np.ndarray = kernels.square_symmetries(
            np.array(problem.cells, dtype=np.int64).reshape(-1, 2), SQUARE_MAPS
        )
        return square
    index: dict[tuple[int, ...], int] = {cell: i for i, cell in enumerate(problem.cells)}
    maps = lattices.board_symmetries(lattices.lattice_named(problem.lattice), problem.cells)
    perms = [[index[m[cell]] for cell in problem.cells] for m in maps]
    identity = list(range(problem.n_cells))
    perms.sort(key=lambda perm: perm != identity)  # the identity first
    return np.array(perms, dtype=np.int32).reshape(len(perms), problem.n_cells)


def images_bytes(problem: TilingProblem, group: int) -> int:
    """About the peak memory of `option_images` by numpy for ``group`` permutations: the images' masks (one per
    permutation and option), the masks sorted with the options', and the index arrays of the sort (measured: 16.2 GB
    for 1,000 distinct dominoes on 20x100, where this gives 16.6)."""
    size = problem.option_cell_rows.shape[1] if problem.option_cell_rows.ndim == 2 else 1
    return 8 * problem.n_options * (3 * (group + 1) * problem.words + 3 * group * size + 6 * (group + 1))


def option_images(problem: TilingProblem, perms: np.ndarray) -> np.ndarray:
    """For each permutation and option, the option of the same piece covering the image cells, or -1 (compiled on one
    word, else numpy)."""
    if problem.words == 1:
        images: np.ndarray = kernels.option_images(
            problem.option_masks[:, 0],
            problem.option_piece,
            problem.option_cell_rows,
            np.asarray(perms, dtype=np.int64),
        )
        return images
    rows = problem.option_cell_rows
    n_opt, words = problem.n_options, problem.words
    check_memory(
        images_bytes(problem, len(perms)), what=f"the board's symmetries over {n_opt:,} placements", error=PuzzleError
    )
    pad = rows < 0
    # (G, options, size)
    mapped = np.where(pad[None], 0, np.asarray(perms, dtype=np.int64)[:, np.maximum(rows, 0)])
    bits = np.where(pad[None], np.uint64(0), np.left_shift(np.uint64(1), (mapped & 63).astype(np.uint64)))
    masks = np.zeros((len(perms), n_opt, words), dtype=np.uint64)
    for w in range(words):
        masks[:, :, w] = np.bitwise_or.reduce(np.where(mapped >> 6 == w, bits, np.uint64(0)), axis=2)
    # the options (tag 0) and the images (tag 1) sorted together by (piece, mask): an image is the option heading
    # its run
    keys = np.concatenate([problem.option_masks, masks.reshape(-1, words)])
    piece = np.concatenate([problem.option_piece, np.tile(problem.option_piece, len(perms))])
    tag = np.repeat([0, 1], [n_opt, len(perms) * n_opt])
    order = np.lexsort((tag, *(keys[:, w] for w in range(words)), piece))
    keys, piece, tag = keys[order], piece[order], tag[order]
    head = np.ones(len(order), dtype=bool)
    head[1:] = (piece[1:] != piece[:-1]) | (keys[1:] != keys[:-1]).any(axis=1)
    run = np.cumsum(head) - 1
    # the option heading each run, or -1 when the run has none
    owner = np.where(tag[head] == 0, order[head], -1)
    found = np.empty(len(order), dtype=np.int64)
    found[order] = owner[run]
    return found[n_opt:].reshape(len(perms), n_opt)


def problem_symmetries(problem: TilingProblem) -> tuple[np.ndarray, np.ndarray]:
    """The board symmetries mapping every placement onto a placement of the same piece, with their option images."""
    perms = board_permutations(problem)
    images = option_images(problem, perms)
    keep = (images >= 0).all(axis=1)
    return perms[keep], images[keep]


@functools.lru_cache(maxsize=16)
def prepare_unique(problem: TilingProblem, unique: Unique = True) -> Prepared:
    """How to count up to symmetry: restrict a piece to one placement per orbit if one qualifies, else canonicalise.

    A restricted piece must be used exactly once in every solution (so the pieces' area
    must equal the board's), and no non-identity symmetry may fix any of its placements;
    it keeps the least option (the earliest anchor in scan order) of each orbit.
    Automatically, the qualifying piece whose kept placements end earliest in scan order
    is chosen (fewest kept placements on ties): the search then abandons, as soon as the
    scan passes them, every branch that has not placed it.
    """
    identity = np.arange(problem.n_cells, dtype=np.int32)[None, :]
    if unique is False:
        return Prepared(problem, identity, "all", identity)
    perms, images = problem_symmetries(problem)
    if len(perms) == 1:
        return Prepared(problem, identity, "no symmetry", perms)
    # a restricted piece must appear in every solution: only when every copy must be used
    eligible = symmetry.free_pieces(images, problem.option_piece, problem.counts) if problem.exact else []
    if isinstance(unique, str) and unique != "canonical":
        if unique not in problem.piece_names:
            raise SolverError(f"cannot restrict {unique!r}: no piece of that name")
        piece = problem.piece_names.index(unique)
        if piece not in eligible:
            raise SolverError(
                f"cannot restrict piece {unique!r}: it is used more than once, may be left unused,"
                " or a symmetry fixes one of its placements"
            )
        eligible = [piece]
    if not eligible or unique == "canonical":
        return Prepared(problem, perms, f"canonical ({len(perms)} symmetries)", perms)
    kept = {p: symmetry.orbit_representatives(images, np.flatnonzero(problem.option_piece == p)) for p in eligible}
    piece = min(eligible, key=lambda p: (max(problem.option_cell_rows[o, 0] for o in kept[p]), len(kept[p]), p))
    others = np.flatnonzero(problem.option_piece != piece)
    restricted = problem.restrict([*others.tolist(), *kept[piece]])
    return Prepared(restricted, identity, f"restricted to {problem.pieces[piece].name}", perms)
