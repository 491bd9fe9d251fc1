"""The pentomino puzzle on other lattices: piece families, boards and board files, known counts, and the CLI's
--lattice."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.errors import PuzzleError
from gridgames.game import Placement
from gridgames.lattices import CUBIC, HEXAGONAL, TRIANGULAR, cell_at, lattice_named

from gridgames_pentomino.lattice_boards import PRESETS, LatticeBoard
from gridgames_pentomino.lattice_pieces import LatticePieceSet
from gridgames_pentomino.lattice_puzzle import LatticePuzzle

runner = CliRunner()


def solve(*args: str) -> Any:
    return runner.invoke(app, ["solve", "pentomino", *args])


# --- piece families -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lattice", "spec", "pieces", "area"),
    [
        ("triangle", "pentiamonds", 4, 20),
        ("triangle", "hexiamonds", 12, 72),
        ("triangle", "heptiamonds", 24, 168),
        ("triangle", "one-sided hexiamonds", 19, 114),
        ("triangle", "6-iamonds", 12, 72),
        ("hex", "tetrahexes", 7, 28),
        ("hex", "pentahexes", 22, 110),
        ("hex", "trihexes+tetrahexes", 10, 37),
        ("cube", "pentacubes", 29, 145),  # solid pieces: both of each mirror pair
        ("cube", "flat-pentacubes", 12, 60),
        ("cube", "soma", 7, 27),
        ("cube", "tetracubes", 8, 32),
    ],
)
def test_families_have_their_published_sizes(lattice: str, spec: str, pieces: int, area: int) -> None:
    found = LatticePieceSet.parse(lattice, spec)
    assert (len(found), found.area) == (pieces, area)
    assert len(set(found.names)) == pieces


def test_unknown_family_is_one_line_error() -> None:
    with pytest.raises(PuzzleError, match="unknown piece set 'hexominoes' on the hexagonal lattice"):
        LatticePieceSet.parse("hex", "hexominoes")


def test_pieces_file_on_each_lattice() -> None:
    tri = LatticePieceSet.from_text("triangle", "bar*2\n####\n\ntri\n  #\n ###\n")
    assert [(p.name, p.size, p.count) for p in tri] == [("bar", 4, 2), ("tri", 4, 1)]
    assert len(tri.pieces[1].orientations()) == 2  # the big triangle: up or down
    hexes = LatticePieceSet.from_text("hex", "worm\n# #\n # #\n")
    assert hexes.pieces[0].size == 4
    cubes = LatticePieceSet.from_text("cube", "screw\n##\n#.\n--\n.#\n")
    # turns in space, no mirror
    assert cubes.pieces[0].size == 4 and len(cubes.pieces[0].orientations()) == 12


@pytest.mark.parametrize(
    ("lattice", "text", "message"),
    [
        ("hex", "gap\n# . #\n", "not connected"),
        ("hex", "bad\n# #\n# #\n", r"pieces file, piece 'bad', line 3, column 1: off the hexagonal grid"),
        ("triangle", "x\n#?#\n", "unexpected '\\?'"),
        ("cube", "lonely\n", "has no picture"),
    ],
)
def test_bad_pieces_files_are_one_line_errors(lattice: str, text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        LatticePieceSet.from_text(lattice, text)


# --- boards ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lattice", "name"), [(lattice, name) for lattice, presets in PRESETS.items() for name in presets]
)
def test_every_preset_round_trips_through_its_picture(lattice: str, name: str) -> None:
    board = LatticeBoard.parse(lattice, name)
    again = LatticeBoard.from_text(lattice, board.to_text())
    assert again.cells == board.cells
    assert LatticeBoard.from_text(lattice, again.to_text()).to_text() == board.to_text()


@pytest.mark.parametrize(
    ("lattice", "spec", "area"),
    [
        ("triangle", "3x4", 24),
        ("triangle", "hexagon-2", 24),
        ("triangle", "triangle-5", 25),
        ("hex", "hexagon-3", 19),
        ("hex", "3x5", 15),
        ("cube", "2x2x7", 28),
    ],
)
def test_board_shapes_have_their_areas(lattice: str, spec: str, area: int) -> None:
    assert LatticeBoard.parse(lattice, spec).area == area


def test_board_pictures_look_like_the_lattice() -> None:
    assert LatticeBoard.parse("hex", "hexagon-2").to_text() == " . .\n. . .\n . ."
    # up where line + column is even
    assert LatticeBoard.parse("triangle", "triangle-2").to_text() == "  .\n ..."
    assert LatticeBoard.parse("cube", "2x1x2").to_text() == "..\n--\n.."


@pytest.mark.parametrize(
    ("lattice", "spec", "message"),
    [
        ("cube", "6x10", "use a preset .* or AxBxC"),
        ("hex", "triangle-3", "on the hexagonal lattice"),
        ("triangle", "0x4", "at least 1"),
    ],
)
def test_bad_board_names_are_one_line_errors(lattice: str, spec: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        LatticeBoard.parse(lattice, spec)


# --- known counts, plain and up to symmetry -------------------------------------------------------
@pytest.mark.parametrize(
    ("lattice", "board", "pieces", "distinct", "group"),
    [
        # 240 up to rotation and reflection (Conway, Guy); mirrors differ here
        ("cube", "3x3x3", "soma", 480, 24),
        ("cube", "2x3x10", "flat-pentacubes", 12, 8),  # published: 12
        ("hex", "4x7", "tetrahexes", 9, 2),
    ],
)
def test_known_counts_plain_and_unique_agree(lattice: str, board: str, pieces: str, distinct: int, group: int) -> None:
    puzzle = LatticePuzzle.create(lattice, board, pieces)
    assert puzzle.symmetries() == group
    assert puzzle.count(unique=True).count == distinct
    # no tiling of these is symmetric: every orbit is full
    assert puzzle.count().count == distinct * group
    first = next(puzzle.solutions())
    assert puzzle.is_solution(first)
    assert not puzzle.is_solution(first[1:])


def test_soma_count_of_all_is_the_published_11520() -> None:
    assert LatticePuzzle.create("cube", "3x3x3", "soma").count().count == 11520


def test_area_mismatch_and_lattice_mismatch_are_refused() -> None:
    with pytest.raises(PuzzleError, match="has 28 cells but the pieces"):
        LatticePuzzle.create("hex", "4x7", "pentahexes")


# --- the CLI ----------------------------------------------------------------------------------------
def test_cli_counts_flat_pentacubes_up_to_symmetry_as_json() -> None:
    result = solve(
        "--lattice", "cube", "--board", "2x3x10", "--pieces", "flat-pentacubes", "--count", "--unique", "--json"
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert (summary["solutions"], summary["unique"], summary["partial"]) == (12, True, False)


def test_cli_triangle_picture_reads_back_to_a_solution() -> None:
    result = solve("-L", "triangle", "-b", "6x6", "-p", "hexiamonds")
    assert result.exit_code == 0, result.output
    cells: dict[str, list[tuple[int, ...]]] = {}
    for r, line in enumerate(result.output.splitlines()):
        for c, ch in enumerate(line):
            if ch != " ":
                cells.setdefault(ch, []).append(cell_at(TRIANGULAR, (r, c)))  # type: ignore[arg-type]
    puzzle = LatticePuzzle.create("triangle", "6x6", "hexiamonds")
    offset = _offset(TRIANGULAR, puzzle.layout.cells, [c for cs in cells.values() for c in cs])
    solution = tuple(
        Placement(name, [tuple(v + d for v, d in zip(c, offset)) for c in cs]) for name, cs in cells.items()
    )
    assert puzzle.is_solution(solution)


def _offset(lattice: Any, board: Any, drawn: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The translation carrying the drawn cells onto the board's (both normalise to the same form)."""
    home = lattice_named(lattice).normalise(drawn)
    assert home == tuple(sorted(board))
    return tuple(a - b for a, b in zip(min(board), min(drawn)))


