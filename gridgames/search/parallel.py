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
dies has its part run again; Ctrl-C, or SIGTERM, cancels the outstanding parts and
returns what finished, marked partial, so nothing is lost or counted twice.

Local workers cannot outlive this process (see `gridgames.search._workers`: a
parent-death signal, SIGKILL on every exit path). A watchdog reads each batch's
heartbeat: a part that runs longer than max(``watchdog`` seconds, 20 x the longest
finished part) -- a frozen or stopped worker -- has its worker killed and runs again;
a part that dies or stalls more than ``max_reruns`` times ends the run, partial, with
the reason in `PartsResult.note`. On Dask (`gridgames.search._parallel_dask`) batches
lost with their worker run again while workers remain, else the result is partial.
``--jobs`` is bounded by `MAX_JOBS`, by `JOBS_PER_CORE` per core, and never starts more processes than parts.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import attrs

from gridgames.errors import OptionError, PartError
from gridgames.search._parallel_parts import (
    DASK_MIN_TASKS,
    DASK_MISSING,
    DASK_TASKS_PER_THREAD,
    UNSHARED,
    PartsResult,
    _batch_failed,
    _PartFailure,
    batches,
    require_dask,
)
from gridgames.search._workers import (
    HANGUP_SIGNALS,
    Beats,
    Terminated,
    die_with_parent,
    kill_processes,
    raise_if_signalled,
    signals_held,
    sigterm_as_interrupt,
    stall_bound,
    track,
    untrack,
    watchdog_seconds,
)

__all__ = [
    "DASK_MIN_TASKS",
    "DASK_MISSING",
    "DASK_TASKS_PER_THREAD",
    "LOCAL_TASKS_PER_WORKER",
    "MAX_JOBS",
    "UNSHARED",
    "WATCHDOG_TICK",
    "PartsResult",
    "batches",
    "check_scheduler",
    "require_dask",
    "resolve_jobs",
    "run_parts",
    "start_method",
]

P = TypeVar("P")
R = TypeVar("R")

LOCAL_TASKS_PER_WORKER = 64
"""Local processes get parts in batches too, about this many per worker: fewer results for this process to handle."""

WATCHDOG_TICK = 0.25
"""Seconds between the watchdog's looks at the heartbeats while results are awaited."""

_SHARED_ARGS: tuple[Any, ...] = ()  # a local worker's (shared object,), or () (set by _init_worker)
_BEATS: Beats | None = None  # a local worker's heartbeat slots (set by _init_worker)


MAX_JOBS = 256
"""The most local worker processes ``--jobs`` may ask for (more only costs memory and start-up); the parts clamp it
further."""


def resolve_jobs(jobs: int | str | None) -> int:
    """The number of local worker processes, 1 to `MAX_JOBS`: ``0`` or ``"auto"`` means one per core."""
    if jobs is None:
        return 1
    if isinstance(jobs, bool) or not isinstance(jobs, (int, str)):
        raise OptionError(f"--jobs must be a whole number or 'auto', not {jobs!r}")
    if isinstance(jobs, str):
        text = jobs.strip().lower()
        if text == "auto":
            return os.cpu_count() or 1
        if text.startswith("-") and text[1:].isdecimal() and text.isascii() and len(text) < 8:
            raise OptionError(f"--jobs must be 0 (every core), 'auto' or positive, not {text}")
        if not (text.isdecimal() and text.isascii()):
            raise OptionError(f"--jobs must be a whole number or 'auto', not {jobs!r}")
        if len(text.lstrip("0")) > 6:  # never convert a 5000-digit number
            raise OptionError(f"--jobs must be at most {MAX_JOBS}, not {text[:12]}...")
        jobs = int(text)
    if jobs < 0:
        raise OptionError(f"--jobs must be 0 (every core), 'auto' or positive, not {jobs}")
    if jobs > MAX_JOBS:
        raise OptionError(f"--jobs must be at most {MAX_JOBS}, not {jobs}")
    return min(jobs, JOBS_PER_CORE * _cores()) or (os.cpu_count() or 1)


JOBS_PER_CORE = 4
"""``--jobs`` starts at most this many processes per core this process may use (256 processes on 2 cores took 55 s
where 2 took 1.5 s: each costs a start-up and memory, and they only wait for one another)."""


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def check_scheduler(scheduler: str | None) -> str | None:
    """The scheduler address stripped; `OptionError` for an empty one (which would silently run here)."""
    if scheduler is None:
        return None
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise OptionError(f"--scheduler needs a Dask scheduler's address, like tcp://HOST:8786, not {scheduler!r}")
    return scheduler.strip()


