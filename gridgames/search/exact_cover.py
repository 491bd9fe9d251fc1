"""A generic exact-cover engine: Knuth's Algorithm X with dancing links, compiled with numba.

An exact-cover problem has *primary items*, which a solution covers exactly once,
*secondary items*, covered at most once, and *options*, each a set of items (with
a label, returned in solutions). A solution is a set of options covering every
primary item exactly once and no secondary item twice (as in Knuth's Algorithm X,
an option without a primary item is never chosen)::

    problem = ExactCover.from_options([[0, 1], [2], [0], [1, 2]], primary=3)
    list(problem.solutions())          # [(0, 1), (2, 3)]
    problem.count().count              # 2

The search branches on the most constrained primary item (fewest options left).
It runs in a resumable numba kernel: `CoverSearch.run` stops after a node budget
and carries on from there at the next call. Between calls, `count` and `solutions`
report progress (Knuth's estimate of the share of the search tree done) and
notice Ctrl-C, which turns a count into a partial `CountResult`.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any

import attrs
import numpy as np

from gridgames.errors import PuzzleError
from gridgames.game import CountResult, ProgressCallback
from gridgames.search import _exact_cover_kernel as kernel

_FIRST_BUDGET = 20_000
_MIN_BUDGET = 1_000
_MAX_BUDGET = 50_000_000
_SLICE_SECONDS = 0.05  # aim for this long per kernel call, so progress and Ctrl-C stay responsive


@attrs.frozen
class _Links:
    """The dancing-links arrays of a problem before any search (copied by each search)."""

    top: np.ndarray
    up: np.ndarray
    down: np.ndarray
    left: np.ndarray
    right: np.ndarray
    length: np.ndarray
    option: np.ndarray  # the option index of every node (-1 for the root, headers and spacers)

    @classmethod
    def build(cls, options: Sequence[tuple[int, ...]], num_primary: int, num_items: int) -> _Links:
        """Lay the options out as in Knuth's Algorithm X (header nodes 1..N, spacers between options)."""
        size = 1 + num_items + len(options) + 1 + sum(len(o) for o in options)
        top = np.zeros(size, dtype=np.int64)
        up = np.zeros(size, dtype=np.int64)
        down = np.zeros(size, dtype=np.int64)
        option = np.full(size, -1, dtype=np.int64)
        length = np.zeros(num_items + 1, dtype=np.int64)
        nodes = np.arange(num_items + 1)
        top[: num_items + 1] = nodes
        up[: num_items + 1] = nodes
        down[: num_items + 1] = nodes
        left = np.array(nodes, dtype=np.int64)  # secondary headers point to themselves
        right = np.array(nodes, dtype=np.int64)
        ring = list(range(num_primary + 1))  # root 0 and the primary headers, in a circle
        for a, b in zip(ring, ring[1:] + ring[:1]):
            right[a] = b
            left[b] = a
        tops, ups, downs, lengths = top.tolist(), up.tolist(), down.tolist(), length.tolist()
        spacer = num_items + 1
        for k, items in enumerate(options):
            first = spacer + 1
            p = spacer
            for item in items:
                p += 1
                h = item + 1
                tops[p] = h
                ups[p] = ups[h]
                downs[p] = h
                downs[ups[h]] = p
                ups[h] = p
                lengths[h] += 1
            option[first : p + 1] = k
            downs[spacer] = p  # a spacer's down link: the last node of the option after it
            spacer = p + 1
            tops[spacer] = -(k + 1)
            ups[spacer] = first  # its up link: the first node of the option before it
        return cls(
            np.array(tops, dtype=np.int64),
            np.array(ups, dtype=np.int64),
            np.array(downs, dtype=np.int64),
            left,
            right,
            np.array(lengths, dtype=np.int64),
            option,
        )


