"""Local worker processes that cannot outlive this one, their heartbeats, and the watchdog's bound.

* A worker asks Linux to kill it when its parent dies (``prctl(PR_SET_PDEATHSIG,
  SIGKILL)`` through ctypes), so even a ``kill -9`` of this process leaves no worker
  behind holding its standard output open. Workers stay in the caller's process group:
  a shell's job control (Ctrl-C, ``kill -TERM -PGID``) still reaches them, and they
  ignore SIGINT so that the parent handles Ctrl-C.
* While parts run (and, from the CLI, during every command), SIGTERM and SIGHUP (a terminal
  closed) in this process become `Terminated` (a KeyboardInterrupt):
  the executor kills its workers and returns what finished, marked partial, exactly as
  after Ctrl-C. An ``atexit`` hook kills any worker still alive on every other exit.
* Each batch has a heartbeat slot in shared memory: the worker's pid, the part it runs
  and since when, and its longest part so far; the parent's watchdog reads them.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

PR_SET_PDEATHSIG = 1

WATCHDOG_SECONDS = 60.0
"""A part counts as stuck after max(this, WATCHDOG_FACTOR x the longest part seen) (env GRIDGAMES_WATCHDOG)."""

WATCHDOG_FACTOR = 20.0
"""How many times longer than the longest finished part a part may run before it counts as stuck."""

WATCHDOG_FIRST_FACTOR = 10.0
"""Before any part has finished there is nothing to compare with: the bound is this many times WATCHDOG_SECONDS."""

_live: set[Any] = set()  # multiprocessing.Process objects of the pools now running


HANGUP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals handled like Ctrl-C: a request to end (SIGTERM) and a closed terminal (SIGHUP)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived while parts ran: handled like Ctrl-C (workers stopped, the finished parts kept)."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def why(self) -> str:
        """How a partial result names the stop: 'terminated (SIGTERM)' or 'terminated (SIGHUP)'."""
        try:
            name = signal.Signals(self.signum).name
        except ValueError:
            name = f"signal {self.signum}"
        return f"terminated ({name})"


def watchdog_seconds(given: float | None) -> float:
    """The watchdog's minimum bound: ``given``, else $GRIDGAMES_WATCHDOG, else `WATCHDOG_SECONDS`."""
    if given is None:
        try:
            given = float(os.environ.get("GRIDGAMES_WATCHDOG", WATCHDOG_SECONDS))
        except ValueError:
            given = WATCHDOG_SECONDS
    return given if given > 0 else WATCHDOG_SECONDS


def stall_bound(watchdog: float, longest: float) -> float:
    """Seconds a part may run without finishing: derived from the longest finished part, at least ``watchdog``."""
    if longest <= 0:
        return watchdog * WATCHDOG_FIRST_FACTOR
    return max(watchdog, WATCHDOG_FACTOR * longest)


def die_with_parent(parent: int | None) -> None:
    """In a worker: be killed when the parent process dies (Linux); exit now if it already has."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if parent is not None and os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


class Beats:
    """Heartbeat slots in shared memory, one per batch: pid, running part (-1 none), since when, longest part."""

    def __init__(self, context: Any, slots: int) -> None:
        self.pid = context.RawArray("q", slots)
        self.part = context.RawArray("q", [-1] * slots)
        self.since = context.RawArray("d", slots)
        self.longest = context.RawArray("d", slots)

    def start(self, slot: int, part: int) -> float:
        """Record (in the worker) that ``part`` starts now."""
        now = time.monotonic()
        self.pid[slot] = os.getpid()
        self.since[slot] = now
        self.part[slot] = part
        return now

    def finish(self, slot: int, began: float) -> None:
        """Record (in the worker) that the running part finished."""
        self.longest[slot] = max(self.longest[slot], time.monotonic() - began)
        self.part[slot] = -1

    def longest_part(self) -> float:
        """The longest part finished in any slot."""
        return max(self.longest, default=0.0)

    def stuck(self, slots: Any, bound: float) -> tuple[int, int, float] | None:
        """The first of ``slots`` whose part has run longer than ``bound``: (slot, part, seconds), or None."""
        now = time.monotonic()
        for slot in slots:
            part = self.part[slot]
            if part >= 0 and now - self.since[slot] > bound:
                return slot, part, now - self.since[slot]
        return None

    def running(self, slots: Any) -> list[int]:
        """The parts the given slots were running."""
        return [self.part[slot] for slot in slots if self.part[slot] >= 0]


def kill_processes(processes: list[Any]) -> None:
    """SIGKILL (a stopped worker ignores SIGTERM until continued) and reap local worker processes."""
    for process in processes:
        with contextlib.suppress(Exception):
            if process.is_alive():
                process.kill()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=5)


def track(processes: list[Any]) -> None:
    """Remember a pool's processes so that the exit hook can kill them."""
    _live.update(processes)


def untrack(processes: list[Any]) -> None:
    """Forget processes that have been stopped."""
    _live.difference_update(processes)


@atexit.register
def _kill_live() -> None:
    kill_processes(list(_live))
    _live.clear()


# the signal the handler below turned into Terminated, until the next context clears it
_received: list[int] = []


def raise_if_signalled() -> None:
    """Raise `Terminated` again when the handler's was swallowed: a signal that arrives while a fork runs the
    after-fork callbacks (logging's lock release) is printed as 'Exception ignored' and the run went on."""
    if _received:
        raise Terminated(_received.pop())


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP wait (blocked in this thread; delivered on leaving): around forks, whose
    after-fork callbacks would swallow the handler's exception. Workers unblock them in their initializer."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, HANGUP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise `Terminated` (only the main thread can set handlers; elsewhere nothing
    changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        # in case the exception is swallowed (raised inside an after-fork callback, say)
        _received[:] = [signum]
        raise Terminated(signum)

    _received.clear()
    previous = {signum: signal.signal(signum, handler) for signum in HANGUP_SIGNALS}
    try:
        yield
    finally:
        for signum, before in previous.items():
            signal.signal(signum, before if before is not None else signal.SIG_DFL)
