"""All tilings from the distinct ones (orbit sizes): the same counts and the same sets of tilings as the plain
search."""

from __future__ import annotations

import numpy as np
import pytest

from gridgames.errors import SolverError
from gridgames.grid import Grid
from gridgames.pieces import Piece
from gridgames.pieces import is_tiling as is_solution
from gridgames.search import symmetry, tiling
from gridgames.search.tiling.parallel_count import count_parallel
from gridgames.search.tiling import TilingProblem, count, count_part, solve, split
from gridgames.shapes import PENTOMINOES, TETROMINOES, Shape

CENTRE_8X8 = Grid.from_text("\n".join(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3))
DOMINO = Shape.from_text("##", "D")
SQUARE = Shape.from_text("##\n##", "O")
L_TROMINO = Shape.from_text("#.\n##", "L")
STRAIGHT = Shape.from_text("###", "I")


def pentominoes(board: Grid) -> TilingProblem:
    return TilingProblem.build(board, PENTOMINOES)


def test_6x10_all_by_orbits_is_the_known_9356_by_pre_placing_x_and_by_the_restricted_search() -> None:
    problem = pentominoes(Grid.empty(6, 10))
    result = count(problem)
    assert (result.count, result.partial) == (9356, False)
    assert result.method == "all by orbits: X pre-placed at 8 placements, x 4 symmetries"
    assert not result.unique
    restricted = count(problem, method="orbits")
    assert (restricted.count, restricted.method) == (9356, "all by orbits: restricted to X, x 4 symmetries")


@pytest.mark.parametrize(
    "board", [Grid.empty(5, 12), Grid.empty(4, 15), CENTRE_8X8], ids=["5x12", "4x15", "8x8-centre"]
)
def test_pre_placed_orbit_counts_equal_the_restricted_ones_and_the_pieces_representatives_are_one_per_orbit(
    board: Grid,
) -> None:
    problem = pentominoes(board)
    pre = tiling.orbits.preplaced(problem)
    assert pre is not None
    images = tiling.orbits.option_images(problem, tiling.prepare_unique(problem).group)
    orbits = {frozenset(images[:, o].tolist()) for o in np.flatnonzero(problem.option_piece == pre.piece)}
    assert len(orbits) == len(pre.representatives) and all(len(o) == pre.group for o in orbits)
    assert count(problem).count == count(problem, method="orbits").count


def test_8x8_centre_up_to_symmetry_searches_the_all_counts_tree_and_under_a_tenth_of_the_plain_one() -> None:
    problem = pentominoes(CENTRE_8X8)
    distinct, by_orbits, plain = count(problem, unique=True), count(problem), count(problem, method="search")
    assert (distinct.count, by_orbits.count, plain.count) == (65, 520, 520)
    # the all count is |G| (8) x the distinct one, from the same pre-placed tree; the plain search visits every tiling
    assert distinct.nodes == by_orbits.nodes < plain.nodes / 10


def test_the_numpy_option_images_equal_the_symmetry_modules() -> None:
    problem = pentominoes(CENTRE_8X8)
    perms = symmetry.board_symmetries(problem.cells)
    reference = symmetry.option_images(
        perms, [problem.option_cells(o) for o in range(problem.n_options)], problem.option_piece
    )
    assert (tiling.orbits.option_images(problem, perms) == reference).all()


def test_a_tiny_tree_is_counted_plainly_and_a_small_one_with_the_fewest_orbits_piece() -> None:
    tiny = TilingProblem.build(Grid.empty(3, 10), {k: PENTOMINOES[k] for k in "LNPUVY"})
    small, big = pentominoes(Grid.empty(3, 20)), pentominoes(Grid.empty(4, 15))
    # a piece could be pre-placed, but the set-up would not pay
    assert tiling.orbits.preplaced(tiny) is not None
    assert (count(tiny).count, count(tiny).method) == (36, "all")
    assert count(tiny, method="search").nodes <= tiling.planning.PLAIN_ONLY
    plain = count(small, method="search")
    assert tiling.planning.PLAIN_ONLY < plain.nodes <= tiling.planning.PLAIN_FIRST < count(big, method="search").nodes
    fewest = tiling.orbits.preplaced(small)
    by_orbits = count(small)
    assert by_orbits.count == plain.count == 8 and by_orbits.nodes < plain.nodes / 2
    assert (
        by_orbits.method
        == f"all by orbits: {small.pieces[fewest.piece].name} pre-placed at {len(fewest.representatives)} placements, "
        "x 4 symmetries"
    )
    assert count(big).method.startswith("all by orbits")


