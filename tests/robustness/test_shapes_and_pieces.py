"""Robustness of shape generation and piece sets: sizes refused before enumerating, areas checked first, no
recursion."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from gridgames import shapes
from gridgames.cli import app
from gridgames.errors import ShapeError
from gridgames.shapes import KINDS, MAX_GENERATED, TooLargeError, piece_set, polyomino_count, polyominoes, set_area

from gridgames_pentomino.puzzle import TilingPuzzle

runner = CliRunner()


def solve(*args: str) -> Any:
    return runner.invoke(app, ["solve", "pentomino", *args])


def assert_one_line_error(result: Any, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


# --- shapes -------------------------------------------------------------------


@pytest.mark.parametrize("n", [MAX_GENERATED + 1, 1000, 99999999999999999999])
@pytest.mark.parametrize("kind", KINDS)
def test_sizes_above_the_limit_are_refused_naming_it(n: int, kind: str) -> None:
    with pytest.raises(TooLargeError, match=f"up to {MAX_GENERATED} squares"):
        polyominoes(n, kind)
    assert issubclass(TooLargeError, ShapeError) and issubclass(TooLargeError, ValueError)


@pytest.mark.parametrize("spec", ["1000-ominoes", "n=99999999999999999999", "one-sided 20-ominoes", "fixed 11-ominoes"])
def test_piece_sets_above_the_limit_are_refused(spec: str) -> None:
    with pytest.raises(TooLargeError):
        piece_set(spec)
    with pytest.raises(TooLargeError):
        set_area(spec)


def test_generation_is_iterative() -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(80)
    try:
        cells = shapes._free_cells.__wrapped__(9)  # uncached: grown level by level
    finally:
        sys.setrecursionlimit(limit)
    assert len(cells) == 1285


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", range(1, 9))
def test_known_counts_match_the_enumeration(n: int, kind: str) -> None:
    assert polyomino_count(n, kind) == len(polyominoes(n, kind))


def test_set_area_needs_no_enumeration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shapes, "_polyominoes", lambda n, kind: pytest.fail("enumerated"))
    assert set_area("pentominoes") == 60
    assert set_area("one-sided 7-ominoes") == 7 * 196
    assert set_area("fixed 10-ominoes") == 10 * 36446


# --- the pentomino command ------------------------------------------------------


@pytest.mark.parametrize("spec", ["1000-ominoes", "n=99999999999999999999", "20-ominoes", "11-ominoes"])
def test_cli_refuses_sets_too_large_to_enumerate(spec: str) -> None:
    assert_one_line_error(solve("--board", "6x10", "--pieces", spec), f"up to {MAX_GENERATED} squares")


@pytest.mark.parametrize(
    ("spec", "area"), [("10-ominoes", 46550), ("9-ominoes", 11565), ("pentominoes+10-ominoes", 46610)]
)
def test_cli_checks_the_area_before_enumerating(spec: str, area: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shapes, "_polyominoes", lambda n, kind: pytest.fail("enumerated"))
    result = solve("--board", "6x10", "--pieces", spec, "--count")
    assert_one_line_error(result, f"the board 6x10 has 60 cells but the pieces ({spec}) cover {area}")


def test_a_repeated_name_is_still_reported_before_the_area() -> None:
    assert_one_line_error(solve("--board", "6x10", "--pieces", "pentominoes,F"), "duplicate piece name 'F'")


# --- a piece that fits nowhere: 0 solutions and the reason ------------------------


def test_count_where_a_piece_fits_nowhere_prints_0_with_the_reason() -> None:
    result = solve("--board", "2x30", "--count")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("0 solutions of 2x30 (60 cells) with pentominoes in ")
    assert result.stdout.rstrip().endswith("(piece 'F' fits nowhere on the board 2x30)")


def test_listing_where_a_piece_fits_nowhere_says_no_solution_and_why() -> None:
    result = solve("--board", "1x20", "--pieces", "I,L*3")
    assert result.exit_code == 0, result.output
    assert (
        result.stdout.startswith("no solution: 1x20") and "(piece 'L' fits nowhere on the board 1x20)" in result.stdout
    )


def test_json_count_where_a_piece_fits_nowhere_is_0() -> None:
    result = solve("--board", "2x30", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["solutions"] == 0


def test_parallel_count_where_a_piece_fits_nowhere_is_0() -> None:
    result = solve("--board", "2x30", "--count", "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("0 solutions of 2x30") and "fits nowhere" in result.stdout


@pytest.mark.parametrize(
    ("board", "pieces", "message"),
    [("2x30", None, "piece 'F' fits nowhere on the board 2x30"), ("1x20", "I,L*3", "piece 'L' fits nowhere")],
)
def test_puzzles_with_a_piece_that_fits_nowhere_have_no_solutions(board: str, pieces: str | None, message: str) -> None:
    puzzle = TilingPuzzle.create(board, pieces)
    assert message in (puzzle.obstruction() or "")
    assert puzzle.count().count == 0 and puzzle.count(unique=True).count == 0
    assert list(puzzle.solutions()) == []
    assert puzzle.count_parallel(jobs=1).count == 0
