"""`ExactCoverPuzzle`: any placement puzzle solved by the generic exact-cover engine.

A subclass declares what must be covered and where pieces may go; it gets
`solutions`, `count` and an independent `is_solution` for free::

    class Dominoes(ExactCoverPuzzle):
        def __init__(self, height, width):
            self._board = Grid.empty(height, width)

        @property
        def board(self):
            return self._board

        def primary_items(self):                 # covered exactly once
            return self._board.board_cells()

        def candidates(self):                    # (placement, items it covers)
            for r, c in self._board.board_cells():
                for cells in (((r, c), (r, c + 1)), ((r, c), (r + 1, c))):
                    if all(self._board.on_board(cell) for cell in cells):
                        yield Placement("domino", cells), cells

Items are any hashable values (cells, ``("row", 3)``, piece names). Secondary
items (`secondary_items`) are covered at most once.

Unique counts (``unique=True``) are defined by the symmetry group the subclass declares
in `symmetries` (maps of cells; `grid_symmetries` gives a board's own), acting on
*placements*, not on names: a symmetry maps each candidate placement to the candidate
of the same name on the image cells, or, when there is none, to the one candidate on
those cells whatever its name (so dominoes named "H" and "V" count like dominoes all
named "D": the names are then taken as labels of the same piece -- the one assumption
made, reported in `CountResult.method`). A symmetry is used only once it is proved to
map the problem onto itself (a permutation of the candidates that carries every
item's set of candidates onto another item's of the same kind, so solutions onto
solutions); one that does not (a missing or ambiguous image) is refused and named in
the method. The group is closed under composition, and a solution is counted when it
is the least of its images (orbit counting: exactly one per class). A subclass that
lists no symmetry counts every solution as distinct (unique == count).

Engines, one family: a puzzle whose items are exactly the board's cells, each candidate
covering its placement's cells (a tiling), runs on the fast bitmask tiling kernel
(`gridgames.search.tiling`) with parallel counts (`count_parallel`) and the kernel's
own symmetry handling when the declared group is the kernel's; any other problem of
at most 64 items runs on the same kernel as a general exact cover (secondary items as
slack options, see `kernel_problem`), and larger ones on dancing links
(`gridgames.search.exact_cover`). `engine` names the one used; ``count(engine=...)``
forces one.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from gridgames.errors import PuzzleError
from gridgames.game import CountResult, Placement, ProgressCallback, Puzzle, Solution
from gridgames.grid import HOLE, Cell, Grid
from gridgames.search import tiling as tiling_engine
from gridgames.search.exact_cover import ExactCover
from gridgames.search.tiling.from_puzzle import KernelProblem, compile_general, compile_tiling
from gridgames.search.symmetry import board_symmetries
from gridgames.search.tiling import prepare_unique
from gridgames.search.tiling.general import decode

CellMap = Mapping[Cell, Cell] | Callable[[Cell], Cell]
"""A symmetry of the board: where each cell goes (a mapping, or a function of the cell)."""

SolutionKey = tuple[tuple[str, tuple[Cell, ...]], ...]
# a declared group larger than this is refused (the canonical test tries every element)
MAX_GROUP = 5_000
# solutions checked together (numpy) in unique counts the kernel cannot make itself
CANONICAL_BATCH = 2048


@attrs.frozen(eq=False)
class PlacementGroup:
    """The declared symmetries as permutations of the candidate placements (identity first), closed under
    composition."""

    perms: np.ndarray  # (G, options) int64
    # some symmetry maps a placement onto one of another name (names taken as labels of one piece)
    renamed: bool
    refused: tuple[str, ...]  # declared symmetries that do not map the problem onto itself, and why

    @property
    def size(self) -> int:
        """How many symmetries, the identity included."""
        return len(self.perms)

    def describe(self) -> str:
        """The method line of a unique count: the group's size, the naming assumption, what was refused."""
        if self.size == 1 and not self.refused:
            return "no symmetry declared"
        text = f"canonical ({self.size} symmetries acting on placements"
        text += (
            "; placements of different names on the same cells taken as one piece)" if self.renamed else "; names kept)"
        )
        if self.refused:
            text += f"; refused: {'; '.join(self.refused)}"
        return text


