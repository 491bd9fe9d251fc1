"""The solver on two-word (128-bit) bitboards: boards up to (height + 1) * width = 128, e.g. 10x6, 9x7, 8x8."""

from __future__ import annotations

import random

import pytest

from gridgames_connect4.solve.solver import Solver
from gridgames.errors import SolverError
from gridgames_test_support.connect4_minimax import grid_of, minimax_score, random_open_position
from gridgames_test_support.connect4_sets import DATA

STEININGER = DATA / "steininger"


@pytest.mark.parametrize(
    ("width", "height", "connect", "plies"), [(5, 4, 4, 6), (4, 4, 3, 3), (6, 4, 4, 12), (4, 5, 3, 8)]
)
def test_small_boards_in_the_two_word_layout_agree_with_one_word_and_with_minimax(width, height, connect, plies):
    rng = random.Random(f"{width}x{height}")
    one = Solver(width, height, connect, table_bits=16)
    two = Solver(width, height, connect, table_bits=16, two_words=True)
    for _ in range(10):
        moves = random_open_position(rng, width, height, connect, rng.randrange(plies, plies + 6))
        expected = minimax_score(width, height, connect, grid_of(moves, width))
        one.reset()
        two.reset()
        assert two.solve(moves) == one.solve(moves) == expected, moves
        assert two.explored == one.explored  # the very same search
        assert two.analyze(moves) == one.analyze(moves)
        assert two.solve(moves, weak=True) == (expected > 0) - (expected < 0)
        # mirror image, shared table entry
        assert two.solve([width - 1 - c for c in moves]) == expected
        assert two.best_move(moves, max_nodes=300) == one.best_move(moves, max_nodes=300)
    assert two.solve_many([[], [0]]) == one.solve_many([[], [0]])


@pytest.mark.parametrize(
    ("width", "height", "connect"), [(10, 6, 4), (9, 7, 4), (8, 8, 4), (11, 5, 4), (10, 10, 6), (14, 7, 5)]
)
@pytest.mark.slow
def test_boards_up_to_128_bits_solve_late_positions_like_a_plain_minimax(width, height, connect):
    rng = random.Random(width * height)
    solver = Solver(width, height, connect, table_mb=8)
    for _ in range(4):
        moves = random_open_position(rng, width, height, connect, width * height - 9)
        expected = minimax_score(width, height, connect, grid_of(moves, width))
        assert solver.solve(moves) == expected, moves
        scores = solver.analyze(moves)
        assert max(s for s in scores if s is not None) == expected


@pytest.mark.slow
@pytest.mark.parametrize("name", ["endgame_L1", "midgame_L1"])
def test_steininger_10x6_positions_are_scored_right(name):
    path = STEININGER / "10x6" / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"shared benchmark data not found ({path})")
    solver = Solver(10, 6, table_mb=16)
    for line in path.read_text().splitlines()[:25]:
        moves, score = line.split()
        solver.reset()
        assert solver.solve([int(ch) for ch in moves]) == int(score), moves


def test_a_table_too_small_to_tell_long_keys_apart_is_refused():
    with pytest.raises(SolverError, match=r"a 14x7 board needs a table of at least 8 MiB"):
        Solver(14, 7, table_mb=4)  # 112-bit keys: the bucket index must supply 16 bits
