"""Counting tilings by parts: the known totals whatever the workers and the split; failures named; Ctrl-C partial."""

from __future__ import annotations

from typing import Any

import pytest

from gridgames.errors import PartError
from gridgames.game import CountResult
from gridgames.grid import Grid
from gridgames.search import parallel, tiling
from gridgames.search.tiling.parallel_count import (
    SearchOptions,
    count_one,
    count_parallel,
    default_parts,
    describe_part,
)
from gridgames.search.tiling import TilingProblem
from gridgames.shapes import PENTOMINOES

CENTRE_8X8 = Grid.from_text("\n".join(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3))

KNOWN = {  # board: (all tilings, up to symmetry)
    "3x20": (Grid.empty(3, 20), 8, 2),
    "4x15": (Grid.empty(4, 15), 1472, 368),
    "8x8-centre": (CENTRE_8X8, 520, 65),
}


@pytest.fixture(scope="module")
def problems() -> dict[str, TilingProblem]:
    return {name: TilingProblem.build(board, PENTOMINOES) for name, (board, _, _) in KNOWN.items()}


def check_known_totals(problems: dict[str, TilingProblem], boards: tuple[str, ...] = tuple(KNOWN), **run: Any) -> None:
    """The boards, all and up to symmetry: the known count, every part finished."""
    for name in boards:
        _, everything, distinct = KNOWN[name]
        for unique, expected in ((False, everything), (True, distinct)):
            result = count_parallel(problems[name], unique=unique, **run)
            assert (name, unique, result.count, result.partial) == (name, unique, expected, False)
            assert result.parts_done == result.parts > 1, (name, unique)


@pytest.mark.slow
def test_parts_counted_in_this_process_add_up_to_the_known_totals(problems: dict[str, TilingProblem]) -> None:
    check_known_totals(problems, jobs=1)


@pytest.mark.slow
def test_two_local_processes_count_the_known_totals(problems: dict[str, TilingProblem]) -> None:
    # every board: tests/games/gridgames_pentomino/test_pentomino_parallel.py
    check_known_totals(problems, ("8x8-centre",), jobs=2)


@pytest.mark.slow
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_count_does_not_depend_on_the_split_depth(problems: dict[str, TilingProblem], depth: int) -> None:
    result = count_parallel(problems["4x15"], depth=depth, unique=True)
    assert (result.count, result.parts_done) == (368, result.parts)


@pytest.mark.slow
@pytest.mark.parametrize("unique", [False, True])
def test_the_same_set_of_solutions_comes_out_whatever_the_split(
    problems: dict[str, TilingProblem], unique: bool
) -> None:
    problem = problems["8x8-centre"]
    whole = [frozenset(s) for s in tiling.solve(problem, unique=unique)]
    assert len(whole) == (65 if unique else 520)
    for depth in (1, 2):
        by_parts = [
            frozenset(s)
            for part in tiling.split(problem, depth=depth, unique=unique)
            for s in tiling.solve(problem, start=part, unique=unique)
        ]
        # nothing lost, nothing twice
        assert len(by_parts) == len(whole) and set(by_parts) == set(whole), depth


@pytest.mark.slow
def test_progress_adds_the_finished_parts_weights_up_to_one(problems: dict[str, TilingProblem]) -> None:
    seen: list[tuple[float, int]] = []
    result = count_parallel(problems["4x15"], jobs=2, on_progress=lambda f, n: seen.append((f, n)))
    assert len(seen) == result.parts
    assert all(a <= b for (a, _), (b, _) in zip(seen, seen[1:]))  # fractions and counts only grow
    assert all(a <= b for (_, a), (_, b) in zip(seen, seen[1:]))
    assert seen[-1][0] == pytest.approx(1.0) and seen[-1][1] == 1472


def test_a_part_is_described_by_its_placements(problems: dict[str, TilingProblem]) -> None:
    part = tiling.split(problems["3x20"], depth=2)[0]
    text = describe_part(problems["3x20"], part)
    # two placements, the first covers the first cell
    assert text.count(" at (") == 2 and "(0,0)" in text


def parts_of(problem: TilingProblem, unique: bool = False) -> tuple[tiling.SplitPlan, list[tiling.Part]]:
    """The split plan `count_parallel` follows and the parts it counts in this process."""
    how = tiling.split_plan(problem, unique=unique)
    return how, tiling.split(how.problem, default_parts(1), unique=how.unique, method=how.method, roots=how.roots)


