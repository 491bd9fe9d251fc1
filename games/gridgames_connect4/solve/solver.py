"""Connect Four strong and weak solver (Pascal Pons' algorithm on a numba-compiled bitboard kernel).

Scores follow Pons' convention, from the side to move's view: a win with one's own i-th disc of the game
scores (cells + 1 - plies_before_that_disc) // 2 (22 - i on 7x6), a loss the negative of the winner's score,
a draw 0. Moves are 0-based column indices.

`Solver` is the public face: solve, analyze, best move, each call taking its own ``on_progress`` watcher. Under
it, `search_driver.SearchDriver` owns the tables and kernels and asks the null windows, and `policy` chooses a
move within a budget of positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from attrs import define, field

from gridgames.errors import InvalidMoveError, SolverError
from gridgames_connect4.solve import policy
from gridgames_connect4.solve.engine import aot as _kernels
from gridgames_connect4.solve.policy import SearchResult
from gridgames_connect4.solve.search_driver import (
    DEFAULT_NODE_RATE,
    UNLIMITED,
    SearchDriver,
    SearchProgress,
    Watch,
    nodes_for_seconds,
)

from gridgames_connect4.solve.scores import sign
from gridgames_connect4.solve.table_memory import DEFAULT_TABLE_MB

if TYPE_CHECKING:
    from gridgames_connect4.solve.book import Book

__all__ = [
    "DEFAULT_NODE_RATE",
    "DEFAULT_TABLE_MB",
    "SearchProgress",
    "SearchResult",
    "Solver",
    "Watch",
    "kernels_compiled",
    "nodes_for_seconds",
    "parse_pons_moves",
]


def kernels_compiled(ahead: bool = True) -> bool:
    """Whether the search kernels are ready (False: the next solve compiles them): built ahead of time (when they
    serve this solver: ``ahead``), else compiled in this process or in numba's cache on disk."""
    from gridgames.search.compiled import kernels_ready

    if ahead and _kernels.load() is not None:
        return True
    return kernels_ready(_kernels.jit().run_search)


FIRST_USE_NOTICE = "Compiling the Connect Four solver (first use only)..."


def prepare_kernels(say: Callable[[str], None], ahead: bool = True) -> None:
    """Before the first search: tell ``say`` (FIRST_USE_NOTICE) when numba's JIT must compile the kernels first (the
    module built with the package does not serve: a board over 64 bits, no C compiler at install, or it does not
    verify). Builds nothing: the package's build made the module (`gridgames.native`)."""
    if not kernels_compiled(ahead):
        say(FIRST_USE_NOTICE)


def parse_pons_moves(text: str) -> list[int]:
    """Column list from Pons' notation (1-based digits, e.g. "4453") as 0-based columns."""
    if not text.isdigit():
        raise InvalidMoveError(f"move string must be 1-based column digits, got {text!r}")
    columns = [int(ch) - 1 for ch in text]
    if -1 in columns:
        raise InvalidMoveError(f"column digit 0 in {text!r}: Pons notation is 1-based")
    return columns


