"""Count tilings on every core or on a Dask cluster: split the search, count the parts, add up.

    result = count_parallel(problem, jobs=2)                           # local processes
    result = count_parallel(problem, unique=True, scheduler="tcp://host:8786")
    result.count, result.parts, result.parts_done, result.partial

The search is split (`gridgames.search.tiling.split`) into the nodes a few placements
deep -- the placements covering the first blank cells -- giving many more parts than
workers; each part is counted by the same kernel (`count_part`) and the counts are
added. The compiled problem is sent once per worker (`run_parts(shared=...)`), each part
is a few option indices. Progress is the sum of the finished parts' Knuth weights, so
a bar can show an ETA. The count is the same whatever the split and the workers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from attrs import frozen

from gridgames.game import CountResult
from gridgames.search import tiling
from gridgames.search.parallel import PartsResult, resolve_jobs, run_parts
from gridgames.search.tiling import Part, TilingProblem, Unique

__all__ = ["ParallelCount", "SearchOptions", "count_one", "count_parallel", "default_parts", "describe_part"]

PARTS_PER_WORKER = 32
"""The split aims at this many parts per worker at least (parts vary a lot in size)."""

WARM_UP = "gridgames.search.tiling.warm_up"
"""The module a fork server imports before forking workers: it loads the compiled kernels."""

MIN_PARTS = 128
"""The split aims at this many parts at least (a Dask cluster's size is not known in advance)."""


@frozen
class SearchOptions:
    """The search options every part must share: branching rule, pruning, symmetry reduction."""

    mrv: bool = False
    prune: bool = True
    unique: Unique = False
    # all solutions by orbits ("auto"/"orbits") or by the plain search ("search")
    method: str = "auto"


@frozen
class PartCount:
    """What a worker returns for one part: its count, nodes and seconds in the kernel."""

    count: int
    nodes: int
    seconds: float


@frozen
class ParallelCount:
    """The merged count: the total, how many parts there were and finished, and how it ran."""

    count: int
    partial: bool
    unique: bool
    seconds: float
    nodes: int
    method: str
    parts: int
    parts_done: int
    reruns: int = 0
    workers: int = 1
    scheduler: str | None = None
    note: str = ""
    """Why a partial count stopped: 'interrupted', 'terminated (SIGTERM)', a lost Dask worker, a stuck part."""

    @property
    def runner(self) -> str:
        """Where the parts ran: 'this process', '2 processes' or 'Dask scheduler tcp://...'."""
        if self.scheduler:
            return f"Dask scheduler {self.scheduler}"
        return "this process" if self.workers == 1 else f"{self.workers} processes"

    def as_count_result(self) -> CountResult:
        """The plain `CountResult` (without the parts)."""
        return CountResult(self.count, self.partial, self.unique, self.seconds, self.nodes, self.method)


def count_one(shared: tuple[TilingProblem, SearchOptions], part: Part) -> PartCount:
    """Count the solutions under one part (run in a worker; ``shared`` is the problem and the options)."""
    problem, options = shared
    result = tiling.count_part(
        problem, part, mrv=options.mrv, prune=options.prune, unique=options.unique, method=options.method
    )
    # Ctrl-C inside the part (when run in this process): its count must not be added
    if result.partial:
        raise KeyboardInterrupt
    return PartCount(result.count, result.nodes, result.seconds)


def default_parts(workers: int) -> int:
    """How many parts to aim at for this many workers."""
    return max(MIN_PARTS, PARTS_PER_WORKER * workers)


def describe_part(problem: TilingProblem, part: Part, unique: Unique = False, method: str = "auto") -> str:
    """The placements a part of `tiling.split` starts from, e.g. 'L at (0,0) (1,0) (2,0) (3,0) (3,1); ...'."""
    searched = tiling.plan(problem, unique, method).prep.problem
    placed = [searched.placement(o) for o in part.prefix]
    return "; ".join(f"{p.piece} at {' '.join(f'({r},{c})' for r, c in p.cells)}" for p in placed) or "the whole search"


def count_parallel(
    problem: TilingProblem,
    *,
    jobs: int | str | None = 1,
    scheduler: str | None = None,
    mrv: bool = False,
    prune: bool = True,
    unique: Unique = False,
    min_parts: int | None = None,
    depth: int | None = None,
    on_progress: Callable[[float, int], None] | None = None,
    start: str | None = None,
    method: str = "auto",
) -> ParallelCount:
    """Count the solutions by parts in ``jobs`` local processes or on a Dask ``scheduler``; partial after Ctrl-C."""
    began = time.perf_counter()
    workers = 1 if scheduler else resolve_jobs(jobs)
    # the tree `tiling.count` searches
    how = tiling.split_plan(problem, mrv=mrv, prune=prune, unique=unique, method=method)
    options = SearchOptions(mrv, prune, how.unique, how.method)
    parts = tiling.split(
        how.problem,
        min_parts or default_parts(workers),
        depth=depth,
        mrv=mrv,
        prune=prune,
        unique=how.unique,
        method=how.method,
        roots=how.roots,
    )
    finished = [0.0, 0]  # weight done, solutions so far

    def on_result(index: int, result: PartCount) -> None:
        finished[0] += parts[index].weight
        finished[1] += result.count * how.factor
        if on_progress is not None:
            on_progress(finished[0], int(finished[1]))

    outcome: PartsResult[PartCount] = run_parts(
        count_one,
        parts,
        shared=(how.problem, options),
        jobs=workers,
        scheduler=scheduler,
        on_result=on_result,
        describe=lambda part: describe_part(how.problem, part, how.unique, how.method),
        start=start,
        preload=(WARM_UP,),
    )
    done = outcome.finished_results()
    return ParallelCount(
        sum(r.count for r in done) * how.factor,
        outcome.partial,
        unique is not False,
        time.perf_counter() - began,
        sum(r.nodes for r in done),
        how.description,
        len(parts),
        outcome.finished,
        outcome.reruns,
        workers=0 if scheduler else outcome.workers,
        scheduler=scheduler or None,
        note=outcome.note,
    )