def grid_symmetries(board: Grid) -> list[dict[Cell, Cell]]:
    """The rotations and reflections (other than the identity) that map the board's cells onto themselves."""
    cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(board.cells != HOLE))]
    if not cells:
        return []
    perms = board_symmetries(cells)
    return [{cell: cells[int(j)] for cell, j in zip(cells, perm)} for perm in perms[1:]]


def _apply(cell_map: CellMap, cell: Cell) -> Cell:
    if callable(cell_map):
        return cell_map(cell)
    return cell_map[cell]


def _as_cell(cell: Iterable[int]) -> Cell:
    """A symmetry's image of a cell as a (row, col) pair (TypeError or ValueError when it is not one)."""
    row, col = cell
    return row, col


def _close(generators: list[np.ndarray], limit: int = MAX_GROUP) -> np.ndarray | None:
    """The group the permutations generate (identity first), or None past ``limit`` elements."""
    n = len(generators[0]) if generators else 0
    identity = np.arange(n, dtype=np.int64)
    seen = {identity.tobytes(): identity}
    frontier = [identity]
    while frontier:
        fresh = []
        for element in frontier:
            for g in generators:
                product = g[element]
                key = product.tobytes()
                if key not in seen:
                    seen[key] = product
                    fresh.append(product)
                    if len(seen) > limit:
                        return None
        frontier = fresh
    return np.array(list(seen.values()), dtype=np.int64).reshape(len(seen), n)


def solution_key(solution: Iterable[Placement]) -> SolutionKey:
    """A solution as a sorted tuple of (piece, cells): equal for the same placements in any order."""
    return tuple(sorted((p.piece, p.cells) for p in solution))


