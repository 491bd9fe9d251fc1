"""`run_parts` on a Dask cluster: batches as tasks, lost workers rerun or reported, never a traceback.

The scheduler's address is probed with a plain TCP connection first (a refused or
unreachable scheduler fails in at most `PROBE_SECONDS`, not after the client's retries),
and on tcp:// its first message is read: a Dask scheduler greets every connection at
once with a small handshake, so a port that accepts and says nothing for
`ANSWER_SECONDS`, or answers with something else (whose length prefix could ask for
exabytes), is refused in one line before Dask's client meets it. Only tcp:// and tls://
addresses are taken (Dask's other transports cannot reach another machine, or need
extras): any other scheme is refused in our words, not Dask's.
Batches whose worker was lost (cancelled: a scattered shared object lost with the last
worker that held it; `KilledWorker`: a batch that kept killing workers) are submitted
again, with the shared object scattered again, while workers remain and up to
``max_reruns`` times; otherwise, and when no worker is left for `NO_WORKER_GRACE`
seconds, or when the scheduler itself is lost, the run returns what finished, marked
partial, with a note saying why.

A worker that stops answering (SIGSTOPped, frozen: its heartbeats to the scheduler stop for `silence_seconds`)
is left out for the rest of the run: the batches it was running are cancelled and submitted again to the
other workers (at most ``max_reruns`` times each), as the local executor's watchdog does for its processes;
the scheduler itself only drops such a worker after minutes.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import attrs

from gridgames.errors import GridGamesError, PartError
from gridgames.search._parallel_parts import (
    DASK_MIN_TASKS,
    DASK_MISSING,
    DASK_TASKS_PER_THREAD,
    UNSHARED,
    PartsResult,
    _batch_failed,
    _PartFailure,
    _run_batch,
    batches,
    require_dask,
)
from gridgames.search._workers import Terminated, sigterm_as_interrupt, watchdog_seconds

R = TypeVar("R")

PROBE_SECONDS = 1.5
"""How long the TCP probe of the scheduler's address may take."""

NO_WORKER_GRACE = 3.0
"""Seconds a run waits for a worker to (re)join once the cluster has none, before returning a partial result."""

ANSWER_SECONDS = 5.0
"""How long a scheduler may take to send its greeting once connected (it sends it at once)."""

MAX_GREETING_BYTES = 1 << 16
"""A Dask greeting is under a hundred bytes: a length prefix beyond this is not Dask speaking."""

SCHEMES = ("tcp", "tls")
"""The scheduler address schemes taken."""

TICK = 0.5
"""Seconds between looks at the cluster (is any worker left?) while results are awaited."""

SILENCE_SECONDS = 15.0
"""A worker whose last heartbeat to the scheduler is older than this (or than the watchdog, when shorter) is
stalled: its batches are run elsewhere. Dask's workers beat about every second, even while they compute."""


def silence_seconds(watchdog: float | None) -> float:
    """How long a worker may stay silent: `SILENCE_SECONDS`, or the watchdog when given shorter."""
    return min(SILENCE_SECONDS, watchdog_seconds(watchdog))


def probe(address: str, timeout: float = PROBE_SECONDS, answer: float = ANSWER_SECONDS) -> None:
    """Fail fast (`GridGamesError`, one line) when a scheduler address refuses, says nothing, or is not Dask's."""
    try:
        parsed = urlsplit(address if "://" in address else f"tcp://{address}")
    except ValueError as error:  # 'tcp://[::1': an unclosed IPv6 bracket
        raise GridGamesError(
            f"not a Dask scheduler address, like tcp://HOST:8786: {_shown(address)} ({error})"
        ) from None
    if parsed.scheme not in SCHEMES:
        raise GridGamesError(
            f"a Dask scheduler address is tcp://HOST:PORT (or tls://), not {parsed.scheme}://: {_shown(address)}"
        )
    try:
        host, port = parsed.hostname, parsed.port or 8786
    except ValueError as error:
        raise GridGamesError(
            f"not a Dask scheduler address, like tcp://HOST:8786: {_shown(address)} ({error})"
        ) from None
    if not host:
        raise GridGamesError(f"not a Dask scheduler address, like tcp://HOST:8786: {address!r}")
    try:
        connection = socket.create_connection((host, port), timeout=timeout)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise GridGamesError(f"cannot reach the Dask scheduler at {_shown(address)}: {reason}") from None
    with connection:
        if parsed.scheme == "tcp":
            _check_greeting(connection, address, answer)


def _shown(address: str) -> str:
    """The address as a message shows it: cut to 80 characters, quoted only when it holds unprintable ones."""
    cut = address if len(address) <= 80 else address[:77] + "..."
    return cut if cut.isprintable() else repr(cut)


