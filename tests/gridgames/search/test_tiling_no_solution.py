"""Problems with no solution answer 0 on every path (issue 45: the tree estimate divided by an empty tree).

The first cell of these boards (in bit order) is covered by no placement, so the plain tree below it is empty:
planning a count by Knuth's random descents below no root divided by zero. Boards over 64 cells take the
multi-word kernel; ``multiword=True`` forces it on the small ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gridgames.grid import Grid
from gridgames.lattices import CUBIC, HEXAGONAL, SQUARE, TRIANGULAR, Lattice, free_forms
from gridgames.pieces import LatticePiece, Piece
from gridgames.search import tiling
from gridgames.search.tiling.parallel_count import count_parallel
from gridgames.search.tiling import TilingProblem
from gridgames.shapes import Shape

# issue 45's two reports: the board, and the pieces as (name, picture, copies); the brute-force count is 0
ISSUE = {
    "y5-i3": ("..##.\n.....", [("Y5", ".#\n##\n.#\n.#", 1), ("I3", "###", 1)]),
    "p5x2-l3": ("....\n###.\n....\n....", [("P5", "##\n##\n#.", 2), ("L3", "#.\n##", 1)]),
}


def issue_problem(name: str) -> TilingProblem:
    """One of the issue's problems, compiled as `gridgames solve pentomino --board-file ... --pieces-file ...` does."""
    board, pieces = ISSUE[name]
    return TilingProblem.build(
        Grid.from_text(board), [Piece(n, Shape.from_text(picture), k) for n, picture, k in pieces]
    )


def piece(lattice: Lattice, name: str, cells: tuple[tuple[int, ...], ...], count: int) -> Piece | LatticePiece:
    return Piece(name, Shape(cells), count) if lattice is SQUARE else LatticePiece(name, lattice.name, cells, count)


def build(lattice: Lattice, cells: list[tuple[int, ...]], pieces: list[Any]) -> TilingProblem:
    return TilingProblem.build(cells, pieces, lattice=None if lattice is SQUARE else lattice)


