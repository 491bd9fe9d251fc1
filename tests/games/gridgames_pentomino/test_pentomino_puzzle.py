"""Tests of TilingPuzzle: known counts, every solution checked, symmetry classes, the checker, impossible puzzles."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pytest

from gridgames.errors import PuzzleError
from gridgames.game import Placement, Solution
from gridgames.grid import Cell, Grid
from gridgames.shapes import PENTOMINOES
from gridgames.testing import check_spec

from gridgames_pentomino import SPEC
from gridgames_pentomino.boards import Board
from gridgames_pentomino.pieces import PieceSet
from gridgames_pentomino.puzzle import TilingPuzzle

Key = frozenset[tuple[str, frozenset[Cell]]]


def key(solution: Iterable[Placement]) -> Key:
    return frozenset((p.piece, frozenset(p.cells)) for p in solution)


def board_maps(puzzle: TilingPuzzle) -> list[Callable[[Cell], Cell]]:
    """The board's symmetries, found here by brute force: the 8 square maps that send its cells onto its cells."""
    cells = {(int(r), int(c)) for r, c in zip(*np.nonzero(puzzle.board.cells == 0))}
    h, w = puzzle.board.height - 1, puzzle.board.width - 1
    candidates = [
        lambda r, c: (r, c),
        lambda r, c: (h - r, w - c),
        lambda r, c: (r, w - c),
        lambda r, c: (h - r, c),
        lambda r, c: (c, r),
        lambda r, c: (w - c, h - r),
        lambda r, c: (c, h - r),
        lambda r, c: (w - c, r),
    ]
    return [(lambda f: lambda cell: f(*cell))(f) for f in candidates if {f(r, c) for r, c in cells} == cells]  # noqa: B023 - f is bound by the outer lambda


def images(puzzle: TilingPuzzle, solution: Solution) -> set[Key]:
    return {frozenset((p.piece, frozenset(f(c) for c in p.cells)) for p in solution) for f in board_maps(puzzle)}


KNOWN = {"3x20": (8, 2), "4x15": (1472, 368), "8x8-centre": (520, 65)}
_listed: dict[str, tuple[TilingPuzzle, list[Solution]]] = {}


def listed(board: str) -> tuple[TilingPuzzle, list[Solution]]:
    """A preset's puzzle and all its solutions, listed once per test session."""
    if board not in _listed:
        puzzle = TilingPuzzle.create(board)
        _listed[board] = (puzzle, list(puzzle.solutions()))
    return _listed[board]


@pytest.mark.slow
@pytest.mark.parametrize("board", KNOWN)
def test_known_counts_and_every_listed_solution_is_valid(board: str) -> None:
    total, distinct = KNOWN[board]
    puzzle, solutions = listed(board)
    assert len(solutions) == total and len({key(s) for s in solutions}) == total
    assert all(puzzle.is_solution(s) for s in solutions)
    assert puzzle.count(unique=True).count == distinct
    if board != "8x8-centre":  # its full count is slow-ish (~1 s); listing all 520 above covers it
        assert puzzle.count().count == total


@pytest.mark.slow
@pytest.mark.parametrize("board", KNOWN)
def test_unique_solutions_are_one_per_symmetry_class(board: str) -> None:
    puzzle, solutions = listed(board)
    everything = {key(s) for s in solutions}
    classes = [images(puzzle, s) for s in puzzle.solutions(unique=True)]
    assert len(classes) == KNOWN[board][1]
    assert all(puzzle.is_solution(s) for s in puzzle.solutions(unique=True))
    assert sum(len(c) for c in classes) == len(everything)  # the classes are disjoint...
    assert set().union(*classes) == everything  # ...and cover every solution


def _unflipped(solution: Solution) -> bool:
    """True when every placement is a rotation (not a mirror image) of its piece as drawn."""
    return all(PENTOMINOES[p.piece].orientations(one_sided=True).count(_shape(p.cells)) for p in solution)


def _shape(cells: Iterable[Cell]) -> object:
    from gridgames.shapes import Shape

    return Shape.from_cells(cells)


@pytest.mark.parametrize("board", ["3x20", "4x15"])
def test_one_sided_count_is_the_free_solutions_without_a_flipped_piece(board: str) -> None:
    one_sided = TilingPuzzle.create(board, one_sided=True)
    expected = [s for s in listed(board)[1] if _unflipped(s)]
    found = list(one_sided.solutions())
    assert {key(s) for s in found} == {key(s) for s in expected}
    assert one_sided.count().count == len(expected)


def brute_force_count(board: Board, pieces: PieceSet, one_sided: bool = False) -> int:
    """Tilings counted by the simplest possible search, independent of the engine."""
    cells = sorted((int(r), int(c)) for r, c in zip(*np.nonzero(board.grid.cells == 0)))
    shapes = [[o.cells for o in p.orientations(one_sided)] for p in pieces]
    left = [p.count for p in pieces]
    free = set(cells)

    def search() -> int:
        if not free:
            return 1
        r, c = min(free)
        total = 0
        for i, orientations in enumerate(shapes):
            if not left[i]:
                continue
            for orientation in orientations:
                fr, fc = orientation[0]
                placed = {(r + dr - fr, c + dc - fc) for dr, dc in orientation}
                if placed <= free:
                    free.difference_update(placed)
                    left[i] -= 1
                    total += search()
                    left[i] += 1
                    free.update(placed)
        return total

    return search()


