"""Whole-piece moves (gridgames.placement_moves): enumeration, notation round trips, refusals, bitmasks against Grid."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridgames.errors import IllegalMoveError, NotationError, ShapeError
from gridgames.grid import Grid
from gridgames.placement_moves import PieceMoves, cell_name, parse_cell
from gridgames.shapes import PENTOMINOES, TETROMINOES, Shape, piece_set


def _naive_actions(board: Grid, pieces: dict[str, Shape]) -> list[tuple[str, int, tuple[int, int]]]:
    """Every (piece, orientation, anchor) that Grid.can_place accepts on the empty board, in the documented order."""
    return [
        (name, o, (r, c))
        for name, shape in pieces.items()
        for o, oriented in enumerate(shape.orientations())
        for r in range(board.height)
        for c in range(board.width)
        if board.can_place(oriented, at=(r, c))
    ]


def test_the_actions_are_every_placement_that_fits_in_order() -> None:
    board = Grid.from_text(".....\n..#..\n.....\n.....")
    moves = PieceMoves.build(board, PENTOMINOES)
    naive = _naive_actions(board, PENTOMINOES)
    assert len(moves) == len(naive) > 0
    assert [(moves.piece_of(a), moves.orientation_of(a), moves.anchor_of(a)) for a in range(len(moves))] == naive


def test_golombs_8x8_board_has_2308_placements() -> None:
    # the count issue 37 reports
    assert len(PieceMoves.build(Grid.empty(8, 8), PENTOMINOES)) == 2308


def test_every_action_of_a_small_board_round_trips_through_its_text() -> None:
    moves = PieceMoves.build(Grid.empty(5, 6), PENTOMINOES)
    texts = [moves.format(a) for a in range(len(moves))]
    assert len(set(texts)) == len(texts)
    assert [moves.parse(t) for t in texts] == list(range(len(moves)))
    assert moves.parse("  l1 @ A5 ".replace("l", "L")) == moves.parse("L1@a5")


def test_cells_are_the_oriented_shape_at_the_anchor() -> None:
    moves = PieceMoves.build(Grid.empty(6, 6), PENTOMINOES)
    for action in range(0, len(moves), 7):
        name, o, (r, c) = moves.piece_of(action), moves.orientation_of(action), moves.anchor_of(action)
        oriented = PENTOMINOES[name].orientations()[o]
        assert moves.cells(action) == tuple((r + dr, c + dc) for dr, dc in oriented.cells)
        assert moves.mask(action) == moves.cells_mask(moves.cells(action))
        assert moves.action(name, o, (r, c)) == action
    assert moves.action("X", 1, (0, 0)) is None  # X has one orientation


def test_names_ending_in_a_digit_take_a_dash() -> None:
    hexominoes = dict(list(piece_set("hexominoes").items())[:3])
    moves = PieceMoves.build(Grid.empty(6, 6), hexominoes)
    text = moves.format(len(moves) - 1)
    assert text.startswith("H03-") and moves.parse(text) == len(moves) - 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Q1@a1", "unknown piece 'Q'"),
        ("L9@a1", "piece L has no orientation 9"),
        ("X2@a5", "piece X has no orientation 2"),
        ("L0@a1", "piece L has no orientation 0"),
        ("L1@a1", "L1@a1 is off the board: 4 of its cells outside the 5x5 board"),
        ("I1@c5", "I1@c5 is off the board: 2 of its cells outside the 5x5 board"),
        ("L1@z9", "'z9' is outside the board"),
        ("L1", "such as 'L3@d4'"),
        ("", "such as 'L3@d4'"),
        ("L1@", "such as 'L3@d4'"),
    ],
)
def test_malformed_or_impossible_moves_say_why(text: str, message: str) -> None:
    moves = PieceMoves.build(Grid.empty(5, 5), PENTOMINOES)
    with pytest.raises(NotationError) as caught:
        moves.parse(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_hole_is_off_the_board() -> None:
    moves = PieceMoves.build(Grid.from_text("#....\n....."), PENTOMINOES)
    with pytest.raises(NotationError, match=r"^I1@a2 is off the board: covers the hole a2$"):
        moves.parse("I1@a2")
    with pytest.raises(
        NotationError, match=r"^L1@a2 is off the board: 3 of its cells outside the 5x2 board, covers the hole a2$"
    ):
        moves.parse("L1@a2")
    assert moves.format(moves.parse("I1@a1")) == "I1@a1"


def test_an_overlap_names_the_filled_cells_and_a_used_piece_is_named() -> None:
    moves = PieceMoves.build(Grid.empty(5, 5), PENTOMINOES)
    first = moves.parse("I1@a5")  # the whole top row
    occupied = moves.mask(first)
    with pytest.raises(IllegalMoveError, match=r"^L1@b5 overlaps the filled cell b5$"):
        moves.parse("L1@b5", occupied=occupied)
    with pytest.raises(IllegalMoveError, match=r"^I2@c5 overlaps the filled cell c5$"):
        moves.parse("I2@c5", occupied=occupied)
    used = moves.all_pieces & ~moves.pieces_mask(["I"])
    with pytest.raises(IllegalMoveError, match=r"^I1@a4: piece I is already used$"):
        moves.parse("I1@a4", occupied=occupied, available=used)
    assert moves.parse("L1@a4", occupied=occupied, available=used) == moves.action("L", 0, (1, 0))
    assert moves.refusal(moves.parse("L1@a4"), occupied=occupied, available=used) is None


def _random_position(rng: random.Random, height: int, width: int) -> Grid:
    grid = Grid.empty(height, width)
    for r in range(height):
        for c in range(width):
            roll = rng.random()
            grid.cells[r, c] = -1 if roll < 0.05 else (1 if roll < 0.05 + rng.random() * 0.4 else 0)
    return grid


@pytest.mark.slow
@pytest.mark.parametrize(("height", "width"), [(8, 8), (9, 10), (3, 20)])
def test_bitmask_can_place_and_legal_agree_with_grid_can_place(height: int, width: int) -> None:
    rng = random.Random(height * 100 + width)
    for _ in range(6):
        grid = _random_position(rng, height, width)
        board = Grid(np.where(grid.cells == -1, -1, 0))  # the holes only: the moves of the board
        moves = PieceMoves.build(board, PENTOMINOES)
        occupied = moves.cells_mask(map(tuple, np.argwhere(grid.cells > 0)))
        available = rng.getrandbits(len(moves.names))
        shapes = {n: PENTOMINOES[n].orientations() for n in moves.names}
        expected = []
        for action in range(len(moves)):
            fits = grid.can_place(
                shapes[moves.piece_of(action)][moves.orientation_of(action)], at=moves.anchor_of(action)
            )
            assert moves.can_place(action, occupied) == fits
            if fits and (available >> moves.piece_index(action)) & 1:
                expected.append(action)
        assert moves.legal(occupied, available).tolist() == expected
        assert moves.legal(occupied).tolist() == [a for a in range(len(moves)) if moves.can_place(a, occupied)]


def test_more_than_64_pieces_use_the_general_availability_test() -> None:
    pieces = dict(list(piece_set("7-ominoes").items())[:70])
    moves = PieceMoves.build(Grid.empty(7, 7), pieces)
    available = moves.pieces_mask([moves.names[0], moves.names[69]])
    assert {moves.piece_of(a) for a in moves.legal(0, available).tolist()} == {moves.names[0], moves.names[69]}


def test_remaining_planes_show_each_pool_piece_by_piece() -> None:
    moves = PieceMoves.build(Grid.empty(4, 5), TETROMINOES)
    planes = moves.remaining_planes([moves.all_pieces, moves.pieces_mask(["O", "L"])])
    assert planes.shape == (4, 5, 10) and planes.dtype == np.int8
    assert planes[0, 0].tolist() == [1, 1, 1, 1, 1, 0, 1, 0, 0, 1]
    assert (planes == planes[0, 0]).all()


def test_cell_names_count_rows_from_the_bottom() -> None:
    assert cell_name((0, 0), 8) == "a8" and cell_name((7, 3), 8) == "d1"
    assert parse_cell("d1", 8, 8) == (7, 3) and parse_cell("A8", 8, 8) == (0, 0)
    with pytest.raises(NotationError, match="outside the board"):
        parse_cell("i1", 8, 8)


def test_no_pieces_or_a_too_wide_board_is_refused() -> None:
    with pytest.raises(ShapeError, match="at least one piece"):
        PieceMoves.build(Grid.empty(3, 3), {})
    with pytest.raises(ShapeError, match="27 columns"):
        PieceMoves.build(Grid.empty(1, 27), {"I": PENTOMINOES["I"]})