def box(lattice: Lattice, size: int) -> list[tuple[int, ...]]:
    """A parallelogram (a box on the cubic lattice) about ``size`` cells on a side."""
    if lattice is SQUARE:
        return [(r, c) for r in range(size) for c in range(size + 1)]
    if lattice is TRIANGULAR:
        return [(a, b, s - a - b) for a in range(size) for b in range(size) for s in (1, 2)]
    if lattice is HEXAGONAL:
        return [(x, -x - z, z) for z in range(size) for x in range(size + 1)]
    return [(x, y, z) for x in range(2) for y in range(size // 2) for z in range(size)]


def cut_off_first_cell(lattice: Lattice, board: list[tuple[int, ...]]) -> tuple[list[tuple[int, ...]], list[Any]]:
    """The board less the neighbours of its first cell in bit order, and pieces of 3 and 2 cells covering its area:
    the first cell is alone, so no placement covers it and the tree is empty (the colouring may not say so)."""
    first = build(lattice, board, [piece(lattice, "m", (lattice.origin,), 1)]).cells[0]
    cells = [c for c in board if c not in lattice.neighbours(first)]
    threes = len(cells) // 3 - (len(cells) % 3 == 1)  # 3 x threes + 2 x twos = the area
    twos = (len(cells) - 3 * threes) // 2
    forms = [("t", free_forms(lattice, 3)[-1], threes), ("d", free_forms(lattice, 2)[0], twos)]
    pieces = [piece(lattice, name, form, copies) for name, form, copies in forms if copies]
    assert build(lattice, cells, pieces).cells[0] == first  # still the first cell
    return cells, pieces


def isolated_problem(lattice: Lattice, size: int) -> TilingProblem:
    return build(lattice, *cut_off_first_cell(lattice, box(lattice, size)))


LATTICES = (SQUARE, TRIANGULAR, HEXAGONAL, CUBIC)
PROBLEMS: dict[str, Any] = {
    **{f"square {name}": (lambda name=name: issue_problem(name)) for name in ISSUE},
    **{f"{lattice.name} one word": (lambda lattice=lattice: isolated_problem(lattice, 4)) for lattice in LATTICES},
    **{f"{lattice.name} multi-word": (lambda lattice=lattice: isolated_problem(lattice, 10)) for lattice in LATTICES},
}


@pytest.fixture(scope="module", params=sorted(PROBLEMS))
def problem(request: pytest.FixtureRequest) -> TilingProblem:
    return PROBLEMS[request.param]()


def test_the_problems_are_the_ones_meant(problem: TilingProblem, request: pytest.FixtureRequest) -> None:
    assert ("multi-word" in request.node.callspec.id) == (problem.n_cells > 64)
    assert problem.exact  # every copy must be used: `count` plans by Knuth's estimates on one word
    assert problem.anchor_start[0] == problem.anchor_start[1]  # no placement covers the first cell
    assert (problem.one_word is None) == (problem.words > 1) == (problem.n_cells > 64)


COUNTS = [
    {},
    {"unique": True},
    {"unique": "canonical"},
    {"method": "orbits"},
    {"method": "search"},
    {"mrv": True},
    {"prune": False},
    {"multiword": True},
    {"multiword": True, "unique": True},
    {"multiword": True, "method": "orbits"},
]


@pytest.mark.parametrize("how", COUNTS, ids=repr)
def test_every_count_is_0(problem: TilingProblem, how: dict[str, Any]) -> None:
    result = tiling.count(problem, **how)
    assert (result.count, result.partial) == (0, False)


@pytest.mark.parametrize(
    "how", [{}, {"limit": 1}, {"limit": 5}, {"unique": True}, {"method": "orbits"}, {"multiword": True}], ids=repr
)
def test_every_listing_is_empty(problem: TilingProblem, how: dict[str, Any]) -> None:
    stream = tiling.solve(problem, **how)
    assert list(stream) == [] and not stream.partial


def test_the_planning_estimates_find_the_tree_empty(problem: TilingProblem) -> None:
    if problem.one_word is None:
        pytest.skip("the estimates plan counts of one-word problems")
    from gridgames.search.tiling.planning import choose_preplaced, plan_count

    # the plain search: nothing to pre-place in an empty tree
    assert plan_count(problem) == (problem, None)
    assert choose_preplaced(problem) is None


def test_the_estimate_below_no_root_is_an_empty_tree() -> None:
    from gridgames.search.tiling.planning import estimate_tree
    from gridgames.search.tiling.stepping import Search
    from gridgames.search.tiling.orbits import plan

    problem = TilingProblem.build(Grid.empty(3, 4), [Piece("d", Shape(((0, 0), (0, 1))), 6)])
    root = Search(
        plan(problem, False, "search").prep, mrv=False, prune=True, prefix=(), target=-1, store=False, buffer=0
    )
    assert estimate_tree(root, [], 64) == (0.0, 0.0)
    from gridgames.search.tiling import kernel_one_word
    from gridgames.search.tiling.kernel_common import CAP

    none = np.zeros(0, dtype=np.int64)  # the kernel itself, asked for no roots
    args = (root.tables, root.start_occupancy[0], root.start_copies, none, int(root.state.scalars[CAP]), 64, 0)
    assert kernel_one_word.estimate(*args) == (0.0, 0.0)
    first = range(int(problem.anchor_start[0]), int(problem.anchor_start[1]))
    assert estimate_tree(root, first, 64)[0] > 0  # a tree with nodes is not empty


@pytest.mark.parametrize("unique", [False, True])
def test_parts_and_parts_in_this_process_count_0(problem: TilingProblem, unique: bool) -> None:
    assert (
        sum(tiling.count_part(problem, part, unique=unique).count for part in tiling.split(problem, 4, unique=unique))
        == 0
    )
    result = count_parallel(problem, jobs=1, unique=unique)
    assert (result.count, result.partial, result.parts_done) == (0, False, result.parts)


@pytest.mark.parametrize("name", sorted(ISSUE))
def test_two_local_processes_count_0(name: str) -> None:
    for unique in (False, True):
        result = count_parallel(issue_problem(name), jobs=2, unique=unique)
        assert (result.count, result.partial) == (0, False)


# --- a real Dask cluster (last in the module: its threads stay in this process) ------------------


@pytest.mark.slow
def test_a_dask_cluster_counts_0(dask_scheduler: str) -> None:
    for name in ISSUE:
        for unique in (False, True):
            result = count_parallel(issue_problem(name), scheduler=dask_scheduler, unique=unique)
            assert (result.count, result.partial) == (0, False)
