"""Tests for gridgames.shapes: parsing, symmetry, standard sets and n-omino generation."""

from __future__ import annotations


import pytest
from hypothesis import given

from gridgames.errors import ShapeError
from gridgames.shapes import PENTOMINOES, TETROMINOES, Shape, piece_set, polyominoes

from gridgames_test_support.strategies import cell_sets, polyomino_shapes

# OEIS A000105 (free), A001168 (fixed), A000988 (one-sided)
FREE_COUNTS = [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655]
FIXED_COUNTS = [1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446]
ONE_SIDED_COUNTS = [1, 1, 2, 7, 18, 60, 196, 704, 2500, 9189]

# --- known counts -----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("n, expected", list(enumerate(FREE_COUNTS, start=1)))
def test_free_polyomino_count_matches_oeis(n: int, expected: int) -> None:
    assert len(polyominoes(n)) == expected


@pytest.mark.parametrize("n, expected", list(enumerate(FIXED_COUNTS, start=1)))
def test_fixed_polyomino_count_matches_oeis(n: int, expected: int) -> None:
    assert len(polyominoes(n, "fixed")) == expected


@pytest.mark.parametrize("n, expected", list(enumerate(ONE_SIDED_COUNTS, start=1)))
def test_one_sided_polyomino_count_matches_oeis(n: int, expected: int) -> None:
    assert len(polyominoes(n, "one-sided")) == expected


def _fixed_by_brute_growth(n: int) -> set[tuple[tuple[int, int], ...]]:
    """Fixed n-ominoes grown cell by cell with translation-only dedup (independent of canonical())."""
    level = {((0, 0),)}
    for _ in range(n - 1):
        nxt = set()
        for cells in level:
            occupied = set(cells)
            for r, c in cells:
                for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if nb not in occupied:
                        nxt.add(Shape((*cells, nb)).cells)
        level = nxt
    return level


@pytest.mark.parametrize("n", range(1, 8))
def test_fixed_polyominoes_equal_independent_brute_force(n: int) -> None:
    assert {s.cells for s in polyominoes(n, "fixed")} == _fixed_by_brute_growth(n)


@pytest.mark.parametrize("n", range(1, 9))
def test_generated_polyominoes_are_connected_of_size_n_and_pairwise_inequivalent(n: int) -> None:
    free = polyominoes(n)
    assert all(s.size == n and s.is_connected() for s in free)
    assert len({s.canonical() for s in free}) == len(free)
    one_sided = polyominoes(n, "one-sided")
    assert len({s.canonical(one_sided=True) for s in one_sided}) == len(one_sided)


@pytest.mark.parametrize("kind", ["free", "one-sided", "fixed"])
@pytest.mark.parametrize("n", range(1, 8))
def test_generated_names_are_unique(n: int, kind: str) -> None:
    names = [s.name for s in polyominoes(n, kind)]
    assert len(set(names)) == len(names) and all(names)


def test_polyominoes_order_is_deterministic_and_cached() -> None:
    assert polyominoes(7) is polyominoes(7)
    assert [s.cells for s in polyominoes(6)] == sorted(s.canonical().cells for s in polyominoes(6))


def test_hexominoes_are_named_h01_to_h35() -> None:
    names = [s.name for s in polyominoes(6)]
    assert names[0] == "H01" and names[-1] == "H35" and len(names) == 35


def test_one_sided_mirror_is_named_with_apostrophe() -> None:
    names = [s.name for s in polyominoes(5, "one-sided")]
    assert names == ["F", "F'", "I", "L", "L'", "N", "N'", "P", "P'", "T", "U", "V", "W", "X", "Y", "Y'", "Z", "Z'"]
    mirror = {s.name: s for s in polyominoes(5, "one-sided")}["L'"]
    assert mirror == PENTOMINOES["L"].reflect()


def test_fixed_tetromino_names_follow_orientation_index() -> None:
    names = [s.name for s in polyominoes(4, "fixed")]
    assert names[:3] == ["I1", "I2", "O1"] and names[-1] == "L8"
    assert [s.name for s in polyominoes(6, "fixed")][:2] == ["H01-1", "H01-2"]


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, "5"])
def test_polyominoes_rejects_bad_size(bad: object) -> None:
    with pytest.raises(ShapeError):
        polyominoes(bad)  # type: ignore[arg-type]


