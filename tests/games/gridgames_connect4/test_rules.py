"""Connect Four rules: wins in every direction, draws, errors, undo/redo, equality, evaluation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from gridgames_test_support.strategies import connect4_playouts

from gridgames_connect4 import ColumnFullError, ColumnOutOfRangeError, Connect4, SPEC
from gridgames_connect4.position.geometry import Geometry
from gridgames.errors import GameOverError, IllegalMoveError, InvalidMoveError, OptionError
from gridgames.game import Termination
from gridgames.grid import Direction
from gridgames.testing import check_game, check_spec

DRAW_7X6 = "126613431456475467333341527215612225546777"


def brute_force_lines(picture: str, connect: int) -> set[str]:
    """The symbols ('X', 'O') that have a line of ``connect`` anywhere in the picture, by scanning every cell."""
    rows = picture.splitlines()
    height, width = len(rows), len(rows[0])
    found = set()
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(connect)]
                if all(0 <= rr < height and 0 <= cc < width for rr, cc in cells):
                    symbols = {rows[rr][cc] for rr, cc in cells}
                    if len(symbols) == 1 and symbols != {"."}:
                        found |= symbols
    return found


def names(game: Connect4, cells: tuple[tuple[int, int], ...]) -> list[str]:
    return sorted(game.cell_name(c) for c in cells)


# --- hand-checked wins and draws ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("size", "moves", "winner", "cells"),
    [
        ((7, 6, 4), "4455667", 0, "d1 e1 f1 g1"),  # horizontal
        ((7, 6, 4), "1213141", 0, "a1 a2 a3 a4"),  # vertical
        ((7, 6, 4), "12234334544", 0, "a1 b2 c3 d4"),  # diagonal /
        ((7, 6, 4), "76654554344", 0, "d4 e3 f2 g1"),  # diagonal \
        ((7, 6, 4), "14152617", 1, "d1 e1 f1 g1"),  # yellow, horizontal
        ((10, 4, 5), "6,1,7,1,8,1,9,1,10", 0, "f1 g1 h1 i1 j1"),  # five in a row on a 10-wide board
        ((4, 4, 3), "12121", 0, "a1 a2 a3"),  # three in a row, vertical
        ((6, 5, 3), "122334", 1, "b1 c1 d1"),  # yellow three in a row (red: a1 b2 c2)
    ],
)
def test_a_line_through_the_last_disc_wins(size: tuple[int, int, int], moves: str, winner: int, cells: str) -> None:
    game = Connect4(*size)
    state = game.from_notation(moves)
    assert state.outcome is not None
    assert state.outcome.winner == winner
    assert state.outcome.termination is Termination.LINE
    assert names(game, state.outcome.cells) == sorted(cells.split())
    assert list(state.legal_moves()) == []
    undone = state.copy()
    undone.undo()
    assert undone.outcome is None  # the line was completed by the last disc, not before


def test_a_disc_completing_two_lines_reports_both() -> None:
    game = Connect4(5, 5, 3)
    state = game.from_notation("32231314")
    assert state.outcome is None
    state.play(0)  # red a3 completes a1 a2 a3 (vertical) and a3 b2 c1 (diagonal)
    assert state.to_text() == ".....\n.....\nX.O..\nXXO..\nXOXO."
    assert state.outcome is not None and state.outcome.winner == 0
    assert names(game, state.outcome.cells) == ["a1", "a2", "a3", "b2", "c1"]
    assert game.describe(state.outcome) == "Red wins: three in a row twice in columns 1 2 3 (a1 a2 a3 b2 c1)"


def test_a_full_board_without_a_line_is_a_draw() -> None:
    game = Connect4()
    state = game.from_notation(DRAW_7X6)
    assert state.outcome is not None and state.outcome.is_draw
    assert state.outcome.termination is Termination.BOARD_FULL
    assert state.outcome.reason == "the board is full"
    assert brute_force_lines(state.to_text(), 4) == set()
    assert game.describe(state.outcome) == "Draw: the board is full"


@pytest.mark.parametrize(("size", "moves"), [((4, 4, 4), "1233233441242411"), ((5, 4, 3), "55431431533211222544")])
def test_draws_on_small_boards(size: tuple[int, int, int], moves: str) -> None:
    state = Connect4(*size).from_notation(moves)
    assert state.outcome is not None and state.outcome.is_draw
    assert brute_force_lines(state.to_text(), size[2]) == set()


def test_no_line_fits_so_every_game_is_a_draw() -> None:
    game = Connect4(4, 4, 6)
    state = game.from_moves([c for c in range(4) for _ in range(4)])
    assert state.outcome is not None and state.outcome.is_draw


def test_describe_names_the_winner_and_cells_bottom_up() -> None:
    game = Connect4()
    state = game.from_notation("4455667")
    assert game.describe(state.outcome) == "Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1)"
    assert (
        game.describe(state.outcome, ("yellow", "red")) == "Yellow wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1)"
    )
    vertical = game.from_notation("1213141")
    assert game.describe(vertical.outcome) == "Red wins: four in a row in column 1 (a1 a2 a3 a4)"
    diagonal = game.from_notation("76654554344")
    assert game.describe(diagonal.outcome) == "Red wins: four in a row in columns 4 5 6 7 (d4 e3 f2 g1)"


# --- the protocol ------------------------------------------------------------------------------
def test_red_moves_first_and_players_alternate() -> None:
    state = Connect4().new_state()
    assert state.current_player == 0
    state.play(3)
    assert state.current_player == 1
    assert state.to_text().splitlines()[-1] == "...X..."
    state.play(3)
    assert state.to_text().splitlines()[-2:] == ["...O...", "...X..."]


def test_info_describes_the_game() -> None:
    info = Connect4(9, 5, 4).info
    assert (info.num_players, info.num_actions, info.max_game_length) == (2, 9, 45)
    assert info.player_names == ("red", "yellow")


@pytest.mark.parametrize("size", [(7, 6, 4), (4, 4, 3), (10, 10, 6), (10, 4, 4), (4, 10, 5), (5, 5, 6)])
def test_the_game_passes_the_conformance_checks(size: tuple[int, int, int]) -> None:
    check_game(Connect4(*size), playouts=8, seed=sum(size))


def test_the_spec_passes_the_conformance_checks() -> None:
    check_spec(SPEC, playouts=5)


@pytest.mark.parametrize(
    "options",
    [
        {"width": 3},
        {"width": 11},
        {"height": 3},
        {"height": 11},
        {"connect": 2},
        {"connect": 7},
        {"width": True},
        {"width": "7"},
    ],
)
def test_options_out_of_range_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(OptionError, match=next(iter(options))):
        SPEC.make(**options)


def test_unknown_option_is_refused() -> None:
    with pytest.raises(OptionError, match="depth"):
        SPEC.make(depth=3)


# --- errors: each names the problem and changes nothing ----------------------------------------
@pytest.mark.parametrize(
    ("moves", "move", "error", "message"),
    [
        ("", 7, ColumnOutOfRangeError, "no column 8: the columns are 1 to 7"),
        ("", -1, ColumnOutOfRangeError, "no column 0"),
        ("444444", 3, ColumnFullError, "column 4 is full"),
        ("4455667", 0, GameOverError, "the game is over \\(red won"),
        ("", "4", InvalidMoveError, "0-based column"),
    ],
)
def test_a_refused_move_raises_and_changes_nothing(moves: str, move: object, error: type, message: str) -> None:
    state = Connect4().from_notation(moves)
    before = (state.history, state.to_text(), state.outcome, state.current_player)
    with pytest.raises(error, match=message):
        state.play(move)  # type: ignore[arg-type]
    assert (state.history, state.to_text(), state.outcome, state.current_player) == before


def test_error_classes_follow_the_hierarchy() -> None:
    assert issubclass(ColumnOutOfRangeError, InvalidMoveError)
    assert issubclass(ColumnFullError, IllegalMoveError)
    assert issubclass(ColumnFullError, ValueError)


# --- undo and redo -----------------------------------------------------------------------------
def test_undo_returns_the_move_and_redo_replays_it() -> None:
    game = Connect4()
    state = game.from_notation("4453")
    assert state.undo() == 2
    assert state.undo() == 4
    assert state.notation() == "44"
    assert state.redo() == 4
    assert state.redo() == 2
    assert state == game.from_notation("4453")
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        state.redo()


def test_a_new_move_after_undo_clears_redo() -> None:
    state = Connect4().from_notation("445")
    state.undo()
    state.play(0)
    assert not state.can_redo
    with pytest.raises(IllegalMoveError):
        state.redo()


def test_undo_of_a_win_reopens_the_game_and_redo_ends_it_again() -> None:
    state = Connect4().from_notation("4455667")
    outcome = state.outcome
    state.undo()
    assert state.outcome is None and state.is_legal(6)
    state.redo()
    assert state.outcome == outcome


def test_undo_at_the_start_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        Connect4().new_state().undo()


# --- equality, copy, evaluation ----------------------------------------------------------------
def test_states_are_equal_by_game_and_history() -> None:
    game = Connect4()
    assert game.from_notation("4453") == game.from_notation("4,4,5,3")
    assert game.from_notation("4453") != game.from_notation("4435")  # same board, other order
    assert game.from_notation("44") != Connect4(8, 6).from_notation("44")


def test_copy_is_independent() -> None:
    state = Connect4().from_notation("44")
    copy = state.copy()
    assert copy == state
    copy.play(0)
    assert state.history == (3, 3) and copy.history == (3, 3, 0)
    assert state.to_text() != copy.to_text()


def test_evaluate_favours_the_side_with_the_threats() -> None:
    game = Connect4()
    red_to_move = game.from_notation("4151")  # red d1 e1, yellow a1 a2
    assert 0 < red_to_move.evaluate() <= 1
    yellow_to_move = game.from_notation("41516")  # red d1 e1 f1 open on both sides
    assert -1 <= yellow_to_move.evaluate() < 0


def test_evaluate_sees_a_win_on_the_next_move_and_a_double_threat() -> None:
    game = Connect4()
    # red d1 e1 f1: red to move wins at c1 or g1
    assert game.from_notation("415161").evaluate() == 1.0
    # yellow to move can block only one of c1 and g1
    assert game.from_notation("41516").evaluate() == -1.0
    assert -1 < game.from_notation("4151").evaluate() < 1


def test_the_search_order_tries_wins_then_blocks_then_the_centre() -> None:
    game = Connect4()
    assert game.new_state().search_order() == [3, 2, 4, 1, 5, 0, 6]
    assert game.from_notation("415161").search_order()[:2] == [2, 6]  # red wins at c1 or g1
    assert game.from_notation("43536").search_order()[0] == 6  # yellow must block g1
    assert game.from_notation("4455667").search_order() == []


def test_evaluate_is_exact_at_the_end() -> None:
    game = Connect4()
    assert game.from_notation("4455667").evaluate() == -1.0  # yellow to move has lost
    assert game.from_notation(DRAW_7X6).evaluate() == 0.0


# --- properties over random games --------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(connect4_playouts())
def test_a_win_is_reported_exactly_when_a_brute_force_scan_finds_a_line(playout: tuple) -> None:
    game, moves = playout
    state = game.new_state()
    for move in moves:
        state.play(move)
        lines = brute_force_lines(state.to_text(), game.connect)
        if lines:
            assert state.outcome is not None and state.outcome.winner is not None
            assert lines == {"XO"[state.outcome.winner]}
            assert len(state.outcome.cells) >= game.connect
        elif state.outcome is not None:
            assert state.outcome.is_draw and len(state.history) == game.width * game.height
        else:
            assert len(state.history) < game.width * game.height


@settings(max_examples=60, deadline=None)
@given(connect4_playouts())
def test_undo_restores_every_earlier_position(playout: tuple) -> None:
    game, moves = playout
    state = game.from_moves(moves)
    for n in range(len(moves), 0, -1):
        assert state.undo() == moves[n - 1]
        expected = game.from_moves(moves[: n - 1])
        assert (state.history, state.to_text(), state.outcome) == (
            expected.history,
            expected.to_text(),
            expected.outcome,
        )
        assert (state.bitboard, state.heights) == (expected.bitboard, expected.heights)
    assert state.to_text() == game.new_state().to_text()


@settings(max_examples=60, deadline=None)
@given(connect4_playouts())
def test_the_bitboard_finds_the_cells_that_complete_a_line_as_the_grid_does(playout: tuple) -> None:
    game, moves = playout
    state = game.from_moves(moves)
    geom = Geometry.of(game.width, game.height, game.connect)
    cur, mask = state.bitboard
    grid = state.grid
    for side, value in ((cur, 1 + state.current_player), (cur ^ mask, 2 - state.current_player)):
        bits = geom.winning_cells(side, mask)
        stride = game.height + 1
        found = {(game.height - 1 - i % stride, i // stride) for i in range(bits.bit_length()) if bits >> i & 1}
        expected = set()
        for cell in grid.empty_cells():
            grid.set(cell, value)
            if any(grid.line_length(cell, d) >= game.connect for d in Direction):
                expected.add(cell)
            grid.set(cell, 0)
        assert found == expected
        assert geom.has_line(side) == (state.outcome is not None and state.outcome.winner is not None and side != cur)
    empty = [sum(1 for r in range(game.height) if grid[r, c] == 0) for c in range(game.width)]
    assert state.heights == tuple(game.height - e for e in empty)


def test_the_rows_and_picture_read_off_the_moves_are_the_grids() -> None:
    import random

    from gridgames_connect4.position import notation

    rng = random.Random(5)
    for width, height in ((7, 6), (4, 4), (10, 10)):
        for _ in range(40):
            state = Connect4(width, height, 4).new_state()
            for _ in range(rng.randrange(width * height)):
                if state.is_over:
                    break
                state.play(rng.choice(list(state.legal_moves())))
            fresh = Connect4(width, height, 4).from_moves(state.history)  # no Grid made yet
            assert fresh.rows() == state.board().cells.tolist() == fresh.board().cells.tolist()
            assert fresh.to_text() == notation.picture(state.board()) == state.to_text()


def test_a_line_of_five_is_named_by_its_length() -> None:
    """Issue 56: the last disc joins two lines of two into five in a row: 'five in a row in columns 3 4 5 6 7'."""
    game = Connect4(7, 6, 4)
    five = game.from_notation("314162725")
    assert five.outcome is not None and len(five.outcome.cells) == 5
    assert game.describe(five.outcome) == "Red wins: five in a row in columns 3 4 5 6 7 (c1 d1 e1 f1 g1)"
    four = game.from_notation("3344556")
    assert game.describe(four.outcome) == "Red wins: four in a row in columns 3 4 5 6 (c1 d1 e1 f1)"  # type: ignore[arg-type]
