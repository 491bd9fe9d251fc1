"""End-to-end tests of `gridgames solve pentomino` and the pentomino commands."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.game import CountResult, Placement, Solution

from gridgames_pentomino.puzzle import TilingPuzzle

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def solve(*args: str) -> Any:
    return run("solve", "pentomino", *args)


def placements_of_picture(text: str) -> Solution:
    """A solution read back from a plain-text drawing (one letter per piece, blank holes)."""
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, line in enumerate(text.splitlines()):
        for c, ch in enumerate(line):
            if ch != " ":
                cells.setdefault(ch, []).append((r, c))
    return tuple(Placement(letter, cs) for letter, cs in cells.items())


def drawings(output: str) -> list[str]:
    """The pictures printed by a --limit listing."""
    blocks = output.split("Solution ")[1:]
    return [block.split("\n\n")[0].split("\n", 1)[1] for block in blocks]


@pytest.mark.slow
def test_default_prints_the_first_6x10_solution_in_plain_letters() -> None:
    result = solve()
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip("\n").splitlines()
    assert len(lines) == 6 and all(len(line) == 10 for line in lines)
    assert "\x1b[" not in result.stdout
    assert TilingPuzzle.create("6x10").is_solution(placements_of_picture(result.stdout))


def test_color_flag_draws_in_colour() -> None:
    result = solve("--board", "3x20", "--color")
    assert result.exit_code == 0 and "\x1b[" in result.stdout


@pytest.mark.parametrize(
    ("args", "count"),
    [
        (["--board", "3x20", "--count"], 8),
        (["--board", "3x20", "--count", "--unique"], 2),
        (["--board", "4x15", "--count"], 1472),
        (["--board", "4x15", "--count", "--unique"], 368),
        (["--board", "8x8-centre", "--count"], 520),
        (["--board", "8x8-centre", "--count", "--unique"], 65),
    ],
)
def test_count_prints_known_results(args: list[str], count: int) -> None:
    result = solve(*args)
    assert result.exit_code == 0, result.output
    unique = " up to symmetry" if "--unique" in args else ""
    assert result.stdout.startswith(f"{count:,} solutions{unique} of ")


def test_json_prints_one_object_with_the_count() -> None:
    result = solve("--board", "8x8-centre", "--unique", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["board"] == "8x8-centre" and data["pieces"] == list("FILNPTUVWXYZ")
    assert (data["solutions"], data["unique"], data["partial"], data["one_sided"]) == (65, True, False, False)
    assert data["seconds"] >= 0


def test_json_with_limit_counts_up_to_the_limit() -> None:
    data = json.loads(solve("--board", "6x10", "--json", "--limit", "5").stdout)
    assert (data["solutions"], data["limit"], data["partial"]) == (5, 5, False)


def test_limit_lists_that_many_valid_distinct_solutions() -> None:
    result = solve("--board", "4x15", "--limit", "4")
    assert result.exit_code == 0, result.output
    pictures = drawings(result.stdout)
    assert len(pictures) == 4 and len(set(pictures)) == 4
    puzzle = TilingPuzzle.create("4x15")
    assert all(puzzle.is_solution(placements_of_picture(p)) for p in pictures)
    assert "4 solutions shown (limit 4)" in result.stdout


def test_limit_beyond_the_count_lists_them_all() -> None:
    result = solve("--board", "3x20", "--unique", "--limit", "10")
    assert len(drawings(result.stdout)) == 2 and "2 solutions up to symmetry shown (all)" in result.stdout


def test_jsonl_streams_every_solution_with_placements_and_picture() -> None:
    result = solve("--board", "8x8-centre", "--unique", "--jsonl")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["solution"] for row in rows] == list(range(1, 66))
    puzzle = TilingPuzzle.create("8x8-centre")
    for row in rows:
        solution = tuple(Placement(p["piece"], [tuple(c) for c in p["cells"]]) for p in row["placements"])
        assert puzzle.is_solution(solution)
        assert puzzle.is_solution(placements_of_picture(row["picture"]))
        assert {frozenset(p.cells) for p in solution} == {
            frozenset(p.cells) for p in placements_of_picture(row["picture"])
        }


def test_jsonl_respects_the_limit() -> None:
    assert len(solve("--board", "6x10", "--jsonl", "--limit", "3").stdout.splitlines()) == 3


def test_svg_draws_the_listed_solutions(tmp_path: Path) -> None:
    path = tmp_path / "out.svg"
    result = solve("--board", "3x20", "--count", "--svg", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("8 solutions")
    root = ET.parse(path).getroot()
    ids = [g.get("id") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id")]
    assert ids == [f"solution-{i}" for i in range(1, 9)]


def test_dana_scott_pieces_and_one_sided_reach_the_puzzle() -> None:
    result = solve("--board", "8x8", "--pieces", "pentominoes+O", "--limit", "1", "--json")
    data = json.loads(result.stdout)
    assert data["pieces"][-1] == "O" and data["solutions"] == 1
    free = TilingPuzzle.create("3x20").count().count
    one_sided = json.loads(solve("--board", "3x20", "--one-sided", "--json").stdout)
    assert (
        one_sided["one_sided"] is True
        and one_sided["solutions"] == TilingPuzzle.create("3x20", one_sided=True).count().count
    )
    assert one_sided["solutions"] < free


def test_board_and_pieces_files(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("#..#\n....\n....\n....\n#..#\n")
    (tmp_path / "p.txt").write_text("T*2\n###\n.#.\n")
    result = solve(
        "--board-file",
        str(tmp_path / "b.txt"),
        "--pieces-file",
        str(tmp_path / "p.txt"),
        "--pieces",
        "tetromino:S*2",
        "--count",
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("4 solutions of b.txt (16 cells)")


def test_colouring_impossibility_prints_zero_with_the_reason() -> None:
    result = solve("--board", "4x5", "--pieces", "tetrominoes", "--count")
    assert result.exit_code == 0
    assert result.stdout.startswith("0 solutions of 4x5") and "impossible by chessboard colouring" in result.stdout


def test_gridgames_pentomino_solve_is_the_same_command() -> None:
    assert run("pentomino", "solve", "--board", "3x20", "--count").stdout.startswith("8 solutions")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--board", "5x5"], "the board 5x5 has 25 cells but the pieces (pentominoes) cover 60"),
        (["--board", "hexagon"], "unknown board 'hexagon'"),
        (["--pieces", "pentominoes,tetrominoes", "--board", "8x10"], "duplicate piece name 'I'"),
        (["--pieces", "Q"], "unknown piece or set 'Q'"),
        (["--json", "--jsonl"], "choose one"),
        (["--count", "--limit", "3"], "drop --limit"),
        (["--limit", "-1"], "--limit"),
    ],
)
def test_bad_puzzles_and_options_are_one_line_errors_with_exit_code_2(args: list[str], message: str) -> None:
    result = solve(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert message in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("name", "text", "option", "message"),
    [
        ("b.txt", "..x.\n", "--board-file", "b.txt, line 1, column 3: unexpected 'x'"),
        ("b.txt", "###\n", "--board-file", "b.txt has no cells"),
        ("p.txt", "A\n##\n\nA\n###\n", "--pieces-file", "duplicate piece name 'A'"),
        ("p.txt", "A\n#.#\n", "--pieces-file", "p.txt, line 1: piece 'A' is not connected"),
    ],
)
def test_malformed_files_are_one_line_errors(tmp_path: Path, name: str, text: str, option: str, message: str) -> None:
    (tmp_path / name).write_text(text)
    result = solve(option, str(tmp_path / name))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert message in result.stderr


def test_ctrl_c_during_a_count_prints_the_partial_count_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TilingPuzzle, "count", lambda self, **kw: CountResult(1234, partial=True, seconds=2.5))
    result = solve("--count")
    assert result.exit_code == 130
    assert result.stdout.startswith("1,234 solutions of 6x10") and "so far (partial: interrupted" in result.stdout
    data = json.loads(solve("--json").stdout)
    assert (data["solutions"], data["partial"]) == (1234, True)


def test_ctrl_c_while_listing_reports_how_many_were_found(monkeypatch: pytest.MonkeyPatch) -> None:
    real = TilingPuzzle.solutions

    def two_then_interrupt(self: TilingPuzzle, **kw: Any) -> Iterator[Solution]:
        yield from real(self, limit=2)
        raise KeyboardInterrupt

    monkeypatch.setattr(TilingPuzzle, "solutions", two_then_interrupt)
    result = solve("--jsonl")
    assert result.exit_code == 130
    assert len(result.stdout.splitlines()) == 2
    assert "2 solutions of 6x10" in result.stderr and "partial" in result.stderr
    result = solve("--limit", "5")
    assert result.exit_code == 130 and "2 solutions of 6x10" in result.stdout and "partial" in result.stdout


def test_info_lists_the_options() -> None:
    result = run("info", "pentomino")
    assert result.exit_code == 0
    for option in ("--board STR", "--pieces STR", "--one-sided BOOL"):
        assert option in result.stdout
    assert "Commands: solve, boards, pieces, show" in result.stdout


def test_boards_lists_the_presets() -> None:
    result = run("pentomino", "boards")
    assert result.exit_code == 0
    names = [line.split()[0] for line in result.stdout.splitlines()[:7]]
    assert names == ["6x10", "5x12", "4x15", "3x20", "8x8", "8x8-centre", "8x8-corners"]


def test_pieces_draws_a_specification_and_lists_sets() -> None:
    result = run("pentomino", "pieces", "pentominoes+O")
    assert result.exit_code == 0
    assert "O  (4 squares, 1 orientation)" in result.stdout and "13 pieces, 64 squares in all" in result.stdout
    assert "tetrominoes" in run("pentomino", "pieces").stdout


def test_show_draws_a_board_with_its_symmetries() -> None:
    result = run("pentomino", "show", "--board", "8x8-centre")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[3] == "...  ..."
    assert "8x8-centre: 60 cells in a 8x8 box, 8 symmetries" in result.stdout
    assert "4 symmetries" in run("pentomino", "show", "--board", "6x10").stdout


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--board", "6x10", "--count"], "9,356 solutions of 6x10 (60 cells) with pentominoes in "),
        (
            ["--board", "6x10", "--count", "--unique"],
            "2,339 solutions up to symmetry of 6x10 (60 cells) with pentominoes in ",
        ),
        (["--board", "5x12", "--count", "--jobs", "1"], "4,040 solutions of 5x12 (60 cells) with pentominoes in "),
    ],
)
@pytest.mark.slow
def test_counts_print_with_thousands_separators(args: list[str], line: str) -> None:
    result = solve(*args)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(line)


def test_json_counts_stay_plain_integers() -> None:
    result = solve("--board", "6x10", "--count", "--unique", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["solutions"] == 2339 and '"solutions": 2339' in result.stdout


def test_the_first_use_says_that_the_tiling_kernels_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    import gridgames.search.tiling as tiling

    monkeypatch.setattr(tiling, "kernels_compiled", lambda: False)
    first = solve("--board", "3x20", "--count")
    assert first.exit_code == 0 and "Compiling the tiling kernels" in first.stderr and "8 solutions" in first.stdout
    monkeypatch.setattr(tiling, "kernels_compiled", lambda: True)
    later = solve("--board", "3x20", "--count")
    assert later.exit_code == 0 and "Compiling" not in later.stderr