def test_cli_jsonl_lists_cube_placements_with_three_coordinates() -> None:
    result = solve("-L", "cube", "-b", "3x3x3", "-p", "soma", "--jsonl", "-n", "2")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert len(rows) == 2
    assert all(len(cell) == 3 for row in rows for p in row["placements"] for cell in p["cells"])


@pytest.mark.parametrize(
    ("lattice", "board", "pieces", "polygon"),
    [("hex", "4x7", "tetrahexes", 6), ("triangle", "6x6", "hexiamonds", 3), ("cube", "2x3x10", "flat-pentacubes", 4)],
)
def test_cli_svg_draws_each_cell_as_its_polygon(
    tmp_path: Path, lattice: str, board: str, pieces: str, polygon: int
) -> None:
    out = tmp_path / "t.svg"
    result = solve("-L", lattice, "-b", board, "-p", pieces, "-n", "2", "--svg", str(out))
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    shapes = root.findall(".//{http://www.w3.org/2000/svg}polygon")
    area = LatticeBoard.parse(lattice, board).area
    assert len(shapes) == 2 * area
    assert {len(s.get("points", "").split()) for s in shapes} == {polygon}


def test_svg_polygons_of_neighbours_share_an_edge() -> None:
    from gridgames.drawing import lattice_svg

    for grid, board in ((TRIANGULAR, "hexagon-2"), (HEXAGONAL, "hexagon-3"), (CUBIC, "2x2x2")):
        cells = LatticeBoard.parse(grid.name, board).cells
        root = ET.fromstring(lattice_svg(grid.name, cells, ()))
        corners = [
            {tuple(round(float(v)) for v in p.split(",")) for p in s.get("points", "").split()}
            for s in root.iter("{http://www.w3.org/2000/svg}polygon")
        ]
        where = dict(zip(cells, corners))
        for cell in cells:
            for near in grid.neighbours(cell):
                if near in where and grid is not CUBIC:  # cubes of two layers are drawn apart
                    assert len(where[cell] & where[near]) == 2