@pytest.mark.parametrize(
    ("board", "pieces", "one_sided"),
    [
        ("4x5", "L*4", False),
        ("4x5", "tetromino:L*5", True),
        ("4x5", "tetromino:L*5", False),
        ("4x7", "one-sided tetrominoes", False),
        ("2x4", "fixed dominoes*2", False),
        ("5x4", "tetromino:T*2,tetromino:L*3", False),
    ],
)
def test_counts_with_copies_and_kinds_agree_with_brute_force(board: str, pieces: str, one_sided: bool) -> None:
    puzzle = TilingPuzzle.create(board, pieces, one_sided)
    expected = brute_force_count(puzzle.layout, puzzle.pieces, one_sided)
    assert puzzle.count().count == expected
    solutions = list(puzzle.solutions())
    assert len(solutions) == expected and all(puzzle.is_solution(s) for s in solutions)


def test_board_file_with_holes_and_pieces_file(tmp_path: Path) -> None:
    (tmp_path / "board.txt").write_text("#..#\n....\n....\n....\n#..#\n")
    (tmp_path / "pieces.txt").write_text("T*2\n###\n.#.\n")
    puzzle = TilingPuzzle.create(
        board_file=tmp_path / "board.txt", pieces_file=tmp_path / "pieces.txt", pieces="tetromino:S=s*2"
    )
    assert [(p.name, p.count) for p in puzzle.pieces] == [("s", 2), ("T", 2)]
    expected = brute_force_count(puzzle.layout, puzzle.pieces)
    assert expected > 0 and puzzle.count().count == expected
    assert all(puzzle.is_solution(s) for s in puzzle.solutions())


@pytest.fixture(scope="module")
def first_3x20() -> tuple[TilingPuzzle, Solution]:
    puzzle = TilingPuzzle.create("3x20")
    return puzzle, next(puzzle.solutions())


def test_checker_accepts_a_solution_in_any_order(first_3x20: tuple[TilingPuzzle, Solution]) -> None:
    puzzle, solution = first_3x20
    assert puzzle.is_solution(solution) and puzzle.is_solution(tuple(reversed(solution)))


def _replace(solution: Solution, index: int, placement: Placement) -> Solution:
    return solution[:index] + (placement,) + solution[index + 1 :]


def test_checker_rejects_broken_solutions(first_3x20: tuple[TilingPuzzle, Solution]) -> None:
    puzzle, s = first_3x20
    by = {p.piece: i for i, p in enumerate(s)}
    x, i = s[by["X"]], s[by["I"]]
    broken = {
        "a placement missing": s[:-1],
        "a placement twice": s + s[:1],
        "the wrong piece's name": _replace(s, by["X"], Placement("F", x.cells)),
        "an unknown piece": _replace(s, by["X"], Placement("Q", x.cells)),
        "two pieces swapped names": _replace(
            _replace(s, by["X"], Placement("I", x.cells)), by["I"], Placement("X", i.cells)
        ),
        "a cell off the board": _replace(s, by["I"], Placement("I", [(r + 5, c) for r, c in i.cells])),
        "a cell repeated": _replace(s, by["I"], Placement("I", list(i.cells[:4]) + [i.cells[0]])),
        "nonsense cells": _replace(s, by["I"], Placement.__new__(Placement)),
        "empty": (),
    }
    object.__setattr__(broken["nonsense cells"][by["I"]], "piece", "I")
    object.__setattr__(broken["nonsense cells"][by["I"]], "cells", ("ab", None))
    for why, solution in broken.items():
        assert not puzzle.is_solution(solution), why


def test_checker_rejects_a_piece_that_is_not_an_orientation_of_its_shape() -> None:
    puzzle = TilingPuzzle.create("5x4", "tetromino:T*2,tetromino:L*3")
    solution = next(puzzle.solutions())
    t = next(k for k, p in enumerate(solution) if p.piece == "T")
    l_cells = next(p.cells for p in solution if p.piece == "L")
    swapped = _replace(solution, t, Placement("L", solution[t].cells))
    assert not puzzle.is_solution(swapped)  # L used 4 times, and a T shape called L
    assert not puzzle.is_solution(_replace(solution, t, Placement("T", l_cells)))


def test_one_sided_checker_rejects_a_flipped_piece() -> None:
    free, solutions = listed("3x20")
    one_sided = TilingPuzzle.create("3x20", one_sided=True)
    flipped = next(s for s in solutions if not _unflipped(s))
    assert free.is_solution(flipped) and not one_sided.is_solution(flipped)


