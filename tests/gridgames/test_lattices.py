"""Tests for gridgames.lattices: point groups, neighbours, polyform counts and board symmetries on four lattices."""

from __future__ import annotations

import itertools

import pytest

from gridgames.errors import ShapeError
from gridgames.lattices import (
    CUBIC,
    HEXAGONAL,
    LATTICES,
    SQUARE,
    TRIANGULAR,
    Lattice,
    board_symmetries,
    cell_at,
    fixed_forms,
    free_forms,
    lattice_named,
    one_sided_forms,
    picture,
    position,
    read_picture,
    scan_sorted,
)
from gridgames.shapes import polyominoes

SAMPLE = {
    "square": [(0, 0), (0, 1), (1, 0), (2, 0), (2, 3)],
    "triangular": [(0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 0), (2, -1, 1)],
    "hexagonal": [(0, 0, 0), (1, -1, 0), (2, -1, -1), (0, 2, -2)],
    "cubic": [(0, 0, 0), (1, 0, 0), (1, 2, 0), (0, 0, 3), (2, 1, 1)],
}


@pytest.mark.parametrize(
    ("lattice", "group", "rotations"), [(SQUARE, 8, 4), (TRIANGULAR, 12, 6), (HEXAGONAL, 12, 6), (CUBIC, 48, 24)]
)
def test_point_groups_have_the_known_sizes_and_are_closed(lattice: Lattice, group: int, rotations: int) -> None:
    cells = SAMPLE[lattice.name]
    images = {tuple(t(c) for c in cells) for t, _ in lattice.point_group}
    assert len(lattice.point_group) == group and len(images) == group  # distinct maps
    assert len(lattice.rotations) == rotations
    for (f, f_rot), (g, g_rot) in itertools.product(lattice.point_group, repeat=2):
        composed = tuple(f(g(c)) for c in cells)
        assert composed in images  # closed under composition
        proper = next(p for t, p in lattice.point_group if tuple(t(c) for c in cells) == composed)
        # rotation x rotation and reflection x reflection are rotations
        assert proper == (f_rot == g_rot)


@pytest.mark.parametrize("lattice", LATTICES.values(), ids=list(LATTICES))
def test_neighbours_are_mutual_and_symmetries_keep_them(lattice: Lattice) -> None:
    for cell in SAMPLE[lattice.name]:
        for other in lattice.neighbours(cell):
            assert cell in lattice.neighbours(other)
            for t, _ in lattice.point_group:
                assert t(other) in lattice.neighbours(t(cell))


@pytest.mark.parametrize(
    ("lattice", "kind", "counts"),
    [
        (TRIANGULAR, "free", [1, 1, 1, 3, 4, 12, 24, 66]),
        (HEXAGONAL, "free", [1, 1, 3, 7, 22, 82]),
        (CUBIC, "free", [1, 1, 2, 7, 23]),
        (CUBIC, "one-sided", [1, 1, 2, 8, 29]),
        (SQUARE, "free", [1, 1, 2, 5, 12, 35, 108]),
        (SQUARE, "one-sided", [1, 1, 2, 7, 18, 60]),
        (TRIANGULAR, "one-sided", [1, 1, 1, 4, 6, 19]),
        (HEXAGONAL, "one-sided", [1, 1, 3, 10, 33]),
    ],
)
def test_polyform_counts_are_the_published_ones(lattice: Lattice, kind: str, counts: list[int]) -> None:
    generate = free_forms if kind == "free" else one_sided_forms
    assert [len(generate(lattice, n)) for n in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("lattice", "n"), [(SQUARE, 6), (TRIANGULAR, 7), (HEXAGONAL, 5), (CUBIC, 4)])
def test_fixed_forms_are_the_orbits_of_the_free_ones(lattice: Lattice, n: int) -> None:
    fixed = set(fixed_forms(lattice, n))
    from_free = {image for form in free_forms(lattice, n) for image in lattice.orientations(form)}
    assert fixed == from_free
    one_sided = {image for form in one_sided_forms(lattice, n) for image in lattice.orientations(form, "one-sided")}
    assert one_sided == fixed


def test_square_forms_agree_with_the_polyomino_generator() -> None:
    for n in range(1, 8):
        ours = {SQUARE.canonical(form) for form in free_forms(SQUARE, n)}
        theirs = {SQUARE.canonical(tuple(shape.cells)) for shape in polyominoes(n, "free")}
        assert ours == theirs


def test_board_symmetries_of_known_boards() -> None:
    rectangle = [(r, c) for r in range(6) for c in range(10)]
    square = [(r, c) for r in range(8) for c in range(8)]
    box = [(x, y, z) for x in range(2) for y in range(3) for z in range(10)]
    cube = [(x, y, z) for x in range(3) for y in range(3) for z in range(3)]
    hexagon = [(0, 0, 0), *HEXAGONAL.neighbours((0, 0, 0))]
    # a triangle and its three neighbours: side 2
    big_triangle = [(0, 0, 1), *TRIANGULAR.neighbours((0, 0, 1))]
    assert len(board_symmetries(SQUARE, rectangle)) == 4
    assert len(board_symmetries(SQUARE, square)) == 8
    assert len(board_symmetries(CUBIC, box)) == 8
    assert len(board_symmetries(CUBIC, cube)) == 48 and len(board_symmetries(CUBIC, cube, rotations_only=True)) == 24
    assert len(board_symmetries(HEXAGONAL, hexagon)) == 12
    assert len(board_symmetries(TRIANGULAR, big_triangle)) == 6
    # a diamond of two triangles plus one: a mirror only
    assert len(board_symmetries(TRIANGULAR, big_triangle[:3])) == 2
    for mapping in board_symmetries(SQUARE, rectangle):
        assert sorted(mapping.values()) == sorted(rectangle)  # a permutation of the board's cells
        for cell, image in mapping.items():
            for neighbour in SQUARE.neighbours(cell):
                if neighbour in mapping:
                    assert mapping[neighbour] in SQUARE.neighbours(image)


