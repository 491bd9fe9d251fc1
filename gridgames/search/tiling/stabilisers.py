"""Counting up to symmetry when no piece qualifies for restriction: split one piece's placements by their stabilisers.

Restriction (`prepare_unique`) needs a piece, used once, on whose placements the board's group
acts freely. On a box with an odd side every piece has some placement that a symmetry maps onto
itself (the I pentacube along the 5 of 3x4x5 is fixed by the reflection end to end), so the
count falls back to canonicalising every tiling under the whole group: 1.3 G nodes on 3x4x5.

The split keeps the restriction's idea. Take a piece P used once and one placement per orbit of
its placements. A class of tilings has exactly one tiling with P on a kept placement r whose
stabiliser H_r is trivial; when H_r is not trivial, the tilings of the class with P on r are the
images of one of them under H_r, and exactly one of those is the least under H_r. So the number
of classes is the plain count with P restricted to the free kept placements, plus for each other
kept placement r the count with P fixed on r canonicalised under H_r only (the problem with P on
r alone has exactly H_r as its group). `stabiliser_parts` lists those problems; `count_split`
adds up their counts and `solve_split` lists the distinct tilings part after part.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from collections.abc import Iterator

from gridgames.game import CountResult, Solution
from gridgames.search import symmetry
from gridgames.search.tiling.driver import count, solve
from gridgames.search.tiling.problem import TilingProblem
from gridgames.search.tiling.unique import Unique, problem_symmetries

Progress = Callable[[float, int], None]


def stabiliser_parts(problem: TilingProblem) -> tuple[str, list[tuple[TilingProblem, Unique]]] | None:
    """The piece split on and the (problem, unique) parts whose counts add up to the number of distinct tilings,
    or None when no piece is used exactly once (or not every copy must be used)."""
    if not problem.exact:
        return None
    perms, images = problem_symmetries(problem)
    if len(perms) == 1:
        return None
    best: tuple[tuple[int, int, int], int, list[int], list[int]] | None = None
    for p, piece in enumerate(problem.pieces):
        if piece.count != 1:
            continue
        mine = np.flatnonzero(problem.option_piece == p)
        if not mine.size:
            return None
        kept = symmetry.orbit_representatives(images, mine)
        fixed = [r for r in kept if (images[1:, r] == r).any()]
        free = [r for r in kept if r not in set(fixed)]
        key = (len(fixed), max(int(problem.option_cell_rows[r, 0]) for r in kept), len(kept))
        if best is None or key < best[0]:
            best = (key, p, free, fixed)
    if best is None:
        return None
    _, p, free, fixed = best
    others = np.flatnonzero(problem.option_piece != p).tolist()
    parts: list[tuple[TilingProblem, Unique]] = []
    if free:
        parts.append((problem.restrict([*others, *free]), False))
    parts.extend((problem.restrict([*others, r]), "canonical") for r in fixed)
    return problem.pieces[p].name, parts


def count_split(
    problem: TilingProblem, *, mrv: bool = False, prune: bool = True, on_progress: Progress | None = None
) -> CountResult | None:
    """The number of distinct tilings by `stabiliser_parts` (None when it does not apply); partial after a Ctrl-C."""
    split = stabiliser_parts(problem)
    if split is None:
        return None
    name, parts = split
    total, nodes, seconds = 0, 0, 0.0
    started = time.perf_counter()
    for i, (part, unique) in enumerate(parts):

        def progress(fraction: float, found: int, i: int = i) -> None:
            if on_progress is not None:
                on_progress((i + (0.0 if fraction != fraction else fraction)) / len(parts), total + found)  # noqa: B023 - the running total

        result = count(part, unique=unique, mrv=mrv, prune=prune, on_progress=progress)
        total += result.count
        nodes += result.nodes
        seconds += result.seconds
        if result.partial:
            return CountResult(total, partial=True, unique=True, seconds=time.perf_counter() - started, nodes=nodes)
    method = f"split on {name} ({len(parts)} parts)"
    return CountResult(total, partial=False, unique=True, seconds=seconds, nodes=nodes, method=method)


def solve_split(problem: TilingProblem, *, mrv: bool = False, prune: bool = True) -> Iterator[Solution] | None:
    """The distinct tilings, part after part of `stabiliser_parts` (None when it does not apply).

    A Ctrl-C inside a part's search ends the stream with KeyboardInterrupt after the tilings found so far.
    """
    split = stabiliser_parts(problem)
    if split is None:
        return None

    def stream() -> Iterator[Solution]:
        for part, unique in split[1]:
            found = solve(part, unique=unique, mrv=mrv, prune=prune)
            try:
                yield from found
            finally:
                interrupted = found.partial  # a Ctrl-C in the search (read before close() sets it)
                found.close()
            if interrupted:
                raise KeyboardInterrupt

    return stream()