class CoverSearch:
    """One resumable run of Algorithm X over a problem: call `run` until `done`."""

    def __init__(self, problem: ExactCover) -> None:
        links = problem._links
        self.problem = problem
        self._option = links.option
        self._arrays = (
            links.top.copy(),
            links.up.copy(),
            links.down.copy(),
            links.left.copy(),
            links.right.copy(),
            links.length.copy(),
        )
        depth = problem.num_primary + 1
        self._choice = np.zeros(depth, dtype=np.int64)
        self._branches = np.zeros(depth, dtype=np.int64)
        self._tried = np.zeros(depth, dtype=np.int64)
        self._state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self._state[kernel.S_STEP] = kernel.STEP_ENTER

    def run(self, budget: int, *, stop_at_solution: bool = False) -> int:
        """Search on for at most ``budget`` nodes (or to the next solution); returns the kernel's status."""
        return int(
            kernel.run(
                *self._arrays,
                self._choice,
                self._branches,
                self._tried,
                self._state,
                int(budget),
                bool(stop_at_solution),
            )
        )

    @property
    def done(self) -> bool:
        """True once the whole search tree has been explored."""
        return int(self._state[kernel.S_STEP]) == kernel.STEP_DONE

    @property
    def count(self) -> int:
        """Solutions found so far."""
        return int(self._state[kernel.S_COUNT])

    @property
    def nodes(self) -> int:
        """Search-tree nodes visited so far."""
        return int(self._state[kernel.S_NODES])

    def solution(self) -> tuple[int, ...]:
        """The option indices of the solution just found (after `run` returned FOUND)."""
        level = int(self._state[kernel.S_LEVEL])
        return tuple(sorted(int(self._option[x]) for x in self._choice[:level]))

    def fraction(self) -> float:
        """Knuth's estimate of the share of the search tree done so far (1.0 when done)."""
        if self.done:
            return 1.0
        level = int(self._state[kernel.S_LEVEL])
        if int(self._state[kernel.S_STEP]) in (kernel.STEP_TRY, kernel.STEP_NEXT):
            level += 1  # the current level has chosen its item too
        done, weight = 0.0, 1.0
        for branches, tried in zip(self._branches[:level].tolist(), self._tried[:level].tolist()):
            if branches <= 0:
                break
            done += weight * min(tried, branches) / branches
            weight /= branches
        return min(done, 1.0)

    def solutions(
        self, *, limit: int | None = None, on_progress: ProgressCallback | None = None
    ) -> Iterator[tuple[int, ...]]:
        """The solutions from here on, as sorted option indices, at most ``limit`` of them."""
        found = 0
        budget = _Budget()
        while limit is None or found < limit:
            started = time.perf_counter()
            status = self.run(budget.nodes, stop_at_solution=True)
            if status == kernel.BUDGET_SPENT:
                budget.adapt(time.perf_counter() - started)
            if on_progress is not None:
                on_progress(self.fraction(), self.count)
            if status == kernel.FINISHED:
                return
            if status == kernel.FOUND:
                found += 1
                yield self.solution()


@attrs.define
class _Budget:
    """Node budget per kernel call, adapted so that each call takes about `_SLICE_SECONDS`."""

    nodes: int = attrs.field(factory=lambda: _FIRST_BUDGET)

    def adapt(self, seconds: float) -> None:
        """Scale the budget towards the target slice time."""
        if seconds > 0:
            scale = min(max(_SLICE_SECONDS / seconds, 0.25), 4.0)
            self.nodes = int(min(max(self.nodes * scale, _MIN_BUDGET), _MAX_BUDGET))


def _check_options(options: Iterable[Iterable[int]], num_items: int) -> tuple[tuple[int, ...], ...]:
    checked = []
    for k, option in enumerate(options):
        items = tuple(int(i) for i in option)
        if not items:
            raise PuzzleError(f"option {k} covers no item")
        if len(set(items)) != len(items):
            raise PuzzleError(f"option {k} repeats an item: {list(items)}")
        bad = [i for i in items if not 0 <= i < num_items]
        if bad:
            raise PuzzleError(f"option {k} has item {bad[0]}, outside 0..{num_items - 1}")
        checked.append(items)
    return tuple(checked)


