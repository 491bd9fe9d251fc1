"""The default board SVG on hexagons and triangles: one polygon per cell, carrying its cell, touching its neighbours."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gridgames.drawing import board_svg
from gridgames.grid import Grid

NS = "{http://www.w3.org/2000/svg}"


def _cells(svg: str, tag: str) -> dict[tuple[int, int], list[tuple[float, float]]]:
    root = ET.fromstring(svg)
    out = {}
    for element in root.iter(f"{NS}{tag}"):
        if "data-row" in element.attrib:
            cell = (int(element.get("data-row")), int(element.get("data-col")))
            points = [tuple(round(float(v), 1) for v in p.split(",")) for p in element.get("points", "").split()]
            out[cell] = points
    return out


@pytest.mark.parametrize(("lattice", "corners"), [("hexagonal", 6), ("triangular", 3)])
def test_every_cell_is_a_polygon_that_shares_an_edge_exactly_with_its_neighbours(lattice: str, corners: int) -> None:
    grid = Grid.empty(4, 5, lattice=lattice)
    polygons = _cells(board_svg(grid, ("Red", "Blue")), "polygon")
    assert set(polygons) == set(grid.board_cells())
    assert all(len(points) == corners for points in polygons.values())
    for a in polygons:
        for b in polygons:
            if a < b:
                shared = len(set(polygons[a]) & set(polygons[b]))
                assert (shared == 2) == (b in grid.neighbours(a)), (a, b, shared)


def test_hex_rows_shift_half_a_cell_and_triangles_alternate() -> None:
    hexes = _cells(board_svg(Grid.empty(2, 2, lattice="hexagonal"), ("R", "B")), "polygon")
    left = lambda cell: min(x for x, _ in hexes[cell])  # noqa: E731
    width = left((0, 1)) - left((0, 0))
    # a Hex rhombus leaning right
    assert left((1, 0)) - left((0, 0)) == pytest.approx(width / 2, abs=0.1)
    triangles = _cells(board_svg(Grid.empty(1, 2, lattice="triangular"), ("R", "B")), "polygon")
    apex_up = min(y for _, y in triangles[(0, 0)])
    # (0, 0) points up: one corner on top
    assert sum(1 for _, y in triangles[(0, 0)] if y == apex_up) == 1
    # (0, 1) down
    assert sum(1 for _, y in triangles[(0, 1)] if y == min(y for _, y in triangles[(0, 1)])) == 2


def test_stones_and_the_highlight_on_hexagons() -> None:
    svg = board_svg(Grid.from_text("1.\n.2", lattice="hexagonal"), ("Red", "Blue"), highlight=[(1, 1)])
    root = ET.fromstring(svg)
    circles = list(root.iter(f"{NS}circle"))
    assert [c.get("fill") for c in circles] == ["#d55e00", "#f0e442"]
    # the highlighted one has a thick ring
    assert [c.get("stroke-width") for c in circles] == ["1", "3"]
    assert [t.text for t in root.iter(f"{NS}text")] == ["R", "B"]


def test_square_cells_carry_their_cell_too() -> None:
    rects = _cells(board_svg(Grid.from_text("..\n#."), ("R", "B")), "rect")
    assert set(rects) == {(0, 0), (0, 1), (1, 0), (1, 1)}
