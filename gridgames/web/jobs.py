"""Work that takes time (counts, solver moves, scores) runs here, outside the event loop, bounded and cancellable.

A `JobPool` runs jobs on a fixed number of worker threads. A job is a function of a
`Budget`: the budget says when to stop (``keep_going`` is False once the time or node
budget is spent, the job was cancelled, or nobody polled it for ``abandon_seconds`` --
the page went away) and carries the job's progress for the page to poll. The search
kernels stop at their next progress call (a fraction of a second), so a cancelled job
frees its worker at once. At most ``max_jobs`` jobs wait or run at any time; more is
refused (HTTP 503) rather than queued without end.
"""

from __future__ import annotations

import itertools
import math
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import attrs

from gridgames.errors import GridGamesError
from gridgames.game import Cancelled

__all__ = ["Budget", "Job", "JobCancelled", "JobPool", "ServerBusyError"]


MAX_KEPT_JOBS = 1000
"""Finished jobs kept for their pages to read (the oldest are forgotten first)."""


class JobCancelled(Cancelled):
    """Raised inside a job to stop it: a `gridgames.game.Cancelled` (a KeyboardInterrupt, so searches return what they
    found so far)."""


class ServerBusyError(GridGamesError):
    """Too many jobs are waiting or running."""


@attrs.define
class Budget:
    """What a job may spend (seconds, nodes), whether to go on, and its progress."""

    seconds: float
    nodes: int | None = None
    started: float = attrs.field(factory=time.monotonic)
    cancelled: threading.Event = attrs.field(factory=threading.Event)
    fraction: float | None = None
    found: int | None = None
    text: str = ""
    stopped: str | None = None
    partial: Any = None
    """What the job has found so far, JSON-ready, for the page to show before the end (e.g. the columns solved)."""

    def keep_going(self, nodes: int = 0) -> bool:
        """False once the job was cancelled, its time is spent or ``nodes`` exceeds its node budget (says why in
        ``stopped``)."""
        if self.cancelled.is_set():
            self.stopped = self.stopped or "cancelled"
        elif time.monotonic() - self.started > self.seconds:
            self.stopped = "time"
        elif self.nodes is not None and nodes > self.nodes:
            self.stopped = "nodes"
        return self.stopped is None

    def check(self, nodes: int = 0) -> None:
        """Raise `JobCancelled` unless `keep_going`."""
        if not self.keep_going(nodes):
            raise JobCancelled(self.stopped)

    def report(self, fraction: float | None = None, found: int | None = None, text: str = "") -> None:
        """Record the progress the page shows: the share done (None or NaN: unknown), things found, a line of text."""
        self.fraction = None if fraction is None or math.isnan(fraction) else max(0.0, min(1.0, float(fraction)))
        self.found = found
        self.text = text


@attrs.define(eq=False)
class Job:
    """A unit of work of one session: its state (queued, running, done, failed, cancelled), progress and result."""

    id: str
    session: str
    kind: str
    budget: Budget
    status: str = "queued"
    result: Any = None
    error: str | None = None
    last_seen: float = attrs.field(factory=time.monotonic)
    finished: float | None = None
    on_done: Callable[[Job], None] | None = None

    @property
    def active(self) -> bool:
        """True while the job waits or runs."""
        return self.status in ("queued", "running")

    def view(self) -> dict[str, Any]:
        """The job as the page polls it."""
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "progress": {"fraction": self.budget.fraction, "found": self.budget.found, "text": self.budget.text},
            "seconds": round(time.monotonic() - self.budget.started, 3),
        }
        # a cancelled count keeps what it found
        if self.status in ("done", "cancelled") and self.result is not None:
            data["result"] = self.result
        if self.error is not None:
            data["error"] = self.error
        if self.budget.stopped is not None:
            data["stopped"] = self.budget.stopped
        if self.active and self.budget.partial is not None:
            data["partial"] = self.budget.partial
        return data


