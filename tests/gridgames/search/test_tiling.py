"""The fast tiling engine: known counts, agreement between its search modes, streaming, resuming, splitting."""

from __future__ import annotations

import pickle

import pytest

from gridgames.errors import PuzzleError, SolverError
from gridgames.grid import Grid
from gridgames.search import tiling
from gridgames.game import Placement
from gridgames.pieces import Piece
from gridgames.pieces import is_tiling as is_solution
from gridgames.search.backtrack import count_solutions
from gridgames.search.tiling import Part, TilingProblem, count, count_part, solve, split
from gridgames.shapes import PENTOMINOES, TETROMINOES, Shape, polyominoes

CENTRE_8X8 = Grid.from_text("\n".join(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3))
DOMINO = Shape.from_text("##", "D")
STRAIGHT_TROMINO = Shape.from_text("###", "I3")


def pentomino_problem(board: Grid, **kwargs: object) -> TilingProblem:
    return TilingProblem.build(board, PENTOMINOES, **kwargs)


@pytest.mark.parametrize(
    ("board", "everything", "distinct"),
    [
        (Grid.empty(3, 20), 8, 2),
        (Grid.empty(4, 15), 1472, 368),
        (Grid.empty(5, 12), 4040, 1010),
        (CENTRE_8X8, 520, 65),
    ],
    ids=["3x20", "4x15", "5x12", "8x8-centre"],
)
@pytest.mark.slow
def test_known_pentomino_counts(board: Grid, everything: int, distinct: int) -> None:
    problem = pentomino_problem(board)
    plain = count(problem, method="search")
    assert (plain.count, plain.partial, plain.method) == (everything, False, "all")
    by_orbits = count(problem, method="orbits")
    assert (by_orbits.count, by_orbits.partial) == (everything, False)
    assert by_orbits.method.startswith("all by orbits: restricted to")
    assert count(problem).count == everything
    assert count(problem, unique=True).count == distinct


def test_6x10_has_2339_tilings_up_to_symmetry() -> None:
    problem = pentomino_problem(Grid.empty(6, 10))
    result = count(problem, unique=True)  # X on one placement per orbit: one tiling of each class
    assert (result.count, result.unique, result.method) == (
        2339,
        True,
        "distinct by orbits: X pre-placed at 8 placements, one per orbit",
    )
    restricted = count(problem, unique="X")
    assert (restricted.count, restricted.method) == (2339, "restricted to X")


@pytest.mark.slow
def test_every_8x8_centre_tiling_is_valid_and_they_are_distinct() -> None:
    sols = list(solve(pentomino_problem(CENTRE_8X8)))
    assert len(sols) == 520
    assert all(is_solution(CENTRE_8X8, PENTOMINOES, s) for s in sols)
    assert len({frozenset(s) for s in sols}) == 520


@pytest.mark.slow
def test_unique_solutions_are_valid_and_one_per_class() -> None:
    problem = pentomino_problem(Grid.empty(4, 15))
    for unique in (True, "canonical"):
        sols = list(solve(problem, unique=unique))
        assert len(sols) == 368
        assert all(is_solution(Grid.empty(4, 15), PENTOMINOES, s) for s in sols)
        mirrored = {
            frozenset(Placement(p, tuple(sorted((3 - r, 14 - c) for r, c in cells))) for p, cells in s) for s in sols
        }
        # a half-turned tiling is never listed too
        assert not mirrored & {frozenset(s) for s in sols}


@pytest.mark.parametrize(
    "options",
    [
        {"mrv": True},
        {"prune": False},
        {"multiword": True},
        {"multiword": True, "mrv": True},
        {"multiword": True, "prune": False},
        {"mrv": True, "prune": False},
    ],
    ids=["mrv", "no-prune", "multiword", "multiword-mrv", "multiword-no-prune", "mrv-no-prune"],
)
def test_search_modes_agree_on_3x20(options: dict) -> None:
    problem = pentomino_problem(Grid.empty(3, 20))
    assert count(problem, **options).count == 8
    assert count(problem, unique=True, **options).count == 2
    assert count(problem, unique="canonical", **options).count == 2


@pytest.mark.slow
def test_most_constrained_cell_search_counts_4x15() -> None:
    problem = pentomino_problem(Grid.empty(4, 15))
    mrv = count(problem, mrv=True, method="search")
    assert mrv.count == 1472 == count(problem, mrv=True).count
    # a smaller tree than first blank (each node costs more)
    assert mrv.nodes < count(problem, method="search").nodes


def test_one_word_and_multi_word_kernels_visit_the_same_nodes() -> None:
    problem = pentomino_problem(Grid.empty(3, 20))
    for mrv in (False, True):
        assert (
            count(problem, mrv=mrv, method="search").nodes
            == count(problem, mrv=mrv, multiword=True, method="search").nodes
        )