def start_method() -> str:
    """How local workers start: "fork" on Linux while this process runs a single thread, else "forkserver" or
    "spawn"."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _context(method: str, fn: Callable[..., Any], preload: Sequence[str]) -> multiprocessing.context.BaseContext:
    """The multiprocessing context; a fork server (started once per process) first imports ``preload`` and ``fn``'s
    module."""
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        modules = [*preload, *([fn.__module__] if fn.__module__ not in ("__main__", "__mp_main__") else [])]
        context.set_forkserver_preload(modules)  # no effect once the server runs
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
    watchdog: float | None = None,
) -> PartsResult[R]:
    """Run ``fn`` on every part (``fn(shared, part)`` when ``shared`` is given) and collect the results by index;
    partial after Ctrl-C."""
    if scheduler is not None:
        from gridgames.search._parallel_dask import run_dask

        return run_dask(
            fn,
            parts,
            shared,
            check_scheduler(scheduler),  # type: ignore[arg-type]
            on_result,
            describe,
            connect_timeout,
            max_reruns,
            watchdog,
        )
    workers = min(resolve_jobs(jobs), max(1, len(parts)))  # never more processes than parts
    if workers == 1:
        return _run_here(fn, parts, shared, on_result, describe)
    return _run_local(
        fn, parts, shared, workers, on_result, describe, max_reruns, start, preload, watchdog_seconds(watchdog)
    )


def _init_worker(shared: tuple[Any, ...], beats: Beats | None = None, parent: int | None = None) -> None:
    """A local worker's set-up: die with the parent, leave Ctrl-C to it, keep the shared object and the heartbeats."""
    global _SHARED_ARGS, _BEATS
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in HANGUP_SIGNALS:  # a fork inherits the parent's handlers: a worker just dies
        signal.signal(signum, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # and the signals the parent held while it forked
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HANGUP_SIGNALS)
    _SHARED_ARGS = shared
    _BEATS = beats


def _call_batch(fn: Callable[..., R], slot: int, indices: list[int], parts: list[Any]) -> list[R]:
    """Run a batch of parts in a local worker, with the shared object it was given, beating its heartbeat slot."""
    beats = _BEATS
    results = []
    for i, part in zip(indices, parts):
        began = beats.start(slot, i) if beats is not None else 0.0
        try:
            results.append(fn(*_SHARED_ARGS, part))
        except Exception as error:
            raise _PartFailure(i, f"{type(error).__name__}: {error}") from None
        if beats is not None:
            beats.finish(slot, began)
    return results


def _failed(index: int, part: Any, describe: Callable[[Any], str], error: BaseException) -> PartError:
    return PartError(f"part {index} ({describe(part)}) failed: {type(error).__name__}: {error}")