@attrs.frozen
class ExactCover:
    """An exact-cover problem: items ``0..primary-1`` covered exactly once, the next ``secondary`` at most once."""

    num_primary: int
    num_secondary: int
    options: tuple[tuple[int, ...], ...]
    labels: tuple[Any, ...]
    _links: _Links = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if self.num_primary < 0 or self.num_secondary < 0:
            raise PuzzleError(f"item counts must not be negative ({self.num_primary}, {self.num_secondary})")
        if len(self.labels) != len(self.options):
            raise PuzzleError(f"{len(self.labels)} labels for {len(self.options)} options")
        object.__setattr__(self, "_links", _Links.build(self.options, self.num_primary, self.num_items))

    @classmethod
    def from_options(
        cls, options: Iterable[Iterable[int]], *, primary: int, secondary: int = 0, labels: Sequence[Any] | None = None
    ) -> ExactCover:
        """A problem from options given as item indices (primary items first); labels default to option indices."""
        checked = _check_options(options, primary + secondary)
        return cls(primary, secondary, checked, tuple(range(len(checked)) if labels is None else labels))

    @classmethod
    def from_items(
        cls,
        primary: Sequence[Hashable],
        options: Iterable[tuple[Any, Iterable[Hashable]]],
        secondary: Sequence[Hashable] = (),
    ) -> ExactCover:
        """A problem from named items and ``(label, items)`` options; every item must be declared."""
        index: dict[Hashable, int] = {}
        for item in (*primary, *secondary):
            if item in index:
                raise PuzzleError(f"item {item!r} is declared twice")
            index[item] = len(index)
        labels, numbered = [], []
        for label, items in options:
            row = []
            for item in items:
                if item not in index:
                    raise PuzzleError(f"option {label!r} covers the undeclared item {item!r}")
                row.append(index[item])
            labels.append(label)
            numbered.append(row)
        return cls.from_options(numbered, primary=len(primary), secondary=len(secondary), labels=labels)

    @property
    def num_items(self) -> int:
        """Primary plus secondary items."""
        return self.num_primary + self.num_secondary

    def search(self) -> CoverSearch:
        """A fresh resumable search over this problem."""
        return CoverSearch(self)

    def solutions(
        self, *, limit: int | None = None, on_progress: ProgressCallback | None = None
    ) -> Iterator[tuple[Any, ...]]:
        """The solutions, lazily, each as the labels of its options (in option order), at most ``limit``."""
        if limit is not None and limit <= 0:
            return
        for chosen in self.search().solutions(limit=limit, on_progress=on_progress):
            yield tuple(self.labels[k] for k in chosen)

    def count(self, *, on_progress: ProgressCallback | None = None, max_nodes: int | None = None) -> CountResult:
        """Count every solution; partial when stopped by Ctrl-C or after ``max_nodes`` search nodes."""
        search = self.search()
        search.run(0)  # loads (or compiles) the kernel before the clock starts
        started = time.perf_counter()
        budget = _Budget()
        try:
            while not search.done:
                nodes = budget.nodes if max_nodes is None else min(budget.nodes, max_nodes - search.nodes)
                if nodes <= 0:
                    break
                slice_started = time.perf_counter()
                search.run(nodes)
                budget.adapt(time.perf_counter() - slice_started)
                if on_progress is not None:
                    on_progress(search.fraction(), search.count)
        except KeyboardInterrupt:
            pass  # the arrays are consistent between kernel calls: report what was counted
        return CountResult(
            search.count, partial=not search.done, seconds=time.perf_counter() - started, nodes=search.nodes
        )

    def is_cover(self, chosen: Iterable[int]) -> bool:
        """True when the options with these indices cover every primary item once and no secondary item twice."""
        covered = np.zeros(self.num_items, dtype=np.int64)
        for k in chosen:
            if not 0 <= k < len(self.options):
                return False
            covered[list(self.options[k])] += 1
        return bool((covered[: self.num_primary] == 1).all() and (covered[self.num_primary :] <= 1).all())