@define(eq=False)
class Solver:
    """Perfect Connect Four solver for boards whose bitboard fits in 128 bits (`Geometry.bits`).

    Boards up to 64 bits run on one uint64 per bitboard, larger ones on two (``two_words`` forces that layout, to
    test it on small boards). ``jobs`` > 1 lets a long search of one position start jobs - 1 helper threads that
    search it too, sharing the table.
    ``book``: an opening book (``depth``, sorted mirror-canonical uint64 ``keys``, int8 strong ``scores``, as
    `gridgames_connect4.solve.book.Book`), probed by the search at positions within its depth.
    ``kernels``: "auto" runs the kernels built ahead of time (`gridgames_connect4.solve.engine.aot`: no numba in the
    process) when they exist and fit (a one-word board, one searcher), else numba's JIT ones; "jit" always the JIT
    ones; "aot" requires the others.

    Each search call takes ``on_progress``: told a `SearchProgress` between slices of about 0.03 s (Ctrl-C gets
    through), it stops the search by returning False. A solver is not for two threads at once
    (`gridgames_connect4.solve.solver_cache` lends each thread its own).
    """

    width: int = 7
    height: int = 6
    connect: int = 4
    table_bits: int | None = None
    table_mb: float | None = None
    two_words: bool = field(default=False, kw_only=True)
    jobs: int = field(default=1, kw_only=True)
    book: Book | None = field(default=None, kw_only=True)
    kernels: str = field(default="auto", kw_only=True)
    explored_each: list[int] = field(factory=list, init=False)
    """Positions explored by each position of the last `solve_many`."""
    driver: SearchDriver = field(init=False, repr=False)
    """The tables, kernels and windows under this solver (`search_driver`)."""

    def __attrs_post_init__(self) -> None:
        self.driver = SearchDriver(
            self.width,
            self.height,
            self.connect,
            self.table_bits,
            self.table_mb,
            self.two_words,
            self.jobs,
            self.book,
            self.kernels,
        )

    @property
    def explored(self) -> int:
        """Positions explored by the last call."""
        return self.driver.explored

    @property
    def table_bytes(self) -> int:
        """Memory used by the transposition table, in bytes."""
        return self.driver.table_bytes

    @property
    def table_entries(self) -> int:
        """Number of positions the transposition table can hold."""
        return self.driver.table.capacity

    def reset(self) -> None:
        """Forget the transposition table (in O(1): its buckets are tagged with a generation)."""
        self.driver.reset()

    def win_score(self, moves_before: int) -> int:
        """The score (Pons' convention) of winning with the next move after ``moves_before`` moves."""
        return self.driver.win_score(moves_before)

    def nodes_for_seconds(self, seconds: float) -> int:
        """Node budget for about `seconds`, from this solver's measured rate (or the conservative default)."""
        return self.driver.nodes_for_seconds(seconds)

    def solve(
        self, moves: Sequence[int], weak: bool = False, *, lower: int | None = None, on_progress: Watch | None = None
    ) -> int:
        """Score of the position after `moves` for the side to move (weak: only its sign, -1/0/+1).

        ``lower``: a score the position is known to reach (minus a parent's exact score, from a book), so the
        search first asks whether the score is exactly that: one null window settles a parent's best move.
        A wrong bound gives a wrong score. Ignored when weak. Without it, a position one disc past the solver's
        book takes the best bound of its parents there. ``on_progress`` returning False raises `SolverError`
        (`solve_within` returns None instead).
        """
        d = self.driver
        if on_progress is None and d.helpers is None and (weak or (lower is None and not d.past_book(len(moves)))):
            at_once = d.solve_one(moves, weak)  # one compiled call: replay and search
            return sign(at_once) if weak else at_once
        with d.watching(on_progress):
            if not weak and (lower is not None or d.past_book(len(moves))):
                score = d.solve_bounded(moves, lower)
                if score is not None:
                    return score
            # past the book, no bound from it: one compiled call
            if on_progress is None and d.helpers is None:
                at_once = d.solve_one(moves, weak)
                return sign(at_once) if weak else at_once
            p, mask, n = d.position(moves)
            d.explored = 0
            found = d.solve_raw(p, mask, n, weak, UNLIMITED)
        # no budget runs out here: only on_progress stops the search (solve_within allows that)
        if found is None:
            raise SolverError("the search was stopped by on_progress before it had a score (use solve_within)")
        return sign(found) if weak else found

    def solve_within(
        self,
        moves: Sequence[int],
        weak: bool = False,
        max_nodes: int | None = None,
        step: bool = False,
        *,
        on_progress: Watch | None = None,
    ) -> int | None:
        """Like solve, but None when `max_nodes` runs out or ``on_progress`` returns False.

        ``step``: null windows step out from 0 instead of bisecting (fewer positions when the score is near 0, as a
        column of a position in play usually is; see `analyze`).
        """
        d = self.driver
        with d.watching(on_progress):
            p, mask, n = d.position(moves)
            d.explored = 0
            solve = d.solve_probing if step else d.solve_raw
            score = solve(p, mask, n, weak, UNLIMITED if max_nodes is None else max_nodes)
        return None if score is None else sign(score) if weak else score

    def solve_many(self, positions: Sequence[Sequence[int]], weak: bool = False, reset: bool = True) -> list[int]:
        """Scores of many positions in one compiled call (reset: a fresh table for each); explored_each is set.

        A position one disc past the solver's book is solved as `solve` solves it, from its parents' bound in the
        book, so that no position costs more here than alone (the batch kernel bisects from no bound).
        """
        d = self.driver
        scores = [0] * len(positions)
        each = [0] * len(positions)
        run: list[int] = []  # positions waiting for the batch kernel, in order

        def flush() -> None:
            if not run:
                return
            lengths = [len(positions[i]) for i in run]
            cols = d.columns_array([m for i in run for m in positions[i]])
            starts = np.zeros(len(lengths) + 1, np.int64)
            np.cumsum(lengths, out=starts[1:])
            out, explored = d.solve_batch(cols, starts, weak, reset)
            for i, score, count in zip(run, out.tolist(), explored.tolist()):
                scores[i], each[i] = score, count
            run.clear()

        for i, moves in enumerate(positions):
            if not weak and d.past_book(len(moves)):
                # the positions before it first: the first bad position's error is the one raised
                flush()
                if reset:
                    d.reset()
                score = d.solve_bounded(moves, None)
                if score is not None:
                    scores[i], each[i] = score, d.explored
                    continue
            run.append(i)
        flush()
        self.explored_each = each
        d.explored = sum(each)
        return [sign(x) for x in scores] if weak else scores

    def analyze(
        self,
        moves: Sequence[int],
        weak: bool = False,
        *,
        into: list[int | None] | None = None,
        on_progress: Watch | None = None,
    ) -> list[int | None]:
        """Score of each column for the side to move (None if the column is full, or unsolved when ``on_progress``
        stopped it).

        ``into`` (a list of width items) receives each score as soon as it is known, so that a caller interrupted by
        Ctrl-C keeps the columns already solved.
        """
        d = self.driver
        with d.watching(on_progress):
            p, mask, n = d.position(moves)
            d.explored = 0
            scores: list[int | None] = [None] * self.width if into is None else into
            wins = d.wins(p, mask)
            # at the book's deepest ply a child's parents are in the book (this position among them, unless it wins
            # at once): their scores bound the child's, see solve's lower
            bounds = d.bounds_by_parents(p, mask) if not weak and n == d.book_arrays.depth else {}
            for c in d.order:
                if not d.can_play(mask, c):
                    continue
                cell = d.cell(mask, c)
                if wins & cell:
                    scores[c] = 1 if weak else d.win_score(n)
                    continue
                if n + 1 == d.cells:
                    scores[c] = 0
                    continue
                child = d.solve_probing(p ^ mask, mask | cell, n + 1, weak, UNLIMITED - d.explored, bounds.get(c))
                if child is None:
                    break
                scores[c] = -sign(child) if weak else -child
        return scores

    def analyze_many(self, positions: Sequence[Sequence[int]], weak: bool = False) -> list[list[int | None]]:
        """Every column's score of many positions, the children solved in one compiled call (one fresh table for
        all)."""
        d = self.driver
        children: list[list[int]] = []
        slots: list[tuple[int, int]] = []
        results: list[list[int | None]] = []
        for i, moves in enumerate(positions):
            p, mask, n = d.position(moves)
            row: list[int | None] = [None] * self.width
            wins = d.wins(p, mask)
            for c in range(self.width):
                if not d.can_play(mask, c):
                    continue
                if wins & d.cell(mask, c):
                    row[c] = 1 if weak else d.win_score(n)
                elif n + 1 == d.cells:
                    row[c] = 0
                else:
                    children.append([*moves, c])
                    slots.append((i, c))
            results.append(row)
        self.reset()  # siblings share subtrees: the table is kept from child to child
        scores = self.solve_many(children, weak=weak, reset=False)
        for (i, c), score in zip(slots, scores):
            results[i][c] = -score
        return results

    def best_move(
        self,
        moves: Sequence[int],
        *,
        max_nodes: int | None = None,
        rng: random.Random | None = None,
        all_scores: bool = True,
        on_progress: Watch | None = None,
    ) -> SearchResult:
        """Best column after `moves`: perfect play, or a depth-limited search if `max_nodes` runs out (how the budget
        is shared out: `gridgames_connect4.solve.policy.best_move`)."""
        with self.driver.watching(on_progress):
            return policy.best_move(self.driver, list(moves), max_nodes, rng, all_scores)
