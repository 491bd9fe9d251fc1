"""Grids on the hexagonal and triangular lattices: neighbours, placement, the next blank cell, lines, copies."""

from __future__ import annotations

import pytest

from gridgames import lattices
from gridgames.errors import GridError
from gridgames.grid import Direction, Grid


def _hex_reference(grid: Grid, cell: tuple[int, int]) -> set[tuple[int, int]]:
    """The neighbours by way of gridgames.lattices: cube coordinates x = col, z = row."""
    lattice = lattices.HEXAGONAL
    r, c = cell
    cube = lattices.cell_at(lattice, (r, 2 * c + r))
    assert cube == (c, -c - r, r)
    found = set()
    for other in lattices._hexagon_neighbours(cube):
        row, col2 = lattices.position(lattice, other)
        cell2 = (row, (col2 - row) // 2)
        if grid.on_board(cell2):
            found.add(cell2)
    return found


def _triangle_reference(grid: Grid, cell: tuple[int, int]) -> set[tuple[int, int]]:
    lattice = lattices.TRIANGULAR
    coord = lattices.cell_at(lattice, cell)
    assert lattices.position(lattice, coord) == cell
    return {lattices.position(lattice, other) for other in lattices._triangle_neighbours(coord)} & set(
        grid.board_cells()
    )


def test_hex_neighbours_of_corner_edge_and_interior_cells() -> None:
    grid = Grid.empty(3, 3, lattice="hexagonal")
    assert set(grid.neighbours((0, 0))) == {(0, 1), (1, 0)}  # the acute corner: two neighbours
    assert set(grid.neighbours((0, 2))) == {(0, 1), (1, 2), (1, 1)}  # the obtuse corner: three
    assert set(grid.neighbours((2, 0))) == {(1, 0), (1, 1), (2, 1)}
    assert set(grid.neighbours((0, 1))) == {(0, 0), (0, 2), (1, 1), (1, 0)}  # an edge
    # interior: six
    assert set(grid.neighbours((1, 1))) == {(1, 0), (1, 2), (0, 1), (2, 1), (0, 2), (2, 0)}
    for cell in grid.board_cells():
        assert set(grid.neighbours(cell)) == _hex_reference(grid, cell), cell
        assert all(cell in grid.neighbours(other) for other in grid.neighbours(cell))  # symmetric


def test_triangle_neighbours_of_corner_edge_and_interior_cells() -> None:
    grid = Grid.empty(3, 4, lattice="triangular")
    assert grid.points_up((0, 0)) and not grid.points_up((0, 1))
    assert set(grid.neighbours((0, 0))) == {(0, 1), (1, 0)}  # up: its base touches the row below
    assert set(grid.neighbours((0, 1))) == {(0, 0), (0, 2)}  # down in the top row: nothing above
    assert set(grid.neighbours((1, 1))) == {(1, 0), (1, 2), (2, 1)}  # interior, up
    assert set(grid.neighbours((1, 2))) == {(1, 1), (1, 3), (0, 2)}  # interior, down
    assert set(grid.neighbours((2, 3))) == {(2, 2), (1, 3)}  # bottom-right corner, pointing down
    for cell in grid.board_cells():
        assert set(grid.neighbours(cell)) == _triangle_reference(grid, cell), cell


def test_square_neighbours_and_holes() -> None:
    grid = Grid.from_text("..\n#.")
    assert set(grid.neighbours((0, 0))) == {(0, 1)}  # the hole below is not a neighbour
    assert set(Grid.from_text("...\n...\n...").neighbours((1, 1))) == {(0, 1), (2, 1), (1, 0), (1, 2)}
    with pytest.raises(GridError, match="outside"):
        grid.neighbours((2, 0))


def test_hex_shape_placement_and_next_blank_cell() -> None:
    grid = Grid.empty(3, 3, lattice="hexagonal")
    trio = [(0, 0), (0, 1), (1, 0)]  # three hexagons around a corner
    assert grid.can_place(trio, at=(1, 1))
    assert not grid.can_place(trio, at=(2, 2))  # off the board
    grid.place(trio, at=(1, 1), value=1)
    assert grid.picture() == ". . .\n . 1 1\n  . 1 ."
    assert not grid.can_place([(0, 0)], at=(1, 2))
    assert grid.next_blank_cell(start=(1, 0)) == (1, 0)
    assert grid.next_blank_cell(start=(1, 1)) == (0, 2)  # column order: (1, 1) and (2, 1) are taken
    assert grid.remove(trio, at=(1, 1)) == 1
    assert grid == Grid.empty(3, 3, lattice="hexagonal")


def test_triangle_placement_needs_an_even_step() -> None:
    grid = Grid.empty(2, 4, lattice="triangular")
    diamond = [(0, 0), (1, 0)]  # an up triangle and the down one below it
    assert grid.can_place(diamond, at=(0, 2))
    assert not grid.can_place(diamond, at=(0, 1))  # an odd step would turn the triangles over
    with pytest.raises(GridError, match="even row"):
        grid.place(diamond, at=(0, 1), value=1)
    grid.place(diamond, at=(0, 2), value=2)
    assert grid.to_text() == "..2.\n..2."
    assert grid.next_blank_cell(order="row") == (0, 0)
    assert grid.next_blank_cell(start=(0, 2), order="row") == (0, 3)


def test_lattice_is_kept_by_copy_text_and_repr() -> None:
    grid = Grid.from_text("1.\n.2", lattice="hexagonal")
    assert grid.copy().lattice == "hexagonal" and grid.copy() == grid
    assert grid != Grid.from_text("1.\n.2")  # same cells, another lattice
    assert eval(repr(grid), {"Grid": Grid}) == grid
    assert repr(Grid.from_text("1.")) == "Grid.from_text('1.')"  # square grids read as before
    with pytest.raises(GridError, match="unknown lattice"):
        Grid.empty(2, 2, lattice="octagonal")


def test_hex_lines_follow_the_three_hex_axes() -> None:
    # the anti-diagonal: a line of touching hexagons
    grid = Grid.from_text("..1\n.1.\n1..", lattice="hexagonal")
    assert grid.longest_line((1, 1)) == (3, Direction.ANTI_DIAGONAL)
    # (1, 1) steps do not touch on hexagons
    diagonal = Grid.from_text("1..\n.1.\n..1", lattice="hexagonal")
    assert diagonal.longest_line((1, 1))[0] == 1
    assert Grid.from_text("1..\n.1.\n..1").longest_line((1, 1)) == (3, Direction.DIAGONAL)
