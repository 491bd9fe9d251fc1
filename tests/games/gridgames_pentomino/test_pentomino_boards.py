"""Tests of boards: presets, rectangles, and board files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gridgames.errors import PuzzleError

from gridgames_pentomino.boards import PRESETS, Board


@pytest.mark.parametrize(
    ("name", "shape", "area"),
    [("6x10", (6, 10), 60), ("5x12", (5, 12), 60), ("4x15", (4, 15), 60), ("3x20", (3, 20), 60), ("8x8", (8, 8), 64)],
)
def test_rectangle_presets(name: str, shape: tuple[int, int], area: int) -> None:
    board = Board.parse(name)
    assert (board.height, board.width) == shape and board.area == area and board.name == name


def test_eight_by_eight_centre_has_its_middle_two_by_two_removed() -> None:
    board = Board.parse("8x8-centre")
    holes = {(int(r), int(c)) for r, c in zip(*np.nonzero(board.grid.cells == -1))}
    assert holes == {(3, 3), (3, 4), (4, 3), (4, 4)} and board.area == 60
    assert Board.parse("8x8-center").to_text() == board.to_text()


def test_eight_by_eight_corners_has_its_four_corners_removed() -> None:
    board = Board.parse("8x8-corners")
    holes = {(int(r), int(c)) for r, c in zip(*np.nonzero(board.grid.cells == -1))}
    assert holes == {(0, 0), (0, 7), (7, 0), (7, 7)} and board.area == 60


def test_every_preset_parses_under_its_name() -> None:
    for name in PRESETS:
        assert Board.parse(name).name == name


@pytest.mark.parametrize("spec", ["7x9", "7X9", " 7 x 9 "])
def test_any_rectangle(spec: str) -> None:
    board = Board.parse(spec)
    assert (board.height, board.width, board.area, board.name) == (7, 9, 63, "7x9")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("0x5", "sides must be"),
        ("9x", "unknown board"),
        ("chessboard", "unknown board 'chessboard'"),
        ("5x2000", "sides must be"),
    ],
)
def test_bad_board_names_are_puzzle_errors(spec: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        Board.parse(spec)


def test_board_file_cells_holes_spaces_and_short_lines() -> None:
    board = Board.from_text("...\n.#.\n. .\n.\n")
    assert board.to_text() == "...\n.#.\n.#.\n.##"
    assert board.area == 8


def test_board_file_is_cropped_to_its_cells() -> None:
    board = Board.from_text("#####\n#..##\n#.#.#\n#####\n\n")
    assert board.to_text() == "..#\n.#."
    assert (board.height, board.width) == (2, 3)


def test_board_text_round_trips() -> None:
    for name in PRESETS:
        board = Board.parse(name)
        assert Board.from_text(board.to_text()).grid == board.grid


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("...\n.x.\n", "line 2, column 2: unexpected 'x'"),
        ("", "has no cells"),
        ("###\n# #\n", "has no cells"),
    ],
)
def test_malformed_board_files_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message) as info:
        Board.from_text(text, name="b.txt")
    assert "\n" not in str(info.value)


def test_board_file_is_named_after_the_file(tmp_path: Path) -> None:
    path = tmp_path / "cross.txt"
    path.write_text(" . \n...\n . \n")
    board = Board.from_file(path)
    assert board.name == "cross.txt" and board.area == 5


def test_missing_board_file_is_a_puzzle_error(tmp_path: Path) -> None:
    with pytest.raises(PuzzleError, match="cannot read board file"):
        Board.from_file(tmp_path / "nope.txt")
