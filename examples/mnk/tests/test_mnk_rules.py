"""Tests of the m,n,k-game's rules: conformance, wins in every direction, draws, notation, options, evaluation."""

from __future__ import annotations

import pytest

from gridgames.errors import IllegalMoveError, NotationError, OptionError
from gridgames.game import Termination
from gridgames.testing import check_game, check_spec

from gridgames_mnk import SPEC, MNKGame

DRAW = "a3 b2 c3 b3 b1 c2 a2 a1 c1"  # X O X / X O O / O X X


def test_the_spec_conforms_to_the_protocol() -> None:
    check_spec(SPEC)


@pytest.mark.parametrize(("width", "height", "k"), [(4, 3, 3), (5, 5, 4), (1, 4, 2), (7, 2, 5)])
def test_other_board_sizes_conform(width: int, height: int, k: int) -> None:
    check_game(MNKGame(width, height, k), playouts=5)


@pytest.mark.parametrize(
    ("moves", "line"),
    [
        ("a1 b1 a2 b2 a3", ["a3", "a2", "a1"]),  # a column
        ("a1 a2 b1 b2 c1", ["a1", "b1", "c1"]),  # a row
        ("a1 b1 b2 c1 c3", ["c3", "b2", "a1"]),  # a diagonal
        ("a3 a1 b2 b1 c1", ["a3", "b2", "c1"]),  # the other diagonal
    ],
)
def test_three_in_a_row_wins_for_x_in_every_direction(moves: str, line: list[str]) -> None:
    game = MNKGame()
    state = game.from_notation(moves)
    assert state.outcome is not None and state.outcome.winner == 0
    assert sorted(state.outcome.cells) == sorted(divmod(game.parse_move(cell), 3) for cell in line)
    assert list(state.legal_moves()) == []


def test_o_can_win_too() -> None:
    state = MNKGame().from_notation("a1 b1 a2 b2 c3 b3")
    assert state.outcome is not None and state.outcome.winner == 1 and "O has 3 in a row" in state.outcome.reason
    assert state.outcome.termination is Termination.LINE


def test_a_full_board_without_a_line_is_a_draw() -> None:
    state = MNKGame().from_notation(DRAW)
    assert state.outcome is not None and state.outcome.is_draw and state.outcome.reason == "the board is full"
    assert state.outcome.termination is Termination.BOARD_FULL
    assert state.to_text().splitlines()[:3] == ["3 X O X", "2 X O O", "1 O X X"]


def test_gomoku_needs_five() -> None:
    game = MNKGame(15, 15, 5)
    four = game.from_notation("a1 a15 b1 b15 c1 c15 d1 d15")
    assert four.outcome is None
    four.play(game.parse_move("e1"))
    assert four.outcome is not None and four.outcome.winner == 0


def test_notation_counts_rows_from_the_bottom_left() -> None:
    game = MNKGame()
    assert game.parse_move("a1") == 6 and game.parse_move("C3") == 2 and game.parse_move(" b2 ") == 4
    assert [game.format_move(m) for m in range(3)] == ["a3", "b3", "c3"]
    assert MNKGame(15, 15, 5).format_move(0) == "a15"


@pytest.mark.parametrize("text", ["d1", "a4", "a0", "zz", "", "b"])
def test_malformed_or_off_board_moves_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        MNKGame().parse_move(text)


def test_an_occupied_cell_is_illegal() -> None:
    state = MNKGame().from_notation("b2")
    with pytest.raises(IllegalMoveError):
        state.play(4)
    assert state.history == (4,)


@pytest.mark.parametrize(
    ("options", "message"), [({"width": 0}, "width"), ({"height": 27}, "height"), ({"k": 4}, "k must be")]
)
def test_impossible_options_are_refused(options: dict[str, int], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        SPEC.make(**options)


def test_options_make_the_board() -> None:
    game = SPEC.make(width=15, height=15, k=5)
    assert isinstance(game, MNKGame) and game.info.num_actions == 225


def test_evaluation_favours_the_side_with_open_lines() -> None:
    game = MNKGame()
    assert game.new_state().evaluate() == 0.0
    threatened = game.from_notation("a1 b3 a2")  # X threatens a3; O to move
    assert -1.0 < threatened.evaluate() < -0.5
    assert game.from_notation("b2").evaluate() < 0.0  # O to move against the centre
