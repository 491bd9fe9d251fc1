"""The driver: runs a kernel for a node budget at a time, streams solutions, counts, and splits the search into
parts."""

from __future__ import annotations

import functools
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence

import attrs
import numpy as np
from attrs import frozen

from gridgames.errors import SolverError
from gridgames.game import CountResult, Placement, Solution
from gridgames.pieces import colouring_allows
from gridgames.search.tiling import kernel_types as K
from gridgames.search.tiling import kernels
from gridgames.search.tiling.kernel_types import MultiWordTables, OneWordTables, SearchState
from gridgames.search.tiling.orbits import OrbitStream, Plan, Preplaced, free_pieces, plan, preplaced
from gridgames.search.tiling.problem import TilingProblem, prune_cap
from gridgames.search.tiling.unique import Prepared, Unique

Progress = Callable[[float, int], None]

PLAIN_FIRST = 1 << 17
"""Nodes of plain search tried before counting all by orbits with MRV or on several words (a tree that small is done
before the set-up would pay); on one word with first-blank search, `plan_count` pre-places the free piece with the
fewest orbits, without estimating the pieces' trees, when the plain tree is estimated under this."""

PLAIN_ONLY = 1 << 14
"""Plain trees estimated under this many nodes are searched as they are: the symmetry set-up (0.2-0.5 ms) would cost
about as much as the nodes it saves."""


