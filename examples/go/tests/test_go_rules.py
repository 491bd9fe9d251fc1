"""Go's rules against known facts: captures, suicide, simple ko, passes at any turn, area scoring, the notation."""

from __future__ import annotations

import pytest

from gridgames.errors import IllegalMoveError, NotationError, OptionError
from gridgames.game import PASS_TEXT
from gridgames.testing import check_spec
from gridgames_go import SPEC, GoGame, GoState

GAME = GoGame()


def _play(state: GoState, moves: str) -> GoState:
    for move in moves.split():
        state.play(state.game.parse_move(move))
    return state


def _stone(state: GoState, point: str) -> str:
    return ".XO"[state.board().cells.flat[state.game.parse_move(point)]]


def test_the_spec_passes_the_conformance_checks() -> None:
    check_spec(SPEC)
    check_spec(SPEC, playouts=5, seed=3)


def test_points_are_named_as_go_names_them() -> None:
    # bottom-left
    assert GAME.format_move(GAME.parse_move("A1")) == "A1" and GAME.parse_move("A1") == 72
    # no I
    assert GAME.parse_move("e5") == 40 and GAME.format_move(0) == "A9" and GAME.format_move(8) == "J9"
    assert GAME.parse_move(PASS_TEXT) == GAME.pass_move == 81 and GAME.format_move(81) == "pass"
    for bad, message in (("I5", "off the board"), ("K1", "off the board"), ("E10", "off the board"), ("55", "a move")):
        with pytest.raises(NotationError, match=message):
            GAME.parse_move(bad)
    with pytest.raises(OptionError, match="size must be"):
        GoGame(4)


def test_the_pass_is_legal_at_every_turn_and_two_passes_end_the_game() -> None:
    state = GAME.new_state()
    assert GAME.pass_always_legal and len(list(state.legal_moves())) == 82 and state.is_legal(GAME.pass_move)
    _play(state, "E5 pass")
    assert not state.is_over and state.is_legal(GAME.pass_move)
    _play(state, "D4 pass pass")
    outcome = state.outcome
    assert outcome is not None and outcome.reason == "both players passed"
    # two black stones own the whole empty board
    assert outcome.scores == (81.0, 7.5) and outcome.winner == 0
    assert list(state.legal_moves()) == []
    state.undo()
    assert not state.is_over and state.is_legal(GAME.pass_move)


def test_an_empty_board_is_nobodys_and_komi_wins() -> None:
    outcome = _play(GAME.new_state(), "pass pass").outcome
    assert outcome is not None and outcome.scores == (0.0, 7.5) and outcome.winner == 1


def test_a_surrounded_stone_is_captured_and_undo_puts_it_back() -> None:
    state = _play(GAME.new_state(), "E4 E5 D5 pass F5 pass")
    assert _stone(state, "E5") == "O"
    state.play(GAME.parse_move("E6"))  # the fourth liberty
    # E5 would be suicide
    assert _stone(state, "E5") == "." and state.is_legal(GAME.parse_move("E5")) is False
    state.undo()
    assert _stone(state, "E5") == "O" and _stone(state, "E6") == "."


def test_a_two_stone_group_in_the_corner_is_captured() -> None:
    state = _play(GAME.new_state(), "B1 A1 B2 A2 A3")
    assert _stone(state, "A1") == "." and _stone(state, "A2") == "."
    assert state.areas()[0] == 81  # Black's stones and the whole empty board


def test_suicide_is_illegal_but_a_capture_that_looks_like_it_is_not() -> None:
    state = _play(GAME.new_state(), "B1 pass A2")
    with pytest.raises(IllegalMoveError):
        state.play(GAME.parse_move("A1"))  # no liberty, captures nothing
    assert state.history == (GAME.parse_move("B1"), GAME.pass_move, GAME.parse_move("A2"))
    state = _play(GAME.new_state(), "B1 C1 A2 B2 pass A3 pass")
    state.play(GAME.parse_move("A1"))  # no liberty of its own, but B1 and A2 had only A1 left
    assert _stone(state, "A1") == "O" and _stone(state, "B1") == "." and _stone(state, "A2") == "."


# White's D4 sits in a ko shape: Black takes at E4, White may not retake at once
KO = "D5 E5 C4 F4 D3 E3 pass D4"


def test_simple_ko_forbids_the_immediate_retake() -> None:
    state = _play(GAME.new_state(), KO)
    state.play(GAME.parse_move("E4"))  # takes D4
    assert _stone(state, "D4") == "." and state.ko_point == GAME.parse_move("D4")
    assert not state.is_legal(GAME.parse_move("D4"))
    with pytest.raises(IllegalMoveError):
        state.play(GAME.parse_move("D4"))
    _play(state, "A9 A1")  # a ko threat and an answer elsewhere
    assert state.ko_point is None and state.is_legal(GAME.parse_move("D4"))
    state.play(GAME.parse_move("D4"))  # White retakes E4
    assert _stone(state, "E4") == "." and state.ko_point == GAME.parse_move("E4")
    state.undo()
    state.undo()
    state.undo()
    assert state.ko_point == GAME.parse_move("D4")  # undo brings the ko back


def test_taking_two_stones_is_no_ko() -> None:
    state = _play(GAME.new_state(), "B1 A1 pass A2 B2 pass A3")
    assert _stone(state, "A1") == "." and _stone(state, "A2") == "." and state.ko_point is None


def test_area_scoring_counts_stones_and_surrounded_empty_points() -> None:
    game = GoGame(5, komi=0.0)
    state = game.new_state()
    for row in range(1, 6):  # Black walls column C, White column D
        _play(state, f"C{row} D{row}")
    assert state.areas() == (15, 10)
    outcome = _play(state, "pass pass").outcome
    assert outcome is not None and outcome.winner == 0 and outcome.scores == (15.0, 10.0)
    komi = GoGame(5).from_notation(state.notation()).outcome
    assert komi is not None and komi.winner == 1 and komi.scores == (15.0, 17.5)


def test_a_region_touching_both_colours_is_nobodys() -> None:
    state = _play(GoGame(5).new_state(), "A1 E5")
    assert state.areas() == (1, 1)


def test_black_is_black_in_the_picture() -> None:
    state = _play(GAME.new_state(), "E5 D5")
    assert GAME.player_colours() == ("#111111", "#f5f5f5")
    svg = state.svg()
    assert svg is not None and "#111111" in svg and "#f5f5f5" in svg and "#d55e00" not in svg
    assert state.to_text().splitlines()[4] == "5 . . . O X . . . ."
