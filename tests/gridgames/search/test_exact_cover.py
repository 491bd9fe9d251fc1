"""Tests for gridgames.search.exact_cover: known counts (n queens, pentominoes, dominoes), secondary items, resumable
search."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings

from gridgames.errors import PuzzleError
from gridgames.search.exact_cover import ExactCover
from gridgames.shapes import Shape

from gridgames_test_support.strategies import exact_cover_problems

QUEENS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724}

PENTOMINOES = {
    "F": ".XX/XX./.X.",
    "I": "XXXXX",
    "L": "XXXX/X...",
    "N": "XX../.XXX",
    "P": "XX/XX/X.",
    "T": "XXX/.X./.X.",
    "U": "X.X/XXX",
    "V": "X../X../XXX",
    "W": "X../XX./.XX",
    "X": ".X./XXX/.X.",
    "Y": "XXXX/.X..",
    "Z": "XX./.X./.XX",
}
TETROMINOES = {"I": "XXXX", "O": "XX/XX", "T": "XXX/.X.", "L": "XXX/X..", "S": ".XX/XX."}


def queens(n: int) -> ExactCover:
    """N queens with raw item numbers: rows 0..n-1 and columns n..2n-1 primary, the diagonals secondary."""
    options, labels = [], []
    for r in range(n):
        for c in range(n):
            options.append([r, n + c, 2 * n + r + c, 2 * n + (2 * n - 1) + r - c + n - 1])
            labels.append((r, c))
    return ExactCover.from_options(options, primary=2 * n, secondary=2 * (2 * n - 1), labels=labels)


def _orientations(picture: str) -> list[tuple[tuple[int, int], ...]]:
    """The fixed orientations of a picture ('X' a square, '/' between rows), from the shared `Shape`."""
    return sorted(o.cells for o in Shape.from_text(picture.replace("/", "\n")).orientations())


def tiling(height: int, width: int, pieces: dict[str, str]) -> ExactCover:
    """Tile a rectangle with each piece once: pieces and cells are the primary items."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    options = []
    for name, picture in pieces.items():
        for shape in _orientations(picture):
            for r in range(height):
                for c in range(width):
                    placed = tuple((r + dr, c + dc) for dr, dc in shape)
                    if all(0 <= pr < height and 0 <= pc < width for pr, pc in placed):
                        options.append(((name, placed), [name, *placed]))
    return ExactCover.from_items([*pieces, *cells], options)


