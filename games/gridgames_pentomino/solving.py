"""What the square and the lattice tiling puzzles share: solving, counting and parallel counting on the tiling engine.

A puzzle class mixes in `EngineSolving` and provides ``problem()`` (its `gridgames.search.tiling.TilingProblem`)
and ``obstruction()`` (why it has no solution before any search, or None). With ``SPLIT_BY_STABILISERS``, a
unique count or listing that the engine could only do canonically (no piece qualifies for restriction) splits
one piece's placements by their stabilisers instead (`gridgames.search.tiling.stabilisers`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from gridgames.errors import PuzzleError
from gridgames.game import CountResult, Placement, ProgressCallback, Solution


class EngineSolving:
    """Solutions, counts and parallel counts of a puzzle given by ``problem()`` and ``obstruction()``."""

    __slots__ = ()
    SPLIT_BY_STABILISERS = False

    def problem(self) -> Any:  # pragma: no cover - provided by the puzzle class
        """The tiling engine's problem."""
        raise NotImplementedError

    def obstruction(self) -> str | None:  # pragma: no cover - provided by the puzzle class
        """Why the puzzle has no solution before any search, or None."""
        raise NotImplementedError

    def _by_stabilisers(self, problem: Any, unique: bool) -> bool:
        from gridgames.search import tiling

        return (
            self.SPLIT_BY_STABILISERS and unique and tiling.prepare_unique(problem, True).method.startswith("canonical")
        )

    def solutions(
        self,
        *,
        limit: int | None = None,
        unique: bool = False,
        on_progress: ProgressCallback | None = None,
        mrv: bool = False,
        prune: bool = True,
        method: str = "auto",
    ) -> Iterator[Solution]:
        """Tilings, lazily (one per symmetry class of the board when ``unique``), at most ``limit``.

        A Ctrl-C during the search ends the stream with KeyboardInterrupt after the solutions found so far.
        """
        if limit is not None and limit < 0:
            raise PuzzleError(f"limit must be 0 or more, got {limit}")
        if limit == 0 or self.obstruction() is not None:
            return
        from gridgames.search import tiling

        problem = self.problem()
        if self._by_stabilisers(problem, unique):
            from gridgames.search.tiling.stabilisers import solve_split

            split = solve_split(problem, mrv=mrv, prune=prune)
            if split is not None:  # the parts of a stabiliser split, one after another
                for n, solution in enumerate(split, start=1):
                    yield tuple(Placement(p.piece, p.cells) for p in solution)
                    if limit is not None and n >= limit:
                        return
                return
        stream = tiling.solve(
            problem, limit=limit, unique=unique, on_progress=on_progress, mrv=mrv, prune=prune, method=method
        )
        try:
            for solution in stream:
                yield tuple(Placement(p.piece, p.cells) for p in solution)
        finally:
            # set by a Ctrl-C inside the search (read before close() sets it)
            interrupted = stream.partial
            stream.close()
        if interrupted:
            raise KeyboardInterrupt

    def count(
        self,
        *,
        unique: bool = False,
        on_progress: ProgressCallback | None = None,
        mrv: bool = False,
        prune: bool = True,
        method: str = "auto",
    ) -> CountResult:
        """Count every tiling (or one per symmetry class); partial when interrupted by Ctrl-C.

        ``method`` (`gridgames.search.tiling.orbits`): all tilings by the orbits of the distinct ones
        when a piece can be restricted ("auto"), or by the plain search ("search").
        """
        from gridgames.search import tiling

        start = time.perf_counter()
        if self.obstruction() is not None:
            return CountResult(0, False, unique, time.perf_counter() - start)
        problem = self.problem()
        result = None
        if self._by_stabilisers(problem, unique):
            from gridgames.search.tiling.stabilisers import count_split

            result = count_split(problem, mrv=mrv, prune=prune, on_progress=on_progress)
        if result is None:
            result = tiling.count(problem, unique=unique, on_progress=on_progress, mrv=mrv, prune=prune, method=method)
        return CountResult(
            result.count, result.partial, unique, time.perf_counter() - start, result.nodes, result.method
        )

    def count_parallel(
        self,
        *,
        jobs: int | str | None = 1,
        scheduler: str | None = None,
        unique: bool = False,
        on_progress: ProgressCallback | None = None,
        mrv: bool = False,
        prune: bool = True,
        method: str = "auto",
    ) -> Any:
        """Count by independent parts in ``jobs`` local processes or on a Dask ``scheduler`` (a `ParallelCount`)."""
        from gridgames.search.tiling.parallel_count import ParallelCount, count_parallel

        if self.obstruction() is not None:
            return ParallelCount(0, False, unique, 0.0, 0, "obstruction", parts=0, parts_done=0)
        return count_parallel(
            self.problem(),
            jobs=jobs,
            scheduler=scheduler,
            unique=unique,
            on_progress=on_progress,
            mrv=mrv,
            prune=prune,
            method=method,
        )