def _check_greeting(connection: socket.socket, address: str, answer: float) -> None:
    """Read a tcp:// scheduler's first message: one line unless it is a Dask greeting, sent within ``answer``
    seconds."""
    deadline = time.monotonic() + answer
    data = b""
    wanted = 8  # the frames' total length, little-endian, then the frames
    while len(data) < wanted:
        left = deadline - time.monotonic()
        if left <= 0:
            raise GridGamesError(
                f"the Dask scheduler at {_shown(address)} accepted the connection but did not answer "
                f"in {answer:g} s: is it a Dask scheduler?"
            )
        connection.settimeout(left)
        try:
            chunk = connection.recv(4096)
        except TimeoutError:
            continue
        except OSError as error:
            raise GridGamesError(
                f"cannot reach the Dask scheduler at {_shown(address)}: {error.strerror or error}"
            ) from None
        if not chunk:
            raise GridGamesError(
                f"the Dask scheduler at {_shown(address)} closed the connection without a word: is it a Dask scheduler?"
            )
        data += chunk
        if wanted == 8 and len(data) >= 8:
            total = int.from_bytes(data[:8], "little")
            if total > MAX_GREETING_BYTES:
                break
            wanted = 8 + total
    if not (8 <= len(data) and int.from_bytes(data[:8], "little") <= MAX_GREETING_BYTES and b"pickle-protocol" in data):
        raise GridGamesError(
            f"the server at {_shown(address)} does not speak Dask's protocol (its first answer is not a Dask greeting)"
        )


def run_dask(
    fn: Callable[..., R],
    parts: Sequence[Any],
    shared: Any,
    address: str,
    on_result: Callable[[int, R], None] | None,
    describe: Callable[[Any], str],
    connect_timeout: float,
    max_reruns: int = 3,
    watchdog: float | None = None,
) -> PartsResult[R]:
    """Run the parts on the Dask scheduler at ``address`` (see the module's docstring)."""
    require_dask()
    # before importing distributed, which takes seconds
    probe(address, min(PROBE_SECONDS, connect_timeout))
    try:
        from distributed import Client
    except ImportError:
        raise GridGamesError(DASK_MISSING) from None
    results: list[R | None] = [None] * len(parts)
    done = [False] * len(parts)
    try:
        client = Client(address, timeout=connect_timeout)
    except OSError as error:
        raise GridGamesError(f"cannot reach the Dask scheduler at {_shown(address)}: {type(error).__name__}") from None
    except (TypeError, ValueError):
        raise GridGamesError(f"not a Dask scheduler address, like tcp://HOST:8786: {_shown(address)}") from None
    reruns = 0
    note = ""
    watch = _Watch(silence_seconds(watchdog), max_reruns)
    with client:
        try:
            with sigterm_as_interrupt():
                for attempt in range(max_reruns + 1):
                    todo = [i for i in range(len(parts)) if not done[i]]
                    if not todo:
                        break
                    if attempt:
                        reruns += len(todo)
                    try:
                        note = _one_round(client, fn, parts, todo, shared, results, done, on_result, describe, watch)
                    # a connection closed: the scheduler's, or only a lost worker's
                    except OSError as error:
                        if client.status != "running":
                            raise
                        # the next round reruns
                        note = f"a Dask connection was lost ({type(error).__name__})"
                    reruns += watch.take_reruns()
                    if not note or note.startswith(("no Dask worker", "the Dask workers stopped")) or watch.gave_up:
                        break
        # closing the client releases its futures: the cluster drops them
        except KeyboardInterrupt as interrupt:
            note = interrupt.why if isinstance(interrupt, Terminated) else "interrupted"
        # the scheduler itself is gone (killed, or the network to it): keep what finished
        except OSError as error:
            note = f"the Dask scheduler was lost ({type(error).__name__})"
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
    watch: _Watch | None = None,
) -> str:
    """Submit the parts in ``todo`` and gather them; '' when all finished, else why some did not."""
    watch = watch if watch is not None else _Watch(SILENCE_SECONDS, 3)
    if not _wait_for_workers(client):
        _raise_if_scheduler_gone(client)
        return f"no Dask worker left (waited {NO_WORKER_GRACE:g} s)"
    healthy = watch.healthy(client)
    if not healthy:
        return watch.stopped_note()
    threads = sum(n for worker, n in client.nthreads().items() if worker in healthy)
    shared_args = () if shared is UNSHARED else (client.scatter(shared, workers=healthy, broadcast=True, hash=False),)
    groups = [[todo[k] for k in g] for g in batches(len(todo), max(DASK_MIN_TASKS, DASK_TASKS_PER_THREAD * threads))]

    def submit(group: list[int], workers: list[str]) -> Any:
        return client.submit(
            _run_batch,
            fn,
            group,
            [parts[i] for i in group],
            *shared_args,
            pure=False,
            workers=workers,
            allow_other_workers=False,
        )

    futures = {submit(g, healthy): g for g in groups}
    remaining = set(futures)
    lost = ""
    no_worker_since: float | None = None
    while remaining:
        finished = _finished(remaining)
        remaining -= finished
        for future in finished:
            group = futures[future]
            try:
                # its worker may have stopped since it finished
                values = future.result(timeout=watch.silence)
            except TimeoutError:
                lost = "a Dask worker stopped answering"
                continue
            except _PartFailure as failure:
                client.cancel(list(remaining))
                i, text = failure.args
                raise PartError(f"part {i} ({describe(parts[i])}) failed: {text}") from None
            # sorted below: a lost worker, or a batch that failed outside fn
            except Exception as error:
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
            stuck = watch.stuck(client, remaining)
            if stuck:
                client.cancel(list(stuck))
                remaining -= stuck
                healthy = watch.healthy(client)
                given_up = watch.count_stalls([futures[f] for f in stuck], parts, describe)
                if given_up or not healthy:
                    client.cancel(list(remaining))
                    return given_up or watch.stopped_note()
                for future in stuck:
                    again = submit(futures[future], healthy)
                    futures[again] = futures[future]
                    remaining.add(again)
                continue
            if client.nthreads():
                no_worker_since = None
            elif no_worker_since is None:
                no_worker_since = time.monotonic()
            elif time.monotonic() - no_worker_since > NO_WORKER_GRACE:
                # no worker because no scheduler: say which was lost
                _raise_if_scheduler_gone(client)
                client.cancel(list(remaining))
                return f"no Dask worker left (waited {NO_WORKER_GRACE:g} s)"
    return lost


