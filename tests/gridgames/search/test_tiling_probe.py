"""Knuth's estimates of the search tree (random descents in the one-word kernel) and the pre-placed piece they
choose."""

from __future__ import annotations

import pytest

from gridgames.grid import Grid
from gridgames.search.tiling import TilingProblem, count, orbits, planning
from gridgames.search.tiling.planning import choose_preplaced, estimate_tree
from gridgames.search.tiling.stepping import Search
from gridgames.shapes import PENTOMINOES

CENTRE_8X8 = Grid.from_text("\n".join(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3))


def nodes_below(problem: TilingProblem, roots: tuple[int, ...]) -> int:
    """The nodes the plain first-blank search visits with each root placed first, summed (exactly)."""
    prep = orbits.plan(problem, False, "search").prep
    total = 0
    for root in roots:
        search = Search(prep, mrv=False, prune=True, prefix=(root,), target=-1, store=False, buffer=0)
        while not search.done:
            search.step(1 << 24)
        total += search.nodes
    return total


def root_search(problem: TilingProblem) -> Search:
    return Search(
        orbits.plan(problem, False, "search").prep, mrv=False, prune=True, prefix=(), target=-1, store=False, buffer=0
    )


def test_the_estimate_of_a_pre_placed_piece_tree_is_near_its_node_count() -> None:
    problem = TilingProblem.build(Grid.empty(4, 15), PENTOMINOES)
    for free in orbits.free_pieces(problem)[:3]:
        exact = nodes_below(problem, free.representatives)
        mean, error = estimate_tree(root_search(problem), free.representatives, 20_000)
        assert abs(mean - exact) < 0.2 * exact, problem.pieces[free.piece].name
        assert 0 < error < 0.2 * mean


def test_the_estimate_of_the_plain_tree_is_near_its_node_count() -> None:
    problem = TilingProblem.build(Grid.empty(3, 20), PENTOMINOES)
    first = range(int(problem.anchor_start[0]), int(problem.anchor_start[1]))
    mean, _ = estimate_tree(root_search(problem), first, 20_000)
    assert abs(len(first) + mean - count(problem, method="search").nodes) < 0.15 * 69_306


def test_the_estimates_choose_a_piece_with_a_smaller_tree_than_the_fewest_orbits_one_on_8x8_centre() -> None:
    problem = TilingProblem.build(CENTRE_8X8, PENTOMINOES)
    # as if the plain tree were 10^9 nodes: about 2,800 descents for each of the 4 candidates (I, T, U, Z)
    fewest, chosen = orbits.preplaced(problem), choose_preplaced(problem, plain=1e9)
    assert fewest is not None and chosen is not None
    assert problem.pieces[fewest.piece].name == "I" and problem.pieces[chosen.piece].name != "I"
    assert nodes_below(problem, chosen.representatives) < 0.85 * nodes_below(problem, fewest.representatives)


@pytest.mark.parametrize(
    ("board", "expected", "small"),
    [(Grid.empty(3, 20), 8, True), (Grid.empty(5, 12), 4040, False)],
    ids=["3x20", "5x12"],
)
@pytest.mark.slow
def test_a_small_tree_pre_places_the_fewest_orbits_piece_and_a_large_one_the_estimates_choice(
    board: Grid, expected: int, small: bool
) -> None:
    problem = TilingProblem.build(board, PENTOMINOES)
    plain = count(problem, method="search").nodes
    assert small == (planning.PLAIN_ONLY < plain <= planning.PLAIN_FIRST)
    chosen = orbits.preplaced(problem) if small else choose_preplaced(problem)
    assert chosen is not None
    result = count(problem)
    assert result.count == expected and result.nodes < plain / 2
    assert result.method == (
        f"all by orbits: {problem.pieces[chosen.piece].name} pre-placed "
        f"at {len(chosen.representatives)} placements, x 4 symmetries"
    )


@pytest.mark.slow
@pytest.mark.parametrize("order", ["column", "row", "diagonal"])
def test_every_scan_order_counts_the_same_tilings_of_8x8_centre(order: str) -> None:
    problem = TilingProblem.build(CENTRE_8X8, PENTOMINOES, order=order)
    again = TilingProblem.build(CENTRE_8X8, PENTOMINOES).reordered(order)
    assert again.cells == problem.cells and (again.option_cell_rows == problem.option_cell_rows).all()
    assert count(problem, method="search").count == count(problem, method="orbits").count == 520


@pytest.mark.slow
def test_the_estimates_scan_8x8_centre_along_the_diagonals_where_the_trees_are_smaller() -> None:
    problem = TilingProblem.build(CENTRE_8X8, PENTOMINOES)
    searched, pre = planning.plan_count(problem)
    assert searched.order == "diagonal" and pre is not None
    assert count(searched, method="search").nodes < 0.8 * count(problem, method="search").nodes
    result = count(problem)
    assert result.count == 520 and result.method.startswith(
        f"all by orbits: {searched.pieces[pre.piece].name} pre-placed"
    )
    assert nodes_below(searched, pre.representatives) < 0.7 * nodes_below(
        problem, orbits.preplaced(problem).representatives
    )


def test_compared_by_their_estimates_the_diagonals_win_on_8x8_centre(monkeypatch: pytest.MonkeyPatch) -> None:
    # compare the orders even on a tree this small
    monkeypatch.setattr(planning, "ORDER_PROBE_FROM", 0)
    # from enough descents that the 0.68 ratio shows
    monkeypatch.setattr(planning, "ORDER_PATHS", (256, 8192))
    problem = TilingProblem.build(CENTRE_8X8, PENTOMINOES)
    searched, pre = planning.plan_count(problem)
    assert searched.order == "diagonal" and pre is not None
    assert count(problem).count == 520


def test_a_long_board_keeps_its_short_side_order() -> None:
    problem = TilingProblem.build(Grid.empty(6, 10), PENTOMINOES)
    searched, pre = planning.plan_count(problem)
    assert searched is problem and pre is not None and problem.pieces[pre.piece].name == "X"


@pytest.mark.slow
def test_distinct_tilings_counted_by_pre_placing_equal_the_restricted_and_canonical_counts() -> None:
    problem = TilingProblem.build(CENTRE_8X8, PENTOMINOES)
    by_orbits = count(problem, unique=True)
    assert by_orbits.method.startswith("distinct by orbits:") and by_orbits.method.endswith("cells in diagonal order")
    assert by_orbits.count == count(problem, unique="I").count == count(problem, unique="canonical").count == 65
    assert by_orbits.nodes < count(problem, unique="I").nodes
