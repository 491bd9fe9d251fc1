"""Board symmetry groups, and counting up to symmetry: restriction checked against canonicalisation."""

from __future__ import annotations

import numpy as np
import pytest

from gridgames.errors import SolverError
from gridgames.grid import Grid
from gridgames.search import symmetry
from gridgames.pieces import Piece, board_cells
from gridgames.search.tiling import TilingProblem, count, prepare_unique, solve
from gridgames.shapes import PENTOMINOES, Shape

CENTRE_8X8 = Grid.from_text("\n".join(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3))
# 7x9 without three cells: only the left-right mirror (about the middle column) maps it onto itself
ONE_MIRROR = Grid.from_text("....#....\n.........\n.........\n.........\n.........\n.........\n...#.#...")


def group_of(board: Grid) -> np.ndarray:
    return symmetry.board_symmetries(board_cells(board))


@pytest.mark.parametrize(
    ("board", "size"),
    [
        (Grid.empty(6, 10), 4),
        (Grid.empty(8, 8), 8),
        (CENTRE_8X8, 8),
        (ONE_MIRROR, 2),
        (Grid.from_text("..\n.#"), 2),  # an L tromino: the diagonal mirror
        (Grid.from_text("...\n.##"), 1),  # an L tetromino: no symmetry
        (Grid.empty(1, 1), 1),
    ],
)
def test_board_symmetry_group_has_the_expected_size(board: Grid, size: int) -> None:
    assert len(group_of(board)) == size


def test_symmetries_are_permutations_starting_with_identity_and_closed_under_composition() -> None:
    perms = group_of(CENTRE_8X8)
    n = perms.shape[1]
    assert (perms[0] == np.arange(n)).all()
    as_set = {tuple(p) for p in perms}
    for a in perms:
        assert sorted(a) == list(range(n))
        for b in perms:
            assert tuple(a[b]) in as_set


def test_symmetries_map_the_board_cells_onto_themselves() -> None:
    cells = board_cells(ONE_MIRROR)
    mirror = group_of(ONE_MIRROR)[1]
    assert all(cells[mirror[i]] == (r, 8 - c) for i, (r, c) in enumerate(cells))


def test_one_sided_pieces_leave_only_the_rotations_of_the_board() -> None:
    problem = TilingProblem.build(Grid.empty(6, 10), PENTOMINOES, one_sided=True)
    assert len(prepare_unique(problem).group) == 2  # identity and the half turn


@pytest.mark.parametrize(
    ("board", "fixed"),
    [
        # no cell on a centre line, no diagonal mirror: every piece qualifies
        (Grid.empty(6, 10), ""),
        (Grid.empty(5, 12), "ITUX"),  # symmetric pieces centred on the middle row
        (CENTRE_8X8, "VWX"),  # pieces with a diagonal mirror, and X on the diagonals
    ],
)
def test_free_pieces_exclude_exactly_those_with_a_placement_fixed_by_a_symmetry(board: Grid, fixed: str) -> None:
    problem = TilingProblem.build(board, PENTOMINOES)
    options = [problem.option_cells(o) for o in range(problem.n_options)]
    _, images = symmetry.problem_symmetries(group_of(board), options, problem.option_piece)
    free = {problem.piece_names[p] for p in symmetry.free_pieces(images, problem.option_piece, problem.counts)}
    assert free == set("FILNPTUVWXYZ") - set(fixed)


def test_orbit_representatives_keep_one_placement_in_every_orbit() -> None:
    problem = TilingProblem.build(Grid.empty(6, 10), PENTOMINOES)
    options = [problem.option_cells(o) for o in range(problem.n_options)]
    perms, images = symmetry.problem_symmetries(group_of(Grid.empty(6, 10)), options, problem.option_piece)
    own = np.flatnonzero(problem.option_piece == problem.piece_names.index("P"))
    kept = symmetry.orbit_representatives(images, own)
    assert len(kept) * len(perms) == len(own)
    assert {int(images[:, o].min()) for o in own} == set(kept)