@functools.lru_cache(maxsize=16)
def _balances(problem: TilingProblem) -> tuple[int, list[int], list[set[int]]]:
    """The board's colour balance, each option's, and each piece's set of them (computed once per problem)."""
    # colour_balance
    dark = 1 - 2 * (np.array(problem.cells, dtype=np.int64).reshape(problem.n_cells, -1).sum(axis=1) % 2)
    rows = problem.option_cell_rows
    balance = np.where(rows >= 0, dark[np.maximum(rows, 0)], 0).sum(axis=1)
    span = 2 * int(np.abs(balance).max(initial=0)) + 1
    pairs = set((problem.option_piece.astype(np.int64) * span + balance + span // 2).tolist())  # (piece, balance)
    by_piece: list[set[int]] = [set() for _ in problem.pieces]
    for key in pairs:  # (a set, not np.unique: that imports numpy.ma, 10-20 ms of a fresh process)
        by_piece[key // span].add(key % span - span // 2)
    return int(dark.sum()), balance.tolist(), by_piece


def colour_feasible(
    problem: TilingProblem, remaining: np.ndarray | Sequence[int], prefix: Sequence[int] = ()
) -> bool:
    """Checkerboard test: can the remaining copies' dark-minus-light counts add up to the uncovered cells'?

    Only meaningful when every copy must be used (`TilingProblem.exact`); False proves there is no solution.
    """
    board, balance, _ = _balances(problem)
    return _colour_allows(problem, board - sum(balance[int(o)] for o in prefix), tuple(int(r) for r in remaining))


@functools.lru_cache(maxsize=64)
def _colour_allows(problem: TilingProblem, board: int, remaining: tuple[int, ...]) -> bool:
    """`colouring_allows` for the problem's pieces (kept: each search of a count asks it again)."""
    return colouring_allows(board, zip(_balances(problem)[2], remaining))


@frozen
class Part:
    """An independent piece of a split search: a prefix of option indices, and its estimated share of the tree."""

    prefix: tuple[int, ...]
    weight: float


class NodeBudget:
    """Adapts the node budget of kernel calls so that each call lasts about ``seconds``."""

    def __init__(self, seconds: float = 0.1, first: int = 1 << 13) -> None:
        self.seconds = seconds
        self.nodes = first

    def update(self, nodes_done: int, elapsed: float) -> None:
        """Rescale the budget from the last call's speed."""
        if nodes_done > 0 and elapsed > 0:
            wanted = nodes_done * self.seconds / elapsed
            self.nodes = int(min(max(wanted, self.nodes / 4, 1 << 10), self.nodes * 4, 1 << 30))


class Search:
    """One resumable search: the kernel's tables and state, and the calls that advance them."""

    def __init__(
        self, prep: Prepared, *, mrv: bool, prune: bool, prefix: Sequence[int], target: int, store: bool, buffer: int,
        multiword: bool = False, orbits: bool = False
    ) -> None:
        problem = prep.problem
        self.problem = problem
        self.prep = prep
        n = problem.n_cells
        depths = problem.max_depth + 2
        occ = np.zeros(problem.words, dtype=np.uint64)
        if n % 64:
            occ[-1] = ~np.uint64((1 << (n % 64)) - 1)
        rem = problem.counts.copy()
        free = n
        for o in prefix:
            o = int(o)
            if not 0 <= o < problem.n_options:
                raise SolverError(f"option {o} is not an option of this problem (0..{problem.n_options - 1})")
            if (problem.option_masks[o] & occ).any():
                raise SolverError(f"the starting placement {problem.placement(o)} overlaps another or leaves the board")
            p = int(problem.option_piece[o])
            if rem[p] == 0:
                raise SolverError(f"the starting placements use piece {problem.pieces[p].name!r} too often")
            occ |= problem.option_masks[o]
            rem[p] -= 1
            free -= problem.pieces[p].size
        self.start_occupancy, self.start_copies = occ.copy(), rem.copy()
        beg, pos, lim, chosen = (np.zeros(depths + 1, dtype=np.int64) for _ in range(4))
        chosen[: len(prefix)] = prefix
        rows = buffer if store or target >= 0 else 0
        scalars = np.zeros(K.SCALARS, dtype=np.int64)
        scalars[K.DEPTH] = scalars[K.BASE] = len(prefix)
        scalars[K.PHASE] = K.ENTER
        scalars[K.STORE] = int(store)
        scalars[K.TARGET] = target
        scalars[K.CAP] = prune_cap(problem.sizes) if prune else 0
        scalars[K.MRV] = int(mrv)
        scalars[K.FREE] = free
        scalars[K.PRIMARY] = int(problem.exact)
        scalars[K.ORBITS] = int(orbits)
        self.state = SearchState(
            scalars, occ, rem, beg, pos, lim, chosen, np.ones(depths + 2, dtype=np.float64),
            np.zeros((rows, depths + 1), dtype=np.int32), np.zeros(rows, dtype=np.int32),
            np.zeros(rows, dtype=np.float64)
        )
        self.seconds = 0.0
        if problem.exact and not colour_feasible(problem, rem, prefix):
            scalars[K.PHASE] = K.DONE  # proved empty by the checkerboard colouring
        arrays = None if multiword else problem.one_word
        self.tables: OneWordTables | MultiWordTables
        if arrays is not None:
            if mrv:
                entries = (
                    problem.column_start, arrays.mrv_mask, arrays.mrv_piece, arrays.mrv_run_end, arrays.mrv_option
                )
            else:
                entries = (
                    arrays.blank_start, arrays.blank_mask, arrays.blank_piece, arrays.blank_run_end,
                    arrays.blank_option
                )
            self.tables = OneWordTables(
                *entries, arrays.probe_bits, arrays.late, arrays.option_mask, problem.option_piece,
                arrays.option_border, arrays.neighbours, problem.sizes, arrays.region_sizes, problem.option_cell_rows,
                prep.perms,
            )
            self.run_kernel, self.fraction_kernel, self.one_word = kernels.run, kernels.fraction, True
        else:
            if mrv:
                candidates, run_end = problem.column_options, problem.column_run_end
            else:
                candidates, run_end = np.arange(problem.n_options, dtype=np.int32), problem.run_end
            self.tables = MultiWordTables(
                problem.option_masks, problem.first_word, problem.last_word, problem.option_piece, candidates, run_end,
                problem.anchor_start, problem.column_start, problem.deadline_piece, problem.deadline_anchor,
                problem.neighbour_list, problem.sizes, problem.option_cell_rows, prep.perms,
            )
            self.run_kernel, self.fraction_kernel = kernels.multi_word_run, kernels.multi_word_fraction
            self.one_word = False

    @property
    def done(self) -> bool:
        """True when the whole subtree has been searched."""
        return bool(self.state.scalars[K.PHASE] == K.DONE)

    @property
    def nodes(self) -> int:
        """Placements made so far."""
        return int(self.state.scalars[K.NODES])

    @property
    def solutions(self) -> int:
        """Solutions counted so far."""
        return int(self.state.scalars[K.SOLUTIONS])

    def step(self, budget: int, room: int | None = None) -> list[tuple[tuple[int, ...], float]]:
        """Run the kernel for about ``budget`` nodes (or ``room`` output rows); return the rows written."""
        s = self.state
        if room is not None and room < s.out.shape[0]:
            s = s._replace(out=s.out[:room])
        start = time.perf_counter()
        rows = self.run_kernel(self.tables, s, self.nodes + budget)
        self.seconds += time.perf_counter() - start
        return [(tuple(int(x) for x in s.out[i, : s.out_len[i]]), float(s.out_weight[i])) for i in range(rows)]

    def fraction(self) -> float:
        """Knuth's estimate of the share of the search tree explored so far."""
        start = self.start_occupancy[0] if self.one_word else self.start_occupancy
        return float(self.fraction_kernel(self.tables, self.state, start, self.start_copies))


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
    problem: TilingProblem, *, limit: int | None = None, mrv: bool = False, prune: bool = True, unique: Unique = False,
    start: Part | Sequence[int] | Sequence[Placement] | None = None, on_progress: Progress | None = None,
    buffer: int = 1024, multiword: bool = False, method: str = "auto"
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
    problem: TilingProblem, *, mrv: bool = False, prune: bool = True, unique: Unique = False,
    start: Part | Sequence[int] | Sequence[Placement] | None = None, on_progress: Progress | None = None,
    multiword: bool = False, method: str = "auto"
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
                searched, pre, mrv=mrv, prune=prune, on_progress=on_progress, multiword=multiword, spent=spent,
                distinct=unique is True
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
            plan(problem, False, "search").prep, mrv=mrv, prune=prune, prefix=(), target=-1, store=False, buffer=0,
            multiword=multiword
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
    if quick is not None and not how.by_orbits:  # no free piece: the plain search goes on from where it was
        search, spent = quick, (0.0, 0)
    else:
        prefix = _prefix(prep, start)
        search = Search(
            prep, mrv=mrv, prune=prune, prefix=prefix, target=-1, store=False, buffer=0, multiword=multiword,
            orbits=how.weighted
        )
    report = None if on_progress is None else lambda: on_progress(search.fraction(), search.solutions * how.factor)
    partial = _run_to_the_end(search, NodeBudget(first=1 << 14), report)
    return CountResult(
        search.solutions * how.factor, partial=partial or not search.done, unique=unique is not False,
        seconds=search.seconds + spent[0], nodes=search.nodes + spent[1], method=how.method
    )


PROBE_PATHS = (128, 8192)
"""Fewest and most random descents per estimate when `plan_count` and `choose_preplaced` compare trees."""

PROBE_SHARE = 4000
"""One descent per this many nodes of the tree to be searched (the plain tree's estimate over |G|): a descent costs
about as much as 100 nodes of the search, so the estimates of a large tree cost about a fortieth of the count."""


def _descents(nodes: float, ways: int = 1) -> int:
    """Descents for each of ``ways`` estimates, for a tree of about ``nodes`` (`PROBE_SHARE`, within `PROBE_PATHS`)."""
    return int(min(max(nodes / PROBE_SHARE / ways, PROBE_PATHS[0]), PROBE_PATHS[1]))


PROBE_SEED = 0
"""The random descents' seed: the same problem gets the same choices."""


def estimate_tree(search: Search, roots: Sequence[int], paths: int, seed: int | None = None) -> tuple[float, float]:
    """Knuth's estimate of the nodes first-blank search visits below each of ``roots`` (options placed first), summed,
    from ``paths`` random descents, and its standard error (one-word problems; ``search``: tables, start, pruning).
    No roots is an empty tree, (0.0, 0.0): the problem has no solution when they are the options of the first cell."""
    root_options = np.asarray(roots, dtype=np.int64)
    if root_options.size == 0:
        return 0.0, 0.0
    mean, error = kernels.estimate(
        search.tables, search.start_occupancy[0], search.start_copies, root_options,
        int(search.state.scalars[K.CAP]), paths, PROBE_SEED if seed is None else seed,
    )
    return float(mean), float(error)


def _upper(estimate: tuple[float, float]) -> float:
    """An estimate plus twice its standard error: a tree whose few descents missed its heavy tail is not preferred."""
    return estimate[0] + 2 * estimate[1]


FIRST_PATHS = 64
"""Random descents telling a tiny or small plain tree (under `PLAIN_ONLY` or `PLAIN_FIRST` nodes) from a larger one,
whose plan then estimates it again from `ORDER_PATHS`[0] (64 descents cost about 0.1 ms; 3x20's 69k nodes are estimated
at 61-110k, the other boards' trees at over 0.2M)."""

ORDER_PATHS = (256, 1024)
"""Random descents estimating the plain tree first, and at least those for each order `plan_count` compares."""

ORDER_PROBE_FROM = 1 << 22
"""Plain trees over |G| (at most 8 on a square board) of fewer estimated nodes are searched along the diagonals on
`_squarish` boards without comparing the orders: the comparison (2 x 1024 descents and a reordered problem, about
20 ms) costs as much as the count there (8x8-centre: 0.02-0.03 s along the diagonals, 0.03-0.06 s by columns)."""


def _plain_estimate(
    problem: TilingProblem, prune: bool, paths: int, root: Search | None = None
) -> tuple[Search, float]:
    """A first-blank search of the problem (not started; ``root`` if given) and Knuth's estimate of its plain tree's
    nodes (0: proved empty, by the colouring or by no option covering the first cell)."""
    if root is None:
        root = Search(
            plan(problem, False, "search").prep, mrv=False, prune=prune, prefix=(), target=-1, store=False, buffer=0
        )
    if root.done or paths == 0:  # proved empty by the colouring (nothing to search), or no estimate asked for
        return root, 0.0
    first = range(int(problem.anchor_start[0]), int(problem.anchor_start[1]))
    return root, len(first) + estimate_tree(root, first, paths)[0]


def _squarish(problem: TilingProblem) -> bool:
    """True when the board's bounding box is at most 1.5 times as long as wide: diagonals can pay only there (measured,
    counts by orbits: 1.4-2.6x more nodes on 6x10, 5x12 and 4x15, 0.64-0.73x on 8x8 and 8x8 less its centre)."""
    rows = [r for r, _ in problem.cells]
    cols = [c for _, c in problem.cells]
    height, width = 1 + max(rows) - min(rows), 1 + max(cols) - min(cols)
    return max(height, width) <= 1.5 * min(height, width)


@functools.lru_cache(maxsize=16)
def plan_count(problem: TilingProblem, *, prune: bool = True) -> tuple[TilingProblem, Preplaced | None]:
    """How `count` counts all on a one-word problem by first-blank search: the problem in the scan order to search
    (its own, or along the diagonals when Knuth's estimate of the plain tree there is under 0.8 of its own, on boards
    `_squarish` enough; below `ORDER_PROBE_FROM` the diagonals without comparing) and the piece to pre-place there
    (`choose_preplaced`; None: the plain search). The estimates take `_descents` in proportion to the tree:
    `FIRST_PATHS` first, which settle a tiny tree (the plain search), a small one (the fewest orbits) and a squarish
    board's tree well under `ORDER_PROBE_FROM` (the diagonals); larger trees are estimated again. Counts do not depend
    on the order."""
    root, plain = _plain_estimate(problem, prune, FIRST_PATHS)
    if plain <= PLAIN_ONLY:
        return problem, None
    if plain <= PLAIN_FIRST:  # a small tree: the fewest orbits, no estimates (they would cost as much as they save)
        return problem, preplaced(problem)
    squarish = problem.lattice == "square" and problem.order != "diagonal" and _squarish(problem)
    if (
        not squarish or plain / 8 >= ORDER_PROBE_FROM / 4
    ):  # else the diagonals anyway: a closer estimate changes nothing
        root, plain = _plain_estimate(problem, prune, ORDER_PATHS[0], root)
    if squarish:
        other = problem.reordered("diagonal")
        if plain / 8 < ORDER_PROBE_FROM:  # too small a tree for the comparison to pay: the measured default
            other_root, _ = _plain_estimate(other, prune, 0)
            return other, _choose(other, other_root, plain)
        paths = max(ORDER_PATHS[1], _descents(plain / 8, 2))  # a square board has at most 8 symmetries
        _, plain = _plain_estimate(problem, prune, paths, root)
        other_root, alternative = _plain_estimate(other, prune, paths)
        if alternative < 0.8 * plain:
            problem, plain, root = other, alternative, other_root
    return problem, _choose(problem, root, plain)


@functools.lru_cache(maxsize=16)
def choose_preplaced(problem: TilingProblem, *, prune: bool = True, plain: float | None = None) -> Preplaced | None:
    """The free piece to pre-place when counting all by orbits, chosen by Knuth's estimates of the trees; None when
    the plain search is estimated no larger (or under `PLAIN_FIRST` nodes) or no piece is free.

    The plain tree is estimated from `ORDER_PATHS`[0] descents (unless ``plain`` gives that estimate); each free piece
    with at most 3x the fewest orbits of placements gets its share of `_descents`, and the least estimate plus
    twice its standard error wins (a heavy-tailed tree is often underestimated by few descents). One-word problems,
    first-blank search (`estimate_tree`).
    """
    root, estimated = _plain_estimate(problem, prune, ORDER_PATHS[0] if plain is None else 0)
    return _choose(problem, root, estimated if plain is None else plain)


def _choose(problem: TilingProblem, root: Search, plain: float) -> Preplaced | None:
    """`choose_preplaced` given the problem's root search and the estimate of its plain tree."""
    frees = free_pieces(problem)
    if plain <= PLAIN_FIRST or not frees:
        return None
    fewest = min(len(f.representatives) for f in frees)
    candidates = [f for f in frees if len(f.representatives) <= 3 * fewest]
    paths = _descents(plain / frees[0].group, len(candidates))
    sizes = [_upper(estimate_tree(root, f.representatives, paths)) if len(candidates) > 1 else 0.0 for f in candidates]
    best = min(range(len(candidates)), key=lambda i: (sizes[i], len(candidates[i].representatives)))
    return None if sizes[best] >= plain else candidates[best]


def _run_to_the_end(
    search: Search, budget: NodeBudget, report: Callable[[], None] | None,
    roots: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
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
    problem: TilingProblem, pre: Preplaced, *, mrv: bool, prune: bool, on_progress: Progress | None, multiword: bool,
    spent: tuple[float, int], distinct: bool = False
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
        found * factor, partial=partial, seconds=seconds, nodes=nodes,
        method=pre.method.replace(f"piece {pre.piece}", name)
    )


@frozen(eq=False)
class SplitPlan:
    """What a count by parts searches: the tree `count` would search, so that the parts cost what the whole count costs.

    ``problem``, ``unique`` and ``method`` are what `split` and `count_part` are given; ``roots`` are options placed
    first, one after another, the parts being the nodes below each (a free piece's representatives, `Preplaced`);
    each solution the parts count stands for ``factor`` tilings; ``description`` is for `CountResult.method`.
    """

    problem: TilingProblem
    unique: Unique
    method: str
    roots: tuple[int, ...]
    factor: int
    description: str


@functools.lru_cache(maxsize=16)
def split_plan(
    problem: TilingProblem, *, mrv: bool = False, prune: bool = True, unique: Unique = False, method: str = "auto"
) -> SplitPlan:
    """How to count ``problem`` by parts: on one word with first-blank search, counting all or distinct tilings with
    ``method="auto"``, the scan order and pre-placed piece `count` chooses (`plan_count`: the parts add up to the same
    tree); otherwise the parts of the search `plan` describes."""
    if method == "auto" and unique in (False, True) and problem.exact and not mrv and problem.one_word is not None:
        searched, pre = plan_count(problem, prune=prune)
        order = "" if searched is problem else f", cells in {searched.order} order"
        if isinstance(pre, Preplaced):
            name = problem.pieces[pre.piece].name
            if unique is True:
                text = f"distinct by orbits: {name} pre-placed at {len(pre.representatives)} placements, one per orbit"
                return SplitPlan(searched, False, "search", pre.representatives, 1, text + order)
            text = pre.method.replace(f"piece {pre.piece}", name)
            return SplitPlan(searched, False, "search", pre.representatives, pre.group, text + order)
        if unique is False:
            return SplitPlan(searched, False, "search", (), 1, "all" + order)
    return SplitPlan(problem, unique, method, (), 1, plan(problem, unique, method).method)


def split(
    problem: TilingProblem, min_parts: int = 1, *, depth: int | None = None, mrv: bool = False, prune: bool = True,
    unique: Unique = False, method: str = "auto", roots: Sequence[int] = (),
) -> list[Part]:
    """Independent parts of the search whose counts (`count_part`) add up to the whole count.

    The parts are the search nodes at ``depth`` placements, or at the first depth giving at least
    ``min_parts`` of them (fewer when the whole tree is smaller); solutions found above that depth
    are parts too. Weights (Knuth's estimate of each part's share of the tree) sum to 1.
    Parts of all solutions are, by default, parts of the search by orbits (``method``, as in `count`).
    With ``roots`` (options of the searched problem, e.g. `SplitPlan.roots`), the parts are the nodes below each root
    placed first, depths counted from the root; each root's parts share an equal weight.
    """
    if min_parts < 1:
        raise SolverError(f"min_parts must be at least 1, got {min_parts}")
    if depth is not None and depth < 1:
        raise SolverError(f"depth must be at least 1, got {depth}")
    prep = plan(problem, unique, method).prep
    starts: list[tuple[int, ...]] = [(int(r),) for r in roots] or [()]
    parts: list[Part] = []
    for level in [depth] if depth is not None else range(1, prep.problem.max_depth + 1):
        parts = []
        deepest = 0
        for prefix in starts:
            search = Search(
                prep, mrv=mrv, prune=prune, prefix=prefix, target=len(prefix) + level, store=True, buffer=4096
            )
            rows: list[tuple[tuple[int, ...], float]] = []
            while not search.done:
                rows.extend(search.step(1 << 40))
            share = sum(w for _, w in rows)
            parts.extend(Part(p, w / share / len(starts)) for p, w in rows if share > 0)
            deepest = max([deepest, *(len(p) - len(prefix) for p, _ in rows)])
        if len(parts) >= min_parts or deepest < level:
            break
    total = sum(p.weight for p in parts)
    return [Part(p.prefix, p.weight / total) for p in parts] if total > 0 else parts


def count_part(
    problem: TilingProblem, part: Part, *, mrv: bool = False, prune: bool = True, unique: Unique = False,
    on_progress: Progress | None = None, method: str = "auto"
) -> CountResult:
    """Count the solutions under one part of `split` (pass the same ``mrv``, ``prune``, ``unique`` and ``method``)."""
    return count(problem, mrv=mrv, prune=prune, unique=unique, start=part, on_progress=on_progress, method=method)
