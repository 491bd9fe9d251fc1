"""`TilingProblem.build` (vectorised) gives exactly the arrays of the obvious one-placement-at-a-time construction,
and the options' images under the board's symmetries (vectorised) equal the cell-set lookup."""

from __future__ import annotations

import numpy as np
import pytest
from gridgames_test_support.tiling_reference import reference_arrays, reference_options

from gridgames.grid import Grid
from gridgames.lattices import CUBIC, HEXAGONAL, TRIANGULAR, free_forms
from gridgames.pieces import LatticePiece, Piece, as_pieces
from gridgames.search import symmetry
from gridgames.search.tiling import TilingProblem
from gridgames.search.tiling.unique import board_permutations, option_images
from gridgames.shapes import PENTOMINOES, TETROMINOES, Shape, polyominoes

CENTRE_8X8 = Grid.from_text("\n".join(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3))
RING = Grid.from_text("\n".join(["#....#", "......", "..##..", "..##..", "......", "#....#"]))


def assert_same_arrays(problem: TilingProblem, lattice: str = "square") -> None:
    """Every array of the problem equals the reference construction's, from the same cells and pieces."""
    options = reference_options(problem.cells, problem.pieces, lattice)
    want = reference_arrays(problem.cells, problem.pieces, options, lattice)
    for name, expected in want.items():
        source = problem if hasattr(problem, name) else problem.one_word
        got = np.asarray(getattr(source, name))
        assert got.dtype == expected.dtype or name == "probe_bits", name
        assert np.array_equal(got, expected), name


