"""Tests of the N queens plugin: the known counts, symmetry classes, conformance and the picture."""

from __future__ import annotations

import pytest

from gridgames.errors import OptionError
from gridgames.game import Placement
from gridgames.testing import check_spec

from gridgames_nqueens import SPEC, NQueens

KNOWN = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]  # n = 1..10
KNOWN_UNIQUE = {1: 1, 4: 1, 5: 2, 6: 1, 7: 6, 8: 12}


def test_the_spec_conforms_to_the_protocol() -> None:
    check_spec(SPEC)


@pytest.mark.parametrize("n", range(1, 11))
def test_counts_are_the_known_ones(n: int) -> None:
    result = NQueens(n).count()
    assert result.count == KNOWN[n - 1] and not result.partial


def test_eleven_queens_have_2680_solutions() -> None:
    assert SPEC.make(n=11).count().count == 2680


@pytest.mark.parametrize(("n", "known"), sorted(KNOWN_UNIQUE.items()))
def test_distinct_solutions_up_to_the_squares_symmetries(n: int, known: int) -> None:
    result = NQueens(n).count(unique=True)
    assert result.count == known and result.unique


def test_every_solution_is_checked_valid_and_attacks_nothing() -> None:
    puzzle = NQueens(6)
    for solution in puzzle.solutions():
        assert puzzle.is_solution(solution)
        squares = [p.cells[0] for p in solution]
        assert len({r for r, _ in squares}) == len({c for _, c in squares}) == 6
        assert len({r - c for r, c in squares}) == len({r + c for r, c in squares}) == 6


def test_the_checker_rejects_attacking_queens() -> None:
    puzzle = NQueens(4)
    # (0, 1), (1, 2), (2, 3) share a diagonal
    attacking = tuple(Placement("Q", ((r, (r + 1) % 4),)) for r in range(4))
    assert not puzzle.is_solution(attacking)
    # one diagonal
    assert not puzzle.is_solution(tuple(Placement("Q", ((r, r),)) for r in range(4)))


def test_the_picture_marks_queens_with_q() -> None:
    puzzle = NQueens(4)
    solution = next(iter(puzzle.solutions()))
    picture = puzzle.picture(solution).to_text().splitlines()
    assert [row.count("Q") for row in picture] == [1, 1, 1, 1]
    assert picture in ([".Q..", "...Q", "Q...", "..Q."], ["..Q.", "Q...", "...Q", ".Q.."])


@pytest.mark.parametrize("n", [0, -3, 65])
def test_impossible_sizes_are_refused(n: int) -> None:
    with pytest.raises(OptionError, match="n must be"):
        SPEC.make(n=n)
