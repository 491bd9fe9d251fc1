"""How `count` searches a one-word problem by first-blank search: the scan order and the piece pre-placed at its orbit
representatives, chosen by Knuth's estimates of the trees (random descents, `estimate_tree`)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from gridgames.search.tiling import kernel_types as K
from gridgames.search.tiling import kernels
from gridgames.search.tiling.orbits import Preplaced, free_pieces, plan, preplaced
from gridgames.lattices import AXIS_ORDERS
from gridgames.search.tiling.problem import TilingProblem
from gridgames.search.tiling.stepping import Search


PLAIN_FIRST = 1 << 17
"""Nodes of plain search tried before counting all by orbits with MRV or on several words (a tree that small is done
before the set-up would pay); on one word with first-blank search, `plan_count` pre-places the free piece with the
fewest orbits, without estimating the pieces' trees, when the plain tree is estimated under this."""

PLAIN_ONLY = 1 << 14
"""Plain trees estimated under this many nodes are searched as they are: the symmetry set-up (0.2-0.5 ms) would cost
about as much as the nodes it saves."""


PROBE_PATHS = (128, 8192)
"""Fewest and most random descents per estimate when `plan_count` and `choose_preplaced` compare trees."""

PROBE_SHARE = 4000
"""One descent per this many nodes of the tree to be searched (the plain tree's estimate over |G|): a descent costs
about as much as 100 nodes of the search, so the estimates of a large tree cost about a fortieth of the count."""


def _descents(nodes: float, ways: int = 1) -> int:
    """Descents for each of ``ways`` estimates, for a tree of about ``nodes`` (`PROBE_SHARE`, within `PROBE_PATHS`)."""
    return int(min(max(nodes / PROBE_SHARE / ways, PROBE_PATHS[0]), PROBE_PATHS[1]))


PROBE_SEED = 0
"""The random descents' seed: the same problem gets the same choices."""


def estimate_tree(search: Search, roots: Sequence[int], paths: int, seed: int | None = None) -> tuple[float, float]:
    """Knuth's estimate of the nodes first-blank search visits below each of ``roots`` (options placed first), summed,
    from ``paths`` random descents, and its standard error (one-word problems; ``search``: tables, start, pruning).
    No roots is an empty tree, (0.0, 0.0): the problem has no solution when they are the options of the first cell."""
    root_options = np.asarray(roots, dtype=np.int64)
    if root_options.size == 0:
        return 0.0, 0.0
    mean, error = kernels.estimate(
        search.tables,
        search.start_occupancy[0],
        search.start_copies,
        root_options,
        int(search.state.scalars[K.CAP]),
        paths,
        PROBE_SEED if seed is None else seed,
    )
    return float(mean), float(error)


def _upper(estimate: tuple[float, float]) -> float:
    """An estimate plus twice its standard error: a tree whose few descents missed its heavy tail is not preferred."""
    return estimate[0] + 2 * estimate[1]


FIRST_PATHS = 64
"""Random descents telling a tiny or small plain tree (under `PLAIN_ONLY` or `PLAIN_FIRST` nodes) from a larger one,
whose plan then estimates it again from `ORDER_PATHS`[0] (64 descents cost about 0.1 ms; 3x20's 69k nodes are estimated
at 61-110k, the other boards' trees at over 0.2M)."""

ORDER_PATHS = (256, 1024)
"""Random descents estimating the plain tree first, and at least those for each order `plan_count` compares."""

ORDER_PROBE_FROM = 1 << 22
"""Plain trees over |G| (at most 8 on a square board) of fewer estimated nodes are searched along the diagonals on
`_squarish` boards without comparing the orders: the comparison (2 x 1024 descents and a reordered problem, about
20 ms) costs as much as the count there (8x8-centre: 0.02-0.03 s along the diagonals, 0.03-0.06 s by columns)."""


def _plain_estimate(
    problem: TilingProblem, prune: bool, paths: int, root: Search | None = None
) -> tuple[Search, float]:
    """A first-blank search of the problem (not started; ``root`` if given) and Knuth's estimate of its plain tree's
    nodes (0: proved empty, by the colouring or by no option covering the first cell)."""
    if root is None:
        root = Search(
            plan(problem, False, "search").prep, mrv=False, prune=prune, prefix=(), target=-1, store=False, buffer=0
        )
    # proved empty by the colouring (nothing to search), or no estimate asked for
    if root.done or paths == 0:
        return root, 0.0
    first = range(int(problem.anchor_start[0]), int(problem.anchor_start[1]))
    return root, len(first) + estimate_tree(root, first, paths)[0]


def _squarish(problem: TilingProblem) -> bool:
    """True when the board's bounding box is at most 1.5 times as long as wide: diagonals can pay only there (measured,
    counts by orbits: 1.4-2.6x more nodes on 6x10, 5x12 and 4x15, 0.64-0.73x on 8x8 and 8x8 less its centre)."""
    rows = [r for r, _ in problem.cells]
    cols = [c for _, c in problem.cells]
    height, width = 1 + max(rows) - min(rows), 1 + max(cols) - min(cols)
    return max(height, width) <= 1.5 * min(height, width)