class ExactCoverPuzzle(Puzzle):
    """A placement puzzle declared as items and candidate placements, solved by `ExactCover`."""

    def primary_items(self) -> Sequence[Hashable]:
        """Items every solution covers exactly once (by default the board's cells)."""
        return self.board.board_cells()

    def secondary_items(self) -> Sequence[Hashable]:
        """Items a solution covers at most once (none by default)."""
        return ()

    def candidates(self) -> Iterable[tuple[Placement, Iterable[Hashable]]]:
        """Every placement a solution may use, with the items it covers."""
        raise NotImplementedError(f"{type(self).__name__} must define candidates()")

    def symmetries(self) -> Sequence[CellMap]:
        """The board's symmetries besides the identity, for ``unique=True`` (none by default)."""
        return ()

    # --- derived ------------------------------------------------------------
    def exact_cover(self) -> ExactCover:
        """The exact-cover problem of this puzzle (built once)."""
        cached = self.__dict__.get("_gridgames_exact_cover")
        if cached is None:
            options = list(self.candidates())
            placements = [placement for placement, _ in options]
            repeated = [p for p, n in Counter(placements).items() if n > 1]
            if repeated:
                raise PuzzleError(f"the candidate placement {repeated[0]} is declared twice")
            cached = ExactCover.from_items(
                list(self.primary_items()), ((p, tuple(items)) for p, items in options), list(self.secondary_items())
            )
            self.__dict__["_gridgames_exact_cover"] = cached
        return cached

    def placement_group(self) -> PlacementGroup:
        """The declared symmetries acting on the candidates, each proved to map the problem onto itself (built once)."""
        cached: PlacementGroup | None = self.__dict__.get("_gridgames_placement_group")
        if cached is not None:
            return cached
        problem = self.exact_cover()
        labels: tuple[Placement, ...] = problem.labels
        n = len(labels)
        by_name = {(p.piece, p.cells): k for k, p in enumerate(labels)}
        by_cells: dict[tuple[Cell, ...], list[int]] = {}
        for k, p in enumerate(labels):
            by_cells.setdefault(p.cells, []).append(k)
        columns: list[list[int]] = [[] for _ in range(problem.num_items)]
        for k, items in enumerate(problem.options):
            for item in items:
                columns[item].append(k)
        kinds = [i < problem.num_primary for i in range(problem.num_items)]
        structure = Counter((kind, frozenset(col)) for kind, col in zip(kinds, columns))
        generators, refused, renamed = [], [], False
        for number, cell_map in enumerate(self.symmetries(), start=1):
            image = np.empty(n, dtype=np.int64)
            reason, changed = "", False
            for k, placement in enumerate(labels):
                try:
                    cells = tuple(sorted(_as_cell(_apply(cell_map, c)) for c in placement.cells))
                except (KeyError, IndexError, TypeError, ValueError):
                    reason = f"it does not map the cells of {placement.piece} at {list(placement.cells)}"
                    break
                same = by_name.get((placement.piece, cells))
                if same is None:
                    others = by_cells.get(cells, [])
                    if len(others) != 1:
                        what = "no candidate" if not others else f"{len(others)} candidates of other names"
                        reason = (
                            f"{placement.piece} at {list(placement.cells)} goes to {list(cells)}, where there is {what}"
                        )
                        break
                    same, changed = others[0], True
                image[k] = same
            if not reason and len(set(image.tolist())) != n:
                reason = "two placements go to the same one"
            if not reason:
                mapped = Counter((kind, frozenset(int(image[o]) for o in col)) for kind, col in zip(kinds, columns))
                if mapped != structure:
                    reason = (
                        "it does not map the items covered onto items covered (solutions would not map onto solutions)"
                    )
            if reason:
                refused.append(f"symmetry {number}: {reason}")
                continue
            generators.append(image)
            renamed = renamed or changed
        perms = _close(generators) if generators else np.arange(n, dtype=np.int64)[None, :]
        if perms is None:
            raise PuzzleError(
                f"the declared symmetries generate more than {MAX_GROUP} permutations; declare a smaller group"
            )
        group = PlacementGroup(perms, renamed, tuple(refused))
        self.__dict__["_gridgames_placement_group"] = group
        return group

    def _canonical_indices(self, chosen: np.ndarray) -> bool:
        perms = self.placement_group().perms
        if len(perms) == 1:
            return True
        images = np.sort(perms[1:, chosen], axis=1)  # (G-1, k)
        key = np.sort(chosen)
        differ = images != key
        first = differ.argmax(axis=1)
        rows = np.flatnonzero(differ.any(axis=1))
        return not np.any(images[rows, first[rows]] < key[first[rows]])

    def _canonical_batch(self, solutions: list[list[int]]) -> np.ndarray:
        """For each solution (candidate indices) of one size or several, whether it is the least of its images."""
        perms = self.placement_group().perms[1:]
        result = np.ones(len(solutions), dtype=bool)
        by_size: dict[int, list[int]] = {}
        for i, chosen in enumerate(solutions):
            by_size.setdefault(len(chosen), []).append(i)
        for rows in by_size.values():
            keys = np.sort(np.array([solutions[i] for i in rows], dtype=np.int64), axis=1)  # (B, k)
            images = np.sort(perms[:, keys], axis=2)  # (G-1, B, k)
            differ = images != keys[None]
            first = differ.argmax(axis=2)  # (G-1, B)
            smaller = (
                np.take_along_axis(images, first[..., None], axis=2)[..., 0]
                < np.take_along_axis(keys[None].repeat(len(perms), 0), first[..., None], axis=2)[..., 0]
            )
            beaten = (smaller & differ.any(axis=2)).any(axis=0)
            result[rows] = ~beaten
        return result

    def _placement_index(self) -> dict[Placement, int]:
        index = self.__dict__.get("_gridgames_placement_index")
        if index is None:
            index = {label: k for k, label in enumerate(self.exact_cover().labels)}
            self.__dict__["_gridgames_placement_index"] = index
        return index

    # --- the bitmask kernel ----------------------------------------------
    def kernel_problem(self, *, any_size: bool = False) -> KernelProblem | None:
        """The puzzle compiled for the bitmask kernel, or None when it runs on dancing links only (built once).

        A *tiling* (no secondary item, the primary items are the board's cells, each candidate
        covering exactly its placement's cells, no two on the same cells, one size per name)
        compiles with its cells as the kernel's cells: the kernel then prunes dead regions
        and counts up to symmetry itself. Pieces are the names' classes under the declared
        group (names a symmetry exchanges become one piece), with copies enough for the board.
        Any other problem of at most 64 items (primary and secondary) compiles as a general
        exact cover on one machine word (`gridgames.search.tiling.general`): items are bits
        (primary first), and each secondary item gets a *slack* option covering it alone, so
        that "at most once" becomes "exactly once" with one way to leave it empty (solutions
        unchanged, one for one).
        Larger general problems stay on dancing links, which is faster there (see bench/plugins.py),
        unless ``any_size`` asks for the kernel's multi-word form anyway.
        """
        key = "_gridgames_kernel_any" if any_size else "_gridgames_kernel"
        if key not in self.__dict__:
            self.__dict__[key] = compile_tiling(
                self.exact_cover(), list(self.primary_items()), self.board, lambda: self.placement_group().perms
            ) or compile_general(self.exact_cover(), 64 if not any_size else None)
        kernel: KernelProblem | None = self.__dict__[key]
        return kernel

    @property
    def engine(self) -> str:
        """Which engine solves this puzzle: 'tiling' (the bitmask kernel on cells), 'bitmask' (general, one word) or
        'dancing links'."""
        kernel = self.kernel_problem()
        return "dancing links" if kernel is None else "tiling" if kernel.geometric else "bitmask"

    def _kernel_indices(self, kernel: KernelProblem, solution: Iterable[Placement]) -> list[int]:
        """The candidates (indices) of a solution the kernel found (slack placements left out)."""
        return [kernel.back[(p.piece, p.cells)] for p in solution if kernel.geometric or decode(p) is not None]

    def _kernel_counts_unique(self, kernel: KernelProblem) -> bool:
        """True when the kernel's own symmetry group, as permutations of the candidates, is exactly the declared
        group."""
        group = self.placement_group()
        if not kernel.geometric or group.size == 1:
            return False
        problem = kernel.problem
        cells = problem.cells
        labels: tuple[Placement, ...] = self.exact_cover().labels
        by_cells = {p.cells: k for k, p in enumerate(labels)}
        bit = {cell: i for i, cell in enumerate(cells)}
        mine = {g.tobytes() for g in group.perms}
        theirs = set()
        for perm in prepare_unique(problem, "canonical").group:
            image = np.empty(len(labels), dtype=np.int64)
            for k, p in enumerate(labels):
                moved = tuple(sorted(cells[int(perm[bit[c]])] for c in p.cells))
                if moved not in by_cells:
                    return False
                image[k] = by_cells[moved]
            theirs.add(image.tobytes())
        return mine == theirs

    def _engine_for(self, engine: str | None) -> KernelProblem | None:
        if engine not in (None, "auto", "dancing links", "tiling", "bitmask", "kernel"):
            raise PuzzleError(f"unknown engine {engine!r} (auto, kernel or 'dancing links')")
        if engine == "dancing links":
            return None
        # asked for by name: the multi-word form too
        kernel = self.kernel_problem(any_size=engine not in (None, "auto"))
        if kernel is None and engine not in (None, "auto"):
            raise PuzzleError(f"{type(self).__name__} has no primary item; it cannot run on the bitmask kernel")
        return kernel

    def solutions(
        self,
        *,
        limit: int | None = None,
        unique: bool = False,
        on_progress: ProgressCallback | None = None,
        engine: str | None = None,
    ) -> Iterator[Solution]:
        """Solutions, lazily (one per symmetry class when ``unique``), at most ``limit`` of them."""
        if limit is not None and limit <= 0:
            return
        labels = self.exact_cover().labels
        kernel = self._engine_for(engine)
        check = unique and self.placement_group().size > 1
        if check and engine in (None, "auto") and kernel is not None and not self._kernel_counts_unique(kernel):
            kernel = None  # as in count: the canonical test runs here either way
        found = 0
        if kernel is not None:
            own = check and self._kernel_counts_unique(kernel)
            stream = tiling_engine.solve(
                kernel.problem,
                limit=limit if own or not check else None,
                unique="canonical" if own else False,
                prune=kernel.geometric,
                on_progress=on_progress,
            )
            try:
                for solution in stream:
                    chosen = self._kernel_indices(kernel, solution)
                    if check and not own and not self._canonical_indices(np.array(sorted(chosen), dtype=np.int64)):
                        continue
                    yield tuple(labels[k] for k in chosen)
                    found += 1
                    if limit is not None and found >= limit:
                        return
                # the kernel's stream ends quietly on Ctrl-C: the caller must know the list is partial
                if stream.partial:
                    raise KeyboardInterrupt
            finally:
                stream.close()
            return
        problem = self.exact_cover()
        for picked in problem.search().solutions(on_progress=on_progress):
            if check and not self._canonical_indices(np.array(picked, dtype=np.int64)):
                continue
            yield tuple(labels[k] for k in picked)
            found += 1
            if limit is not None and found >= limit:
                return

    def count(
        self, *, unique: bool = False, on_progress: ProgressCallback | None = None, engine: str | None = None
    ) -> CountResult:
        """Count every solution (one per symmetry class when ``unique``); partial when interrupted by Ctrl-C.

        ``engine``: None (the bitmask kernel for tilings and problems of at most 64 items, else dancing links),
        'kernel' (the bitmask kernel at any size) or 'dancing links'.
        """
        kernel = self._engine_for(engine)
        group = self.placement_group() if unique else None
        check = group is not None and group.size > 1
        if check and engine in (None, "auto") and kernel is not None and not self._kernel_counts_unique(kernel):
            # the canonical test runs here either way, and dancing links hands solutions over faster
            kernel = None
        method = group.describe() if group else "all"
        name = (
            "dancing links"
            if kernel is None
            else "tiling kernel"
            if kernel.geometric
            else "bitmask kernel (secondary items as slack options)"
        )
        if kernel is not None and (not check or self._kernel_counts_unique(kernel)):
            result = tiling_engine.count(
                kernel.problem, unique="canonical" if check else False, prune=kernel.geometric, on_progress=on_progress
            )
            return CountResult(
                result.count,
                partial=result.partial,
                unique=unique,
                seconds=result.seconds,
                nodes=result.nodes,
                method=f"{method}; {name}",
            )
        if kernel is None and not check:
            result = self.exact_cover().count(on_progress=on_progress)
            return CountResult(
                result.count,
                partial=result.partial,
                unique=unique,
                seconds=result.seconds,
                nodes=result.nodes,
                method=f"{method}; {name}",
            )
        started = time.perf_counter()
        found = 0
        batch: list[list[int]] = []

        def flush() -> None:
            nonlocal found
            if batch:
                found += int(self._canonical_batch(batch).sum())
                batch.clear()

        report = None if on_progress is None else (lambda fraction, _: on_progress(fraction, found))
        stream: Any = None
        try:
            if kernel is not None:
                stream = tiling_engine.solve(kernel.problem, prune=kernel.geometric, on_progress=report)
                chosen_lists: Iterable[list[int]] = (self._kernel_indices(kernel, solution) for solution in stream)
            else:
                stream = self.exact_cover().search()
                chosen_lists = (list(chosen) for chosen in stream.solutions(on_progress=report))
            for chosen in chosen_lists:
                batch.append(chosen)
                if len(batch) >= CANONICAL_BATCH:
                    flush()
        except KeyboardInterrupt:
            pass
        flush()
        partial = bool(stream is not None and (stream.partial if kernel is not None else not stream.done))
        if kernel is not None and stream is not None:
            stream.close()
        return CountResult(
            found,
            partial=partial,
            unique=True,
            seconds=time.perf_counter() - started,
            nodes=stream.nodes if stream else 0,
            method=f"{method}; {name}",
        )

    def count_parallel(
        self,
        *,
        jobs: int | str | None = 1,
        scheduler: str | None = None,
        unique: bool = False,
        on_progress: ProgressCallback | None = None,
    ) -> Any:
        """Count by independent parts in ``jobs`` local processes or on a Dask ``scheduler`` (on the bitmask kernel); a
        `ParallelCount`."""
        kernel = self.kernel_problem()
        if kernel is None:
            raise PuzzleError(
                f"{type(self).__name__} runs on dancing links (more than 64 items and not a tiling of the board's "
                "cells), "
                "which counts in one process only; drop --jobs/--scheduler"
            )
        check = unique and self.placement_group().size > 1
        if check and not self._kernel_counts_unique(kernel):
            raise PuzzleError(
                f"{type(self).__name__}'s unique count checks its declared symmetries in one process; drop "
                "--jobs/--scheduler"
            )
        from gridgames.search.tiling.parallel_count import count_parallel

        return count_parallel(
            kernel.problem,
            jobs=jobs,
            scheduler=scheduler,
            unique="canonical" if check else False,
            prune=kernel.geometric,
            on_progress=on_progress,
        )

    def is_solution(self, solution: Solution) -> bool:
        """True when every placement is a candidate and together they cover each primary item once, no secondary
        twice."""
        problem = self.exact_cover()
        index = self._placement_index()
        chosen = []
        for placement in solution:
            if not isinstance(placement, Placement) or placement not in index:
                return False
            chosen.append(index[placement])
        return problem.is_cover(chosen)


__all__ = ["CellMap", "ExactCoverPuzzle", "PlacementGroup", "grid_symmetries", "solution_key"]