def dominoes(height: int, width: int) -> ExactCover:
    """Domino tilings of a rectangle: cells primary, any number of dominoes."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    options = [
        (((r, c), (r + dr, c + dc)), [(r, c), (r + dr, c + dc)])
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < height and c + dc < width
    ]
    return ExactCover.from_items(cells, options)


@pytest.mark.slow
@pytest.mark.parametrize("n", sorted(QUEENS))
def test_n_queens_counts_are_the_known_ones(n: int) -> None:
    result = queens(n).count()
    assert result.count == QUEENS[n]
    assert not result.partial and result.nodes > 0


def test_eleven_queens_have_2680_solutions() -> None:
    assert queens(11).count().count == 2680


def test_every_queens_solution_is_a_cover_and_a_valid_placement() -> None:
    problem = queens(6)
    solutions = list(problem.solutions())
    assert len(solutions) == 4 and len(set(solutions)) == 4
    for solution in solutions:
        assert len({r for r, _ in solution}) == len({c for _, c in solution}) == 6
        assert len({r + c for r, c in solution}) == len({r - c for r, c in solution}) == 6
        index = {label: k for k, label in enumerate(problem.labels)}
        assert problem.is_cover(index[label] for label in solution)


@pytest.mark.slow
def test_pentominoes_tile_3x20_in_8_ways() -> None:
    problem = tiling(3, 20, PENTOMINOES)
    assert problem.count().count == 8
    for solution in problem.solutions():
        covered = [cell for _, cells in solution for cell in cells]
        assert sorted(covered) == [(r, c) for r in range(3) for c in range(20)]
        assert sorted(name for name, _ in solution) == sorted(PENTOMINOES)


def test_the_five_tetrominoes_cannot_tile_4x5() -> None:
    assert tiling(4, 5, TETROMINOES).count().count == 0  # the T covers 3 cells of one colour


@pytest.mark.parametrize(
    ("height", "width", "known"), [(2, 1, 1), (2, 2, 2), (2, 5, 8), (2, 8, 34), (3, 4, 11), (4, 4, 36), (5, 6, 1183)]
)
def test_domino_tilings_match_the_known_counts(height: int, width: int, known: int) -> None:
    assert dominoes(height, width).count().count == known


def test_secondary_items_are_covered_at_most_once() -> None:
    options = [[0, 2], [1, 2], [0], [1]]
    as_secondary = ExactCover.from_options(options, primary=2, secondary=1)
    # never options 0 and 1 together
    assert sorted(as_secondary.solutions()) == [(0, 3), (1, 2), (2, 3)]
    as_primary = ExactCover.from_options(options, primary=3)
    assert sorted(as_primary.solutions()) == [(0, 3), (1, 2)]


def test_no_primary_item_means_one_empty_solution() -> None:
    problem = ExactCover.from_options([[0]], primary=0, secondary=1)
    assert list(problem.solutions()) == [()]
    assert problem.count().count == 1


def test_limit_stops_the_solutions_early() -> None:
    assert len(list(queens(8).solutions(limit=5))) == 5
    assert list(queens(8).solutions(limit=0)) == []


def test_a_node_budget_gives_a_partial_count() -> None:
    result = queens(10).count(max_nodes=50)
    assert result.partial and result.nodes == 50 and result.count < 724


def test_a_search_run_in_small_slices_finds_what_one_run_finds() -> None:
    search = queens(9).search()
    calls = 0
    while not search.done:
        search.run(7)
        calls += 1
    assert search.count == 352 and calls > 100
    assert search.fraction() == 1.0


def test_progress_estimates_rise_from_zero_to_one_with_the_solutions_found() -> None:
    seen: list[tuple[float, int]] = []
    search = queens(10).search()
    while not search.done:
        search.run(500)
        seen.append((search.fraction(), search.count))
    fractions = [f for f, _ in seen]
    assert all(0.0 <= f <= 1.0 and not math.isnan(f) for f in fractions)
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert 0.2 < fractions[len(fractions) // 2] < 0.8  # Knuth's estimate tracks this balanced tree
    assert seen[-1][1] == 724


def test_count_reports_progress_to_the_callback() -> None:
    calls: list[tuple[float, int]] = []
    result = queens(8).count(on_progress=lambda fraction, found: calls.append((fraction, found)))
    assert calls and calls[-1] == (1.0, 92) and result.count == 92


def test_ctrl_c_during_a_count_gives_the_partial_count_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    import gridgames.search.exact_cover as engine

    def interrupt(fraction: float, found: int) -> None:
        raise KeyboardInterrupt

    # stop after a first slice much smaller than the search
    monkeypatch.setattr(engine, "_FIRST_BUDGET", 100)
    result = queens(10).count(on_progress=interrupt)
    assert result.partial and result.nodes == 100 and result.count < 724


@pytest.mark.parametrize(
    ("options", "message"),
    [([[0], []], "option 1 covers no item"), ([[0, 0]], "repeats an item"), ([[0, 3]], "outside 0..1")],
)
def test_malformed_options_are_refused_with_a_reason(options: list[list[int]], message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        ExactCover.from_options(options, primary=2)


def test_named_items_must_be_declared_once() -> None:
    with pytest.raises(PuzzleError, match="undeclared item 'z'"):
        ExactCover.from_items(["a"], [("o", ["a", "z"])])
    with pytest.raises(PuzzleError, match="declared twice"):
        ExactCover.from_items(["a", "a"], [("o", ["a"])])


def test_is_cover_rejects_gaps_overlaps_and_unknown_options() -> None:
    problem = ExactCover.from_options([[0, 1], [1], [0], [1, 2]], primary=2, secondary=1)
    assert problem.is_cover([0]) and problem.is_cover([1, 2])
    assert not problem.is_cover([1])  # item 0 uncovered
    assert not problem.is_cover([0, 1])  # item 1 twice
    assert not problem.is_cover([7])


def _brute_force(primary: int, secondary: int, options: list[list[int]]) -> set[tuple[int, ...]]:
    """Every set of options covering each primary item once and no secondary item twice (options without a primary item
    are never chosen)."""
    found = set()
    for mask in range(1 << len(options)):
        chosen = [k for k in range(len(options)) if mask >> k & 1]
        if any(min(options[k]) >= primary for k in chosen):
            continue
        counts = Counter(item for k in chosen for item in options[k])
        if all(counts[i] == 1 for i in range(primary)) and all(
            counts[i] <= 1 for i in range(primary, primary + secondary)
        ):
            found.add(tuple(chosen))
    return found


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(exact_cover_problems())
def test_solutions_are_exactly_the_covers_found_by_brute_force(problem: tuple[int, int, list[list[int]]]) -> None:
    primary, secondary, options = problem
    cover = ExactCover.from_options(options, primary=primary, secondary=secondary)
    expected = _brute_force(primary, secondary, options)
    solutions = list(cover.solutions())
    assert len(solutions) == len(set(solutions)) and set(solutions) == expected
    assert cover.count().count == len(expected)
    assert all(cover.is_cover(solution) for solution in solutions)
