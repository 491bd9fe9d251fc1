"""Hypothesis fuzz of every user-file parser (saves, boards, pieces): the right answer or one `GridGamesError` line.

Bounded in examples and size so that CI stays fast; hostile shapes (huge integers, deep nesting,
control characters, invalid UTF-8) are mixed in with random text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridgames.errors import GridGamesError
from gridgames_test_support.connect4_play import load_game
from gridgames_pentomino.boards import Board
from gridgames_pentomino.pieces import PieceSet

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

HOSTILE_JSON = st.sampled_from(
    [
        '{"format":"gridgames-connect4","version":' + "1" * 5000 + "}",
        '{"format":"gridgames-connect4","version":1,"width":' + "9" * 5000 + ',"height":6,"connect":4,"moves":""}',
        "[" * 100_000 + "]" * 100_000,
        '{"format":"gridgames-connect4","version":1e400,"width":7,"height":6,"connect":4,"moves":""}',
        '{"format":"gridgames-connect4","version":1,"width":7,"height":6,"connect":4,"moves":"' + "4" * 500 + '"}',
        '{"format":"gridgames-connect4","version":1,"width":NaN,"height":6,"connect":4,"moves":""}',
        '{"format":"gridgames-connect4","version":1,"width":7,"height":6,"connect":4,"moves":"\\u0000"}',
    ]
)

SAVE_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
SAVE_OBJECTS = st.fixed_dictionaries(
    {"format": st.just("gridgames-connect4"), "version": st.just(1)},
    optional={
        "width": SAVE_VALUES | st.integers(0, 12),
        "height": SAVE_VALUES | st.integers(0, 12),
        "connect": SAVE_VALUES | st.integers(0, 7),
        "first": SAVE_VALUES | st.sampled_from(["red", "yellow"]),
        "moves": SAVE_VALUES | st.text("1234567 ,", max_size=50),
    },
).map(json.dumps)

RAW = st.one_of(st.binary(max_size=300), st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")))


def _write(tmp_path: Path, data: bytes | str) -> Path:
    path = tmp_path / "fuzzed"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
    return path


def _one_line_or_result(read, path: Path) -> None:  # type: ignore[no-untyped-def]
    try:
        read(path)
    except GridGamesError as error:
        assert "\n" not in str(error) and str(error)


@pytest.mark.slow
@FUZZ
@given(st.one_of(HOSTILE_JSON, SAVE_OBJECTS, RAW))
def test_fuzz_save_files(tmp_path: Path, data: bytes | str) -> None:
    _one_line_or_result(load_game, _write(tmp_path, data))


BOARD_TEXT = st.one_of(st.text(". #\n", max_size=400), st.text(max_size=200), RAW)


@FUZZ
@given(BOARD_TEXT)
def test_fuzz_board_files(tmp_path: Path, data: bytes | str) -> None:
    _one_line_or_result(Board.from_file, _write(tmp_path, data))


PIECE_NAMES = st.sampled_from(["L", "P", "X", "mono", "T*2", "Z*0", "A*99999999999999999999", "", "a b", "Q*-1"])
PIECE_BLOCKS = st.lists(
    st.tuples(PIECE_NAMES, st.text("# .", min_size=0, max_size=30)).map(
        lambda b: b[0] + "\n" + b[1].replace(" ", "\n", 2)
    ),
    max_size=5,
).map("\n\n".join)


@FUZZ
@given(st.one_of(PIECE_BLOCKS, st.text(max_size=200), RAW))
def test_fuzz_pieces_files(tmp_path: Path, data: bytes | str) -> None:
    _one_line_or_result(PieceSet.from_file, _write(tmp_path, data))


@pytest.mark.parametrize("reader", [load_game, Board.from_file, PieceSet.from_file])
def test_every_reader_refuses_a_file_just_over_its_cap(reader, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "big"
    with open(path, "wb") as handle:
        handle.truncate(1_000_001)
    with pytest.raises(GridGamesError, match="too large"):
        reader(path)