def test_bad_sizes_and_kinds_are_refused() -> None:
    for n in (0, 13, 2.5, True):
        with pytest.raises(ShapeError, match="size"):
            free_forms(TRIANGULAR, n)  # type: ignore[arg-type]
    with pytest.raises(ShapeError, match="unknown kind"):
        SQUARE.canonical([(0, 0)], "mirror")
    with pytest.raises(ShapeError, match="at least one cell"):
        board_symmetries(SQUARE, [])


# ----------------------------------------------------------------------------------------------
# positions, scan order and pictures
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lattice", [TRIANGULAR, HEXAGONAL, CUBIC], ids=lambda g: g.name)
def test_position_and_cell_at_are_inverse(lattice: Lattice) -> None:
    for form in free_forms(lattice, 5):
        for cell in form:
            assert cell_at(lattice, position(lattice, cell)) == cell


def test_triangle_positions_alternate_up_and_down_and_neighbours_touch() -> None:
    for form in free_forms(TRIANGULAR, 4):
        for cell in form:
            row, col = position(TRIANGULAR, cell)
            assert (sum(cell) == 1) == ((row + col) % 2 == 0)  # up where row + col is even
            for near in TRIANGULAR.neighbours(cell):
                r, c = position(TRIANGULAR, near)
                assert (r, c) in {(row, col - 1), (row, col + 1), (row + (1 if sum(cell) == 1 else -1), col)}


def test_hexagon_positions_are_doubled_columns() -> None:
    cell = (0, 0, 0)
    near = {position(HEXAGONAL, n) for n in HEXAGONAL.neighbours(cell)}
    assert near == {(0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1)}
    assert cell_at(HEXAGONAL, (0, 1)) is None  # between two hexagons of a row


@pytest.mark.parametrize("lattice", [TRIANGULAR, HEXAGONAL, CUBIC], ids=lambda g: g.name)
def test_pictures_read_back_to_the_same_cells(lattice: Lattice) -> None:
    for form in free_forms(lattice, 5):
        moved = [tuple(v + 3 for v in c) if lattice is CUBIC else (c[0] + 2, c[1] - 1, c[2] - 1) for c in form]
        text = picture(lattice, dict.fromkeys(moved, "#"))
        assert read_picture(lattice, text, cell="#") == lattice.normalise(moved)


def test_triangle_picture_keeps_the_directions() -> None:
    # a lone down triangle is drawn after an empty column, so that it reads back pointing down
    down = (0, 0, 2)
    assert picture(TRIANGULAR, {down: "."}) == " ."
    assert read_picture(TRIANGULAR, " .") == TRIANGULAR.normalise([down])
    assert read_picture(TRIANGULAR, ".") != read_picture(TRIANGULAR, " .")


def test_cubic_pictures_stack_layers_or_stand_them_side_by_side() -> None:
    cells = {(0, 0, 0): "a", (0, 0, 1): "a", (1, 1, 0): "b"}
    assert picture(CUBIC, cells) == "aa\n--\n\nb"
    assert picture(CUBIC, cells, across=True) == "aa\n    b"
    assert read_picture(CUBIC, "..\n--\n\n.") == ((0, 0, 0), (0, 0, 1), (1, 1, 0))


@pytest.mark.parametrize(
    ("lattice", "text", "message"),
    [
        (TRIANGULAR, "..x", "line 1, column 3: unexpected 'x'"),
        (HEXAGONAL, ". .\n. .", "line 2, column 1: off the hexagonal grid"),
        (CUBIC, "..\n-\n.?", "line 3, column 2: unexpected '?'"),
        (HEXAGONAL, "# #\n", "has no cell"),
    ],
)
def test_malformed_pictures_name_line_and_column(lattice: Lattice, text: str, message: str) -> None:
    with pytest.raises(ShapeError, match=message):
        read_picture(lattice, text)


def test_scan_order_runs_along_the_short_side() -> None:
    wide = [(x, -x - z, z) for z in range(2) for x in range(6)]  # 2 rows of 6 hexagons
    order = scan_sorted(HEXAGONAL, wide)
    # down the (doubled) columns
    assert [position(HEXAGONAL, c) for c in order[:3]] == [(0, 0), (1, 1), (0, 2)]
    box = [(x, y, z) for x in range(2) for y in range(5) for z in range(3)]
    order = scan_sorted(CUBIC, box)
    # the 2-cube axis fastest, then the 3, then the 5
    assert order[:3] == ((0, 0, 0), (1, 0, 0), (0, 0, 1))
    with pytest.raises(ShapeError, match="scan order"):
        scan_sorted(TRIANGULAR, [(0, 0, 1)], "diagonal")


def test_lattices_by_name() -> None:
    assert (
        lattice_named("hex") is HEXAGONAL and lattice_named("triangle") is TRIANGULAR and lattice_named("cube") is CUBIC
    )
    assert lattice_named(SQUARE) is SQUARE
    with pytest.raises(ShapeError, match="unknown lattice"):
        lattice_named("pentagonal")
