"""The reference solver and the independent solution checker."""

from __future__ import annotations

import pytest

from gridgames.errors import PuzzleError
from gridgames.grid import Grid
from gridgames.game import Placement
from gridgames.pieces import Piece, as_pieces, board_cells
from gridgames.pieces import is_tiling as is_solution
from gridgames.search.backtrack import count_solutions, solutions
from gridgames.search.tiling import TilingProblem, solve
from gridgames.shapes import PENTOMINOES, TETROMINOES, Shape

DOMINO = Shape.from_text("##", "D")
STRAIGHT_TROMINO = Shape.from_text("###", "I3")


@pytest.mark.slow
def test_reference_3x20_finds_the_8_tilings_the_fast_engine_finds() -> None:
    board = Grid.empty(3, 20)
    reference = list(solutions(board, PENTOMINOES))
    assert len(reference) == 8
    assert all(is_solution(board, PENTOMINOES, s) for s in reference)
    fast = list(solve(TilingProblem.build(board, PENTOMINOES)))
    as_set = lambda sols: {frozenset(s) for s in sols}  # noqa: E731
    assert as_set(reference) == as_set(fast)


def test_reference_counts_domino_tilings_of_2x8_as_fibonacci_34() -> None:
    assert count_solutions(Grid.empty(2, 8), [Piece.of(DOMINO, count=8)]) == 34


def test_reference_counts_straight_tromino_tilings_of_3x9_as_19() -> None:
    # a(n) = a(n-1) + a(n-3): 1, 1, 2, 3, 4, 6, 9, 13, 19
    assert count_solutions(Grid.empty(3, 9), [Piece.of(STRAIGHT_TROMINO, count=9)]) == 19


def test_reference_finds_no_tiling_of_4x5_by_the_five_tetrominoes() -> None:
    assert count_solutions(Grid.empty(4, 5), TETROMINOES) == 0


def test_reference_respects_holes_and_row_order() -> None:
    board = Grid.from_text("...\n.#.\n...")  # a ring of 8 cells
    column = list(solutions(board, [Piece.of(DOMINO, count=4)]))
    row = list(solutions(board, [Piece.of(DOMINO, count=4)], order="row"))
    assert len(column) == len(row) == 2
    assert all(is_solution(board, [Piece.of(DOMINO, count=4)], s) for s in column + row)


def test_is_solution_accepts_a_tiling_given_as_cells() -> None:
    pieces = [Piece.of(DOMINO, count=2)]
    tiling = [Placement("D", ((0, 0), (0, 1))), Placement("D", ((1, 0), (1, 1)))]
    assert is_solution([(0, 0), (0, 1), (1, 0), (1, 1)], pieces, tiling)


@pytest.mark.parametrize(
    "tiling",
    [
        [Placement("D", ((0, 0), (0, 1)))],  # a cell left uncovered
        # overlap
        [Placement("D", ((0, 0), (0, 1))), Placement("D", ((0, 1), (1, 1))), Placement("D", ((1, 0), (1, 1)))],
        [Placement("D", ((0, 0), (1, 1))), Placement("D", ((0, 1), (1, 0)))],  # not a domino shape
        [Placement("Q", ((0, 0), (0, 1))), Placement("D", ((1, 0), (1, 1)))],  # unknown piece
        # off board
        [Placement("D", ((0, 0), (0, 1))), Placement("D", ((1, 0), (1, 1))), Placement("D", ((2, 0), (2, 1)))],
    ],
)
def test_is_solution_rejects_bad_tilings(tiling: list[Placement]) -> None:
    assert not is_solution(Grid.empty(2, 2), [Piece.of(DOMINO, count=2)], tiling)


def test_is_solution_rejects_a_piece_used_more_often_than_its_count() -> None:
    tiling = [Placement("D", ((0, 0), (0, 1))), Placement("D", ((1, 0), (1, 1)))]
    assert not is_solution(Grid.empty(2, 2), [Piece.of(DOMINO, count=1)], tiling)


def test_one_sided_piece_has_only_its_rotations() -> None:
    assert len(Piece.of(PENTOMINOES["F"]).orientations()) == 8
    assert len(Piece.of(PENTOMINOES["F"], one_sided=True).orientations()) == 4


def test_as_pieces_accepts_mappings_shapes_and_tuples() -> None:
    from_map = as_pieces({"D": DOMINO})
    from_tuple = as_pieces([("D", [((0, 0), (0, 1)), ((0, 0), (1, 0))], 3)])
    assert from_map[0].orientations() == from_tuple[0].orientations()
    assert from_tuple[0].count == 3
    assert as_pieces([DOMINO])[0].name == "D"


@pytest.mark.parametrize(
    "pieces",
    [
        [],
        [("D", [], 1)],
        [("D", [((0, 0), (0, 1))], 0)],
        [("", [((0, 0),)], 1)],
        [("D", [((0, 0), (0, 1))], 1), ("D", [((0, 0),)], 1)],
        [("D", [((0, 0), (0, 1)), ((0, 0),)], 1)],
        ["not a piece"],
    ],
)
def test_as_pieces_rejects_malformed_piece_sets(pieces: list) -> None:
    with pytest.raises(PuzzleError):
        as_pieces(pieces)


def test_board_cells_of_a_grid_are_its_empty_cells_in_scan_order() -> None:
    board = Grid.from_text(".1\n#.\n..")
    assert board_cells(board) == ((0, 0), (2, 0), (1, 1), (2, 1))
    assert board_cells(board, "row") == ((0, 0), (1, 1), (2, 0), (2, 1))
    with pytest.raises(PuzzleError):
        board_cells(Grid.from_text("#1"))