def test_polyominoes_rejects_unknown_kind() -> None:
    with pytest.raises(ShapeError, match="kind"):
        polyominoes(4, "mirror")


# --- standard sets -----------------------------------------------------------


def test_pentominoes_are_the_twelve_letters_with_63_fixed_orientations() -> None:
    assert list(PENTOMINOES) == list("FILNPTUVWXYZ")
    counts = {name: len(s.orientations()) for name, s in PENTOMINOES.items()}
    assert counts == {"F": 8, "I": 2, "L": 8, "N": 8, "P": 8, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1, "Y": 8, "Z": 4}
    assert sum(counts.values()) == 63
    assert all(s.name == name for name, s in PENTOMINOES.items())


def test_pentominoes_are_all_free_pentominoes() -> None:
    assert {s.canonical() for s in PENTOMINOES.values()} == {s.canonical() for s in _generic_free(5)}


def _generic_free(n: int) -> list[Shape]:
    """Free n-ominoes derived from the fixed list, independent of the named tables."""
    return list({s.canonical() for s in polyominoes(n, "fixed")})


def test_tetrominoes_have_19_fixed_orientations() -> None:
    counts = {name: len(s.orientations()) for name, s in TETROMINOES.items()}
    assert counts == {"I": 2, "O": 1, "T": 4, "S": 4, "L": 8}
    assert {s.canonical() for s in TETROMINOES.values()} == {s.canonical() for s in _generic_free(4)}


def test_pentomino_letter_shapes_have_conventional_symmetries() -> None:
    order = {name: s.symmetry_order() for name, s in PENTOMINOES.items()}
    assert order["X"] == 8 and order["I"] == 4 and order["F"] == 1
    assert {name for name, k in order.items() if k == 2} == {"T", "U", "V", "W", "Z"}


@pytest.mark.parametrize(
    "spec, count",
    [
        ("monomino", 1),
        ("dominoes", 1),
        ("trominoes", 2),
        ("tetrominoes", 5),
        ("pentominoes", 12),
        ("hexominoes", 35),
        ("3-ominoes", 2),
        ("7-ominoes", 108),
        ("n=8", 369),
        ("nonominoes", 1285),
        ("one-sided pentominoes", 18),
        ("fixed tetrominoes", 19),
        ("  Pentominoes ", 12),
    ],
)
def test_piece_set_sizes(spec: str, count: int) -> None:
    pieces = piece_set(spec)
    assert len(pieces) == count
    assert all(name == s.name for name, s in pieces.items())


def test_piece_set_pentominoes_equals_table() -> None:
    assert piece_set("pentominoes") == PENTOMINOES


@pytest.mark.parametrize("spec", ["", "pentominos-ish", "0-ominoes", "sideways pentominoes", "n=", "dodecahedra"])
def test_piece_set_rejects_unknown_names(spec: str) -> None:
    with pytest.raises(ShapeError, match="piece set"):
        piece_set(spec)


# --- parsing and printing ---------------------------------------------------


def test_from_text_accepts_letters_spaces_and_surrounding_blank_lines() -> None:
    shape = Shape.from_text("\n\n   FF\n  FF \n   F\n\n", name="F")
    assert shape.cells == ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1))
    assert shape.to_text() == ".##\n##.\n.#."
    assert shape.name == "F"


@pytest.mark.parametrize(
    "text, fragment",
    [("", "no squares"), ("..\n  \n", "no squares"), ("#.#", "not connected"), ("##\n#*", "'*'"), ("#\t#", "'\\t'")],
)
def test_from_text_rejects_bad_pictures_with_one_line_message(text: str, fragment: str) -> None:
    with pytest.raises(ShapeError) as info:
        Shape.from_text(text)
    message = str(info.value)
    assert fragment in message and "\n" not in message


def test_from_cells_normalises_position_and_order() -> None:
    shape = Shape.from_cells([(5, 7), (4, 7), (4, 6)])
    assert shape.cells == ((0, 0), (0, 1), (1, 1))
    assert (shape.height, shape.width, shape.size) == (2, 2, 3)


@pytest.mark.parametrize(
    "cells, fragment",
    [
        ([], "at least one"),
        ([(0, 0), (0, 0)], "duplicate"),
        ([(0, 0), (0, 2)], "not connected"),
        ([(0, 0.5)], "integer"),
    ],
)
def test_from_cells_rejects_bad_cells(cells: list, fragment: str) -> None:
    with pytest.raises(ShapeError, match=fragment):
        Shape.from_cells(cells)


