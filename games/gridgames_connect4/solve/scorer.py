"""Every column's score of a position, within limits: the opening book where it covers the position, else the
solver (in this process, or one column per worker). The one place `analyze` and its callers get column scores from.

`Limits` says how far to go (think time, weak or strong, the book, jobs or a Dask scheduler, the table, progress,
Ctrl-C); `score_columns` returns `Scores`: the columns (None: full or unsolved), whether the book answered, and
why it stopped early, if it did (then the scores solved so far are exact, the others unknown).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from gridgames.errors import GameOverError, SolverError
from gridgames.parsing import check_seconds
from gridgames_connect4.position.rules import Connect4, Connect4State
from gridgames_connect4.position.sizes import PLAYER_NAMES

if TYPE_CHECKING:
    from gridgames_connect4.solve.solver import Solver

__all__ = ["Limits", "Position", "Scores", "column_score", "score_columns"]


@attrs.frozen
class Limits:
    """How far `score_columns` goes, and with what.

    ``think``: seconds, after which unsolved columns stay None (the scores are partial, stopped "time"). ``weak``:
    signs only (+1, 0, -1). ``book``: a `Book` for this board, answering the positions it covers (None: no book).
    ``jobs`` or ``scheduler``: one column per local worker process, or per task on a Dask scheduler; with
    ``shared_table`` and ``jobs`` > 1, that many searchers (threads) search each column together on one table
    instead (lazy SMP; measured slower than the column split so far, see bench/README.md). ``table_mb``: the
    solver's table. ``on_progress`` receives a ``SearchProgress`` (sequential searches, between slices of the
    search) or the number of columns solved (parallel runs). ``keep_partial``: Ctrl-C returns the columns solved
    so far, stopped "interrupted" (else KeyboardInterrupt propagates).
    """

    think: float | None = None
    weak: bool = False
    book: Any = None
    jobs: int | str | None = None
    scheduler: str | None = None
    shared_table: bool = False
    table_mb: float | None = None
    on_progress: Callable[[Any], None] | None = None
    keep_partial: bool = False


@attrs.frozen
class Scores:
    """Every column's score (None: full or unsolved), weak or not, whether the book gave them, why the search
    stopped early ("time", "interrupted"; None: every playable column is scored, exactly), and the positions the
    solver explored in this process (0 from the book, and when workers solved the columns)."""

    columns: tuple[int | None, ...]
    weak: bool = False
    from_book: bool = False
    stopped: str | None = None
    explored: int = 0

    @property
    def exact(self) -> bool:
        """True when every playable column is scored."""
        return self.stopped is None


@attrs.frozen
class Position:
    """What a worker needs to score one column of a position: the board's size, the moves (0-based), weak or not.

    ``deadline`` (a ``time.time()`` value) stops the worker's search there; ``table_mb`` sizes its table.
    """

    width: int
    height: int
    connect: int
    moves: tuple[int, ...]
    weak: bool = False
    deadline: float | None = None
    table_mb: float | None = None

    @classmethod
    def of(
        cls, state: Connect4State, weak: bool = False, deadline: float | None = None, table_mb: float | None = None
    ) -> Position:
        """The position of a game state."""
        game = state.game
        return cls(
            game.width, game.height, game.connect, tuple(int(m) for m in state.history), weak, deadline, table_mb
        )


def column_score(position: Position, column: int) -> int | None:
    """The score of dropping a disc in ``column`` (0-based) for the side to move; None when full or out of time."""
    state = Connect4(position.width, position.height, position.connect).from_moves(position.moves)
    if not state.is_legal(column):
        return None
    state.play(column)
    if state.outcome is not None:  # a win at once, or the last cell filled
        if state.outcome.winner is None:
            return 0
        return 1 if position.weak else (position.width * position.height + 1 - len(position.moves)) // 2
    # the worker process's solvers: its table allocated once
    from gridgames_connect4.solve.solver_cache import lend

    deadline = position.deadline
    with lend(position.width, position.height, position.connect, table_mb=position.table_mb) as solver:
        solver.reset()
        score = solver.solve_within(  # null windows stepping out from 0, as the sequential analyze
            list(state.history),
            weak=position.weak,
            step=True,
            on_progress=None if deadline is None else (lambda _progress: time.time() < deadline),
        )
    return None if score is None else -score


def _solver_class() -> type[Solver]:
    """The solver class, imported when first needed (the book answers most positions without it)."""
    from gridgames_connect4.solve.solver import Solver

    return Solver


def score_columns(state: Connect4State, limits: Limits) -> Scores:
    """Every column's score of ``state`` within ``limits``: from the book where it covers the position, else from
    the solver (one column per worker with ``jobs`` or ``scheduler``). `GameOverError` on a finished game."""
    weak, jobs, scheduler, think = limits.weak, limits.jobs, limits.scheduler, limits.think
    table_mb, on_progress, book = limits.table_mb, limits.on_progress, limits.book
    if state.is_over:
        outcome = state.outcome
        assert outcome is not None
        ended = "a draw" if outcome.winner is None else f"{PLAYER_NAMES[outcome.winner]} won"
        raise GameOverError(f"the game is over ({ended}): there is nothing to analyze")
    if think is not None:
        check_seconds(think, what="think", error=SolverError)
    game = state.game
    if book is not None:  # the opening book answers the positions it covers, at once
        from gridgames_connect4.solve.oracle import book_columns, check_book

        check_book(book, game.width, game.height, game.connect)
        known = book_columns(book, state.history, weak)
        if known is not None:
            return Scores(tuple(known), weak, from_book=True)
    solver_cls = _solver_class()  # numba: only when the book does not answer
    deadline = None if think is None else time.time() + think
    scores: list[int | None] = [None] * game.width
    stopped = None
    explored = 0
    together = 1
    if scheduler is None and jobs is not None:
        from gridgames.search.parallel import resolve_jobs

        together = resolve_jobs(jobs)
        if together > 1 and not limits.shared_table:
            together = 0  # split the columns over workers
    if scheduler is None and together >= 1:
        # the search never meets a position with fewer discs than this one: a book shallower than its children's parents
        # cannot help it, and is not read (whole, checked) for nothing
        useful = book if book is not None and len(state.history) <= book.depth + 1 else None
        solver = solver_cls(game.width, game.height, game.connect, table_mb=table_mb, jobs=together, book=useful)

        def watch(progress: Any) -> bool:
            if on_progress is not None:
                on_progress(progress)
            return deadline is None or time.time() < deadline

        try:
            solver.analyze(list(state.history), weak=weak, into=scores, on_progress=watch)
        except KeyboardInterrupt:
            if not limits.keep_partial:
                raise
            stopped = "interrupted"
        explored = solver.explored
    else:
        stopped = _analyze_by_columns(state, weak, jobs, scheduler, deadline, table_mb, scores, on_progress)
        if stopped == "interrupted" and not limits.keep_partial:
            raise KeyboardInterrupt
    if stopped is None and any(s is None and state.is_legal(c) for c, s in enumerate(scores)):
        stopped = "time"
    return Scores(tuple(scores), weak, stopped=stopped, explored=explored)


def _analyze_by_columns(
    state: Connect4State,
    weak: bool,
    jobs: int | str | None,
    scheduler: str | None,
    deadline: float | None,
    table_mb: float | None,
    scores: list[int | None],
    on_progress: Callable[[Any], None] | None,
) -> str | None:
    """Every column's score, each solved in a worker (local processes or Dask), into ``scores``; why it stopped
    early."""
    from gridgames.search.parallel import run_parts

    game = state.game
    # refuses a board too big, in one line: with the table the workers get (a smaller one cannot tell a 10x10 board's
    # 110-bit keys apart, and was a false "needs a table of at least 2 MiB"); its pages are never touched here
    _solver_class()(game.width, game.height, game.connect, table_mb=table_mb)
    solved = 0

    def collect(column: int, score: int | None) -> None:
        nonlocal solved
        scores[column] = score
        solved += 1
        if on_progress is not None:
            on_progress(solved)

    done = run_parts(
        column_score,
        list(range(game.width)),
        shared=Position.of(state, weak, deadline, table_mb),
        jobs=jobs,
        scheduler=scheduler,
        on_result=collect,
        describe=lambda column: f"column {column + 1} after {state.notation() or 'no move'}",
    )
    for column, (result, finished) in enumerate(zip(done.results, done.done)):
        if finished:
            scores[column] = result
    return "interrupted" if done.partial else None