@attrs.define
class _Watch:
    """The workers left out for stopping to answer, and how often each part's batch was taken from one."""

    silence: float
    max_reruns: int
    excluded: set[str] = attrs.field(factory=set)
    stalls: dict[int, int] = attrs.field(factory=dict)
    reruns: int = 0
    gave_up: bool = False

    def healthy(self, client: Any) -> list[str]:
        """The workers answering now (the silent ones are excluded for good)."""
        now = time.time()
        workers = client.scheduler_info(n_workers=-1)["workers"]
        for address, info in workers.items():
            if now - float(info.get("last_seen", now)) > self.silence:
                self.excluded.add(address)
        return [address for address in workers if address not in self.excluded]

    def stuck(self, client: Any, remaining: set[Any]) -> set[Any]:
        """The remaining futures held by a silent worker."""
        self.healthy(client)
        if not self.excluded:
            return set()
        held = {key for keys in client.processing(workers=sorted(self.excluded)).values() for key in keys}
        return {future for future in remaining if future.key in held}

    def count_stalls(self, groups: list[list[int]], parts: Sequence[Any], describe: Callable[[Any], str]) -> str:
        """Count a stall for each part of these batches; why the run gives up, or ''."""
        for group in groups:
            self.reruns += len(group)
            for i in group:
                self.stalls[i] = self.stalls.get(i, 0) + 1
                if self.stalls[i] > self.max_reruns:
                    self.gave_up = True
                    return (
                        f"part {i} ({describe(parts[i])}) was on a Dask worker that stopped answering "
                        f"{self.stalls[i]} times; giving up"
                    )
        return ""

    def stopped_note(self) -> str:
        """Why the run stops when every worker left is silent."""
        stalled = ", ".join(sorted(self.excluded))
        return f"the Dask workers stopped answering (no heartbeat for {self.silence:g} s): {stalled}"

    def take_reruns(self) -> int:
        """The parts submitted again since the last call."""
        taken, self.reruns = self.reruns, 0
        return taken


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


def _raise_if_scheduler_gone(client: Any) -> None:
    """Raise `ConnectionError` when the client has lost its scheduler (it then sees no worker either).

    A killed scheduler and a cluster without workers look alike from the worker count; on a busy machine the grace
    for workers can end before the client notices, so its status decides, then a look at the scheduler's port.
    """
    if client.status != "running":
        raise ConnectionError(f"the client's connection to the scheduler is {client.status}")
    address = getattr(client.scheduler, "address", None)
    if isinstance(address, str) and address.startswith("tcp://"):
        try:
            probe(address, timeout=PROBE_SECONDS)
        except GridGamesError as error:  # refused: the scheduler's process is gone
            raise ConnectionError(str(error)) from None


def _wait_for_workers(client: Any) -> bool:
    """True once the cluster has a worker (waiting up to `NO_WORKER_GRACE` seconds)."""
    if client.nthreads():
        return True
    try:
        client.wait_for_workers(1, timeout=NO_WORKER_GRACE)
    except (TimeoutError, OSError):
        return False
    return bool(client.nthreads())
