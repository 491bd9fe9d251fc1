"""What `gridgames.search.parallel` and its Dask side (`gridgames.search._parallel_dask`) share: the result of a
run, batches of parts, a part's failure, and the Dask settings (`gridgames.search.parallel` exports them).

`parallel` imports the Dask side when ``--scheduler`` is given; the Dask side needs only this module, so it does
not import `parallel` back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import attrs

from gridgames.errors import GridGamesError, PartError

R = TypeVar("R")

DASK_MISSING = 'the --scheduler option needs Dask\'s distributed scheduler: pip install "gridgames[dask]"'

DASK_TASKS_PER_THREAD = 8
"""On Dask, parts go in batches, about this many tasks per worker thread: each task costs milliseconds to schedule
(measured: 64 tasks instead of 16 add about 0.2 s to a 2.5 s count on a two-worker LocalCluster)."""

DASK_MIN_TASKS = 16
"""At least this many Dask tasks (when there are that many parts): workers joining later get work, the bar moves."""

UNSHARED: Any = object()
"""The default of ``run_parts(shared=...)``: ``fn`` takes the part alone."""


@attrs.define
class PartsResult(Generic[R]):
    """The results of the parts that finished (None for the others) and whether any is missing."""

    results: list[R | None]
    done: list[bool]
    partial: bool = False
    reruns: int = 0
    workers: int = 1
    note: str = ""

    @property
    def finished(self) -> int:
        """How many parts finished."""
        return sum(self.done)

    def finished_results(self) -> list[R]:
        """The results of the parts that finished, in part order."""
        return [r for r, d in zip(self.results, self.done) if d]  # type: ignore[misc]  # done: its result is set


def require_dask() -> None:
    """Raise the one-line install hint unless Dask's distributed scheduler can be imported."""
    import importlib.util

    try:
        # not imported yet: it takes seconds
        found = importlib.util.find_spec("distributed") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise GridGamesError(DASK_MISSING)


def _batch_failed(
    group: list[int], parts: Sequence[Any], describe: Callable[[Any], str], error: BaseException | None
) -> PartError:
    """A batch failed outside ``fn`` (a worker lost, a result that does not pickle): name its first part."""
    first = f"part {group[0]} ({describe(parts[group[0]])})" + (f" and {len(group) - 1} more" if len(group) > 1 else "")
    return PartError(f"{first} failed: {type(error).__name__}: {error}")


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
