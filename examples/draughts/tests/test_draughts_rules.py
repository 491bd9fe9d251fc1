"""English draughts' rules against known facts: the opening moves, forced and multi-step captures, crowning, kings,
the short forms of moves and their ambiguity, the end."""

from __future__ import annotations

import pytest

from gridgames.errors import IllegalMoveError, NotationError
from gridgames.game import Termination
from gridgames.testing import check_spec
from gridgames_draughts import MAN, KING, PATHS, SPEC, DraughtsGame, DraughtsState, square_cell

GAME = DraughtsGame()


def _legal(state: DraughtsState) -> list[str]:
    return sorted(GAME.format_move(m) for m in state.legal_moves())


def _setup(black: dict[int, int], white: dict[int, int], to_move: int = 0) -> DraughtsState:
    """A position from square numbers -> MAN or KING (a test's own; the game itself starts only from the start)."""
    state = GAME.new_state()
    state._owner = [-1] * 32
    state._kind = [0] * 32
    for owner, pieces in enumerate((black, white)):
        for square, kind in pieces.items():
            state._owner[square - 1], state._kind[square - 1] = owner, kind
    state._to_move = to_move
    state._settle()
    return state


def test_the_spec_passes_the_conformance_checks() -> None:
    check_spec(SPEC)


def test_the_action_table_holds_every_step_and_jump_path() -> None:
    simple = [p for p in PATHS if len(p) == 2 and abs(square_cell(p[0])[0] - square_cell(p[1])[0]) == 1]
    assert len(simple) == 98 and len(PATHS) - len(simple) == 1328
    assert GAME.info.num_actions == len(PATHS) == len(set(PATHS))


def test_black_has_the_seven_known_opening_moves() -> None:
    state = GAME.new_state()
    assert _legal(state) == sorted(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    assert state.current_player == 0 and state.to_text().splitlines()[0] == "  b   b   b   b"


def test_a_capture_is_compulsory() -> None:
    state = GAME.from_notation("11-15 22-18")
    assert _legal(state) == ["15x22"]
    with pytest.raises(IllegalMoveError):
        state.play(GAME.parse_move("9-13"))
    state.play(GAME.parse_move("15x22"))
    assert state.piece(18) is None and state.piece(22) == (0, MAN) and state.piece(15) is None


def test_a_multi_step_capture_must_go_on_and_its_short_form_is_read_in_the_position() -> None:
    state = _setup({9: MAN}, {14: MAN, 23: MAN, 32: MAN})
    assert _legal(state) == ["9x18x27"]
    assert state.parse_move("9x27") == GAME.parse_move("9x18x27") == state.parse_move("9x18x27")
    with pytest.raises(IllegalMoveError):
        state.play(state.parse_move("9x18"))  # stopping half-way is not allowed
    state.play(state.parse_move("9x27"))
    assert state.piece(27) == (0, MAN) and state.piece(14) is None and state.piece(23) is None


def test_a_short_form_that_fits_two_paths_names_both() -> None:
    state = _setup({2: MAN}, {6: MAN, 7: MAN, 14: MAN, 15: MAN, 32: MAN})
    assert _legal(state) == ["2x11x18", "2x9x18"]
    with pytest.raises(NotationError, match=r"^'2x18' is ambiguous here: 2x9x18 or 2x11x18$"):
        state.parse_move("2x18")
    assert state.parse_move("2x9x18") == GAME.parse_move("2x9x18")
    with pytest.raises(NotationError, match="no legal capture here goes from 2 to 27"):
        state.parse_move("2x27")
    with pytest.raises(NotationError, match="squares 1-32"):
        state.parse_move("2-x")


def test_a_man_on_the_far_row_is_crowned_and_its_jump_ends_there() -> None:
    state = _setup({23: MAN}, {27: MAN, 1: MAN})
    state.play(state.parse_move("23x32"))
    assert state.piece(32) == (0, KING)
    assert state.undo() == GAME.parse_move("23x32") and state.piece(23) == (0, MAN) and state.piece(27) == (1, MAN)


def test_crowning_stops_a_capture_that_a_king_would_continue() -> None:
    # 21x30 crowns; a king on 30 could jump 26 to 23
    state = _setup({21: MAN}, {25: MAN, 26: MAN, 5: MAN})
    assert _legal(state) == ["21x30"]
    state.play(state.parse_move("21x30"))
    assert state.piece(30) == (0, KING) and state.piece(26) == (1, MAN) and state.current_player == 1


def test_a_king_moves_and_jumps_backwards() -> None:
    state = _setup({18: KING}, {1: MAN})
    assert _legal(state) == ["18-14", "18-15", "18-22", "18-23"]
    state = _setup({18: KING}, {14: MAN, 1: MAN})
    assert _legal(state) == ["18x9"]


def test_a_player_who_cannot_move_loses() -> None:
    state = _setup({9: MAN}, {14: MAN, 1: MAN}, to_move=1)  # White's 14x5 takes Black's last man
    state.play(state.parse_move("14x5"))
    outcome = state.outcome
    assert outcome is not None and outcome.winner == 1 and outcome.reason == "Black has no pieces left"
    assert outcome.termination is Termination.NO_MOVES and list(state.legal_moves()) == []
    # Black's man on 29 is on White's home row: men move down only
    blocked = _setup({29: MAN}, {25: MAN, 1: KING})
    assert blocked.outcome is not None and blocked.outcome.reason == "Black cannot move"


def test_forty_moves_each_without_progress_is_a_draw() -> None:
    state = _setup({1: KING}, {32: KING})
    shuffles = ["1-5", "32-28", "5-1", "28-32"]
    for i in range(80):
        assert not state.is_over
        state.play(state.parse_move(shuffles[i % 4]))
    outcome = state.outcome
    assert outcome is not None and outcome.winner is None and "40 moves each" in outcome.reason
    state.undo()
    assert not state.is_over


def test_the_board_the_planes_and_the_paths() -> None:
    state = _setup({1: KING, 9: MAN}, {14: MAN})
    grid = state.board().cells
    assert grid[0, 1] == 1 and grid[2, 1] == 1 and grid[3, 2] == 2 and grid.sum() == 4
    planes = state.planes()
    assert planes.shape == (8, 8, 3) and planes[0, 1, 2] == 1 and planes[2, 1, 2] == 0
    assert state.move_path(GAME.parse_move("9x18")) == ((2, 1), (4, 3))
    assert state.move_path(GAME.parse_move("1-5")) == ((0, 1), (1, 0))
    assert state.to_text().splitlines()[0] == "  B   .   .   ."
    assert GAME.player_colours() == ("#222222", "#f2efe6")


def test_the_picture_tells_kings_from_men_and_marks_the_dark_squares() -> None:
    men = _setup({9: MAN}, {14: MAN}).svg()
    kings = _setup({9: KING}, {14: MAN}).svg()
    assert men.count("<circle") == 2 and kings.count("<circle") == 3 and kings.count(">K</text>") == 1
    assert men.count("data-row=") == 32 and 'data-row="2" data-col="1"' in men  # square 9
    assert "#222222" in men and "#f2efe6" in men
