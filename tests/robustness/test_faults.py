"""Fault injection per executor (issue 13, cases 6, 7 and 11): kill, stop, terminate a worker; lose the last Dask
worker.

Every test bounds its waits (a timeout only stops a hang in CI; nothing is timed) and leaves no process behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gridgames.search.parallel import run_parts

from gridgames_test_support.fault_helpers import always_stop, lose_worker_once, signal_self_once

PARTS = 8


def gone(pid: int) -> bool:
    """True when no process (not even a zombie of ours) has this pid."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie still answers kill(0): read its state
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] in ("Z", "X")
    except OSError:
        return True


def wait_until(condition, what: str, tries: int = 400) -> None:  # type: ignore[no-untyped-def]
    for _ in range(tries):
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["kill", "terminate"])
def test_a_killed_or_terminated_worker_has_its_part_rerun(signum: int, tmp_path: Path) -> None:
    marker = str(tmp_path / "hurt")
    result = run_parts(signal_self_once, [(x, marker, signum) for x in range(PARTS)], jobs=2)
    assert Path(marker).exists()  # the worker really was hit
    assert result.results == [x * x for x in range(PARTS)] and not result.partial and result.reruns >= 1
    assert gone(int(Path(marker).read_text()))


def test_case_11_a_stopped_worker_is_killed_by_the_watchdog_and_its_part_rerun(tmp_path: Path) -> None:
    marker = str(tmp_path / "stopped")
    result = run_parts(signal_self_once, [(x, marker, signal.SIGSTOP) for x in range(PARTS)], jobs=2, watchdog=0.3)
    assert result.results == [x * x for x in range(PARTS)] and not result.partial and result.reruns >= 1
    assert gone(int(Path(marker).read_text()))  # killed, not left stopped


def test_a_part_that_always_stalls_is_reported_and_the_rest_kept(tmp_path: Path) -> None:
    result = run_parts(always_stop, [(x, str(tmp_path)) for x in range(PARTS)], jobs=2, watchdog=0.3, max_reruns=1)
    assert result.partial and "part 2" in result.note and "no progress 2 times" in result.note
    assert not result.done[2] and result.finished == PARTS - 1  # nothing else lost
    assert [result.results[x] for x in range(PARTS) if x != 2] == [x * x for x in range(PARTS) if x != 2]
    stopped = [int(p.name) for p in tmp_path.iterdir()]
    assert len(stopped) == 2 and all(gone(pid) for pid in stopped)


SCRIPT = textwrap.dedent(
    """
    import sys
    from gridgames.search.parallel import run_parts
    from gridgames_test_support.fault_helpers import nap_and_record
    result = run_parts(nap_and_record, [(x, sys.argv[1]) for x in range(4)], jobs=2)
    print("partial" if result.partial else "complete", result.note, flush=True)
    """
)


def _start(tmp_path: Path) -> tuple[subprocess.Popen[str], list[int]]:
    folder = tmp_path / "pids"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": _support_path()}
    parent = subprocess.Popen([sys.executable, "-c", SCRIPT, str(folder)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        wait_until(lambda: len(list(folder.iterdir())) == 2, "both workers started")
    except BaseException:
        parent.kill()
        parent.wait()
        raise
    return parent, [int(p.name) for p in folder.iterdir()]


def _reap(parent: subprocess.Popen[str], workers: list[int]) -> None:
    parent.kill()
    parent.wait()
    for pid in workers:
        if not gone(pid):
            os.kill(pid, signal.SIGKILL)


def test_case_7_sigterm_stops_the_workers_and_reports_a_partial_result(tmp_path: Path) -> None:
    parent, workers = _start(tmp_path)
    try:
        parent.send_signal(signal.SIGTERM)
        out, _ = parent.communicate(timeout=60)  # returns only once no worker holds the pipe
        assert out.startswith("partial terminated")
        wait_until(lambda: all(gone(pid) for pid in workers), "workers gone")
    finally:
        _reap(parent, workers)


def test_workers_die_with_a_parent_killed_outright(tmp_path: Path) -> None:
    parent, workers = _start(tmp_path)
    try:
        parent.kill()  # SIGKILL: no handler runs; the workers' parent-death signal does the work
        parent.communicate(timeout=60)
        wait_until(lambda: all(gone(pid) for pid in workers), "workers gone")
    finally:
        _reap(parent, workers)


@pytest.fixture
def one_worker_cluster():  # type: ignore[no-untyped-def]
    """A LocalCluster of one worker whose nanny restarts it when it dies."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def worker_without_nanny():  # type: ignore[no-untyped-def]
    """A scheduler with one worker process of its own and no nanny: a worker that dies stays dead."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_worker",
                cluster.scheduler_address,
                "--no-nanny",
                "--nthreads",
                "1",
                "--host",
                "127.0.0.1",
                "--no-dashboard",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": _support_path()},
        )
        try:
            with distributed.Client(cluster.scheduler_address) as client:
                client.wait_for_workers(1, timeout=60)
            yield cluster.scheduler_address
        finally:
            worker.kill()
            worker.wait()


def _support_path() -> str:
    support = str(Path(__file__).parents[1] / "support")
    return os.pathsep.join([support, os.environ.get("PYTHONPATH", "")])


@pytest.mark.slow
def test_case_6_losing_the_last_dask_worker_reruns_when_it_comes_back(
    one_worker_cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gridgames.search import _parallel_dask

    # the nanny restarts the worker in about a second, far longer on a busy machine: wait for it as long as it takes
    monkeypatch.setattr(_parallel_dask, "NO_WORKER_GRACE", 120.0)
    marker = str(tmp_path / "lost")
    result = run_parts(lose_worker_once, [(x, marker) for x in range(PARTS)], shared=100, scheduler=one_worker_cluster)
    assert Path(marker).exists()  # the worker really died (and its scattered shared object with it)
    assert result.results == [x + 100 for x in range(PARTS)] and not result.partial and result.reruns >= 1


@pytest.mark.slow
def test_case_6_losing_the_last_dask_worker_for_good_reports_a_partial_count(
    worker_without_nanny: str, tmp_path: Path
) -> None:
    marker = str(tmp_path / "lost")
    result = run_parts(
        lose_worker_once, [(x, marker) for x in range(PARTS)], shared=100, scheduler=worker_without_nanny
    )
    assert Path(marker).exists()
    assert result.partial and "no Dask worker left" in result.note and not result.done[2]
    assert all(result.results[i] == i + 100 for i in range(PARTS) if result.done[i])
