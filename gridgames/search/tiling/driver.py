"""The driver: runs a kernel for a node budget at a time (`stepping.Search`), streams solutions (`solve`) and counts
(`count`); `planning` chooses how a count searches, `parts` splits it into parts."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence

import attrs
import numpy as np

from gridgames.errors import SolverError
from gridgames.game import CountResult, Placement, Solution
from gridgames.search.tiling import kernels
from gridgames.search.tiling.orbits import OrbitStream, Plan, Preplaced, plan, preplaced
from gridgames.search.tiling.problem import TilingProblem
from gridgames.search.tiling.unique import Prepared, Unique
from gridgames.search.tiling.planning import PLAIN_FIRST, plan_count
from gridgames.search.tiling.stepping import NodeBudget, Part, Search


Progress = Callable[[float, int], None]


def _plan(problem: TilingProblem, unique: Unique, method: str, start: object) -> Plan:
    """The search plan; a start given as placements or option indices (not a `Part`) is in the plain problem."""
    if start is not None and not isinstance(start, Part) and method == "auto":
        method = "search"
    return plan(problem, unique, method)


def _prefix(prep: Prepared, start: Part | Sequence[int] | Sequence[Placement] | None) -> tuple[int, ...]:
    """Option indices of a starting state given as a Part, option indices, or placements."""
    if start is None:
        return ()
    if isinstance(start, Part):
        return start.prefix
    items: list[int | Placement] = list(start)
    placements = [x for x in items if not isinstance(x, (int, np.integer))]
    if not placements:
        return tuple(int(x) for x in items if isinstance(x, (int, np.integer)))
    if len(placements) != len(items):
        raise SolverError("a start is option indices or placements, not both")
    if prep.method.startswith("restricted"):
        raise SolverError("a start given as placements cannot be combined with unique=True; use a Part from split()")
    return tuple(prep.problem.option_index(p) for p in placements)


class SolutionStream(Iterator[Solution]):
    """Solutions as the search finds them; ``count``, ``nodes``, ``seconds``, ``partial`` tell how it went."""

    def __init__(self, search: Search, limit: int | None, on_progress: Progress | None, buffer: int) -> None:
        self._search = search
        self._limit = limit
        self._on_progress = on_progress
        self._queue: deque[Solution] = deque()
        self._budget = NodeBudget(first=1 << 12)
        self._buffer = buffer
        self.count = 0
        self.partial = False
        self.finished = False

    @property
    def nodes(self) -> int:
        """Search nodes visited so far."""
        return self._search.nodes

    @property
    def seconds(self) -> float:
        """Seconds spent in the kernel so far."""
        return self._search.seconds

    @property
    def method(self) -> str:
        """How solutions are counted: all, or how symmetric copies are left out."""
        return self._search.prep.method

    def fraction(self) -> float:
        """Estimated share of the search tree explored so far."""
        return self._search.fraction()

    def __iter__(self) -> SolutionStream:
        return self

    def __next__(self) -> Solution:
        while not self._queue:
            if self.finished or self._search.done or (self._limit is not None and self.count >= self._limit):
                self.finished = True
                raise StopIteration
            room = self._buffer if self._limit is None else min(self._buffer, self._limit - self.count)
            try:
                before = self._search.nodes
                start = time.perf_counter()
                rows = self._search.step(self._budget.nodes, room)
                self._budget.update(self._search.nodes - before, time.perf_counter() - start)
                self.count += len(rows)
                self._queue.extend(self._search.problem.solution(options) for options, _ in rows)
                if self._on_progress is not None:
                    self._on_progress(self._search.fraction(), self.count)
            except KeyboardInterrupt:
                self.partial = True
                self.finished = True
                if not self._queue:
                    raise StopIteration from None
        return self._queue.popleft()

    def close(self) -> None:
        """Stop the search: iteration ends at once, flagged ``partial`` unless the search had finished."""
        if not self._search.done:
            self.partial = True
        self.finished = True
        self._queue.clear()


def solve(
    problem: TilingProblem,
    *,
    limit: int | None = None,
    mrv: bool = False,
    prune: bool = True,
    unique: Unique = False,
    start: Part | Sequence[int] | Sequence[Placement] | None = None,
    on_progress: Progress | None = None,
    buffer: int = 1024,
    multiword: bool = False,
    method: str = "auto",
) -> SolutionStream | OrbitStream:
    """Stream the solutions (up to ``limit``; one per symmetry class when ``unique``), resumably.

    All solutions (``unique`` False) are, by default, the images of the distinct ones under the
    board's symmetries when a piece can be restricted (`orbits`); ``method="search"`` lists them by
    the plain search, ``"orbits"`` always from the distinct ones.
    """
    if limit is not None and limit < 0:
        raise SolverError(f"limit must be at least 0, got {limit}")
    how = _plan(problem, unique, method, start)
    prefix = _prefix(how.prep, start)
    search = Search(
        how.prep, mrv=mrv, prune=prune, prefix=prefix, target=-1, store=True, buffer=buffer, multiword=multiword
    )
    stream = SolutionStream(search, limit, on_progress, buffer)
    return OrbitStream(stream, problem, how, limit) if how.by_orbits else stream


def count(
    problem: TilingProblem,
    *,
    mrv: bool = False,
    prune: bool = True,
    unique: Unique = False,
    start: Part | Sequence[int] | Sequence[Placement] | None = None,
    on_progress: Progress | None = None,
    multiword: bool = False,
    method: str = "auto",
) -> CountResult:
    """Count the solutions (up to symmetry when ``unique``); a Ctrl-C returns the partial count flagged partial.

    All solutions (``unique`` False) are counted, by default, as the sum of the orbit sizes of the
    distinct ones when a piece can be restricted (`orbits`); ``method="search"`` counts them one by
    one, ``"orbits"`` always by orbits (canonical solutions weighted by their orbit sizes).
    """
    spent = (0.0, 0)  # the plain search tried first, when it does not finish
    quick: Search | None = None
    if (
        method == "auto"
        and unique in (False, True)
        and start is None
        and problem.exact
        and not mrv
        and not multiword
        and problem.one_word is not None
    ):
        # first-blank search on one word: the scan order and the pre-placed piece (or the plain search) are chosen
        # by Knuth's estimates of the trees; the distinct tilings are that sum too (no free piece: restriction, below)
        cpu = time.perf_counter()
        searched, pre = plan_count(problem, prune=prune)
        spent = (time.perf_counter() - cpu, 0)
        if isinstance(pre, Preplaced):
            found = _count_preplaced(
                searched,
                pre,
                mrv=mrv,
                prune=prune,
                on_progress=on_progress,
                multiword=multiword,
                spent=spent,
                distinct=unique is True,
            )
            return (
                found
                if searched is problem
                else attrs.evolve(found, method=f"{found.method}, cells in {searched.order} order")
            )
        if unique is False:
            problem, method = searched, "search"
    elif method == "auto" and unique is False and start is None and problem.exact:
        # a small tree is counted before the symmetry set-up (tens of ms) would pay for itself
        quick = Search(
            plan(problem, False, "search").prep,
            mrv=mrv,
            prune=prune,
            prefix=(),
            target=-1,
            store=False,
            buffer=0,
            multiword=multiword,
        )
        try:
            quick.step(PLAIN_FIRST)
        except KeyboardInterrupt:
            return CountResult(quick.solutions, partial=True, seconds=quick.seconds, nodes=quick.nodes, method="all")
        if quick.done:
            return CountResult(quick.solutions, seconds=quick.seconds, nodes=quick.nodes, method="all")
        spent = (quick.seconds, quick.nodes)
        pre = preplaced(problem)
        if pre is not None:
            return _count_preplaced(
                problem, pre, mrv=mrv, prune=prune, on_progress=on_progress, multiword=multiword, spent=spent
            )
    how = _plan(problem, unique, method, start)
    prep = how.prep
    # no free piece: the plain search goes on from where it was
    if quick is not None and not how.by_orbits:
        search, spent = quick, (0.0, 0)
    else:
        prefix = _prefix(prep, start)
        search = Search(
            prep,
            mrv=mrv,
            prune=prune,
            prefix=prefix,
            target=-1,
            store=False,
            buffer=0,
            multiword=multiword,
            orbits=how.weighted,
        )
    report = None if on_progress is None else lambda: on_progress(search.fraction(), search.solutions * how.factor)
    partial = _run_to_the_end(search, NodeBudget(first=1 << 14), report)
    return CountResult(
        search.solutions * how.factor,
        partial=partial or not search.done,
        unique=unique is not False,
        seconds=search.seconds + spent[0],
        nodes=search.nodes + spent[1],
        method=how.method,
    )


def _run_to_the_end(
    search: Search,
    budget: NodeBudget,
    report: Callable[[], None] | None,
    roots: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> bool:
    """Step ``search`` in budgeted slices until it is done, calling ``report`` after each; True if Ctrl-C stopped it.

    With ``roots`` (options, cursor, occupancy, copies: `kernel_one_word.run_roots`), the search goes on under each
    root option in turn until the last is done."""
    try:
        while not search.done or (roots is not None and roots[1][0] < len(roots[0])):
            before = search.nodes
            start_time = time.perf_counter()
            if roots is None:
                search.step(budget.nodes)
            else:
                kernels.run_roots(search.tables, search.state, *roots, search.nodes + budget.nodes)
                search.seconds += time.perf_counter() - start_time
            budget.update(search.nodes - before, time.perf_counter() - start_time)
            if report is not None:
                report()
    except KeyboardInterrupt:
        return True
    return False


def _count_preplaced(
    problem: TilingProblem,
    pre: Preplaced,
    *,
    mrv: bool,
    prune: bool,
    on_progress: Progress | None,
    multiword: bool,
    spent: tuple[float, int],
    distinct: bool = False,
) -> CountResult:
    """All tilings as |G| x the sum of the counts with the free piece on each orbit representative; with ``distinct``,
    the tilings up to symmetry as that sum (every orbit is full and has one tiling with the piece on a representative).
    """
    prep = plan(problem, False, "search").prep
    factor = 1 if distinct else pre.group
    found, seconds, nodes = 0, spent[0], spent[1]
    budget = NodeBudget(first=1 << 14)
    partial = False
    k = len(pre.representatives)
    if problem.one_word is not None and not multiword:  # one compiled loop over the representatives
        search = Search(prep, mrv=mrv, prune=prune, prefix=pre.representatives[:1], target=-1, store=False, buffer=0)
        roots = np.array(pre.representatives, dtype=np.int64)
        cursor = np.ones(1, dtype=np.int64)
        occupancy = search.start_occupancy[0] & ~problem.one_word.option_mask[roots[0]]
        copies = problem.counts

        def report() -> None:
            """Progress: the roots done and the share of the current root's tree (searched from its placement)."""
            root = int(roots[cursor[0] - 1])
            search.start_occupancy[0] = occupancy | problem.one_word.option_mask[root]  # type: ignore[union-attr]
            search.start_copies[:] = copies
            search.start_copies[problem.option_piece[root]] -= 1
            on_progress((cursor[0] - 1 + search.fraction()) / k, search.solutions * factor)  # type: ignore[misc]

        partial = _run_to_the_end(
            search, budget, None if on_progress is None else report, roots=(roots, cursor, occupancy, copies)
        )
        found, seconds, nodes = search.solutions, seconds + search.seconds, nodes + search.nodes
    else:  # a search per representative
        for i, option in enumerate(pre.representatives):
            search = Search(
                prep, mrv=mrv, prune=prune, prefix=(option,), target=-1, store=False, buffer=0, multiword=multiword
            )
            report_part = (
                None
                if on_progress is None
                else (lambda: on_progress((i + search.fraction()) / k, (found + search.solutions) * factor))  # noqa: B023 - used in this iteration only
            )
            partial = _run_to_the_end(search, budget, report_part)
            found, seconds, nodes = found + search.solutions, seconds + search.seconds, nodes + search.nodes
            if partial:
                break
    name = problem.pieces[pre.piece].name
    if distinct:
        method = f"distinct by orbits: {name} pre-placed at {k} placements, one per orbit"
        return CountResult(found, partial=partial, unique=True, seconds=seconds, nodes=nodes, method=method)
    return CountResult(
        found * factor,
        partial=partial,
        seconds=seconds,
        nodes=nodes,
        method=pre.method.replace(f"piece {pre.piece}", name),
    )
