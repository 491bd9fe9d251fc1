"""Fixtures shared by the test suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_data_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test's XDG_DATA_HOME is a fresh temporary folder: autosaves never reach the real home."""
    home = tmp_path_factory.mktemp("data-home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """The address of a two-worker Dask LocalCluster on loopback, one per test module (skips without the extra)."""
    distributed = pytest.importorskip(
        "distributed", reason="the dask extra is not installed (pip install 'gridgames[dask]')"
    )
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address
