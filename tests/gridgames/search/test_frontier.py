"""Tests for gridgames.search.frontier: unlimited-copy tiling counts against Kasteleyn's formula and brute force."""

from __future__ import annotations

import random
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridgames.errors import PuzzleError
from gridgames.grid import HOLE, Grid
from gridgames.search.frontier import DOMINOES, MAX_SPAN, count_tilings, frontier_span, kasteleyn_dominoes as kasteleyn


def brute_force(board: Grid, pieces: list[list[tuple[int, int]]]) -> int:
    """Tilings by unlimited copies, by filling the first empty cell (row by row) in every way."""
    cells = {(r, c) for r in range(board.height) for c in range(board.width) if board.cells[r, c] == 0}
    shapes = []
    for piece in pieces:
        r0 = min(r for r, _ in piece)
        c0 = min(c for _, c in piece)
        shape = sorted({(r - r0, c - c0) for r, c in piece})
        if shape not in shapes:
            shapes.append(shape)

    def fill(free: frozenset) -> int:
        if not free:
            return 1
        first = min(free)
        total = 0
        for shape in shapes:
            anchor = shape[0]  # first in row order: sorted
            placed = {(first[0] + r - anchor[0], first[1] + c - anchor[1]) for r, c in shape}
            if placed <= free:
                total += fill(free - placed)
        return total

    return fill(frozenset(cells))


def test_the_known_counts() -> None:
    assert count_tilings(Grid.empty(8, 8), DOMINOES) == 12_988_816
    assert count_tilings(Grid.empty(12, 12), DOMINOES) == 53_060_477_521_960_000
    assert count_tilings(Grid.empty(3, 22), [[(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0), (2, 0)]]) == 2745


@pytest.mark.parametrize("m", range(1, 13))
def test_domino_counts_equal_kasteleyns_formula_for_every_board_up_to_12x12(m: int) -> None:
    for n in range(1, 13):
        assert count_tilings(Grid.empty(m, n), DOMINOES) == kasteleyn(m, n), f"{m}x{n}"


def test_a_board_and_its_transpose_have_as_many_tilings_with_transposed_pieces() -> None:
    l_tromino = [(0, 0), (1, 0), (1, 1)]
    flipped = [(c, r) for r, c in l_tromino]
    assert count_tilings(Grid.empty(6, 4), [l_tromino]) == count_tilings(Grid.empty(4, 6), [flipped])
    # flat dominoes only: one per row
    assert count_tilings(Grid.empty(3, 2), [[(0, 0), (0, 1)]]) == 1
    assert count_tilings(Grid.empty(2, 3), [[(0, 0), (0, 1)]]) == 0


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_counts_agree_with_brute_force_on_small_boards_with_holes(data: st.DataObject) -> None:
    height = data.draw(st.integers(1, 5), label="height")
    width = data.draw(st.integers(1, 6), label="width")
    rng = random.Random(data.draw(st.integers(0, 10**6), label="seed"))
    board = Grid.empty(height, width)
    for r in range(height):
        for c in range(width):
            if rng.random() < 0.15:
                board.cells[r, c] = HOLE
    menu = [
        [(0, 0), (0, 1)],
        [(0, 0), (1, 0)],
        [(0, 0)],
        [(0, 0), (0, 1), (0, 2)],
        [(0, 0), (1, 0), (1, 1)],
        [(0, 1), (1, 0), (1, 1)],
        [(0, 0), (0, 1), (1, 0), (1, 1)],
        [(0, 0), (0, 1), (1, 1)],
    ]
    pieces = data.draw(st.lists(st.sampled_from(menu), min_size=1, max_size=4), label="pieces")
    assert count_tilings(board, pieces) == brute_force(board, pieces)


def test_a_board_with_no_cell_to_fill_has_one_tiling_and_an_odd_area_none() -> None:
    assert count_tilings(Grid.from_text("##\n##"), DOMINOES) == 1
    assert count_tilings(Grid.empty(3, 3), DOMINOES) == 0


def test_a_frontier_too_wide_is_refused_with_the_reason() -> None:
    wide = Grid.empty(MAX_SPAN + 2, MAX_SPAN + 2)
    assert frontier_span(wide, DOMINOES) == MAX_SPAN + 3
    with pytest.raises(PuzzleError, match="frontier would track"):
        count_tilings(wide, DOMINOES)
    with pytest.raises(PuzzleError, match="no pieces"):
        count_tilings(Grid.empty(2, 2), [])
