"""Tests of piece specifications (sets, single pieces, counts, renames) and pieces files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from gridgames_test_support.strategies import polyomino_shapes

from gridgames.errors import PuzzleError
from gridgames.shapes import PENTOMINOES, TETROMINOES, Shape

from gridgames.pieces import Piece
from gridgames_pentomino.pieces import PieceSet


def test_default_spec_is_the_twelve_free_pentominoes() -> None:
    pieces = PieceSet.parse()
    assert pieces.names == tuple("FILNPTUVWXYZ")
    assert pieces.area == 60 and pieces.copies == 12
    assert all(p.kind == "free" and p.count == 1 for p in pieces)


@pytest.mark.parametrize(
    "spec", ["pentominoes+O", "pentominoes,tetromino:O", "pentominoes, tetrominoes:O", "pentomino + o"]
)
def test_dana_scott_set_is_the_pentominoes_and_the_square(spec: str) -> None:
    pieces = PieceSet.parse(spec)
    assert pieces.names == (*"FILNPTUVWXYZ", "O")
    assert pieces.by_name()["O"].shape == TETROMINOES["O"]
    assert pieces.area == 64


def test_bare_name_is_a_pentomino_first_and_set_prefix_picks_another_set() -> None:
    assert PieceSet.parse("L").by_name()["L"].shape == PENTOMINOES["L"]
    assert PieceSet.parse("tetromino:L").by_name()["L"].shape == TETROMINOES["L"]
    assert PieceSet.parse("tromino:L").by_name()["L"].size == 3
    assert PieceSet.parse("S").by_name()["S"].shape == TETROMINOES["S"]
    assert PieceSet.parse("D").area == 2 and PieceSet.parse("M").area == 1
    assert PieceSet.parse("H07").by_name()["H07"].size == 6


def test_counts_multiply_a_piece_or_each_piece_of_a_set() -> None:
    assert PieceSet.parse("L*3").by_name()["L"].count == 3
    assert PieceSet.parse("L * 3").area == 15
    double = PieceSet.parse("tetrominoes*2")
    assert double.names == tuple("IOTSL") and double.copies == 10 and double.area == 40
    mixed = PieceSet.parse("L*4,I*2,tetromino:O*3")
    assert [(p.name, p.count) for p in mixed] == [("L", 4), ("I", 2), ("O", 3)]


def test_rename_lets_pieces_of_two_sets_share_a_board() -> None:
    pieces = PieceSet.parse("pentominoes+tetromino:L=l")
    assert pieces.by_name()["l"].shape == TETROMINOES["L"]
    assert pieces.by_name()["L"].shape == PENTOMINOES["L"]
    assert pieces.area == 64


def test_one_sided_set_has_eighteen_pieces_that_never_flip() -> None:
    pieces = PieceSet.parse("one-sided pentominoes")
    assert len(pieces) == 18 and pieces.area == 90
    assert all(p.kind == "one-sided" for p in pieces)
    f, mirror = pieces.by_name()["F"], pieces.by_name()["F'"]
    assert mirror.shape.canonical() == f.shape.canonical()
    assert not set(f.orientations()) & set(mirror.orientations())
    assert len(f.orientations()) == 4


def test_fixed_set_has_one_orientation_per_piece() -> None:
    pieces = PieceSet.parse("fixed tetrominoes")
    assert len(pieces) == 19
    assert all(len(p.orientations()) == 1 for p in pieces)


@pytest.mark.parametrize(
    ("name", "free", "one_sided"), [("F", 8, 4), ("I", 2, 2), ("X", 1, 1), ("N", 8, 4), ("T", 4, 4), ("Z", 4, 2)]
)
def test_orientations_of_free_and_one_sided_pentominoes(name: str, free: int, one_sided: int) -> None:
    piece = PieceSet.parse(name).pieces[0]
    assert len(piece.orientations()) == free
    assert len(piece.orientations(one_sided=True)) == one_sided


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pentominoes,tetrominoes", "duplicate piece name 'I'"),
        ("F,F", "duplicate piece name 'F'"),
        ("Q", "unknown piece or set 'Q'"),
        ("tetromino:Q", "no piece 'Q' in tetromino"),
        ("pentominoes,", "empty term"),
        ("", "empty term"),
        ("L*0", "a count must be at least 1"),
        ("pentominoes=p", "cannot rename the whole set"),
        ("tetromino:L=a b", "bad piece name 'a b'"),
        ("martians:L", "unknown piece set 'martians'"),
    ],
)
def test_bad_specifications_are_one_line_puzzle_errors(spec: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message) as info:
        PieceSet.parse(spec)
    assert "\n" not in str(info.value)


PIECES_FILE = """\
F
.##
##.
.#.

O*2
##
##

bar
#####
"""


def test_pieces_file_reads_names_counts_and_pictures(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text(PIECES_FILE)
    pieces = PieceSet.from_file(path)
    assert pieces.names == ("F", "O", "bar")
    assert pieces.by_name()["F"].shape == PENTOMINOES["F"]
    assert pieces.by_name()["O"].count == 2 and pieces.by_name()["O"].shape == TETROMINOES["O"]
    assert pieces.by_name()["bar"].shape == PENTOMINOES["I"]
    assert pieces.area == 5 + 8 + 5


def test_pieces_file_accepts_spaces_for_gaps_and_several_blank_lines() -> None:
    pieces = PieceSet.from_text("\n\nT\n###\n # \n # \n\n\n\nX\n.#.\n###\n.#.\n\n")
    assert pieces.by_name()["T"].shape == PENTOMINOES["T"]
    assert pieces.by_name()["X"].shape == PENTOMINOES["X"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "has no pieces"),
        ("F\n\nI\n#####\n", "line 1: piece 'F' has no picture"),
        ("F\n.##\n#x.\n", "line 3: unexpected 'x' in the picture of 'F'"),
        ("F\n#.#\n", "line 1: piece 'F' is not connected"),
        ("F\n...\n", "line 2: the picture of 'F' has no '#' square"),
        ("A\n##\n\nA\n###\n", "duplicate piece name 'A'"),
        ("##\n##\n", "bad piece name '##'"),
        ("big one\n##\n", "bad piece name 'big one'"),
        ("O*0\n##\n", "line 1: a count must be at least 1"),
        ("F\n.##\nI\n#####\n", "line 3: unexpected 'I'"),
    ],
)
def test_malformed_pieces_files_are_one_line_errors_with_the_line(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message) as info:
        PieceSet.from_text(text, source="p.txt")
    assert "\n" not in str(info.value)


def test_missing_pieces_file_is_a_puzzle_error(tmp_path: Path) -> None:
    with pytest.raises(PuzzleError, match="cannot read pieces file"):
        PieceSet.from_file(tmp_path / "nope.txt")


def test_piece_counts_must_be_positive() -> None:
    with pytest.raises(PuzzleError, match="count must be a positive integer"):
        Piece("F", PENTOMINOES["F"], 0)


@settings(max_examples=50, deadline=None)
@given(st.lists(polyomino_shapes(1, 8), min_size=1, max_size=5), st.lists(st.integers(1, 4), min_size=5, max_size=5))
def test_pieces_file_round_trips_random_shapes(shapes: list[Shape], counts: list[int]) -> None:
    blocks = [f"p{i}*{counts[i]}\n{shape.to_text()}" for i, shape in enumerate(shapes)]
    pieces = PieceSet.from_text("\n\n".join(blocks))
    assert [p.shape for p in pieces] == shapes
    assert [p.count for p in pieces] == counts[: len(shapes)]
