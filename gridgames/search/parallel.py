"""Run independent parts of a search in this process, in local worker processes, or on a Dask cluster.

    result = run_parts(count_part, parts, jobs=2)                       # local processes
    result = run_parts(count_part, parts, scheduler="tcp://host:8786")  # a Dask scheduler

``fn`` must be a module-level function (it is pickled to the workers) and every part
picklable. Results come back by part index; ``on_result(index, result)`` is called in
this process as each part finishes (to drive a progress bar). A part that raises is
reported as `PartError` naming its subproblem, never swallowed. A local worker that
dies has its part run again (Dask does this itself); Ctrl-C cancels the outstanding
parts and returns what finished, marked partial, so nothing is lost or counted twice.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, TypeVar

import attrs

from gridgames.errors import GridGamesError, OptionError, PartError

P = TypeVar("P")
R = TypeVar("R")

DASK_MISSING = "the --scheduler option needs Dask's distributed scheduler: pip install \"gridgames[dask]\""


@attrs.define
class PartsResult(Generic[R]):
    """The results of the parts that finished (None for the others) and whether any is missing."""

    results: list[R | None]
    done: list[bool]
    partial: bool = False
    reruns: int = 0

    @property
    def finished(self) -> int:
        """How many parts finished."""
        return sum(self.done)

    def finished_results(self) -> list[R]:
        """The results of the parts that finished, in part order."""
        return [r for r, d in zip(self.results, self.done) if d]  # type: ignore[misc]


def resolve_jobs(jobs: int | str | None) -> int:
    """The number of local worker processes: ``0`` or ``"auto"`` means one per core."""
    if jobs in (None, "", 1, "1"):
        return 1
    if jobs in (0, "0", "auto"):
        return os.cpu_count() or 1
    try:
        n = int(jobs)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise OptionError(f"--jobs must be a whole number or 'auto', not {jobs!r}") from None
    if n < 0:
        raise OptionError(f"--jobs must be 0 (every core), 'auto' or positive, not {n}")
    return n or (os.cpu_count() or 1)


def run_parts(
    fn: Callable[[P], R],
    parts: Sequence[P],
    *,
    jobs: int | str | None = 1,
    scheduler: str | None = None,
    on_result: Callable[[int, R], None] | None = None,
    describe: Callable[[P], str] = repr,
    max_reruns: int = 3,
    connect_timeout: float = 10.0,
) -> PartsResult[R]:
    """Run ``fn`` on every part and collect the results by index; partial after Ctrl-C."""
    if scheduler:
        return _run_dask(fn, parts, scheduler, on_result, describe, connect_timeout)
    workers = resolve_jobs(jobs)
    if workers == 1 or len(parts) <= 1:
        return _run_here(fn, parts, on_result, describe)
    return _run_local(fn, parts, workers, on_result, describe, max_reruns)


def _failed(index: int, part: Any, describe: Callable[[Any], str], error: BaseException) -> PartError:
    return PartError(f"part {index} ({describe(part)}) failed: {type(error).__name__}: {error}")


def _run_here(fn: Callable[[P], R], parts: Sequence[P], on_result: Callable[[int, R], None] | None, describe: Callable[[P], str]) -> PartsResult[R]:
    results: list[R | None] = [None] * len(parts)
    done = [False] * len(parts)
    try:
        for i, part in enumerate(parts):
            try:
                results[i] = fn(part)
                done[i] = True
            except Exception as error:
                raise _failed(i, part, describe, error) from error
            if on_result is not None:
                on_result(i, results[i])  # type: ignore[arg-type]
    except KeyboardInterrupt:
        return PartsResult(results, done, partial=True)
    return PartsResult(results, done)


def _run_local(
    fn: Callable[[P], R],
    parts: Sequence[P],
    workers: int,
    on_result: Callable[[int, R], None] | None,
    describe: Callable[[P], str],
    max_reruns: int,
) -> PartsResult[R]:
    results: list[R | None] = [None] * len(parts)
    done = [False] * len(parts)
    todo = list(range(len(parts)))
    deaths = [0] * len(parts)
    reruns = 0
    context = multiprocessing.get_context("spawn")
    while todo:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        pending: dict[Future[R], int] = {pool.submit(fn, parts[i]): i for i in todo}
        broken = False
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    i = pending.pop(future)
                    try:
                        results[i] = future.result()
                        done[i] = True
                    except BrokenProcessPool:
                        broken = True
                        deaths[i] += 1
                        continue
                    except Exception as error:
                        raise _failed(i, parts[i], describe, error) from error
                    if on_result is not None:
                        on_result(i, results[i])  # type: ignore[arg-type]
                if broken:
                    break
        except KeyboardInterrupt:
            _kill(pool)
            return PartsResult(results, done, partial=True, reruns=reruns)
        except BaseException:
            _kill(pool)
            raise
        if broken:
            _kill(pool)
            todo = [i for i in range(len(parts)) if not done[i]]
            reruns += len(todo)
            worst = max(todo, key=lambda i: deaths[i])
            if deaths[worst] > max_reruns:
                raise PartError(f"part {worst} ({describe(parts[worst])}) killed its worker {deaths[worst]} times; giving up")
            continue
        pool.shutdown(wait=True)
        todo = []
    return PartsResult(results, done, reruns=reruns)


def _kill(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: cancel what has not started, terminate the workers."""
    processes = list(getattr(pool, "_processes", {}).values())  # no public API terminates running workers
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)


def _run_dask(
    fn: Callable[[P], R],
    parts: Sequence[P],
    address: str,
    on_result: Callable[[int, R], None] | None,
    describe: Callable[[P], str],
    connect_timeout: float,
) -> PartsResult[R]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise GridGamesError(DASK_MISSING) from None
    results: list[R | None] = [None] * len(parts)
    done = [False] * len(parts)
    try:
        client = Client(address, timeout=connect_timeout)
    except OSError as error:
        raise GridGamesError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    with client:
        futures = client.map(fn, list(parts), pure=False)
        index = {future.key: i for i, future in enumerate(futures)}
        try:
            for future in as_completed(futures):
                i = index[future.key]
                try:
                    results[i] = future.result()
                    done[i] = True
                except Exception as error:
                    client.cancel(futures)
                    raise _failed(i, parts[i], describe, error) from error
                if on_result is not None:
                    on_result(i, results[i])  # type: ignore[arg-type]
        except KeyboardInterrupt:
            client.cancel(futures)
            return PartsResult(results, done, partial=True)
    return PartsResult(results, done)
