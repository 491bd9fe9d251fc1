"""`gridgames pentomino solve` with any number of copies of each piece ('domino*' or --unlimited): the frontier
count."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.grid import Grid
from gridgames.pieces import Piece
from gridgames.search import frontier
from gridgames.search.frontier import kasteleyn_dominoes
from gridgames.search.tiling import TilingProblem, count
from gridgames_pentomino.boards import Board
from gridgames_pentomino.pieces import PieceSet

runner = CliRunner()


def solve(*args: str) -> Any:
    return runner.invoke(app, ["pentomino", "solve", *args])


def engine_count(board: str | Grid, spec: str, one_sided: bool = False) -> int:
    """The same count by the backtracking engine: each piece with as many copies as could ever fit."""
    grid = Board.parse(board).grid if isinstance(board, str) else board
    area = int((grid.cells == 0).sum())
    pieces = [Piece(p.name, p.shape, area // p.size + 1, p.kind) for p in PieceSet.parse(spec)]
    return count(TilingProblem.build(grid, pieces, one_sided=one_sided), method="search").count


@pytest.mark.slow
def test_domino_star_counts_the_8x8_domino_tilings_with_thousands_separators() -> None:
    result = solve("--board", "8x8", "--pieces", "domino*")
    assert result.exit_code == 0
    assert result.stdout.startswith("12,988,816 tilings of 8x8 (64 cells) with any number of D in ")


def test_unlimited_flag_and_json_give_the_exact_integer() -> None:
    result = solve("--board", "12x12", "--pieces", "domino", "--unlimited", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["solutions"] == kasteleyn_dominoes(12, 12) == 53_060_477_521_960_000
    assert (data["unlimited"], data["partial"], data["method"]) == (True, False, "frontier")
    assert '"solutions": 53060477521960000' in result.stdout  # a plain JSON integer


@pytest.mark.parametrize(
    ("board", "spec", "one_sided"),
    [
        ("4x6", "trominoes", False),
        ("6x6", "tromino:L", False),
        ("4x6", "O,domino", False),
        ("3x4", "O,domino,monomino", False),
        ("4x8", "tetromino:L,tetromino:O", True),
        ("6x8", "tromino:L", False),
    ],
)
def test_unlimited_counts_equal_the_backtracking_engine_with_enough_copies(
    board: str, spec: str, one_sided: bool
) -> None:
    stars = ",".join(term + "*" for term in spec.split(","))
    args = ["--board", board, "--pieces", stars, "--json"] + (["--one-sided"] if one_sided else [])
    result = solve(*args)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["solutions"] == engine_count(board, spec, one_sided)


def test_a_board_file_with_holes_and_no_tiling(tmp_path: Any) -> None:
    # opposite corners removed: colouring forbids dominoes
    (tmp_path / "b.txt").write_text("#...\n....\n....\n...#\n")
    result = solve("--board-file", str(tmp_path / "b.txt"), "--pieces", "domino*", "--json")
    assert json.loads(result.stdout)["solutions"] == 0
    picture = "#....\n.....\n...#.\n.....\n"
    (tmp_path / "c.txt").write_text(picture)
    result = solve("--board-file", str(tmp_path / "c.txt"), "--pieces", "domino*", "--json")
    assert json.loads(result.stdout)["solutions"] == engine_count(Grid.from_text(picture), "domino") > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pieces", "domino*,O"], "put it after every piece term"),
        (["--pieces", "domino*", "--unique"], "drop --unique"),
        (["--pieces", "domino*", "--limit", "3"], "drop --limit"),
        (["--pieces", "domino*", "--jobs", "2"], "drop --jobs"),
        (["--pieces", "domino*", "--board", "30x30"], "the frontier would track 31 cells"),
        (["--pieces", "Q*"], "unknown piece or set 'Q'"),
    ],
)
def test_what_the_frontier_count_does_not_do_is_a_one_line_error(args: list[str], message: str) -> None:
    result = solve(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_ctrl_c_stops_the_count_and_says_there_is_no_partial_result(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(frontier, "count_tilings", interrupted)
    result = solve("--board", "8x8", "--pieces", "domino*")
    assert result.exit_code == 130
    assert "interrupted" in result.stderr and "no partial result" in result.stderr and result.stdout == ""


@pytest.mark.slow
def test_progress_reaches_one_over_every_pass() -> None:
    seen: list[float] = []
    assert frontier.count_tilings(Grid.empty(16, 16), frontier.DOMINOES, on_progress=seen.append) == kasteleyn_dominoes(
        16, 16
    )
    assert len(seen) > 4 and seen[-1] == 1.0 and all(0 < a <= b <= 1 for a, b in zip(seen, seen[1:]))