SQUARE_CASES = {
    "6x10 pentominoes": (Grid.empty(6, 10), PENTOMINOES),
    "3x20 pentominoes": (Grid.empty(3, 20), PENTOMINOES),
    "8x8 with a centre hole": (CENTRE_8X8, PENTOMINOES),
    "Dana Scott (pieces of two sizes)": (Grid.empty(8, 8), dict(PENTOMINOES, O=TETROMINOES["O"])),
    "ring, tetrominoes with copies": (RING, [Piece.of(s, count=2) for s in TETROMINOES.values()]),
    "6x35 hexominoes (multi-word)": (Grid.empty(6, 35), polyominoes(6)),
    "5x13 with monominoes (multi-word probe-free)": (
        Grid.empty(5, 13),
        [*(Piece.of(s) for s in PENTOMINOES.values()), Piece.of(Shape.from_text("#", "M"), count=5)],
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(SQUARE_CASES))
def test_square_build_equals_the_reference_construction(case: str) -> None:
    board, pieces = SQUARE_CASES[case]
    for order in ("auto", "row"):
        assert_same_arrays(TilingProblem.build(board, pieces, order=order))


def test_one_sided_build_equals_the_reference_construction() -> None:
    problem = TilingProblem.build(Grid.empty(4, 10), TETROMINOES, one_sided=True)
    assert_same_arrays(problem)
    assert problem.n_options < TilingProblem.build(Grid.empty(4, 10), TETROMINOES).n_options


@pytest.mark.parametrize(
    ("lattice", "board", "size"),
    [
        # 6x6 rhombus, hexiamonds
        (TRIANGULAR, [(a, b, s - a - b) for a in range(4) for b in range(6) for s in (1, 2)], 6),
        (HEXAGONAL, [(x, -x - z, z) for z in range(4) for x in range(5)], 4),
        (CUBIC, [(x, y, z) for x in range(2) for y in range(3) for z in range(4)], 4),
    ],
    ids=["triangular", "hexagonal", "cubic"],
)
def test_lattice_build_equals_the_reference_construction(lattice: object, board: list, size: int) -> None:
    pieces = [LatticePiece(f"p{i}", lattice.name, form) for i, form in enumerate(free_forms(lattice, size))]
    problem = TilingProblem.build(board, pieces, lattice=lattice)
    assert problem.n_options > 0
    assert_same_arrays(problem, lattice.name)


def test_restrict_and_from_options_keep_the_reference_layout() -> None:
    problem = TilingProblem.build(Grid.empty(5, 12), PENTOMINOES)
    keep = list(range(0, problem.n_options, 3))
    restricted = problem.restrict(keep)
    options = [(int(problem.option_piece[o]), problem.option_cells(o)) for o in keep]
    want = reference_arrays(problem.cells, problem.pieces, options)
    for name, expected in want.items():
        source = restricted if hasattr(restricted, name) else restricted.one_word
        assert np.array_equal(np.asarray(getattr(source, name)), expected), name
    # explicit options in any order, with repeats, compile to the same problem
    shuffled = TilingProblem.from_options(problem.cells, problem.order, problem.pieces, [*options[::-1], *options[:5]])
    assert np.array_equal(shuffled.option_cell_rows, restricted.option_cell_rows)
    assert np.array_equal(shuffled.option_piece, restricted.option_piece)
    assert as_pieces(PENTOMINOES) == problem.pieces


@pytest.mark.parametrize(
    ("board", "pieces"),
    [
        (CENTRE_8X8, PENTOMINOES),
        (Grid.empty(8, 8), dict(PENTOMINOES, O=TETROMINOES["O"])),
        # symmetric placements, copies
        (Grid.empty(6, 6), [Piece.of(s, count=4) for s in polyominoes(3)]),
        (Grid.empty(4, 20), TETROMINOES),  # over 64 cells: two words
    ],
    ids=["8x8-centre", "dana-scott", "trominoes", "two-words"],
)
def test_option_images_equal_the_cell_set_lookup(board: Grid, pieces: object) -> None:
    problem = TilingProblem.build(board, pieces)
    perms = board_permutations(problem)
    options = [problem.option_cells(o) for o in range(problem.n_options)]
    expected = symmetry.option_images(perms, options, problem.option_piece)
    got = option_images(problem, perms)
    assert np.array_equal(got, expected)
    assert len(perms) > 1 and (got[1:] != np.arange(problem.n_options)).any()


@pytest.mark.parametrize(
    "board",
    [
        Grid.empty(3, 20),
        Grid.empty(8, 8),
        CENTRE_8X8,
        RING,
        Grid.from_text("#...\n....\n....\n...#"),  # only the half turn and one diagonal mirror
        Grid.from_text("..#\n...\n..."),  # one diagonal mirror
        Grid.from_text(".##\n...\n..."),  # no symmetry
    ],
    ids=["3x20", "8x8", "8x8-centre", "ring", "two-corners", "one-corner", "asymmetric"],
)
def test_compiled_board_symmetries_equal_the_python_ones_in_order(board: Grid) -> None:
    problem = TilingProblem.build(board, {"D": Shape.from_text("##", "D")})
    assert np.array_equal(board_permutations(problem), symmetry.board_symmetries(problem.cells))


def test_free_pieces_head_each_orbit_with_its_least_option() -> None:
    from gridgames.search.tiling.orbits import free_pieces

    problem = TilingProblem.build(Grid.empty(3, 20), PENTOMINOES)
    perms = board_permutations(problem)
    images = option_images(problem, perms)
    found = {problem.piece_names[f.piece]: f.representatives for f in free_pieces(problem)}
    assert set(found) == set("FLNPVWYZ")  # I, T, U, X have a placement some symmetry fixes
    for p, name in enumerate(problem.piece_names):
        if name in found:
            options = np.flatnonzero(problem.option_piece == p)
            assert found[name] == tuple(sorted(set(images[:, options].min(axis=0).tolist())))
            assert len(found[name]) * len(perms) == len(options)  # every orbit is full


def test_a_bucket_too_big_for_the_compiled_layout_falls_back_to_numpy_with_the_same_arrays() -> None:
    from gridgames.search.tiling import kernel_build

    cells = tuple((0, c) for c in range(40))
    pieces = (Piece("P", Shape(((0, 0), (0, 1), (0, 2))), count=1, kind="fixed"),)
    # every 3-set holding cell 0: (39 choose 2) = 741 options of one (first cell, piece), over MAX_BUCKET
    options = [(0, (0, a, b)) for a in range(1, 40) for b in range(a + 1, 40)]
    assert len(options) > kernel_build.MAX_BUCKET
    rows = np.array([cs for _, cs in options], dtype=np.int64)
    assert not kernel_build.layout(np.zeros(len(options), dtype=np.int64), rows, len(cells), 1)[0]
    problem = TilingProblem.from_options(cells, "row", pieces, options[::-1])
    want = reference_arrays(cells, pieces, options)
    for name, expected in want.items():
        source = problem if hasattr(problem, name) else problem.one_word
        assert np.array_equal(np.asarray(getattr(source, name)), expected), name