def test_cli_board_file_and_malformed_board_file(tmp_path: Path) -> None:
    good = tmp_path / "hexagon.txt"
    good.write_text(LatticeBoard.parse("hex", "hexagon-4").to_text() + "\n")
    result = solve("-L", "hex", "--board-file", str(good), "-p", "trihexes+tetrahexes", "-n", "1")
    assert result.exit_code == 0, result.output
    bad = tmp_path / "bad.txt"
    bad.write_text(" . .\n. . \n.. .\n")
    result = solve("-L", "hex", "--board-file", str(bad), "-p", "tetrahexes")
    assert result.exit_code == 2
    assert "line 3, column 1: off the hexagonal grid" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_cli_unknown_lattice_and_unknown_set_exit_2() -> None:
    for args in (["-L", "pentagon"], ["-L", "hex", "-p", "pentominoes"]):
        result = solve(*args)
        assert result.exit_code == 2
        assert len(result.output.strip().splitlines()) == 1


def test_cli_lists_boards_pieces_and_shows_a_board() -> None:
    assert "2x5x6" in runner.invoke(app, ["pentomino", "boards", "--lattice", "cube"]).output
    shown = runner.invoke(app, ["pentomino", "show", "--lattice", "hex", "--board", "hexagon-3"])
    assert shown.exit_code == 0 and "19 hexagons" in shown.output and "12 symmetries" in shown.output
    drawn = runner.invoke(app, ["pentomino", "pieces", "--lattice", "triangle", "pentiamonds"])
    assert drawn.exit_code == 0 and "4 pieces, 20 cells in all" in drawn.output


