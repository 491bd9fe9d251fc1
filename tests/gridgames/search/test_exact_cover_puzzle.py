"""Tests for gridgames.search.puzzle: ExactCoverPuzzle's counts, symmetry classes, checker and board symmetries."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

import pytest

from gridgames.errors import PuzzleError
from gridgames.game import Placement, Solution
from gridgames.grid import Grid
from gridgames.search.puzzle import CellMap, ExactCoverPuzzle, grid_symmetries, solution_key
from gridgames.testing import check_puzzle


class Dominoes(ExactCoverPuzzle):
    """Domino tilings of a board (holes allowed); symmetries only when asked for."""

    def __init__(self, picture: str, *, symmetric: bool = True) -> None:
        self._board = Grid.from_text(picture)
        self.symmetric = symmetric

    @property
    def board(self) -> Grid:
        return self._board

    def candidates(self) -> Iterable[tuple[Placement, Iterable[Hashable]]]:
        for r, c in self._board.board_cells():
            for cells in (((r, c), (r, c + 1)), ((r, c), (r + 1, c))):
                if all(self._board.on_board(cell) for cell in cells):
                    yield Placement("domino", cells), cells

    def symmetries(self) -> Sequence[CellMap]:
        return grid_symmetries(self._board) if self.symmetric else ()


def _orbits(puzzle: Dominoes) -> int:
    """Classes of solutions under the board's symmetries, by brute force over every solution."""
    maps = [{cell: cell for cell in puzzle.board.board_cells()}, *grid_symmetries(puzzle.board)]
    seen, classes = set(), 0
    for solution in puzzle.solutions():
        key = solution_key(solution)
        if key in seen:
            continue
        classes += 1
        for cell_map in maps:
            seen.add(solution_key(Placement(p.piece, tuple(cell_map[c] for c in p.cells)) for p in solution))
    return classes


def _rectangle(height: int, width: int) -> str:
    return "\n".join("." * width for _ in range(height))


@pytest.mark.parametrize(("height", "width", "known"), [(2, 3, 3), (2, 6, 13), (3, 4, 11), (4, 4, 36)])
def test_counts_every_domino_tiling(height: int, width: int, known: int) -> None:
    puzzle = Dominoes(_rectangle(height, width))
    result = puzzle.count()
    assert result.count == known and not result.partial and not result.unique


@pytest.mark.parametrize(
    "picture",
    [_rectangle(2, 3), _rectangle(2, 6), _rectangle(4, 4), "....\n.##.\n....\n....", "##..\n....\n....\n..##"],
)
def test_unique_counts_one_solution_per_symmetry_class(picture: str) -> None:
    puzzle = Dominoes(picture)
    unique = puzzle.count(unique=True)
    assert unique.unique and unique.count == _orbits(puzzle)
    assert len(list(puzzle.solutions(unique=True))) == unique.count


def test_two_by_three_has_two_tilings_up_to_symmetry() -> None:
    # three vertical; or two across and one upright
    assert Dominoes(_rectangle(2, 3)).count(unique=True).count == 2


def test_without_symmetries_unique_counts_every_solution() -> None:
    puzzle = Dominoes(_rectangle(4, 4), symmetric=False)
    result = puzzle.count(unique=True)
    assert result.count == 36 and result.unique


def test_the_checker_accepts_solutions_and_rejects_broken_ones() -> None:
    puzzle = Dominoes(_rectangle(2, 4))
    check_puzzle(puzzle)
    solution = next(iter(puzzle.solutions()))
    assert puzzle.is_solution(solution)
    assert puzzle.is_solution(tuple(reversed(solution)))  # order does not matter
    assert not puzzle.is_solution(solution[:-1])  # a gap
    assert not puzzle.is_solution(solution + solution[:1])  # an overlap
    # not a domino
    assert not puzzle.is_solution((Placement("domino", ((0, 0), (1, 1))),) + solution[1:])
    assert not puzzle.is_solution(())


def test_a_repeated_candidate_is_refused() -> None:
    class Twice(Dominoes):
        def candidates(self) -> Iterable[tuple[Placement, Iterable[Hashable]]]:
            yield from super().candidates()
            yield Placement("domino", ((0, 0), (0, 1))), ((0, 0), (0, 1))

    with pytest.raises(PuzzleError, match="declared twice"):
        Twice(_rectangle(2, 2)).count()


def test_solutions_respect_the_limit_and_number_the_picture() -> None:
    puzzle = Dominoes(_rectangle(2, 4))
    solutions: list[Solution] = list(puzzle.solutions(limit=2))
    assert len(solutions) == 2
    picture = puzzle.picture(solutions[0])
    assert sorted(picture.values()) == [1, 2, 3, 4]


def test_grid_symmetries_of_rectangles_and_holed_boards() -> None:
    assert len(grid_symmetries(Grid.empty(3, 3))) == 7
    assert len(grid_symmetries(Grid.empty(2, 3))) == 3
    assert grid_symmetries(Grid.from_text("..#\n...\n...")) == [
        {(r, c): (2 - c, 2 - r) for r in range(3) for c in range(3) if (r, c) != (0, 2)}
    ]
    quarter_turn = next(m for m in grid_symmetries(Grid.empty(3, 3)) if m[(0, 0)] == (2, 0) and m[(0, 1)] == (1, 0))
    assert quarter_turn[(1, 1)] == (1, 1)