def test_a_part_that_raises_is_reported_with_its_placements(
    problems: dict[str, TilingProblem], monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = problems["4x15"]
    bad = parts_of(problem, unique=True)[1][3]
    real = tiling.count_part

    def fail_on_bad(problem: TilingProblem, part: tiling.Part, **kw: Any) -> Any:
        if part == bad:
            raise RuntimeError("boom")
        return real(problem, part, **kw)

    monkeypatch.setattr(tiling, "count_part", fail_on_bad)
    placements = r"\([A-Z] at (\(\d,\d+\) ){4}\(\d,\d+\); .*\)"
    with pytest.raises(PartError, match=rf"^part 3 {placements} failed: RuntimeError: boom$"):
        count_parallel(problem, unique=True, jobs=1)


def test_ctrl_c_in_this_process_keeps_the_finished_parts_only(
    problems: dict[str, TilingProblem], monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = problems["4x15"]
    how, parts = parts_of(problem)
    real = tiling.count_part

    def interrupt_fourth(problem: TilingProblem, part: tiling.Part, **kw: Any) -> Any:
        if part == parts[3]:
            raise KeyboardInterrupt
        return real(problem, part, **kw)

    monkeypatch.setattr(tiling, "count_part", interrupt_fourth)
    result = count_parallel(problem, jobs=1)
    assert (result.partial, result.parts_done, result.parts) == (True, 3, len(parts))
    assert result.count == how.factor * sum(real(how.problem, p, method=how.method).count for p in parts[:3])


def test_a_part_interrupted_inside_the_kernel_is_not_added(
    problems: dict[str, TilingProblem], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tiling, "count_part", lambda *a, **kw: CountResult(99, partial=True))
    with pytest.raises(KeyboardInterrupt):
        count_one((problems["3x20"], SearchOptions()), tiling.Part((), 1.0))


def test_ctrl_c_while_local_workers_run_returns_a_partial_count(
    problems: dict[str, TilingProblem], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_wait = parallel.wait
    calls = iter(range(1000))

    def wait_then_interrupt(*args: Any, **kw: Any) -> Any:
        if next(calls) == 5:  # Ctrl-C arrives while waiting, after a few parts came back
            raise KeyboardInterrupt
        return real_wait(*args, **kw)

    monkeypatch.setattr(parallel, "wait", wait_then_interrupt)
    result = count_parallel(problems["4x15"], jobs=2)
    assert result.partial and 0 < result.parts_done < result.parts
    assert result.count < 1472


# --- a real Dask cluster (last: its threads make later local pools start from a fork server) ---------


@pytest.mark.slow
def test_a_dask_cluster_counts_the_known_totals(problems: dict[str, TilingProblem], dask_scheduler: str) -> None:
    # every board: test_pentomino_parallel.py
    check_known_totals(problems, ("4x15",), scheduler=dask_scheduler)


def test_dask_reports_a_part_that_fails_in_a_worker(problems: dict[str, TilingProblem], dask_scheduler: str) -> None:
    # no option 10**6 on 3x20
    parts = [*tiling.split(problems["3x20"], depth=1)[:2], tiling.Part((10**6,), 0.0)]
    with pytest.raises(
        PartError, match=r"^part 2 \(prefix \(1000000,\)\) failed: SolverError: option 1000000 is not an option"
    ):
        parallel.run_parts(
            count_one,
            parts,
            shared=(problems["3x20"], SearchOptions()),
            scheduler=dask_scheduler,
            describe=lambda part: f"prefix {part.prefix}",
        )


@pytest.mark.slow
@pytest.mark.parametrize("name", list(KNOWN))
@pytest.mark.parametrize("unique", [False, True])
def test_the_parts_search_the_tree_a_plain_count_searches(
    problems: dict[str, TilingProblem], name: str, unique: bool
) -> None:
    whole = tiling.count(problems[name], unique=unique)
    by_parts = count_parallel(problems[name], unique=unique, jobs=1)
    assert (by_parts.count, by_parts.method) == (whole.count, whole.method)
    # the same tree (give or take the parts' roots)
    assert abs(by_parts.nodes - whole.nodes) <= 0.02 * whole.nodes, name