@pytest.mark.parametrize(
    ("board", "pieces"),
    [
        (Grid.empty(4, 4), [Piece.of(DOMINO, count=8)]),
        (Grid.empty(4, 6), [Piece.of(DOMINO, count=12)]),
        (Grid.empty(4, 4), [Piece.of(SQUARE, count=4)]),
        (Grid.empty(4, 4), [Piece.of(SQUARE, count=2), Piece.of(DOMINO, count=4)]),
        (Grid.empty(4, 6), [Piece.of(SQUARE, count=2), Piece.of(DOMINO, count=8)]),
        (Grid.from_text("....\n.##.\n.##.\n...."), [Piece.of(DOMINO, count=6)]),
        (Grid.empty(6, 6), [Piece.of(L_TROMINO, count=12)]),
        (Grid.empty(3, 6), [Piece.of(STRAIGHT, count=4), Piece.of(L_TROMINO, count=2)]),
    ],
    ids=[
        "dominoes-4x4",
        "dominoes-4x6",
        "squares-4x4",
        "squares+dominoes-4x4",
        "squares+dominoes-4x6",
        "ring-dominoes",
        "L-6x6",
        "I+L-3x6",
    ],
)
def test_orbit_weighted_counts_and_listings_equal_the_plain_search_on_boards_with_symmetric_tilings(
    board: Grid, pieces: list[Piece]
) -> None:
    problem = TilingProblem.build(board, pieces)
    plain = {frozenset(s) for s in solve(problem, method="search")}
    weighted = count(problem, method="orbits")
    assert weighted.method.startswith("all by orbits: canonical, weighted")
    assert weighted.count == count(problem, method="search").count == count(problem).count == len(plain)
    listed = list(solve(problem, method="orbits"))
    assert len(listed) == len(plain) and {frozenset(s) for s in listed} == plain
    assert all(is_solution(board, pieces, s) for s in listed)


def test_some_of_those_boards_have_tilings_fixed_by_a_symmetry() -> None:
    """The weighted counts above are tested where they matter: the distinct count times |G| exceeds the count."""
    problem = TilingProblem.build(Grid.empty(4, 4), [Piece.of(SQUARE, count=2), Piece.of(DOMINO, count=4)])
    distinct = count(problem, unique=True)
    assert distinct.count * len(tiling.prepare_unique(problem).group) > count(problem, method="search").count


@pytest.mark.slow
@pytest.mark.parametrize("board", [Grid.empty(4, 15), CENTRE_8X8], ids=["4x15", "8x8-centre"])
def test_listing_all_by_orbits_gives_the_plain_search_set_of_tilings(board: Grid) -> None:
    problem = pentominoes(board)
    plain = [frozenset(s) for s in solve(problem, method="search")]
    stream = solve(problem)
    listed = [frozenset(s) for s in stream]
    assert stream.method.startswith("all by orbits: restricted")
    assert len(listed) == len(set(listed)) == len(plain) and set(listed) == set(plain)
    assert stream.finished and not stream.partial


def test_listing_by_orbits_stops_at_the_limit_without_being_partial() -> None:
    stream = solve(pentominoes(Grid.empty(6, 10)), limit=6)
    sols = list(stream)
    assert len(sols) == 6 == stream.count and len({frozenset(s) for s in sols}) == 6
    assert all(is_solution(Grid.empty(6, 10), PENTOMINOES, s) for s in sols)
    assert not stream.partial


def test_closing_an_orbit_stream_marks_it_partial() -> None:
    stream = solve(pentominoes(Grid.empty(6, 10)))
    next(stream)
    stream.close()
    assert stream.partial and list(stream) == []


def test_parts_of_the_orbit_search_add_up_to_all_tilings() -> None:
    problem = pentominoes(Grid.empty(4, 15))
    for method in ("auto", "search"):
        parts = split(problem, 8, method=method)
        assert sum(count_part(problem, part, method=method).count for part in parts) == 1472


@pytest.mark.slow
def test_parallel_counts_use_orbits_and_agree_with_the_plain_search() -> None:
    problem = pentominoes(CENTRE_8X8)
    by_orbits = count_parallel(problem, jobs=1)
    plain = count_parallel(problem, jobs=1, method="search")
    assert (by_orbits.count, plain.count) == (520, 520)
    assert by_orbits.method.startswith("all by orbits") and plain.method == "all"
    assert by_orbits.nodes < plain.nodes


def test_a_start_given_as_placements_counts_by_the_plain_search() -> None:
    problem = pentominoes(Grid.empty(4, 15))
    first = next(iter(solve(problem, method="search")))
    assert count(problem, start=first[:1]).method == "all"
    assert count(problem, start=first[:1]).count == count(problem, start=first[:1], method="search").count >= 1


def test_an_unknown_method_is_refused() -> None:
    with pytest.raises(SolverError, match="method must be one of"):
        count(pentominoes(Grid.empty(3, 20)), method="fast")


def test_without_a_free_piece_the_plain_search_tried_first_goes_on_to_the_end() -> None:
    # every piece twice
    problem = TilingProblem.build(Grid.empty(5, 8), [Piece.of(s, count=2) for s in TETROMINOES.values()])
    auto, plain = count(problem), count(problem, method="search")
    assert tiling.orbits.preplaced(problem) is None and plain.nodes > tiling.planning.PLAIN_FIRST
    assert (auto.count, auto.nodes, auto.method) == (plain.count, plain.nodes, "all")


def test_orbits_follow_the_problems_lattice_the_flat_pentacubes_in_the_2x3x10_box() -> None:
    from gridgames.lattices import CUBIC
    from gridgames.pieces import LatticePiece

    pieces = [
        LatticePiece(n, "cubic", [(0, r, c) for r, c in s.cells], kind="one-sided") for n, s in PENTOMINOES.items()
    ]
    problem = TilingProblem.build(
        [(x, y, z) for x in range(2) for y in range(3) for z in range(10)], pieces, lattice=CUBIC
    )
    auto, restricted, plain = count(problem), count(problem, method="orbits"), count(problem, method="search")
    # 12 up to the box's 8 symmetries, none symmetric
    assert auto.count == restricted.count == plain.count == 12 * 8
    assert auto.method.endswith("x 8 symmetries") and restricted.method.endswith("x 8 symmetries")
