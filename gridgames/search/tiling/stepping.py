"""One resumable search of the tiling kernels (`Search`): its tables and state, advanced a node budget at a time; the
parts a search is split into (`Part`); and the checkerboard colouring test that proves some searches empty."""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence

import numpy as np
from attrs import frozen

from gridgames.errors import SolverError
from gridgames.pieces import colouring_allows
from gridgames.search.tiling import kernel_types as K
from gridgames.search.tiling import kernels
from gridgames.search.tiling.kernel_types import MultiWordTables, OneWordTables, SearchState
from gridgames.search.tiling.problem import TilingProblem, prune_cap
from gridgames.search.tiling.unique import Prepared


@functools.lru_cache(maxsize=16)
def _balances(problem: TilingProblem) -> tuple[int, list[int], list[set[int]]]:
    """The board's colour balance, each option's, and each piece's set of them (computed once per problem)."""
    # colour_balance
    dark = 1 - 2 * (np.array(problem.cells, dtype=np.int64).reshape(problem.n_cells, -1).sum(axis=1) % 2)
    rows = problem.option_cell_rows
    balance = np.where(rows >= 0, dark[np.maximum(rows, 0)], 0).sum(axis=1)
    span = 2 * int(np.abs(balance).max(initial=0)) + 1
    # (piece, balance)
    pairs = set((problem.option_piece.astype(np.int64) * span + balance + span // 2).tolist())
    by_piece: list[set[int]] = [set() for _ in problem.pieces]
    for key in pairs:  # (a set, not np.unique: that imports numpy.ma, 10-20 ms of a fresh process)
        by_piece[key // span].add(key % span - span // 2)
    return int(dark.sum()), balance.tolist(), by_piece


def colour_feasible(problem: TilingProblem, remaining: np.ndarray | Sequence[int], prefix: Sequence[int] = ()) -> bool:
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
        self,
        prep: Prepared,
        *,
        mrv: bool,
        prune: bool,
        prefix: Sequence[int],
        target: int,
        store: bool,
        buffer: int,
        multiword: bool = False,
        orbits: bool = False,
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
            scalars,
            occ,
            rem,
            beg,
            pos,
            lim,
            chosen,
            np.ones(depths + 2, dtype=np.float64),
            np.zeros((rows, depths + 1), dtype=np.int32),
            np.zeros(rows, dtype=np.int32),
            np.zeros(rows, dtype=np.float64),
        )
        self.seconds = 0.0
        if problem.exact and not colour_feasible(problem, rem, prefix):
            scalars[K.PHASE] = K.DONE  # proved empty by the checkerboard colouring
        arrays = None if multiword else problem.one_word
        self.tables: OneWordTables | MultiWordTables
        if arrays is not None:
            if mrv:
                entries = (
                    problem.column_start,
                    arrays.mrv_mask,
                    arrays.mrv_piece,
                    arrays.mrv_run_end,
                    arrays.mrv_option,
                )
            else:
                entries = (
                    arrays.blank_start,
                    arrays.blank_mask,
                    arrays.blank_piece,
                    arrays.blank_run_end,
                    arrays.blank_option,
                )
            self.tables = OneWordTables(
                *entries,
                arrays.probe_bits,
                arrays.late,
                arrays.option_mask,
                problem.option_piece,
                arrays.option_border,
                arrays.neighbours,
                problem.sizes,
                arrays.region_sizes,
                problem.option_cell_rows,
                prep.perms,
            )
            self.run_kernel, self.fraction_kernel, self.one_word = kernels.run, kernels.fraction, True
        else:
            if mrv:
                candidates, run_end = problem.column_options, problem.column_run_end
            else:
                candidates, run_end = np.arange(problem.n_options, dtype=np.int32), problem.run_end
            self.tables = MultiWordTables(
                problem.option_masks,
                problem.first_word,
                problem.last_word,
                problem.option_piece,
                candidates,
                run_end,
                problem.anchor_start,
                problem.column_start,
                problem.deadline_piece,
                problem.deadline_anchor,
                problem.neighbour_list,
                problem.sizes,
                problem.option_cell_rows,
                prep.perms,
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
