"""Issue 45: `gridgames solve pentomino` answers 0 for a board and pieces with no tiling, whatever it is asked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.lattices import CUBIC, HEXAGONAL, TRIANGULAR, Lattice, free_forms
from gridgames.pieces import LatticePiece
from gridgames.search.tiling import TilingProblem

from gridgames_pentomino.boards import Board
from gridgames_pentomino.lattice_boards import LatticeBoard, parallelogram
from gridgames_pentomino.lattice_pieces import LatticePieceSet
from gridgames_pentomino.lattice_puzzle import LatticePuzzle
from gridgames_pentomino.pieces import PieceSet
from gridgames_pentomino.puzzle import TilingPuzzle

runner = CliRunner()

ISSUE = {  # the issue's two files of each report; the brute-force count of each is 0
    "y5-i3": ("..##.\n.....\n", "Y5\n.#\n##\n.#\n.#\n\nI3\n###\n"),
    "p5x2-l3": ("....\n###.\n....\n....\n", "P5*2\n##\n##\n#.\n\nL3\n#.\n##\n"),
}


@pytest.fixture(params=sorted(ISSUE))
def files(request: pytest.FixtureRequest, tmp_path: Path) -> list[str]:
    board, pieces = ISSUE[request.param]
    (tmp_path / "board.txt").write_text(board)
    (tmp_path / "pieces.txt").write_text(pieces)
    return ["--board-file", str(tmp_path / "board.txt"), "--pieces-file", str(tmp_path / "pieces.txt")]


def solve(*args: str) -> Any:
    result = runner.invoke(app, ["solve", "pentomino", *args])
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize(
    "options",
    [
        ["--count"],
        ["--unique"],
        ["--count", "--unique"],
        ["--count", "--plain"],
        ["--count", "--mrv"],
        ["--count", "--jobs", "2"],
    ],
    ids=" ".join,
)
def test_a_count_of_a_puzzle_with_no_tiling_says_0(files: list[str], options: list[str]) -> None:
    result = solve(*files, *options)
    if options == ["--unique"]:  # the first solution up to symmetry
        assert result.stdout.startswith("no solution: board.txt (")
    else:
        assert result.stdout.startswith(
            "0 solutions" + (" up to symmetry" if "--unique" in options else "") + " of board.txt ("
        )
    data = json.loads(solve(*files, *options, "--json").stdout)
    assert (data["solutions"], data["partial"]) == (0, False)


@pytest.mark.parametrize(
    "options", [[], ["--limit", "5"], ["--unique", "--limit", "5"], ["--plain", "--limit", "5"]], ids=" ".join
)
def test_a_listing_of_a_puzzle_with_no_tiling_says_no_solution(files: list[str], options: list[str]) -> None:
    assert solve(*files, *options).stdout.startswith("no solution: board.txt (")
    assert solve(*files, *options, "--jsonl").stdout == ""


@pytest.mark.parametrize("name", sorted(ISSUE))
def test_the_puzzle_counts_0_all_and_up_to_symmetry(name: str) -> None:
    board, pieces = ISSUE[name]
    puzzle = TilingPuzzle(Board.from_text(board), PieceSet.from_text(pieces))
    # nothing rules it out before the search: the engine must say 0
    assert puzzle.obstruction() is None
    for unique in (False, True):
        assert (puzzle.count(unique=unique).count, list(puzzle.solutions(unique=unique))) == (0, [])


def lattice_puzzle(lattice: Lattice, rows: int, cols: int) -> LatticePuzzle:
    """A parallelogram (a 2 x rows x cols box) less its first cell's neighbours, with pieces of 3 and 2 cells of its
    area."""
    board = (
        [(x, y, z) for x in range(2) for y in range(rows) for z in range(cols)]
        if lattice is CUBIC
        else parallelogram(lattice, rows, cols)
    )
    first = TilingProblem.build(board, [LatticePiece("m", lattice.name, [lattice.origin])], lattice=lattice).cells[0]
    cells = tuple(c for c in board if c not in lattice.neighbours(first))
    threes = len(cells) // 3 - (len(cells) % 3 == 1)
    twos = (len(cells) - 3 * threes) // 2
    pieces = [
        LatticePiece(n, lattice.name, f, k)
        for n, f, k in (("T", free_forms(lattice, 3)[0], threes), ("D", free_forms(lattice, 2)[0], twos))
        if k
    ]
    return LatticePuzzle(LatticeBoard("cut", lattice.name, cells), LatticePieceSet(lattice.name, tuple(pieces)))


@pytest.mark.parametrize("lattice", [TRIANGULAR, HEXAGONAL, CUBIC], ids=lambda lattice: lattice.name)
@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (5, 14)], ids=["one word", "multi-word"])
def test_lattice_puzzles_with_no_tiling_count_0(lattice: Lattice, rows: int, cols: int) -> None:
    puzzle = lattice_puzzle(lattice, rows, cols)
    assert (len(puzzle.layout.cells) > 64) == (rows == 5)
    # unique: also by the stabiliser split where no piece can be restricted
    for unique in (False, True):
        assert (puzzle.count(unique=unique).count, list(puzzle.solutions(unique=unique, limit=3))) == (0, [])
    result = puzzle.count_parallel(jobs=2)
    assert (result.count, result.partial) == (0, False)