class JobPool:
    """A bounded pool of worker threads running jobs; jobs nobody polls are cancelled."""

    def __init__(
        self, workers: int = 2, max_jobs: int = 16, abandon_seconds: float = 15.0, keep_seconds: float = 120.0
    ) -> None:
        self.workers = workers
        self.max_jobs = max_jobs
        self.abandon_seconds = abandon_seconds
        self.keep_seconds = keep_seconds
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gridgames-job")
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._serial = itertools.count(1)
        self.running = 0
        self.completed = 0

    def submit(
        self,
        session: str,
        kind: str,
        work: Callable[[Budget], Any],
        budget: Budget,
        on_done: Callable[[Job], None] | None = None,
    ) -> Job:
        """Start ``work(budget)`` for a session; `ServerBusyError` when ``max_jobs`` are already waiting or running."""
        self.sweep()
        with self._lock:
            if sum(job.active for job in self._jobs.values()) >= self.max_jobs:
                raise ServerBusyError(
                    f"the server is busy ({self.max_jobs} jobs waiting or running); try again shortly"
                )
            job = Job(f"j{next(self._serial)}-{secrets.token_hex(6)}", session, kind, budget, on_done=on_done)
            self._jobs[job.id] = job
        self._executor.submit(self._run, job, work)
        return job

    def _run(self, job: Job, work: Callable[[Budget], Any]) -> None:
        if not job.budget.keep_going():
            job.status = "cancelled"
        else:
            job.status = "running"
            with self._lock:
                self.running += 1
            try:
                job.result = work(job.budget)
                if job.budget.stopped != "cancelled" and job.on_done is not None:
                    # before the status says done: a poll that sees done sees its effect
                    job.on_done(job)
                job.status = "cancelled" if job.budget.stopped == "cancelled" else "done"
            except JobCancelled:
                job.status = "cancelled"
            except GridGamesError as error:
                job.status, job.error = "failed", " ".join(str(error).split())
            except Exception as error:  # a plugin's bug: one line for the page, the server stays up
                job.status, job.error = "failed", f"internal error in the game: {type(error).__name__}"
            finally:
                with self._lock:
                    self.running -= 1
                    self.completed += 1
        job.finished = time.monotonic()
        job.on_done = None

    def get(self, job_id: str, session: str) -> Job | None:
        """A job of this session (None for another session's or an unknown id); marks it as polled."""
        job = self._jobs.get(job_id)
        if job is None or job.session != session:
            return None
        job.last_seen = time.monotonic()
        return job

    def cancel(self, job_id: str, session: str) -> Job | None:
        """Ask a job of this session to stop (it stops at its next progress call)."""
        job = self.get(job_id, session)
        if job is not None:
            job.budget.cancelled.set()
        return job

    def cancel_session(self, session: str) -> None:
        """Stop every job of a session (it expired or was closed)."""
        for job in list(self._jobs.values()):
            if job.session == session:
                job.budget.cancelled.set()

    def active_for(self, session: str) -> Job | None:
        """The session's job still waiting or running, if any."""
        return next((j for j in self._jobs.values() if j.session == session and j.active), None)

    def sweep(self) -> None:
        """Cancel jobs nobody polled for ``abandon_seconds``; forget finished jobs after ``keep_seconds``."""
        now = time.monotonic()
        with self._lock:
            for job_id, job in list(self._jobs.items()):
                if job.active and now - job.last_seen > self.abandon_seconds:
                    job.budget.cancelled.set()
                elif not job.active and job.finished is not None and now - job.finished > self.keep_seconds:
                    del self._jobs[job_id]
            # oldest first
            finished = [job_id for job_id, job in self._jobs.items() if not job.active]
            for job_id in finished[: max(0, len(self._jobs) - MAX_KEPT_JOBS)]:
                del self._jobs[job_id]

    def stats(self) -> dict[str, int]:
        """Jobs known, active and running, and completed so far."""
        with self._lock:
            return {
                "jobs": len(self._jobs),
                "active": sum(j.active for j in self._jobs.values()),
                "running": self.running,
                "completed": self.completed,
                "workers": self.workers,
            }

    def shutdown(self) -> None:
        """Cancel every job and stop the workers."""
        for job in list(self._jobs.values()):
            job.budget.cancelled.set()
        self._executor.shutdown(wait=True, cancel_futures=True)