def test_canonical_form_is_shared_by_a_solution_and_its_images() -> None:
    problem = TilingProblem.build(Grid.empty(4, 15), PENTOMINOES)
    perms = prepare_unique(problem).group
    first = next(iter(solve(problem)))
    index = {cell: i for i, cell in enumerate(problem.cells)}
    as_indices = [(problem.piece_names.index(p), [index[c] for c in cells]) for p, cells in first]
    forms = {symmetry.canonical_form(perms, [(p, [int(g[c]) for c in cs]) for p, cs in as_indices]) for g in perms}
    assert len(forms) == 1


def test_count_distinct_by_canonicalising_the_3x20_tilings_gives_2() -> None:
    problem = TilingProblem.build(Grid.empty(3, 20), PENTOMINOES)
    index = {cell: i for i, cell in enumerate(problem.cells)}
    sols = [[(problem.piece_names.index(p), [index[c] for c in cells]) for p, cells in s] for s in solve(problem)]
    assert len(sols) == 8
    assert symmetry.count_distinct(prepare_unique(problem).group, sols) == 2


@pytest.mark.slow
@pytest.mark.parametrize(("height", "width", "distinct"), [(3, 20, 2), (4, 15, 368), (5, 12, 1010)])
def test_restriction_matches_canonicalisation_for_every_qualifying_piece(
    height: int, width: int, distinct: int
) -> None:
    problem = TilingProblem.build(Grid.empty(height, width), PENTOMINOES)
    assert count(problem, unique="canonical").count == distinct
    # a sample of qualifying pieces, including the automatic choice
    names = "FNV" if height == 5 else "FLNPVWYZ"
    for name in names:
        assert count(problem, unique=name).count == distinct, name
    assert prepare_unique(problem).method.startswith("restricted")


@pytest.mark.slow
def test_restriction_matches_canonicalisation_on_a_board_with_one_mirror() -> None:
    problem = TilingProblem.build(ONE_MIRROR, PENTOMINOES)
    reference = count(problem, unique="canonical").count
    assert count(problem, unique=True).count == count(problem, unique="P").count == reference == 631
    # restriction leaves no tiling symmetric, so every class has exactly two members
    assert count(problem).count == 2 * reference
    with pytest.raises(SolverError):
        count(problem, unique="X")  # an X centred on the mirror line is its own image


def test_board_without_symmetry_counts_every_tiling_as_distinct() -> None:
    # 4x15 with its corner moved below
    board = [(r, c) for r in range(4) for c in range(15)][1:] + [(4, 0)]
    problem = TilingProblem.build(board, PENTOMINOES)
    assert prepare_unique(problem).method == "no symmetry"
    assert count(problem, unique=True).count == count(problem).count


def test_canonicalisation_is_used_when_no_piece_qualifies() -> None:
    # 4x4 by 8 dominoes: the only piece has 8 copies, so it cannot be restricted
    problem = TilingProblem.build(Grid.empty(4, 4), [Piece.of(Shape.from_text("##", "D"), count=8)])
    prepared = prepare_unique(problem)
    assert prepared.method.startswith("canonical")
    tilings = list(solve(problem))
    assert len(tilings) == 36
    index = {cell: i for i, cell in enumerate(problem.cells)}
    as_indices = [[(0, [index[c] for c in cells]) for _, cells in s] for s in tilings]
    assert count(problem, unique=True).count == symmetry.count_distinct(prepared.group, as_indices) == 9


def test_spare_pieces_force_canonicalisation_because_a_restricted_piece_could_be_left_out() -> None:
    # 3x5 with the 12 pentominoes available: any 3 of them; P may be absent from a tiling
    problem = TilingProblem.build(Grid.empty(3, 5), PENTOMINOES)
    assert prepare_unique(problem).method.startswith("canonical")
    with pytest.raises(SolverError):
        count(problem, unique="P")
    tilings = list(solve(problem))
    index = {cell: i for i, cell in enumerate(problem.cells)}
    as_indices = [[(problem.piece_names.index(p), [index[c] for c in cells]) for p, cells in s] for s in tilings]
    assert count(problem, unique=True).count == symmetry.count_distinct(prepare_unique(problem).group, as_indices)


def test_restricting_a_piece_that_does_not_qualify_is_refused() -> None:
    problem = TilingProblem.build(Grid.empty(5, 12), PENTOMINOES)
    with pytest.raises(SolverError, match="X"):
        count(problem, unique="X")
    with pytest.raises(SolverError, match="Q"):
        count(problem, unique="Q")
