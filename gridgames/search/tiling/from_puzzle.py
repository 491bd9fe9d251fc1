"""An `ExactCoverPuzzle` compiled for the bitmask kernel (`KernelProblem`): a tiling of the board's cells
(`compile_tiling`), or a general exact cover of few items (`compile_general`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import cast

import attrs
import numpy as np

from gridgames.errors import PuzzleError
from gridgames.game import Placement
from gridgames.grid import Cell, Grid
from gridgames.pieces import Piece, board_cells
from gridgames.search.exact_cover import ExactCover
from gridgames.search.tiling import TilingProblem
from gridgames.search.tiling.general import general_problem, piece_name
from gridgames.shapes import Shape
from gridgames.shapes import normalise as normalise_cells

__all__ = ["KernelProblem", "compile_general", "compile_tiling"]


@attrs.frozen(eq=False)
class KernelProblem:
    """A puzzle compiled for the bitmask kernel: the problem, whether its cells are the board's, and the way back to the
    candidates."""

    problem: TilingProblem
    # a tiling of the board's cells (dead-region pruning and the kernel's own symmetry handling apply)
    geometric: bool
    # (the kernel's piece name, its cells) -> the candidate's index
    back: dict[tuple[str, tuple[Cell, ...]], int]


def _kernel_piece(name: str, cells: tuple[Cell, ...], copies: int) -> Piece:
    """A piece for explicit kernel options: its name, one shape (only its size matters: copies never run out),
    copies."""
    return Piece(name, Shape(normalise_cells(cells), name), copies, "fixed")


def compile_tiling(
    problem: ExactCover, items: list[Hashable], board: Grid, group: Callable[[], np.ndarray]
) -> KernelProblem | None:
    """A tiling compiled with the board's cells as the kernel's cells, or None when the problem is no tiling (a
    secondary item, primary items other than the board's cells, a candidate covering other cells than its
    placement's, two on the same cells, or names of several sizes). ``items``: the primary items; ``group()``: the
    declared symmetries as permutations of the candidates (`PlacementGroup.perms`, asked for only for a tiling), whose
    exchanged names become one piece."""
    if problem.num_secondary:
        return None
    labels: tuple[Placement, ...] = problem.labels
    if len(items) != len(set(items)) or set(items) != set(board.board_cells()):
        return None
    cells = cast("list[Cell]", items)  # the board's cells, as checked just above
    position = {cell: i for i, cell in enumerate(cells)}
    for placement, option in zip(labels, problem.options):
        if sorted(position.get(c, -1) for c in placement.cells) != sorted(option):
            return None
    if len({p.cells for p in labels}) != len(labels):
        return None
    # names a symmetry exchanges are one piece for the kernel
    parent = {p.piece: p.piece for p in labels}

    def find(name: str) -> str:
        while parent[name] != name:
            name = parent[name]
        return name

    for g in group()[1:]:
        for k, image in enumerate(g.tolist()):
            a, b = find(labels[k].piece), find(labels[image].piece)
            if a != b:
                parent[max(a, b)] = min(a, b)
    sizes: dict[str, set[int]] = {}
    shapes: dict[str, set[tuple[Cell, ...]]] = {}
    for p in labels:
        sizes.setdefault(find(p.piece), set()).add(len(p.cells))
        shapes.setdefault(find(p.piece), set()).add(normalise_cells(p.cells))
    if any(len(s) != 1 for s in sizes.values()):
        return None
    classes = sorted(sizes)
    order = "column" if board.height <= board.width else "row"
    ordered = board_cells(cells, order)
    bit = {cell: i for i, cell in enumerate(ordered)}
    pieces = [_kernel_piece(name, min(shapes[name]), len(ordered) // min(sizes[name]) + 1) for name in classes]
    which = {name: i for i, name in enumerate(classes)}
    options = [(which[find(p.piece)], [bit[c] for c in p.cells]) for p in labels]
    compiled = TilingProblem.from_options(ordered, order, pieces, options)
    back = {(find(p.piece), p.cells): k for k, p in enumerate(labels)}
    return KernelProblem(compiled, True, back)


def compile_general(problem: ExactCover, max_items: int | None) -> KernelProblem | None:
    """Any exact cover of at most ``max_items`` items (None: any) compiled as a general problem
    (`gridgames.search.tiling.general`), or None (too many items, no primary item, or two candidates of one name on
    the same items)."""
    n = problem.num_items
    if (max_items is not None and n > max_items) or problem.num_primary == 0:
        return None
    labels: tuple[Placement, ...] = problem.labels
    try:
        compiled = general_problem(
            problem.num_primary, problem.num_secondary, ((p.piece, items) for p, items in zip(labels, problem.options))
        )
    except PuzzleError:  # two candidates of one name on the same items: the kernel would merge them
        return None
    back = {
        (piece_name(p.piece, len(items)), tuple((0, i) for i in sorted(items))): k
        for k, (p, items) in enumerate(zip(labels, problem.options))
    }
    return KernelProblem(compiled, False, back)
