"""`run_parts` on a Dask cluster: batches as tasks, lost workers rerun or reported, never a traceback.

The scheduler's address is probed with a plain TCP connection first (a refused or
unreachable scheduler fails in at most `PROBE_SECONDS`, not after the client's retries).
Batches whose worker was lost (cancelled: a scattered shared object lost with the last
worker that held it; `KilledWorker`: a batch that kept killing workers) are submitted
again, with the shared object scattered again, while workers remain and up to
``max_reruns`` times; otherwise, and when no worker is left for `NO_WORKER_GRACE`
seconds, the run returns what finished, marked partial, with a note saying why.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

from gridgames.errors import GridGamesError, PartError
from gridgames.search._workers import Terminated, sigterm_as_interrupt
from gridgames.search._parts import (
    DASK_MIN_TASKS, DASK_MISSING, DASK_TASKS_PER_THREAD, UNSHARED, PartsResult, _batch_failed, _PartFailure, _run_batch,
    batches, require_dask
)

R = TypeVar("R")

PROBE_SECONDS = 1.5
"""How long the TCP probe of the scheduler's address may take."""

NO_WORKER_GRACE = 3.0
"""Seconds a run waits for a worker to (re)join once the cluster has none, before returning a partial result."""

TICK = 0.5
"""Seconds between looks at the cluster (is any worker left?) while results are awaited."""


def probe(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Fail fast (`GridGamesError`, one line) when a tcp:// scheduler address refuses or does not answer."""
    parsed = urlsplit(address if "://" in address else f"tcp://{address}")
    if parsed.scheme not in ("tcp", "tls"):
        return  # inproc://, ucx://: nothing to probe this way
    try:
        host, port = parsed.hostname, parsed.port or 8786
    except ValueError as error:
        raise GridGamesError(f"not a Dask scheduler address, like tcp://HOST:8786: {address!r} ({error})") from None
    if not host:
        raise GridGamesError(f"not a Dask scheduler address, like tcp://HOST:8786: {address!r}")
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise GridGamesError(f"cannot reach the Dask scheduler at {address}: {reason}") from None


def run_dask(
    fn: Callable[..., R],
    parts: Sequence[Any],
    shared: Any,
    address: str,
    on_result: Callable[[int, R], None] | None,
    describe: Callable[[Any], str],
    connect_timeout: float,
    max_reruns: int = 3,
) -> PartsResult[R]:
    """Run the parts on the Dask scheduler at ``address`` (see the module's docstring)."""
    require_dask()
    probe(address, min(PROBE_SECONDS, connect_timeout))  # before importing distributed, which takes seconds
    try:
        from distributed import Client
    except ImportError:
        raise GridGamesError(DASK_MISSING) from None
    results: list[R | None] = [None] * len(parts)
    done = [False] * len(parts)
    try:
        client = Client(address, timeout=connect_timeout)
    except OSError as error:
        raise GridGamesError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    except (TypeError, ValueError) as error:
        raise GridGamesError(f"not a Dask scheduler address, like tcp://HOST:8786: {address!r} ({error})") from None
    reruns = 0
    note = ""
    with client:
        try:
            with sigterm_as_interrupt():
                for attempt in range(max_reruns + 1):
                    todo = [i for i in range(len(parts)) if not done[i]]
                    if not todo:
                        break
                    if attempt:
                        reruns += len(todo)
                    note = _one_round(client, fn, parts, todo, shared, results, done, on_result, describe)
                    if not note or note.startswith("no Dask worker"):
                        break
        except KeyboardInterrupt as interrupt:  # closing the client releases its futures: the cluster drops them
            note = "terminated (SIGTERM)" if isinstance(interrupt, Terminated) else "interrupted"
    partial = not all(done)
    if partial and not note:
        note = "the Dask workers were lost"
    return PartsResult(results, done, partial=partial, reruns=reruns, note=note if partial else "")


def _one_round(
    client: Any,
    fn: Callable[..., R],
    parts: Sequence[Any],
    todo: list[int],
    shared: Any,
    results: list[R | None],
    done: list[bool],
    on_result: Callable[[int, R], None] | None,
    describe: Callable[[Any], str],
) -> str:
    """Submit the parts in ``todo`` and gather them; '' when all finished, else why some did not."""
    if not _wait_for_workers(client):
        return f"no Dask worker left (waited {NO_WORKER_GRACE:g} s)"
    threads = sum(client.nthreads().values())
    shared_args = () if shared is UNSHARED else (client.scatter(shared, broadcast=True, hash=False),)
    groups = [[todo[k] for k in g] for g in batches(len(todo), max(DASK_MIN_TASKS, DASK_TASKS_PER_THREAD * threads))]
    futures = {client.submit(_run_batch, fn, g, [parts[i] for i in g], *shared_args, pure=False): g for g in groups}
    remaining = set(futures)
    lost = ""
    no_worker_since: float | None = None
    while remaining:
        finished = _finished(remaining)
        remaining -= finished
        for future in finished:
            group = futures[future]
            try:
                values = future.result()
            except _PartFailure as failure:
                client.cancel(list(remaining))
                i, text = failure.args
                raise PartError(f"part {i} ({describe(parts[i])}) failed: {text}") from None
            except Exception as error:  # sorted below: a lost worker, or a batch that failed outside fn
                if not _lost(future, error):
                    client.cancel(list(remaining))
                    raise _batch_failed(group, parts, describe, error) from None
                lost = f"a Dask worker was lost ({type(error).__name__})"
                continue
            for i, result in zip(group, values):
                results[i] = result
                done[i] = True
                if on_result is not None:
                    on_result(i, result)
        if remaining and not finished:
            if client.nthreads():
                no_worker_since = None
            elif no_worker_since is None:
                no_worker_since = time.monotonic()
            elif time.monotonic() - no_worker_since > NO_WORKER_GRACE:
                client.cancel(list(remaining))
                return f"no Dask worker left (waited {NO_WORKER_GRACE:g} s)"
    return lost


LOST_ERRORS = ("KilledWorker", "CommClosedError", "FutureCancelledError", "CancelledError", "FutureLostError")


def _lost(future: Any, error: BaseException) -> bool:
    """True when a batch failed because its worker (or the data it held) was lost, not because of the batch."""
    return future.status == "cancelled" or any(cls.__name__ in LOST_ERRORS for cls in type(error).__mro__)


def _finished(futures: set[Any]) -> set[Any]:
    """The futures done (finished, erred or cancelled), waiting up to `TICK` seconds for one.

    Polled rather than ``distributed.wait``, which raises on a cancelled future instead of returning it.
    """
    deadline = time.monotonic() + TICK
    while True:
        done = {future for future in futures if future.done()}
        if done or time.monotonic() > deadline:
            return done
        time.sleep(0.02)


def _wait_for_workers(client: Any) -> bool:
    """True once the cluster has a worker (waiting up to `NO_WORKER_GRACE` seconds)."""
    if client.nthreads():
        return True
    try:
        client.wait_for_workers(1, timeout=NO_WORKER_GRACE)
    except (TimeoutError, OSError):
        return False
    return bool(client.nthreads())
