"""Run independent parts of a search in this process, in local worker processes, or on a Dask cluster.

    result = run_parts(count_part, parts, jobs=2)                       # local processes
    result = run_parts(count_part, parts, scheduler="tcp://host:8786")  # a Dask scheduler
    result = run_parts(count_one, parts, shared=problem, jobs=2)        # fn(problem, part)

``fn`` must be a module-level function (it is pickled to the workers) and every part
picklable. A large object every part needs (a compiled problem) goes in ``shared``: it
is sent once per worker -- inherited by forked local workers or passed to their
initializer, broadcast with ``client.scatter`` on Dask -- and ``fn`` is called as
``fn(shared, part)``. Local workers are forked on Linux when this process has no
other thread (start-up in milliseconds: they inherit the imported modules and the
compiled kernels). Otherwise (a notebook, a test run that used Dask) they come from a
fork server, started once per process, that has imported ``preload`` (a module that
warms up compiled kernels when imported) and ``fn``'s module; where there is no fork
server they are spawned. Workers ignore Ctrl-C: the parent handles it. Parts travel
in batches dealt round-robin (about 64 per local worker, 8 per Dask worker thread:
each task costs this process, or the Dask scheduler, time to handle). Results come
back by part index; ``on_result(index, result)`` is called in
this process as each part finishes (to drive a progress bar). A part that raises is
reported as `PartError` naming its subproblem, never swallowed. A local worker that
dies has its part run again (Dask does this itself); Ctrl-C cancels the outstanding
parts and returns what finished, marked partial, so nothing is lost or counted twice.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, TypeVar

import attrs

from gridgames.errors import GridGamesError, OptionError, PartError

P = TypeVar("P")
R = TypeVar("R")

DASK_MISSING = "the --scheduler option needs Dask's distributed scheduler: pip install \"gridgames[dask]\""

DASK_TASKS_PER_THREAD = 8
"""On Dask, parts go in batches, about this many tasks per worker thread: each task costs milliseconds to schedule
(measured: 64 tasks instead of 16 add about 0.2 s to a 2.5 s count on a two-worker LocalCluster)."""

DASK_MIN_TASKS = 16
"""At least this many Dask tasks (when there are that many parts): workers joining later get work, the bar moves."""

UNSHARED: Any = object()
"""The default of ``run_parts(shared=...)``: ``fn`` takes the part alone."""

LOCAL_TASKS_PER_WORKER = 64
"""Local processes get parts in batches too, about this many per worker: fewer results for this process to handle."""

_SHARED_ARGS: tuple[Any, ...] = ()  # a local worker's (shared object,), or () (set by _init_worker)


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


def require_dask() -> None:
    """Raise the one-line install hint unless Dask's distributed scheduler can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise GridGamesError(DASK_MISSING) from None


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


def start_method() -> str:
    """How local workers start: "fork" on Linux while this process runs a single thread, else "forkserver" or "spawn"."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _context(method: str, fn: Callable[..., Any], preload: Sequence[str]) -> multiprocessing.context.BaseContext:
    """The multiprocessing context; a fork server (started once per process) first imports ``preload`` and ``fn``'s module."""
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        modules = [*preload, *([fn.__module__] if fn.__module__ not in ("__main__", "__mp_main__") else [])]
        context.set_forkserver_preload(modules)  # type: ignore[attr-defined]  # no effect once the server runs
    return context


def run_parts(
    fn: Callable[..., R],
    parts: Sequence[P],
    *,
    shared: Any = UNSHARED,
    jobs: int | str | None = 1,
    scheduler: str | None = None,
    on_result: Callable[[int, R], None] | None = None,
    describe: Callable[[P], str] = repr,
    max_reruns: int = 3,
    connect_timeout: float = 10.0,
    start: str | None = None,
    preload: Sequence[str] = (),
) -> PartsResult[R]:
    """Run ``fn`` on every part (``fn(shared, part)`` when ``shared`` is given) and collect the results by index; partial after Ctrl-C."""
    if scheduler:
        return _run_dask(fn, parts, shared, scheduler, on_result, describe, connect_timeout)
    workers = resolve_jobs(jobs)
    if workers == 1 or len(parts) <= 1:
        return _run_here(fn, parts, shared, on_result, describe)
    return _run_local(fn, parts, shared, workers, on_result, describe, max_reruns, start, preload)


def _init_worker(shared: tuple[Any, ...]) -> None:
    """A local worker's set-up: leave Ctrl-C to the parent, keep the shared object (``()`` for none)."""
    global _SHARED_ARGS
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _SHARED_ARGS = shared


def _call_batch(fn: Callable[..., R], indices: list[int], parts: list[Any]) -> list[R]:
    """Run a batch of parts in a local worker, with the shared object it was given."""
    return _run_batch(fn, indices, parts, *_SHARED_ARGS)


def _failed(index: int, part: Any, describe: Callable[[Any], str], error: BaseException) -> PartError:
    return PartError(f"part {index} ({describe(part)}) failed: {type(error).__name__}: {error}")


def _batch_failed(group: list[int], parts: Sequence[Any], describe: Callable[[Any], str], error: BaseException | None) -> PartError:
    """A batch failed outside ``fn`` (a worker lost, a result that does not pickle): name its first part."""
    first = f"part {group[0]} ({describe(parts[group[0]])})" + (f" and {len(group) - 1} more" if len(group) > 1 else "")
    return PartError(f"{first} failed: {type(error).__name__}: {error}")


