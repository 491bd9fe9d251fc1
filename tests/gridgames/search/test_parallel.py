"""Tests for gridgames.search.parallel: the same results whatever the workers; failures named; deaths rerun."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridgames.errors import OptionError, PartError
from gridgames.search.parallel import resolve_jobs, run_parts

from gridgames_test_support.parts_helpers import die_once, fail_on_three, square


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_back_by_part_index(jobs: int) -> None:
    seen: list[int] = []
    result = run_parts(square, list(range(10)), jobs=jobs, on_result=lambda i, r: seen.append(i))
    assert result.results == [x * x for x in range(10)]
    assert not result.partial and result.finished == 10
    assert sorted(seen) == list(range(10))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_part_that_raises_is_reported_with_its_subproblem(jobs: int) -> None:
    with pytest.raises(PartError, match=r"part 3 \(subproblem 3\) failed: ValueError: three is not allowed"):
        run_parts(fail_on_three, list(range(6)), jobs=jobs, describe=lambda p: f"subproblem {p}")


def test_a_dead_worker_has_its_part_run_again(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    result = run_parts(die_once, [(x, marker) for x in range(6)], jobs=2)
    assert Path(marker).exists()  # the worker really died once
    assert result.results == [x * x for x in range(6)]
    assert result.reruns >= 1 and not result.partial


def test_a_pool_that_breaks_while_batches_are_handed_out_reruns_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    real_submit = ProcessPoolExecutor.submit
    calls = []

    def submit(self: ProcessPoolExecutor, *args: object, **kwargs: object) -> object:
        calls.append(1)
        # the first round's pool breaks at its second batch (a worker died meanwhile)
        if len(calls) == 2:
            raise BrokenProcessPool("a worker died")
        return real_submit(self, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", submit)
    result = run_parts(square, list(range(12)), jobs=2)
    assert result.results == [i * i for i in range(12)] and not result.partial and result.reruns > 0


@pytest.mark.parametrize(("jobs", "expected"), [(1, 1), ("3", 3), (None, 1)])
def test_resolve_jobs_reads_numbers(jobs: object, expected: int) -> None:
    assert resolve_jobs(jobs) == expected  # type: ignore[arg-type]


def test_resolve_jobs_auto_uses_every_core() -> None:
    import os

    assert resolve_jobs("auto") == resolve_jobs(0) == (os.cpu_count() or 1)


@pytest.mark.parametrize("bad", ["many", "-2"])
def test_resolve_jobs_rejects_bad_values(bad: str) -> None:
    with pytest.raises(OptionError, match="--jobs"):
        resolve_jobs(bad)


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_results(dask_scheduler: str) -> None:
    result = run_parts(square, list(range(10)), scheduler=dask_scheduler)
    assert result.results == [x * x for x in range(10)] and not result.partial


def test_a_part_that_raises_on_dask_is_reported_with_its_subproblem(dask_scheduler: str) -> None:
    with pytest.raises(PartError, match=r"part 3 \(#3\) failed: ValueError"):
        run_parts(fail_on_three, list(range(6)), scheduler=dask_scheduler, describe=lambda p: f"#{p}")


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_clear_error() -> None:
    pytest.importorskip("distributed")
    from gridgames.errors import GridGamesError

    with pytest.raises(GridGamesError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"):
        run_parts(square, [1, 2], scheduler="tcp://127.0.0.1:1", connect_timeout=1.0)