def test_direct_constructor_allows_disconnected_shapes() -> None:
    shape = Shape(((0, 0), (2, 2)))
    assert not shape.is_connected()
    assert eval(repr(shape)) == shape


def test_name_does_not_take_part_in_equality_or_hash() -> None:
    a, b = Shape.from_text("##", name="a"), Shape.from_text("##", name="b")
    assert a == b and hash(a) == hash(b)


def test_repr_evaluates_back_with_name() -> None:
    shape = PENTOMINOES["L"]
    again = eval(repr(shape))
    assert again == shape and again.name == "L"
    assert repr(Shape.from_text("###\n#..", name="L")) == "Shape.from_text('###\\n#..', name='L')"


def test_shapes_are_frozen() -> None:
    with pytest.raises(AttributeError):
        PENTOMINOES["X"].cells = ()  # type: ignore[misc]


# --- symmetry ------------------------------------------------------------------


def test_rotate_turns_clockwise() -> None:
    assert Shape.from_text("#.\n#.\n##").rotate().to_text() == "###\n#.."


def test_reflect_mirrors_left_right() -> None:
    assert Shape.from_text("#.\n#.\n##").reflect().to_text() == ".#\n.#\n##"


def test_orientations_start_with_self_then_rotations() -> None:
    p = PENTOMINOES["P"]
    orients = p.orientations()
    assert orients[0] == p and orients[1] == p.rotate() and orients[4] == p.reflect()
    assert p.orientations(one_sided=True) == orients[:4]
    assert all(o.name == "P" for o in orients)


def test_first_cell_in_column_and_row_order() -> None:
    f = PENTOMINOES["F"]  # .##/##./.#.
    assert f.first_cell() == (1, 0)
    assert f.first_cell("row") == (0, 1)
    with pytest.raises(ShapeError, match="scan order"):
        f.first_cell("diagonal")


@given(polyomino_shapes())
def test_rotating_four_times_is_identity(shape: Shape) -> None:
    assert shape.rotate().rotate().rotate().rotate() == shape


@given(cell_sets())
def test_rotate_and_reflect_are_involutions_on_any_cell_set(cells: frozenset) -> None:
    shape = Shape(tuple(cells))
    assert shape.reflect().reflect() == shape
    assert shape.rotate().rotate().rotate().rotate() == shape
    assert shape.rotate().reflect() == shape.reflect().rotate().rotate().rotate()


@given(polyomino_shapes())
def test_orientation_count_is_eight_over_symmetry_group(shape: Shape) -> None:
    orients = shape.orientations()
    stabiliser = sum(o == shape for o in _all_eight(shape))
    assert 8 % len(orients) == 0
    assert len(orients) == 8 // stabiliser == 8 // shape.symmetry_order()
    assert len(set(orients)) == len(orients)


def _all_eight(shape: Shape) -> list[Shape]:
    """The 8 images of shape under the square's symmetry group, with repeats."""
    images, current = [], shape
    for _ in range(4):
        images += [current, current.reflect()]
        current = current.rotate()
    return images


@given(polyomino_shapes())
def test_one_sided_orientations_are_the_rotations(shape: Shape) -> None:
    rotations = shape.orientations(one_sided=True)
    assert 4 % len(rotations) == 0
    assert set(rotations) == {shape, shape.rotate(), shape.rotate().rotate(), shape.rotate().rotate().rotate()}


@given(polyomino_shapes())
def test_canonical_is_invariant_under_rotate_and_reflect(shape: Shape) -> None:
    canon = shape.canonical()
    assert shape.rotate().canonical() == canon
    assert shape.reflect().canonical() == canon
    assert canon in shape.orientations()
    assert canon.cells == min(o.cells for o in shape.orientations())
    assert shape.canonical(one_sided=True).cells == min(o.cells for o in shape.orientations(one_sided=True))
    assert shape.rotate().canonical(one_sided=True) == shape.canonical(one_sided=True)


@given(polyomino_shapes())
def test_text_round_trip(shape: Shape) -> None:
    assert Shape.from_text(shape.to_text()) == shape
    assert eval(repr(shape)) == shape


@given(polyomino_shapes(max_size=7))
def test_every_random_polyomino_is_among_the_generated_ones(shape: Shape) -> None:
    assert shape.canonical() in {s.canonical() for s in polyominoes(shape.size)}
