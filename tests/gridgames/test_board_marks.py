"""The board vocabulary beyond "player p's piece" (issue 53): kings, neutral lines and dots, numbered tiles, pieces of
their own colour (`gridgames.drawing.Mark`, `State.marks`), and the sides a game gives its players (`Game.edges`)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from gridgames.drawing import PLAYER_COLOURS, Mark, board_svg, tile_colour
from gridgames.errors import GridGamesError
from gridgames.grid import Grid

NAMES = ("Red", "Blue")


def _elements(svg: str, kind: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("data-kind") == kind]


def test_a_king_is_drawn_unlike_a_man_and_written_twice() -> None:
    grid = Grid.empty(1, 2)
    grid.cells[0, 0], grid.cells[0, 1] = 1, 2
    svg = board_svg(grid, NAMES, marks={(0, 1): Mark(1, "king")})
    assert len(_elements(svg, "king")) == 1
    assert svg.count("<circle") == 3  # the man (0, 0), and the king's disc and crown ring
    assert ">BB</text>" in svg and ">R</text>" in svg


def test_neutral_marks_belong_to_nobody_and_write_nothing() -> None:
    svg = board_svg(
        Grid.empty(1, 3),
        NAMES,
        marks={(0, 0): Mark(None, "line-h"), (0, 1): Mark(None, "line-v"), (0, 2): Mark(None, "dot")},
    )
    (across,), (down,) = _elements(svg, "line-h"), _elements(svg, "line-v")
    assert float(across.get("width", 0)) > float(across.get("height", 0))  # a horizontal bar
    assert float(down.get("height", 0)) > float(down.get("width", 0))
    assert len(_elements(svg, "dot")) == 1 and "<text" not in svg


def test_tiles_write_their_number_on_a_colour_that_deepens_as_it_doubles() -> None:
    svg = board_svg(
        Grid.empty(1, 2), NAMES, marks={(0, 0): Mark(kind="tile", number=2), (0, 1): Mark(kind="tile", number=2048)}
    )
    assert ">2</text>" in svg and ">2048</text>" in svg
    lightness = [sum(int(tile_colour(n)[i : i + 2], 16) for i in (1, 3, 5)) for n in (2, 16, 256, 2048)]
    assert lightness == sorted(lightness, reverse=True) and lightness[0] > lightness[-1]


def test_a_placed_piece_takes_its_own_colour_and_label() -> None:
    svg = board_svg(Grid.empty(1, 1), NAMES, marks={(0, 0): Mark(0, "tile", label="L", colour="#123456")})
    (tile,) = _elements(svg, "tile")
    assert tile.get("fill") == "#123456" and ">L</text>" in svg


def test_an_unknown_kind_or_side_is_refused_with_its_name() -> None:
    with pytest.raises(GridGamesError, match="'queen'"):
        Mark(0, "queen")
    with pytest.raises(GridGamesError, match="'north'"):
        board_svg(Grid.empty(2, 2), NAMES, edges={"north": 0})


def _points(svg: str, side: str) -> list[tuple[float, float]]:
    (edge,) = [e for e in ET.fromstring(svg).iter() if e.get("data-edge") == side]
    return [(float(x), float(y)) for x, y in (p.split(",") for p in edge.get("points", "").split())]


def test_square_edges_run_along_their_sides_in_the_players_colours() -> None:
    svg = board_svg(Grid.empty(2, 3), NAMES, edges={"top": 0, "left": 1})
    top, left = _points(svg, "top"), _points(svg, "left")
    # 3 cells of 28 from x 6
    assert {y for _, y in top} == {6.0} and sorted(x for x, _ in top) == [6.0, 90.0]
    assert {x for x, _ in left} == {6.0} and sorted(y for _, y in left) == [6.0, 62.0]
    assert re.search(rf'stroke="{PLAYER_COLOURS[1]}"[^>]*data-edge="left"', svg)


def test_hexagonal_edges_follow_the_rhombus() -> None:
    grid = Grid.empty(3, 3, lattice="hexagonal")
    svg = board_svg(grid, NAMES, edges={"top": 0, "bottom": 0, "left": 1, "right": 1})
    top, bottom, left, right = (_points(svg, side) for side in ("top", "bottom", "left", "right"))
    cells = [
        [(float(x), float(y)) for x, y in (p.split(",") for p in e.get("points", "").split())]
        for e in ET.fromstring(svg).iter()
        if e.get("data-row") is not None
    ]
    ys = [y for cell in cells for _, y in cell]
    assert min(y for _, y in top) == pytest.approx(min(ys)) and max(y for _, y in bottom) == pytest.approx(max(ys))
    # 3 corners a cell; 2 down the left
    assert len(top) == len(bottom) == 9 and len(left) == 6 and len(right) == 9
    assert min(x for x, _ in left) == pytest.approx(min(x for cell in cells for x, _ in cell))
    assert max(x for x, _ in right) == pytest.approx(max(x for cell in cells for x, _ in cell))
