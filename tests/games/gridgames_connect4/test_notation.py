"""Connect Four notation: moves, move strings (digit and comma forms), cell names, pictures."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from gridgames_test_support.strategies import connect4_playouts

from gridgames_connect4 import ColumnFullError, ColumnOutOfRangeError, Connect4
from gridgames.errors import GameOverError, NotationError

GAME = Connect4()
WIDE = Connect4(10, 6)


# --- single moves ------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "move"), [("1", 0), ("4", 3), (" 7 ", 6)])
def test_a_move_is_a_one_based_column(text: str, move: int) -> None:
    assert GAME.parse_move(text) == move
    assert GAME.format_move(move) == text.strip()


def test_column_ten_exists_on_a_board_ten_wide() -> None:
    assert WIDE.parse_move("10") == 9
    assert WIDE.format_move(9) == "10"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("0", ColumnOutOfRangeError),
        ("8", ColumnOutOfRangeError),
        ("x", NotationError),
        ("-1", NotationError),
        ("", NotationError),
        ("4.0", NotationError),
        ("٤", NotationError),
    ],
)
def test_bad_move_texts_are_refused(text: str, error: type) -> None:
    with pytest.raises(error):
        GAME.parse_move(text)


def test_format_move_refuses_a_column_off_the_board() -> None:
    with pytest.raises(ColumnOutOfRangeError, match="no column 8"):
        GAME.format_move(7)


# --- move strings ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["4453", "4,4,5,3", "4 4 5 3", " 4,4, 5 ,3 ", "4,4,5,3,", "44 53"])
def test_move_strings_in_every_form_give_the_same_game(text: str) -> None:
    assert GAME.from_notation(text).history == (3, 3, 4, 2)


def test_the_digit_form_is_written_up_to_nine_columns_and_commas_beyond() -> None:
    assert GAME.from_notation("4453").notation() == "4453"
    assert Connect4(9, 6).from_notation("9,1").notation() == "91"
    assert WIDE.from_notation("10,1,10").notation() == "10,1,10"
    assert WIDE.from_notation("10 1 4").history == (9, 0, 3)


def test_a_long_digit_string_on_a_wide_board_asks_for_commas() -> None:
    with pytest.raises(NotationError, match="separate moves with commas"):
        WIDE.from_notation("4453")


def test_an_empty_move_string_is_the_start() -> None:
    assert GAME.from_notation("").history == ()
    assert GAME.new_state().notation() == ""


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("44x3", NotationError, "move 3 \\('x'\\): 'x' is not a column number"),
        ("4,,5", NotationError, "move 2 of '4,,5' is empty"),
        ("4,4 5", NotationError, "holds a space"),
        ("448", ColumnOutOfRangeError, "move 3 \\('8'\\): there is no column 8"),
        ("4444444", ColumnFullError, "move 7 \\('4'\\): column 4 is full"),
        ("44556675", GameOverError, "move 8 \\('5'\\): the game is over \\(red won with four in a row\\)"),
    ],
)
def test_bad_move_strings_name_the_move_and_the_problem(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        GAME.from_notation(text)


# --- cell names --------------------------------------------------------------------------------
def test_cells_are_named_by_column_letter_and_row_from_the_bottom() -> None:
    assert GAME.cell_name((5, 3)) == "d1"
    assert GAME.cell_name((0, 0)) == "a6"
    assert Connect4(10, 10).cell_name((0, 9)) == "j10"


# --- pictures ----------------------------------------------------------------------------------
def test_the_picture_shows_red_as_x_and_yellow_as_o_top_row_first() -> None:
    assert GAME.from_notation("4453").to_text() == "\n".join(
        [".......", ".......", ".......", ".......", "...O...", "..OXX.."]
    )


def test_a_picture_parses_back_to_the_same_position() -> None:
    state = GAME.from_notation("44536")
    back = Connect4.from_picture(state.to_text())
    assert back.to_text() == state.to_text()
    assert back.game == GAME
    # one legal order, maybe not the one played
    assert sorted(back.history) == sorted(state.history)


def test_a_won_picture_is_rebuilt_with_the_winning_disc_last() -> None:
    state = GAME.from_notation("4455667")
    back = Connect4.from_picture(state.to_text())
    assert back.outcome == state.outcome
    assert back.history[-1] == 6


def test_pictures_may_use_spaces_lowercase_and_column_numbers() -> None:
    text = """
    . . . .
    . . . .
    . o . .
    x x . .
    1 2 3 4
    """
    state = Connect4.from_picture(text, connect=3)
    assert state.game == Connect4(4, 4, 3)
    assert state.to_text() == "....\n....\n.O..\nXX.."


def test_parse_picture_checks_the_board_size() -> None:
    with pytest.raises(NotationError, match="the picture is 4x4 but the board is 7x6"):
        GAME.parse_picture("....\n....\n....\n....")


@pytest.mark.parametrize(
    ("picture", "message"),
    [
        ("", "empty"),
        ("....\n....\n....\n..Z.", "unexpected 'Z' in row 4 \\(from the top\\), column 3"),
        ("....\n....\n...\n....", "row 3 of the picture has 3 cells but row 1 has 4"),
        ("....\n....\n....", "3 cells high"),
        ("....\n....\n.X..\n.O..\n....", "column 2 has a floating disc"),
        ("....\n....\n....\nXX..", "red has 2 discs and yellow 0"),
        ("....\n....\n....\nO...", "red has 0 discs and yellow 1"),
        ("....\nX...\nXO..\nXO..", None),  # reachable: red a1 a2 a3 won before yellow's third
        ("....\n....\nXXXX\nOOOO", "both red and yellow have four in a row"),
        ("....\n.X..\nOXO.\nOXOX", "red has three in a row, so red moved last, but red has 4 discs and yellow 4"),
        ("X..X\nX..X\nX..X\nXOOO", "red has 7 discs and yellow 3"),
        ("OX..\nXO..\nOX..\nXO..", None),  # reachable: a1 b1 b2 a2 a3 b3 b4 a4
    ],
)
def test_pictures_must_be_reachable_and_errors_name_the_problem(picture: str, message: str | None) -> None:
    if message is None:
        Connect4.from_picture(picture, connect=3)
        return
    with pytest.raises(NotationError, match=message):
        Connect4.from_picture(picture, connect=4 if "four" in message else 3)


def test_two_separate_lines_of_one_player_are_refused() -> None:
    # red: a1 a2 a3 (vertical) and c1 d1 e1 (horizontal) share no disc, so one of them came first
    picture = "\n".join(["O....", "X....", "XOO.O", "XOXXX"])
    with pytest.raises(NotationError, match="no single last red disc completes every red line"):
        Connect4.from_picture(picture, connect=3)


def test_a_line_longer_than_needed_must_end_with_a_middle_disc() -> None:
    # red a1 b1 c1 d1 with connect 3: only b1 or c1 can have been last (a1 or d1 last means an earlier win)
    state = Connect4.from_picture("....\nO...\nO..O\nXXXX", connect=3)
    assert state.history[-1] in (1, 2)
    assert state.outcome is not None and len(state.outcome.cells) == 4
    with pytest.raises(NotationError, match="no single last red disc"):
        Connect4.from_picture(".....\n.....\n.OO..\nXXXXO", connect=3)  # b1 and c1 are covered


def test_a_colour_order_that_cannot_alternate_is_refused() -> None:
    # yellow discs at the bottom of both used columns: red's first disc has nowhere to be
    with pytest.raises(NotationError, match="no legal order of moves reaches this picture"):
        Connect4.from_picture("....\n....\nXX..\nOO..")


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(connect4_playouts())
def test_notation_and_pictures_round_trip(playout: tuple) -> None:
    game, moves = playout
    state = game.from_moves(moves)
    assert game.from_notation(state.notation()) == state
    back = game.parse_picture(state.to_text())
    assert back.to_text() == state.to_text()
    assert back.outcome == state.outcome
    assert back.current_player == state.current_player