def test_pruning_visits_fewer_nodes() -> None:
    problem = pentomino_problem(Grid.empty(4, 15))
    assert count(problem).nodes < count(problem, prune=False).nodes


def test_tall_board_scans_rows_and_finds_the_same_tilings() -> None:
    tall = pentomino_problem(Grid.empty(20, 3))
    assert (tall.order, pentomino_problem(Grid.empty(3, 20)).order) == ("row", "column")
    result = count(tall)
    assert result.count == 8
    assert result.nodes == count(pentomino_problem(Grid.empty(3, 20))).nodes


@pytest.mark.slow
def test_fast_engine_matches_the_reference_on_a_small_board_with_holes() -> None:
    board = Grid.from_text("......\n..#...\n......\n...#..\n......")  # 28 cells
    pieces = [Piece.of(PENTOMINOES[n]) for n in "LNPUY"] + [Piece.of(DOMINO, count=1), Piece.of(STRAIGHT_TROMINO)]
    problem = TilingProblem.build(board, pieces)
    fast = list(solve(problem))
    assert len(fast) == count_solutions(board, pieces) > 0
    assert all(is_solution(board, pieces, s) for s in fast)


def test_identical_pieces_do_not_multiply_solutions() -> None:
    # domino tilings of 2 x n are Fibonacci numbers; 2x8 -> 34
    assert count(TilingProblem.build(Grid.empty(2, 8), [Piece.of(DOMINO, count=8)])).count == 34
    # spare copies are allowed to stay unused
    assert count(TilingProblem.build(Grid.empty(2, 8), [Piece.of(DOMINO, count=12)])).count == 34


def test_boards_over_64_cells_use_the_multi_word_kernel() -> None:
    # straight trominoes on 3 x n: a(n) = a(n-1) + a(n-3)
    a = [1, 1, 1]
    for _ in range(3, 23):
        a.append(a[-1] + a[-3])
    problem = TilingProblem.build(Grid.empty(3, 22), [Piece.of(STRAIGHT_TROMINO, count=22)])
    assert (problem.n_cells, problem.words, problem.one_word) == (66, 2, None)
    assert count(problem).count == a[22] == 2745
    sols = list(solve(problem, limit=20))
    assert all(is_solution(Grid.empty(3, 22), [Piece.of(STRAIGHT_TROMINO, count=22)], s) for s in sols)


def test_multi_word_board_with_spare_area_finds_valid_tilings() -> None:
    board = Grid.empty(5, 13)  # 65 cells: the 12 pentominoes plus 5 monominoes
    pieces = [Piece.of(s) for s in PENTOMINOES.values()] + [Piece.of(Shape.from_text("#", "M"), count=5)]
    problem = TilingProblem.build(board, pieces)
    assert problem.words == 2
    sols = list(solve(problem, limit=5))
    assert len(sols) == 5 and all(is_solution(board, pieces, s) for s in sols)


def test_more_than_64_pieces_use_the_multi_word_kernel_even_on_a_small_board() -> None:
    monominoes = [(f"m{i}", [((0, 0),)], 1) for i in range(65)]
    problem = TilingProblem.build(Grid.empty(1, 2), monominoes)
    assert problem.words == 1 and problem.one_word is None
    # distinct pieces: order matters, spare pieces stay unused
    assert count(problem).count == 65 * 64


def test_checkerboard_parity_proves_empty_problems_without_searching() -> None:
    for height, width in ((4, 5), (2, 10), (1, 20)):
        assert count(TilingProblem.build(Grid.empty(height, width), TETROMINOES)).count == 0
    hexominoes = TilingProblem.build(Grid.empty(6, 35), polyominoes(6))
    result = count(hexominoes)
    assert (result.count, result.nodes, result.partial) == (0, 0, False)
    assert list(solve(hexominoes, limit=1)) == []


def test_solve_stops_at_the_limit() -> None:
    problem = pentomino_problem(Grid.empty(6, 10))
    stream = solve(problem, limit=3)
    sols = list(stream)
    assert len(sols) == 3 and stream.count == 3
    assert all(is_solution(Grid.empty(6, 10), PENTOMINOES, s) for s in sols)
    assert list(solve(problem, limit=0)) == []


def test_streaming_in_small_steps_gives_the_same_solutions_in_the_same_order() -> None:
    problem = pentomino_problem(Grid.empty(4, 15))
    whole = list(solve(problem, method="search"))
    stream = solve(problem, buffer=1, method="search")
    stream._budget.nodes = 64  # force many short kernel calls
    assert list(stream) == whole
    assert stream.finished and not stream.partial


