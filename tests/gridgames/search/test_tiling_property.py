"""Counts of random small tiling problems against a brute-force counter of their own (issue 45).

Square, triangular, hexagonal and cubic boards with holes; piece multisets of the board's area (often
impossible), less or more; all tilings and up to the board's symmetries, on every count and listing path
of the engine and of the pentomino game's puzzles (`gridgames_test_support.tiling_oracle`). The fast form
below runs 60 problems; bench/tiling_property.py runs the same check on 500 or more.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from gridgames_test_support.tiling_oracle import PieceSpec, Problem, brute_force, check, distinct, random_problems

from gridgames.errors import PuzzleError
from gridgames.search import tiling

SEED = 45
ISSUE = [  # issue 45's two reports, which crashed (ZeroDivisionError) where the brute force says 0
    Problem(
        "square",
        ((0, 0), (0, 1), (0, 4), *((1, c) for c in range(5))),
        (PieceSpec("Y5", ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)), 1), PieceSpec("I3", ((0, 0), (0, 1), (0, 2)), 1)),
    ),
    Problem(
        "square",
        (*((0, c) for c in range(4)), (1, 3), *((r, c) for r in (2, 3) for c in range(4))),
        (PieceSpec("P5", ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)), 2), PieceSpec("L3", ((0, 0), (1, 0), (1, 1)), 1)),
    ),
]
SAMPLE = ISSUE + random_problems(SEED, 60)


def rectangle(h: int, w: int) -> tuple[tuple[int, int], ...]:
    return tuple((r, c) for r in range(h) for c in range(w))


DOMINO = ((0, 0), (0, 1))
# 6 triangles
HEXAGON = tuple((a, b, t - a - b) for t in (1, 2) for a in (0, 1) for b in (0, 1) if 0 <= t - a - b <= 1)
KNOWN = [  # (problem, tilings, up to symmetry): counted by hand or published
    (Problem("square", rectangle(2, 3), (PieceSpec("D", DOMINO, 3),)), 3, 2),
    (Problem("square", rectangle(3, 4), (PieceSpec("D", DOMINO, 6),)), 11, None),
    (Problem("square", rectangle(4, 4), (PieceSpec("D", DOMINO, 8),)), 36, None),
    (Problem("square", rectangle(2, 3), (PieceSpec("L", ((0, 0), (1, 0), (1, 1)), 2),)), 2, 1),
    (Problem("square", rectangle(2, 3), (PieceSpec("D", DOMINO, 4),)), 3, 2),  # a copy left over
    (Problem("square", rectangle(2, 3), (PieceSpec("D", DOMINO, 2),)), 0, 0),  # too little area
    (Problem("hexagonal", ((0, 0, 0), (1, -1, 0), (0, -1, 1)), (PieceSpec("M", ((0, 0, 0),), 3),)), 1, 1),
    # a ring of 6: 2 matchings
    (Problem("triangular", HEXAGON, (PieceSpec("D", ((0, 0, 1), (0, 0, 2)), 3),)), 2, 1),
]


@pytest.mark.parametrize(("problem", "tilings", "orbits"), KNOWN, ids=lambda x: "")
def test_the_brute_force_gives_known_counts(problem: Problem, tilings: int, orbits: int | None) -> None:
    found = brute_force(problem)
    assert len(found) == tilings
    if orbits is not None:
        assert distinct(problem, found) == orbits


@pytest.mark.slow
@pytest.mark.parametrize("problem", SAMPLE, ids=[f"problem{i}" for i in range(len(SAMPLE))])
def test_every_path_counts_what_the_brute_force_counts(problem: Problem) -> None:
    outcome = check(problem)
    assert (outcome.crash, outcome.mismatches) == (None, ()), problem.describe()


@pytest.mark.slow
def test_the_sample_has_what_issue_45_asks_for() -> None:
    outcomes = [check(p) for p in SAMPLE[len(ISSUE) :]]
    seen = Counter(p.lattice for p in SAMPLE)
    assert set(seen) == {"square", "triangular", "hexagonal", "cubic"}
    zero = [o.problem for o in outcomes if o.tilings == 0]
    assert any(p.area < len(p.board) for p in zero) and any(p.area > len(p.board) for p in zero)
    assert sum(p.exact for p in zero) >= 5  # the area right, and still no tiling
    # symmetric boards: the orbits matter
    assert sum(0 < o.distinct < o.tilings for o in outcomes) >= 5
    assert any(p.one_sided for p in SAMPLE)
    assert any(
        len(p.board) < (1 + max(r for r, _ in p.board)) * (1 + max(c for _, c in p.board))
        for p in SAMPLE
        if p.lattice == "square"
    )
    # the issue's kind: every copy used, no placement on the first cell, the colouring allows
    for problem in ISSUE:
        built = problem.build()
        assert built.anchor_start[0] == built.anchor_start[1] and tiling.colour_feasible(built, built.counts)


def test_a_wrong_count_and_a_crash_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = KNOWN[0][0]
    count = tiling.count
    monkeypatch.setattr(
        tiling, "count", lambda built, **how: attrs.evolve(found := count(built, **how), count=found.count + 1)
    )
    assert "count: 4, expected 3" in check(problem).mismatches

    def fails(*_: object, **__: object) -> None:
        raise ZeroDivisionError("integer division by zero")

    monkeypatch.setattr(tiling, "count", fails)
    assert check(problem).crash == "count: ZeroDivisionError: integer division by zero"


def test_the_puzzles_refuse_areas_that_differ() -> None:
    from gridgames_pentomino.boards import Board
    from gridgames_pentomino.pieces import PieceSet
    from gridgames_pentomino.puzzle import TilingPuzzle

    problem = KNOWN[4][0]  # 4 dominoes on 6 cells: the engine leaves one unused, the puzzle refuses
    with pytest.raises(PuzzleError, match="has 6 cells but the pieces"):
        TilingPuzzle(Board.from_text(problem.board_text()), PieceSet.from_text(problem.pieces_text()))