def _run_here(
    fn: Callable[..., R], parts: Sequence[P], shared: Any, on_result: Callable[[int, R], None] | None, describe: Callable[[P], str]
) -> PartsResult[R]:
    results: list[R | None] = [None] * len(parts)
    done = [False] * len(parts)
    try:
        for i, part in enumerate(parts):
            try:
                results[i] = fn(part) if shared is UNSHARED else fn(shared, part)
                done[i] = True
            except Exception as error:
                raise _failed(i, part, describe, error) from error
            if on_result is not None:
                on_result(i, results[i])  # type: ignore[arg-type]
    except KeyboardInterrupt:
        return PartsResult(results, done, partial=True)
    return PartsResult(results, done)


def _run_local(
    fn: Callable[..., R],
    parts: Sequence[P],
    shared: Any,
    workers: int,
    on_result: Callable[[int, R], None] | None,
    describe: Callable[[P], str],
    max_reruns: int,
    start: str | None,
    preload: Sequence[str],
) -> PartsResult[R]:
    results: list[R | None] = [None] * len(parts)
    done = [False] * len(parts)
    todo = list(range(len(parts)))
    deaths = [0] * len(parts)
    reruns = 0
    shared_args = () if shared is UNSHARED else (shared,)
    while todo:
        context = _context(start or start_method(), fn, preload)  # chosen again for a rerun: the dead pool may have left a thread
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(shared_args,))
        groups = [[todo[k] for k in g] for g in batches(len(todo), workers * LOCAL_TASKS_PER_WORKER)]
        pending = {pool.submit(_call_batch, fn, g, [parts[i] for i in g]): g for g in groups}
        broken = False
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    group = pending.pop(future)
                    try:
                        values = future.result()
                    except BrokenProcessPool:
                        broken = True
                        for i in group:
                            deaths[i] += 1
                        continue
                    except _PartFailure as failure:
                        i, text = failure.args
                        raise PartError(f"part {i} ({describe(parts[i])}) failed: {text}") from None
                    except Exception as error:  # outside fn: e.g. a result that does not pickle
                        raise _batch_failed(group, parts, describe, error) from error
                    for i, value in zip(group, values):
                        results[i] = value
                        done[i] = True
                        if on_result is not None:
                            on_result(i, value)
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
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
    if manager is not None:
        manager.join(timeout=5)  # this process is single-threaded again: a rerun may fork


class _PartFailure(Exception):
    """A part of a Dask batch raised: (its index, the error as text); picklable."""


def _run_batch(fn: Callable[..., R], indices: list[int], parts: list[Any], *shared: Any) -> list[R]:
    """Run ``fn`` on the parts of one Dask task in turn (``fn(shared, part)`` when a shared object is given)."""
    results = []
    for i, part in zip(indices, parts):
        try:
            results.append(fn(*shared, part))
        except Exception as error:
            raise _PartFailure(i, f"{type(error).__name__}: {error}") from None
    return results


def batches(count: int, tasks: int) -> list[list[int]]:
    """Part indices dealt round-robin into ``tasks`` batches (so that big neighbouring parts spread out)."""
    tasks = max(1, min(tasks, count))
    return [list(range(j, count, tasks)) for j in range(tasks)]


def _run_dask(
    fn: Callable[..., R],
    parts: Sequence[P],
    shared: Any,
    address: str,
    on_result: Callable[[int, R], None] | None,
    describe: Callable[[P], str],
    connect_timeout: float,
) -> PartsResult[R]:
    require_dask()
    from distributed import Client, as_completed

    results: list[R | None] = [None] * len(parts)
    done = [False] * len(parts)
    try:
        client = Client(address, timeout=connect_timeout)
    except OSError as error:
        raise GridGamesError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    except (TypeError, ValueError) as error:
        raise GridGamesError(f"not a Dask scheduler address, like tcp://HOST:8786: {address!r} ({error})") from None
    with client:
        threads = sum(client.nthreads().values())
        shared_args = () if shared is UNSHARED else (client.scatter(shared, broadcast=True, hash=False),)
        groups = batches(len(parts), max(DASK_MIN_TASKS, DASK_TASKS_PER_THREAD * threads))
        futures = [client.submit(_run_batch, fn, g, [parts[i] for i in g], *shared_args, pure=False) for g in groups]
        group_of = {future.key: g for future, g in zip(futures, groups)}
        try:
            for future, value in as_completed(futures, with_results=True, raise_errors=False):
                group = group_of[future.key]
                if future.status == "error":
                    error = future.exception()
                    client.cancel(futures)
                    if isinstance(error, _PartFailure):
                        i, text = error.args
                        raise PartError(f"part {i} ({describe(parts[i])}) failed: {text}")
                    raise _batch_failed(group, parts, describe, error)
                for i, result in zip(group, value):
                    results[i] = result
                    done[i] = True
                    if on_result is not None:
                        on_result(i, result)
        except KeyboardInterrupt:
            client.cancel(futures)
            return PartsResult(results, done, partial=True)
    return PartsResult(results, done)