def test_unique_without_a_restrictable_piece_uses_the_stabiliser_split() -> None:
    from gridgames.lattices import free_forms
    from gridgames.pieces import LatticePiece
    from gridgames.search import tiling

    pieces = [
        LatticePiece(f"{n}{i}", "cubic", f, kind="one-sided")
        for n, k in ((3, 2), (2, 1), (1, 1))
        for i, f in enumerate(free_forms(CUBIC, n)[:k])
    ]
    board = LatticeBoard("3x3", "cubic", tuple((0, y, z) for y in range(3) for z in range(3)))
    puzzle = LatticePuzzle(board, LatticePieceSet("cubic", tuple(pieces)))
    assert tiling.prepare_unique(puzzle.problem(), True).method.startswith("canonical")
    result = puzzle.count(unique=True)
    assert result.method.startswith("split on")
    assert result.count == tiling.count(puzzle.problem(), unique="canonical").count
    listed = list(puzzle.solutions(unique=True))
    assert len(listed) == result.count and all(puzzle.is_solution(s) for s in listed)
    assert len(list(puzzle.solutions(unique=True, limit=2))) == 2


def test_cli_ctrl_c_reports_partial_counts_and_listings(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridgames.game import CountResult

    monkeypatch.setattr(LatticePuzzle, "count", lambda self, **kw: CountResult(77, partial=True, seconds=1.5))
    result = solve("-L", "hex", "-b", "4x7", "--count")
    assert result.exit_code == 130
    assert (
        result.stdout.startswith("77 solutions of the hexagonal board 4x7")
        and "so far (partial: interrupted" in result.stdout
    )
    real = LatticePuzzle.solutions

    def two_then_interrupt(self: LatticePuzzle, **kw: Any) -> Any:
        yield from real(self, limit=2)
        raise KeyboardInterrupt

    monkeypatch.setattr(LatticePuzzle, "solutions", two_then_interrupt)
    result = solve("-L", "hex", "-b", "4x7", "--jsonl")
    assert result.exit_code == 130 and len(result.stdout.splitlines()) == 2 and "partial" in result.stderr


def test_split_count_interrupted_in_a_part_is_partial(monkeypatch: pytest.MonkeyPatch) -> None:
    from gridgames.game import CountResult
    from gridgames.search.tiling import stabilisers

    calls: list[int] = []

    def second_part_interrupted(problem: Any, **kw: Any) -> CountResult:
        calls.append(1)
        return CountResult(5, partial=len(calls) == 2, unique=True)

    monkeypatch.setattr(stabilisers, "count", second_part_interrupted)
    puzzle = LatticePuzzle.create("cube", "3x4x5", "flat-pentacubes")
    result = stabilisers.count_split(puzzle.problem())
    assert result is not None and result.partial and result.count == 10 and len(calls) == 2


def test_cli_colour_pictures_paint_each_piece() -> None:
    plain = solve("-L", "hex", "-b", "4x7", "--no-color").output
    coloured = solve("-L", "hex", "-b", "4x7", "--color").output
    # every hexagon on its piece's colour
    assert "\x1b[" not in plain and coloured.count("\x1b[") >= 28
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain  # the same picture underneath


# --- the Python API -------------------------------------------------------------------------------
def test_a_lattice_puzzle_is_made_from_the_python_api_and_drawn_as_a_square_one() -> None:
    from gridgames.errors import GridGamesError
    from gridgames.game import Puzzle
    from gridgames.registry import load_game

    puzzle = load_game("pentomino").make(board="6x6", lattice="triangle", pieces="hexiamonds")
    assert isinstance(puzzle, Puzzle)
    solution = next(puzzle.solutions(limit=1))
    assert puzzle.is_solution(solution) and len(solution) == 12
    svg = puzzle.svg(solution)
    ET.fromstring(svg)  # a whole SVG document
    assert svg.count("<polygon") >= 72  # a triangle per cell of the 6x6 rhombus
    shown = puzzle.show(solution)
    # the text picture: six rows of letters
    assert shown._repr_svg_() == svg and len(str(shown).split()) == 6
    assert load_game("pentomino").make(lattice="hex").describe().startswith("the hexagonal board")
    with pytest.raises(GridGamesError, match="unknown lattice 'octagon'"):
        load_game("pentomino").make(lattice="octagon")