@functools.lru_cache(maxsize=16)
def plan_count(problem: TilingProblem, *, prune: bool = True) -> tuple[TilingProblem, Preplaced | None]:
    """How `count` counts all on a one-word problem by first-blank search: the problem in the scan order to search
    (its own, or along the diagonals when Knuth's estimate of the plain tree there is under 0.8 of its own, on boards
    `_squarish` enough; below `ORDER_PROBE_FROM` the diagonals without comparing) and the piece to pre-place there
    (`choose_preplaced`; None: the plain search). The estimates take `_descents` in proportion to the tree:
    `FIRST_PATHS` first, which settle a tiny tree (the plain search), a small one (the fewest orbits) and a squarish
    board's tree well under `ORDER_PROBE_FROM` (the diagonals); larger trees are estimated again. Counts do not depend
    on the order."""
    root, plain = _plain_estimate(problem, prune, FIRST_PATHS)
    if plain <= PLAIN_ONLY:
        return problem, None
    # a small tree: the fewest orbits, no estimates (they would cost as much as they save)
    if plain <= PLAIN_FIRST:
        return problem, preplaced(problem)
    squarish = problem.lattice == "square" and problem.order != "diagonal" and _squarish(problem)
    if (
        not squarish or plain / 8 >= ORDER_PROBE_FROM / 4
    ):  # else the diagonals anyway: a closer estimate changes nothing
        root, plain = _plain_estimate(problem, prune, ORDER_PATHS[0], root)
    if problem.lattice == "cubic" and problem.order not in AXIS_ORDERS and plain / 8 >= ORDER_PROBE_FROM / 2:
        problem, root = _least_axis_order(problem, prune, root)
        root, plain = _plain_estimate(problem, prune, ORDER_PATHS[0], root)
    if squarish:
        other = problem.reordered("diagonal")
        # too small a tree for the comparison to pay: the measured default
        if plain / 8 < ORDER_PROBE_FROM:
            other_root, _ = _plain_estimate(other, prune, 0)
            return other, _choose(other, other_root, plain)
        # a square board has at most 8 symmetries
        paths = max(ORDER_PATHS[1], _descents(plain / 8, 2))
        _, plain = _plain_estimate(problem, prune, paths, root)
        other_root, alternative = _plain_estimate(other, prune, paths)
        if alternative < 0.8 * plain:
            problem, plain, root = other, alternative, other_root
    return problem, _choose(problem, root, plain)


def _least_axis_order(problem: TilingProblem, prune: bool, root: Search) -> tuple[TilingProblem, Search]:
    """The cubic board's scan order (`AXIS_ORDERS`) in which Knuth's estimate of the least tree below a free piece's
    representatives (the pieces `_choose` weighs: at most 3x the fewest orbits; the same placements in every order)
    is least, from `ORDER_PATHS`[0] descents a piece (about 10 ms an order on 2x5x6); the build's order is kept
    unless another is under 0.8 of it. No one rule wins: flat pentacubes, distinct tilings by orbits, 2x5x6 visits
    5.3 M nodes filling a 5x6 layer first and 13.6 M with the longest axis slowest; 2x3x10 1.2 M and 0.17 M. The
    plain trees' estimates are too noisy to tell (2x5x6: 0.7-1.1 x 10^8 in four orders). The problem and its root
    search."""
    frees = free_pieces(problem)
    if not frees:
        return problem, root
    fewest = min(len(f.representatives) for f in frees)
    weighed = [f for f in frees if len(f.representatives) <= 3 * fewest]
    placed = [
        [
            (int(problem.option_piece[o]), [problem.cells[int(c)] for c in problem.option_cells(o)])
            for o in f.representatives
        ]
        for f in weighed
    ]
    best = (min(estimate_tree(root, f.representatives, ORDER_PATHS[0])[0] for f in weighed), problem, root)
    for order in AXIS_ORDERS:
        other = problem.reordered(order)
        if other.cells == problem.cells or other.one_word is None:
            continue
        bit = {cell: i for i, cell in enumerate(other.cells)}
        masks, pieces = other.option_masks[:, 0], other.option_piece
        other_root, _ = _plain_estimate(other, prune, 0)
        estimate = min(
            estimate_tree(
                other_root,
                [
                    int(np.flatnonzero((masks == np.uint64(sum(1 << bit[c] for c in cells))) & (pieces == piece))[0])
                    for piece, cells in representatives
                ],
                ORDER_PATHS[0],
            )[0]
            for representatives in placed
        )
        if estimate < 0.8 * best[0]:
            best = (estimate, other, other_root)
    return best[1], best[2]


@functools.lru_cache(maxsize=16)
def choose_preplaced(problem: TilingProblem, *, prune: bool = True, plain: float | None = None) -> Preplaced | None:
    """The free piece to pre-place when counting all by orbits, chosen by Knuth's estimates of the trees; None when
    the plain search is estimated no larger (or under `PLAIN_FIRST` nodes) or no piece is free.

    The plain tree is estimated from `ORDER_PATHS`[0] descents (unless ``plain`` gives that estimate); each free piece
    with at most 3x the fewest orbits of placements gets its share of `_descents`, and the least estimate plus
    twice its standard error wins (a heavy-tailed tree is often underestimated by few descents). One-word problems,
    first-blank search (`estimate_tree`).
    """
    root, estimated = _plain_estimate(problem, prune, ORDER_PATHS[0] if plain is None else 0)
    return _choose(problem, root, estimated if plain is None else plain)


def _choose(problem: TilingProblem, root: Search, plain: float) -> Preplaced | None:
    """`choose_preplaced` given the problem's root search and the estimate of its plain tree."""
    frees = free_pieces(problem)
    if plain <= PLAIN_FIRST or not frees:
        return None
    fewest = min(len(f.representatives) for f in frees)
    candidates = [f for f in frees if len(f.representatives) <= 3 * fewest]
    paths = _descents(plain / frees[0].group, len(candidates))
    sizes = [_upper(estimate_tree(root, f.representatives, paths)) if len(candidates) > 1 else 0.0 for f in candidates]
    best = min(range(len(candidates)), key=lambda i: (sizes[i], len(candidates[i].representatives)))
    return None if sizes[best] >= plain else candidates[best]
