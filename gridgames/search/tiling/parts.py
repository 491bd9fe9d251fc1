"""Counting by parts: what a count by parts searches (`split_plan`), the parts (`split`) and their counts
(`count_part`), which add up to the whole count."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from attrs import frozen

from gridgames.errors import SolverError
from gridgames.game import CountResult
from gridgames.search.tiling.orbits import Preplaced, plan
from gridgames.search.tiling.problem import TilingProblem
from gridgames.search.tiling.unique import Unique
from gridgames.search.tiling.driver import Progress, count
from gridgames.search.tiling.planning import plan_count
from gridgames.search.tiling.stepping import Part, Search


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
    problem: TilingProblem,
    min_parts: int = 1,
    *,
    depth: int | None = None,
    mrv: bool = False,
    prune: bool = True,
    unique: Unique = False,
    method: str = "auto",
    roots: Sequence[int] = (),
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
    problem: TilingProblem,
    part: Part,
    *,
    mrv: bool = False,
    prune: bool = True,
    unique: Unique = False,
    on_progress: Progress | None = None,
    method: str = "auto",
) -> CountResult:
    """Count the solutions under one part of `split` (pass the same ``mrv``, ``prune``, ``unique`` and ``method``)."""
    return count(problem, mrv=mrv, prune=prune, unique=unique, start=part, on_progress=on_progress, method=method)
