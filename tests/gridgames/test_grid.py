"""Tests for gridgames.grid: placing, scanning, line counting, gravity and pictures."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridgames.errors import GridError
from gridgames.grid import EMPTY, HOLE, Direction, Grid
from gridgames.shapes import PENTOMINOES, Shape

from gridgames_test_support.strategies import grids, polyomino_shapes


def test_from_text_reads_empty_holes_and_values() -> None:
    grid = Grid.from_text("..#\n1A.\n")
    assert grid.height == 2 and grid.width == 3
    assert grid[(0, 2)] == HOLE and grid[(0, 0)] == EMPTY
    assert grid[(1, 0)] == 1 and grid[(1, 1)] == 10


def test_from_text_pads_short_lines_and_spaces_as_holes() -> None:
    grid = Grid.from_text("...\n. \n.")
    assert grid.to_text() == "...\n.##\n.##"
    assert grid.area == 5


@given(grids())
def test_picture_round_trips(grid: Grid) -> None:
    assert Grid.from_text(grid.to_text()) == grid


@given(grids())
def test_repr_evaluates_back(grid: Grid) -> None:
    assert eval(repr(grid), {"Grid": Grid, "np": np}) == grid


def test_from_text_rejects_unknown_character_naming_it() -> None:
    with pytest.raises(GridError, match=r"'\?' at row 2, column 1"):
        Grid.from_text("..\n?.")


def test_from_text_rejects_an_empty_picture() -> None:
    with pytest.raises(GridError, match="empty"):
        Grid.from_text("\n\n")


def test_copy_is_independent_and_equal() -> None:
    grid = Grid.empty(3, 4)
    twin = copy.deepcopy(grid)
    assert twin == grid
    twin.set((0, 0), 2)
    assert twin != grid and grid[(0, 0)] == EMPTY


def test_on_board_excludes_holes_and_outside() -> None:
    grid = Grid.from_text(".#\n..")
    assert grid.on_board((0, 0)) and not grid.on_board((0, 1))
    assert not grid.on_board((-1, 0)) and not grid.on_board((2, 0)) and not grid.on_board((0, 2))


@given(grids(max_value=0), polyomino_shapes(max_size=5), st.integers(-2, 7), st.integers(-2, 7))
def test_place_then_remove_restores_the_grid(grid: Grid, shape: Shape, row: int, col: int) -> None:
    before = grid.copy()
    if grid.can_place(shape, (row, col)):
        grid.place(shape, (row, col), 3)
        assert all(grid[(row + dr, col + dc)] == 3 for dr, dc in shape.cells)
        assert grid.remove(shape, (row, col)) == 3
        assert grid == before
    else:
        with pytest.raises(GridError):
            grid.place(shape, (row, col), 3)
        assert grid == before


def test_can_place_refuses_off_board_hole_and_overlap() -> None:
    grid = Grid.from_text("....\n.#..\n....")
    domino = Shape.from_text("##")
    assert grid.can_place(domino, (0, 0))
    assert not grid.can_place(domino, (0, 3))  # off the right edge
    assert not grid.can_place(domino, (1, 0))  # covers the hole
    grid.place(domino, (2, 0), 1)
    assert not grid.can_place(domino, (2, 1))  # overlaps
    assert grid.can_place(domino, (2, 2))


def test_remove_refuses_what_is_not_there() -> None:
    grid = Grid.empty(2, 2)
    domino = Shape.from_text("##")
    with pytest.raises(GridError, match="do not hold one placed value"):
        grid.remove(domino, (0, 0))
    grid.place(domino, (0, 0), 1)
    grid.set((1, 0), 2)
    with pytest.raises(GridError):
        grid.remove([(0, 0), (1, 0)], (0, 0))  # two different pieces
    assert grid[(0, 0)] == 1 and grid[(1, 0)] == 2


def test_place_accepts_plain_offsets_and_a_pentomino() -> None:
    grid = Grid.empty(3, 3)
    grid.place(PENTOMINOES["X"], (0, 0), 5)
    assert grid.to_text() == ".5.\n555\n.5."


@given(grids(max_value=1), st.sampled_from(["column", "row"]))
def test_next_blank_cell_visits_empty_cells_in_scan_order(grid: Grid, order: str) -> None:
    if order == "column":
        expected = [(r, c) for c in range(grid.width) for r in range(grid.height) if grid.cells[r, c] == EMPTY]
    else:
        expected = [(r, c) for r in range(grid.height) for c in range(grid.width) if grid.cells[r, c] == EMPTY]
    assert grid.empty_cells(order) == expected  # type: ignore[arg-type]
    visited = []
    cell = grid.next_blank_cell(order=order)  # type: ignore[arg-type]
    while cell is not None:
        visited.append(cell)
        grid.set(cell, 1)
        cell = grid.next_blank_cell(cell, order=order)  # type: ignore[arg-type]
    assert visited == expected


def test_next_blank_cell_scans_down_then_to_the_top_of_the_next_column() -> None:
    grid = Grid.from_text("1.\n11\n1.")
    assert grid.next_blank_cell() == (0, 1)
    assert grid.next_blank_cell((1, 1)) == (2, 1)
    assert grid.next_blank_cell(order="row") == (0, 1)


def test_next_blank_cell_is_none_on_a_full_board() -> None:
    assert Grid.from_text("1#\n22").next_blank_cell() is None


@pytest.mark.parametrize(
    ("picture", "cell", "direction", "length"),
    [
        ("....\n1111\n....", (1, 2), Direction.HORIZONTAL, 4),
        ("1..\n1..\n1..\n2..", (0, 0), Direction.VERTICAL, 3),
        ("1...\n.1..\n..1.\n...2", (1, 1), Direction.DIAGONAL, 3),
        ("...1\n..1.\n.1..\n1...", (3, 0), Direction.ANTI_DIAGONAL, 4),
        ("2121\n1212", (0, 1), Direction.HORIZONTAL, 1),
    ],
)
def test_line_length_counts_both_ways_plus_the_cell(
    picture: str, cell: tuple[int, int], direction: Direction, length: int
) -> None:
    grid = Grid.from_text(picture)
    assert grid.line_length(cell, direction) == length
    assert len(grid.line_cells(cell, direction)) == length


def test_count_direction_walks_away_from_the_cell_only() -> None:
    grid = Grid.from_text("1111")
    assert grid.count_direction((0, 1), Direction.HORIZONTAL) == 2
    assert grid.count_direction((0, 1), (0, -1)) == 1


@given(grids(max_value=2), st.data())
def test_line_length_matches_a_brute_force_walk(grid: Grid, data: st.DataObject) -> None:
    row = data.draw(st.integers(0, grid.height - 1))
    col = data.draw(st.integers(0, grid.width - 1))
    direction = data.draw(st.sampled_from(list(Direction)))
    dr, dc = direction.step
    value = grid.cells[row, col]
    line = {(row, col)}
    for sign in (1, -1):
        r, c = row + sign * dr, col + sign * dc
        while 0 <= r < grid.height and 0 <= c < grid.width and grid.cells[r, c] == value:
            line.add((r, c))
            r, c = r + sign * dr, c + sign * dc
    assert grid.line_length((row, col), direction) == len(line)
    assert set(grid.line_cells((row, col), direction)) == line


def test_drop_row_gives_the_lowest_empty_cell_or_none() -> None:
    grid = Grid.from_text("..1\n.21\n121")
    assert grid.drop_row(0) == 1
    assert grid.drop_row(1) == 0
    assert grid.drop_row(2) is None
    with pytest.raises(GridError, match="column 3"):
        grid.drop_row(3)


def test_grids_are_unhashable_but_compare_by_content() -> None:
    a, b = Grid.empty(2, 2), Grid.empty(2, 2)
    assert a == b and a != Grid.empty(2, 3)
    with pytest.raises(TypeError):
        hash(a)
