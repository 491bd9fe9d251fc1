"""The solver's in-search opening-book probe: same scores as without a book, far fewer positions."""

from __future__ import annotations

import random

import pytest

from gridgames_connect4.solve.book import Book
from gridgames_connect4.solve.book_build import build_book
from gridgames_connect4.solve.solver import Solver
from gridgames.errors import GridGamesError, SolverError


@pytest.fixture(scope="module")
def small_book(tmp_path_factory) -> Book:
    path = tmp_path_factory.mktemp("book") / "6x4.book"
    build_book(6, 4, 4, 3, path, table_bits=16)
    return Book.load(path)


@pytest.mark.slow
def test_a_book_gives_the_same_scores_with_far_fewer_positions(small_book):
    rng = random.Random(3)
    with_book = Solver(6, 4, table_bits=16, book=small_book)
    without = Solver(6, 4, table_bits=16)
    positions = [[]] + [[rng.randrange(6) for _ in range(rng.randrange(1, 5))] for _ in range(40)]
    explored = {"book": 0, "plain": 0}
    checked = 0
    for moves in positions:
        try:
            without.driver.position(moves)
        except GridGamesError:
            continue
        without.reset()
        with_book.reset()
        expected = without.solve(moves)
        explored["plain"] += without.explored
        assert with_book.solve(moves) == expected, moves
        explored["book"] += with_book.explored
        assert with_book.solve(moves, weak=True) == (expected > 0) - (expected < 0), moves
        assert with_book.analyze(moves) == without.analyze(moves), moves
        checked += 1
    assert checked > 20
    # positions within the book's depth are answered from it
    assert explored["book"] * 10 < explored["plain"]


def test_a_book_for_another_board_is_refused(small_book):
    with pytest.raises(SolverError, match="6x4"):
        Solver(7, 6, table_mb=1, book=small_book)
    with pytest.raises(SolverError, match="depth, keys and scores"):
        Solver(6, 4, table_mb=1, book=object())


def test_a_book_score_inside_best_move_counts_as_an_outcome(small_book):
    # [0, 3, 0] is in the book with score +2: the outcome search reads that score at once, and when the score's
    # columns do not fit the budget, best_move must still keep the win (it once took +2 for "not a plain win")
    solver = Solver(6, 4, table_bits=16, book=small_book)
    result = solver.best_move([0, 3, 0], max_nodes=30_000, all_scores=False)
    assert small_book.score([0, 3, 0]) == 2
    assert result.exact and result.weak and result.scores[result.column] == 1
    assert Solver(6, 4, table_bits=16).analyze([0, 3, 0])[result.column] > 0
