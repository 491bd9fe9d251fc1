"""A SIGSTOPped Dask worker no longer hangs a count (issue 46): it hung for more than 240 s, where the local
executor's watchdog reruns a stopped process's part. Its batches are run again on the other workers."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridgames.search.parallel import run_parts

from gridgames_test_support.fault_helpers import always_stop, signal_self_once

PARTS = 8


@pytest.fixture
def two_workers() -> Iterator[str]:
    """A LocalCluster of two one-thread workers of its own (a stopped worker must not reach other tests)."""
    distributed = pytest.importorskip(
        "distributed", reason="the dask extra is not installed (pip install 'gridgames[dask]')"
    )
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def _wake(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGCONT)  # let the cluster close normally
    except ProcessLookupError:
        pass


@pytest.mark.slow
def test_a_stopped_dask_worker_has_its_batch_run_elsewhere(two_workers: str, tmp_path: Path) -> None:
    marker = str(tmp_path / "stopped")
    try:
        result = run_parts(
            signal_self_once, [(x, marker, signal.SIGSTOP) for x in range(PARTS)], scheduler=two_workers, watchdog=3
        )
    finally:
        if Path(marker).exists() and Path(marker).read_text().strip().isdigit():
            _wake(int(Path(marker).read_text()))
    assert Path(marker).exists()  # the worker really was stopped
    assert result.results == [x * x for x in range(PARTS)] and not result.partial and result.reruns >= 1


@pytest.mark.slow
def test_a_part_that_stops_every_worker_ends_partial_with_the_rest_kept(two_workers: str, tmp_path: Path) -> None:
    try:
        result = run_parts(
            always_stop, [(x, str(tmp_path)) for x in range(PARTS)], scheduler=two_workers, watchdog=3, max_reruns=1
        )
    finally:
        for path in tmp_path.iterdir():
            _wake(int(path.name))
    assert result.partial and not result.done[2] and "stopped answering" in result.note
    assert all(result.results[x] == x * x for x in range(PARTS) if result.done[x])