def test_checker_rejects_a_piece_in_a_hole() -> None:
    puzzle = TilingPuzzle(Board.from_text("..\n.#"), PieceSet.parse("tromino:L"))
    assert puzzle.is_solution((Placement("L", [(0, 0), (0, 1), (1, 0)]),))
    assert not puzzle.is_solution((Placement("L", [(0, 0), (0, 1), (1, 1)]),))


def test_picture_numbers_the_placements() -> None:
    puzzle = TilingPuzzle.create("8x8-centre")
    grid = puzzle.picture(next(puzzle.solutions()))
    assert (grid.cells == -1).sum() == 4 and set(grid.values()) == set(range(1, 13))
    assert all((grid.cells == v).sum() == 5 for v in range(1, 13))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: TilingPuzzle.create("5x5"), "the board 5x5 has 25 cells but the pieces \\(pentominoes\\) cover 60"),
        (lambda: TilingPuzzle.create("8x8"), "has 64 cells but the pieces"),
        (
            lambda: TilingPuzzle(Board("void", Grid.from_mask(np.zeros((2, 2), bool))), PieceSet.parse("O")),
            "has no cells",
        ),
        (lambda: TilingPuzzle.create("6x10", "pentominoes,F"), "duplicate piece name 'F'"),
    ],
)
def test_impossible_puzzles_fail_before_any_search(make: Callable[[], TilingPuzzle], message: str) -> None:
    with pytest.raises(PuzzleError, match=message) as info:
        make()
    assert "\n" not in str(info.value)


def test_chessboard_colouring_rules_out_the_tetrominoes_and_hexominoes_at_once() -> None:
    tetrominoes = TilingPuzzle.create("4x5", "tetrominoes")
    assert "(T)" in (tetrominoes.colouring_obstruction() or "")
    assert tetrominoes.count().count == 0 and list(tetrominoes.solutions()) == []
    assert brute_force_count(tetrominoes.layout, tetrominoes.pieces) == 0
    hexominoes = TilingPuzzle.create("14x15", "hexominoes")
    assert hexominoes.colouring_obstruction() is not None and hexominoes.count(unique=True).count == 0


@pytest.mark.parametrize(
    ("board", "pieces"),
    [
        ("4x5", "tetromino:T*5"),
        ("4x4", "tetromino:T*4"),
        ("4x4", "tetromino:T*2,tetromino:L*2"),
        ("2x4", "tetromino:T*2"),
    ],
)
def test_colouring_rule_agrees_with_brute_force(board: str, pieces: str) -> None:
    puzzle = TilingPuzzle.create(board, pieces)
    if puzzle.colouring_obstruction() is not None:
        assert brute_force_count(puzzle.layout, puzzle.pieces) == 0
    else:
        assert puzzle.count().count == brute_force_count(puzzle.layout, puzzle.pieces)


@pytest.mark.parametrize(
    ("board", "pieces"),
    [("6x10", "pentominoes"), ("8x8", "pentominoes+O"), ("4x10", "tetrominoes*2"), ("8x8-corners", "pentominoes")],
)
def test_colouring_rule_does_not_fire_on_solvable_puzzles(board: str, pieces: str) -> None:
    assert TilingPuzzle.create(board, pieces).colouring_obstruction() is None


def test_limit_stops_early_and_zero_gives_nothing() -> None:
    puzzle = TilingPuzzle.create("6x10")
    assert len(list(puzzle.solutions(limit=3))) == 3
    assert list(puzzle.solutions(limit=0)) == []
    with pytest.raises(PuzzleError):
        list(puzzle.solutions(limit=-1))


def test_mrv_and_no_pruning_find_the_same_solutions() -> None:
    puzzle = TilingPuzzle.create("3x20")
    plain = {key(s) for s in puzzle.solutions()}
    assert {key(s) for s in puzzle.solutions(mrv=True)} == plain
    assert {key(s) for s in puzzle.solutions(prune=False)} == plain
    assert puzzle.count(mrv=True, unique=True).count == 2


def _interrupt(fraction: float, found: int) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_during_count_gives_a_partial_result() -> None:
    result = TilingPuzzle.create("6x10").count(on_progress=_interrupt)
    assert result.partial and result.count < 9356


def test_ctrl_c_during_solutions_raises_keyboard_interrupt_after_the_solutions_found() -> None:
    puzzle = TilingPuzzle.create("6x10")
    seen = []
    with pytest.raises(KeyboardInterrupt):
        for solution in puzzle.solutions(on_progress=_interrupt):
            seen.append(solution)
    assert all(puzzle.is_solution(s) for s in seen)


def test_spec_conforms_and_builds_puzzles_from_its_options() -> None:
    check_spec(SPEC)
    puzzle = SPEC.make(board="8x8", pieces="pentominoes+O", one_sided=False)
    assert isinstance(puzzle, TilingPuzzle) and puzzle.pieces.area == 64
    assert [o.name for o in SPEC.options] == ["board", "pieces", "one_sided", "lattice"]
