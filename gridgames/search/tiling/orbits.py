"""Counting and listing all tilings from the distinct ones: each distinct tiling stands for its whole orbit.

The board's symmetry group G (the symmetries that map every placement of each piece onto
a placement of that piece, `prepare_unique`) acts on the tilings; a tiling's orbit holds
``|G| / |stabiliser|`` tilings. So the number of all tilings is the sum, over one tiling
per orbit, of its orbit's size, and all tilings are the images of the distinct ones:

* **free piece** (one used once, whose placements no symmetry fixes): no tiling is fixed by
  a symmetry either, every orbit is full, and all = ``|G|`` x the number of tilings with that
  piece on one placement per orbit. `count` pre-places it on each representative in turn
  (`planning.choose_preplaced`: the free piece whose tree Knuth's random descents estimate smallest, or
  `preplaced`, the fewest orbits, for MRV and multi-word search; a few ms of set-up, no recompiled problem);
  listing and `split` search the problem restricted to the representatives (`prepare_unique`);
* **canonical**: the kernel keeps the tilings that are the least of their images and adds
  each one's orbit size (``|G|`` over the number of symmetries that map it onto itself).
  This visits the whole tree (it is no faster than the plain search), so ``method="auto"``
  uses orbits only with a free piece; ``method="orbits"`` forces orbits (the restricted
  search, or canonical weighting when no piece is free: tests, checks).

``method="search"`` is the plain search over every tiling; the tests check all three agree.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Protocol

import numpy as np
from attrs import frozen

from gridgames.errors import PuzzleError, SolverError
from gridgames.game import Placement, Solution
from gridgames.search.tiling import kernels
from gridgames.search.tiling.problem import TilingProblem
from gridgames.search.tiling.unique import (  # noqa: F401 (option_images: re-exported)
    Prepared,
    Unique,
    board_permutations,
    images_bytes,
    option_images,
    prepare_unique,
    problem_symmetries,
)

METHODS = ("auto", "orbits", "search")
"""How to count or list all tilings: orbits when a piece can be restricted, always orbits, or the plain search."""


@frozen(eq=False)
class Plan:
    """What the kernel searches (``prep``) and how its solutions stand for all tilings."""

    prep: Prepared
    # each solution found stands for this many tilings (|G| with a restricted piece, else 1)
    factor: int
    weighted: bool  # the kernel adds each canonical solution's orbit size
    # (G, n) permutations whose images of each solution found are all the tilings (identity: none)
    images: np.ndarray
    method: str  # for CountResult.method

    @property
    def by_orbits(self) -> bool:
        """True when solutions found stand for their orbits (counts and listings are expanded)."""
        return self.factor > 1 or self.weighted


@functools.lru_cache(maxsize=16)
def plan(problem: TilingProblem, unique: Unique = False, method: str = "auto") -> Plan:
    """How to search: for all tilings (``unique`` False) by orbits when ``method`` allows, else as asked."""
    if method not in METHODS:
        raise SolverError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    if unique is not False:
        prep = prepare_unique(problem, unique)
        return Plan(prep, 1, False, prep.perms[:1], prep.method)
    plain = prepare_unique(problem, False)
    # no piece can be restricted
    if method == "search" or (method == "auto" and preplaced(problem) is None):
        return Plan(plain, 1, False, plain.perms, "all")
    prep = prepare_unique(problem, True)
    size = len(prep.group)
    if prep.method.startswith("restricted"):
        return Plan(prep, size, False, prep.group, f"all by orbits: {prep.method}, x {size} symmetries")
    if prep.method.startswith("canonical") and method == "orbits":
        return Plan(prep, 1, True, prep.group, f"all by orbits: canonical, weighted by orbit size ({size} symmetries)")
    return Plan(plain, 1, False, plain.perms, "all")


@frozen(eq=False)
class Preplaced:
    """Counting all by orbits without restricting the problem: a free piece pre-placed at one placement per orbit."""

    piece: int  # the piece: used once, no placement of it fixed by a non-identity symmetry
    representatives: tuple[int, ...]  # one option of it per orbit (options of the problem itself)
    # |G|: every orbit of tilings is full, so all = |G| x the sum of the counts under each representative
    group: int

    @property
    def method(self) -> str:
        """For CountResult.method."""
        return (
            f"all by orbits: piece {self.piece} pre-placed at {len(self.representatives)} placements, "
            f"x {self.group} symmetries"
        )


SHORTCUT_BYTES = 1 << 30
"""The most memory `free_pieces` spends on the board's symmetries (a shortcut of counting all by orbits): beyond it
the search goes without (1,000 distinct dominoes on 20x100 took 16.2 GB there)."""


@functools.lru_cache(maxsize=16)
def free_pieces(problem: TilingProblem) -> tuple[Preplaced, ...]:
    """Every free piece (used once, no placement of it fixed by a non-identity symmetry) with one placement per orbit.

    Only when every copy must be used (the piece is then in every tiling): counting the tilings with
    any one of them on each of its representatives, from the problem as it is, counts all by orbits.
    The set-up is the board's symmetries and their images of the options (numpy, a few ms).
    """
    if not problem.exact:
        return ()
    if images_bytes(problem, len(board_permutations(problem))) > SHORTCUT_BYTES:
        return ()  # a shortcut, not worth gigabytes: search without it
    try:
        # the board's symmetry group on its lattice, as cell permutations
        perms, images = problem_symmetries(problem)
    # the symmetries' set-up would not fit in memory: search without this shortcut
    except PuzzleError:
        return ()
    if len(perms) == 1:
        return ()
    heads = kernels.free_representatives(images, problem.option_piece, problem.counts)
    found: dict[int, list[int]] = {}
    for o, p in zip(heads.tolist(), problem.option_piece[heads].tolist()):
        found.setdefault(p, []).append(o)
    return tuple(Preplaced(p, tuple(found[p]), len(perms)) for p in sorted(found))


def preplaced(problem: TilingProblem) -> Preplaced | None:
    """The free piece with the fewest orbits of placements (the first such), or None when no piece is free."""
    return min(free_pieces(problem), key=lambda f: len(f.representatives), default=None)


class DistinctStream(Protocol):
    """What `OrbitStream` reads from the stream of distinct solutions (a `SolutionStream`)."""

    partial: bool
    finished: bool

    @property
    def nodes(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    def __next__(self) -> Solution: ...
    def fraction(self) -> float: ...
    def close(self) -> None: ...


class OrbitStream(Iterator[Solution]):
    """All tilings, as the images of the distinct ones under the group (each image once); like `SolutionStream`."""

    def __init__(self, distinct: DistinctStream, problem: TilingProblem, plan: Plan, limit: int | None) -> None:
        self._distinct = distinct
        self._cells = problem.cells
        self._index = {cell: i for i, cell in enumerate(problem.cells)}
        self._perms = plan.images
        self._dedupe = plan.weighted  # only a tiling with symmetry has repeated images
        self._limit = limit
        self._queue: list[Solution] = []
        self.method = plan.method
        self.count = 0
        self.finished = False

    @property
    def nodes(self) -> int:
        """Search nodes visited so far."""
        return self._distinct.nodes

    @property
    def seconds(self) -> float:
        """Seconds spent in the kernel so far."""
        return self._distinct.seconds

    @property
    def partial(self) -> bool:
        """True when the search was interrupted or closed before the end."""
        return self._distinct.partial

    def fraction(self) -> float:
        """Estimated share of the search tree explored so far."""
        return self._distinct.fraction()

    def images(self, solution: Solution) -> list[Solution]:
        """The distinct images of a solution under the group, itself first."""
        rows = [(p.piece, [self._index[cell] for cell in p.cells]) for p in solution]
        out: list[Solution] = []
        seen: set[frozenset[Placement]] = set()
        for perm in self._perms:
            image = tuple(Placement(name, tuple(sorted(self._cells[perm[c]] for c in cs))) for name, cs in rows)
            if self._dedupe:
                key = frozenset(image)
                if key in seen:
                    continue
                seen.add(key)
            out.append(image)
        return out

    def __iter__(self) -> OrbitStream:
        return self

    def __next__(self) -> Solution:
        if self._limit is not None and self.count >= self._limit:
            self.finished = True  # like SolutionStream: reaching the limit is not an interruption
            raise StopIteration
        if not self._queue:
            if self.finished:
                raise StopIteration
            try:
                found = next(self._distinct)
            except StopIteration:
                self.finished = True
                raise
            self._queue = self.images(found)[::-1]
        self.count += 1
        return self._queue.pop()

    def close(self) -> None:
        """Stop: iteration ends at once, flagged ``partial`` unless the search had finished."""
        if not self.finished:
            self._distinct.close()
        self._queue.clear()
        self.finished = True