def test_progress_rises_to_one() -> None:
    seen: list[tuple[float, int]] = []
    result = count(pentomino_problem(Grid.empty(4, 15)), on_progress=lambda f, n: seen.append((f, n)))
    fractions = [f for f, _ in seen]
    assert result.count == 1472 and seen[-1] == (1.0, 1472)
    assert all(0.0 <= a <= b <= 1.0 for a, b in zip(fractions, fractions[1:]))


def test_interrupt_between_calls_returns_a_partial_count() -> None:
    calls = []

    def interrupt(fraction: float, found: int) -> None:
        calls.append(found)
        if len(calls) == 2:
            raise KeyboardInterrupt

    problem = pentomino_problem(Grid.empty(6, 10))
    result = count(problem, on_progress=interrupt)
    assert result.partial and result.count == calls[-1] < 9356


def test_closing_a_stream_marks_it_partial() -> None:
    stream = solve(pentomino_problem(Grid.empty(6, 10)))
    next(stream)
    stream.close()
    assert stream.partial and list(stream) == []


@pytest.mark.slow
def test_split_parts_add_up_to_the_total() -> None:
    problem = pentomino_problem(Grid.empty(4, 15))
    for options, total in (({}, 1472), ({"unique": True}, 368), ({"mrv": True, "unique": "canonical"}, 368)):
        parts = split(problem, 40, **options)
        assert len(parts) >= 40
        assert sum(p.weight for p in parts) == pytest.approx(1.0)
        assert sum(count_part(problem, p, **options).count for p in parts) == total


def test_split_at_a_given_depth_returns_the_nodes_of_that_depth() -> None:
    problem = pentomino_problem(Grid.empty(4, 15))
    one = split(problem, depth=1)
    two = split(problem, depth=2)
    assert {len(p.prefix) for p in one} == {1} and {len(p.prefix) for p in two} == {2}
    assert {p.prefix[:1] for p in two} <= {p.prefix for p in one}
    assert len(one) < len(two)
    with pytest.raises(SolverError):
        split(problem, depth=0)


def test_parts_and_problems_survive_pickling() -> None:
    problem = pentomino_problem(Grid.empty(3, 20))
    part = split(problem, 4)[0]
    again = pickle.loads(pickle.dumps(part))
    assert again == part and isinstance(again, Part)
    copy = pickle.loads(pickle.dumps(problem))
    assert count_part(copy, again).count == count_part(problem, part).count


def test_split_of_a_tiny_tree_returns_what_there_is() -> None:
    problem = TilingProblem.build(Grid.empty(2, 3), [Piece.of(DOMINO, count=3)])
    parts = split(problem, 100)
    assert sum(count_part(problem, p).count for p in parts) == 3


def test_search_can_start_from_chosen_placements() -> None:
    problem = pentomino_problem(Grid.empty(4, 15))
    x = Placement("X", ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)))
    with_x = [s for s in solve(problem) if x in s]
    started = list(solve(problem, start=[x]))
    assert {frozenset(s) for s in started} == {frozenset(s) for s in with_x}
    assert count(problem, start=[x]).count == len(with_x)


def test_bad_starts_are_refused() -> None:
    problem = pentomino_problem(Grid.empty(4, 15))
    x = Placement("X", ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)))
    with pytest.raises(SolverError):
        count(problem, start=[x, x])  # overlap
    with pytest.raises(SolverError):
        count(problem, start=[Placement("X", ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)))])  # not an X
    with pytest.raises(SolverError):
        count(problem, start=[10**6])
    with pytest.raises(SolverError):
        count(problem, start=[x], unique=True)


def test_problem_building_refuses_nonsense() -> None:
    with pytest.raises(PuzzleError):
        TilingProblem.build(Grid.from_text("##"), PENTOMINOES)
    with pytest.raises(PuzzleError):
        TilingProblem.build(Grid.empty(2, 2), PENTOMINOES)  # nothing fits
    with pytest.raises(PuzzleError, match="scan order"):
        TilingProblem.build(Grid.empty(6, 10), PENTOMINOES, order="spiral")


def test_paint_and_render_show_a_solution() -> None:
    problem = pentomino_problem(Grid.empty(3, 20))
    first = next(iter(solve(problem)))
    text = problem.render(first)
    assert len(text.splitlines()) == 3 and sorted(set(text) - {"\n"}) == sorted(PENTOMINOES)
    grid = problem.paint(first)
    assert grid.is_full() and sorted(grid.values()) == list(range(1, 13))


def test_prune_cap_depends_on_piece_sizes() -> None:
    assert tiling.prune_cap([5] * 12) == 4
    assert tiling.prune_cap([4, 5]) == 10
    assert tiling.prune_cap([1]) == 0