def _run_here(
    fn: Callable[..., R],
    parts: Sequence[P],
    shared: Any,
    on_result: Callable[[int, R], None] | None,
    describe: Callable[[P], str],
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
        return PartsResult(results, done, partial=True, note="interrupted")
    return PartsResult(results, done)


@attrs.define
class _Round:
    """What one pool of local workers left behind: deaths and stalls per part, and why the pool stopped."""

    deaths: list[int]
    stalls: list[int]
    broken: bool = False


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
    watchdog: float,
) -> PartsResult[R]:
    results: list[R | None] = [None] * len(parts)
    done = [False] * len(parts)
    todo = list(range(len(parts)))
    tally = _Round([0] * len(parts), [0] * len(parts))
    reruns = fruitless = 0
    longest = 0.0
    shared_args = () if shared is UNSHARED else (shared,)
    while todo:
        # chosen again for a rerun: the dead pool may have left a thread
        method = start or start_method()
        context = _context(method, fn, preload)
        groups = [[todo[k] for k in g] for g in batches(len(todo), workers * LOCAL_TASKS_PER_WORKER)]
        beats = Beats(context, len(groups))
        # a fork server's children have it as parent
        parent = os.getpid() if method != "forkserver" else None
        pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(shared_args, beats, parent)
        )
        finished_before = sum(done)
        tally.broken = False
        try:
            with sigterm_as_interrupt():
                pending: dict[Any, tuple[int, list[int]]] = {}
                try:
                    # the workers fork here: a SIGTERM or SIGHUP waits until they are out
                    with signals_held():
                        for slot, g in enumerate(groups):
                            pending[pool.submit(_call_batch, fn, slot, g, [parts[i] for i in g])] = (slot, g)
                # a worker died while the batches were still being handed out
                except BrokenProcessPool:
                    tally.broken = True
                track(_processes(pool))
                longest = _collect(
                    pool, pending, beats, parts, describe, results, done, on_result, tally, watchdog, longest
                )
        except KeyboardInterrupt as interrupt:
            _kill(pool)
            why = interrupt.why if isinstance(interrupt, Terminated) else "interrupted"
            return PartsResult(results, done, partial=True, reruns=reruns, workers=workers, note=why)
        except BaseException:
            _kill(pool)
            raise
        if not tally.broken:
            _shutdown(pool)
            break
        _kill(pool)
        todo = [i for i in range(len(parts)) if not done[i]]
        fruitless = 0 if sum(done) > finished_before else fruitless + 1
        reruns += len(todo)
        worst = max(todo, key=lambda i: tally.deaths[i] + tally.stalls[i])
        if tally.stalls[worst] > max_reruns or tally.deaths[worst] > max_reruns or fruitless > max_reruns:
            note = _give_up_note(worst, parts, describe, tally, fruitless)
            return PartsResult(results, done, partial=True, reruns=reruns, workers=workers, note=note)
    return PartsResult(results, done, reruns=reruns, workers=workers)


def _collect(
    pool: ProcessPoolExecutor,
    pending: dict[Any, tuple[int, list[int]]],
    beats: Beats,
    parts: Sequence[Any],
    describe: Callable[[Any], str],
    results: list[Any],
    done: list[bool],
    on_result: Callable[[int, Any], None] | None,
    tally: _Round,
    watchdog: float,
    longest: float,
) -> float:
    """Gather one pool's results as they come; kill the worker of a stuck part; stop at the first broken batch."""
    killed: set[int] = set()
    while pending:
        raise_if_signalled()  # a SIGTERM or SIGHUP swallowed while the pool forked its workers
        finished, _ = wait(pending, timeout=WATCHDOG_TICK, return_when=FIRST_COMPLETED)
        lost_slots = []
        for future in finished:
            slot, group = pending.pop(future)
            try:
                values = future.result()
            except BrokenProcessPool:
                tally.broken = True
                lost_slots.append(slot)
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
        longest = max(longest, beats.longest_part())
        if tally.broken:
            lost_slots += [slot for slot, _ in pending.values()]
            for i in beats.running(lost_slots):  # the parts that were running when the pool broke
                if i not in killed:
                    tally.deaths[i] += 1
            return longest
        stuck = beats.stuck([slot for slot, _ in pending.values()], stall_bound(watchdog, longest))
        if stuck is not None and stuck[1] not in killed:
            slot, part, _seconds = stuck
            killed.add(part)
            tally.stalls[part] += 1
            with contextlib.suppress(OSError):
                # the pool breaks; its unfinished parts run again
                os.kill(beats.pid[slot], signal.SIGKILL)
    return longest


def _give_up_note(
    worst: int, parts: Sequence[Any], describe: Callable[[Any], str], tally: _Round, fruitless: int
) -> str:
    what = f"part {worst} ({describe(parts[worst])})"
    if tally.stalls[worst] >= tally.deaths[worst] and tally.stalls[worst]:
        return f"{what} made no progress {tally.stalls[worst]} times (its worker was killed each time); giving up"
    if tally.deaths[worst]:
        return f"{what} killed its worker {tally.deaths[worst]} times; giving up"
    return f"the worker processes died {fruitless} times in a row before finishing any part; giving up"


def _processes(pool: ProcessPoolExecutor) -> list[Any]:
    """The pool's worker processes (no public API lists them)."""
    return list((getattr(pool, "_processes", None) or {}).values())


def _shutdown(pool: ProcessPoolExecutor) -> None:
    processes = _processes(pool)
    pool.shutdown(wait=True)
    untrack(processes)


def _kill(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: cancel what has not started, kill the workers (SIGKILL: a stopped one ignores SIGTERM)."""
    processes = _processes(pool)  # no public API terminates running workers
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    kill_processes(processes)
    untrack(processes)
    if manager is not None:
        manager.join(timeout=5)  # this process is single-threaded again: a rerun may fork
