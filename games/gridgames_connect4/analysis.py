"""Solving a position for ``gridgames connect4 analyze``: scores as data, and their plain-English lines.

Scores follow Pascal Pons' convention, from the side to move's view: positive, the
side to move forces a win (the bigger, the sooner); zero, a draw; negative, a loss
(the nearer zero, the later). With ``weak`` only the sign is computed (+1, 0, -1).
The position's score is the best column's score.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from gridgames_connect4 import report
from gridgames_connect4.limits import PLAYER_NAMES
from gridgames_connect4.rules import Connect4, Connect4State
from gridgames.errors import GameOverError, SolverError
from gridgames.parsing import check_seconds

if TYPE_CHECKING:
    from gridgames_connect4.solver import Solver


@attrs.frozen
class Analysis:
    """The solved position: its move string, the score and each column's (None: full or unsolved), the best columns
    (1-based).

    ``stopped`` says why some playable columns are unsolved: "interrupted" (Ctrl-C) or "time" (the think limit);
    then ``score`` is the best solved column's (a lower bound, None if none was solved) and ``best`` is empty.
    """

    state: Connect4State
    score: int | None
    columns: tuple[int | None, ...]
    best: tuple[int, ...]
    weak: bool = False
    stopped: str | None = None

    @property
    def partial(self) -> bool:
        """True when some playable column is unsolved (the answer is not exact)."""
        return self.stopped is not None

    @property
    def unsolved(self) -> tuple[int, ...]:
        """The playable columns without a score (1-based)."""
        return tuple(c + 1 for c, s in enumerate(self.columns) if s is None and self.state.is_legal(c))

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: {"moves", "score", "columns", "best"}, plus "partial", "stopped" and "unsolved" when
        partial."""
        return report.analysis_dict(self.state.notation(), self.score, self.columns, self.best, self.stopped,
                                    self.unsolved if self.partial else ())

    def verdict(self) -> str:
        """What the score means, e.g. 'red wins with its 4th move from now'."""
        if self.score is None:
            raise ValueError("no column was solved: the analysis has no score to put in words")
        game = self.state.game
        return report.verdict(self.score, self.weak, game.width * game.height, len(self.state.history))

    def lines(self) -> list[str]:
        """The report as lines of text."""
        game, state = self.state.game, self.state
        return report.analysis_lines(
            state.notation(), (game.width, game.height, game.connect), len(state.history), self.score, self.columns,
            [state.is_legal(c) for c in range(game.width)], self.best, self.weak, self.stopped, self.unsolved,
        )


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
    from gridgames_connect4.solver_cache import lend  # the worker process's solvers: its table allocated once

    deadline = position.deadline
    with lend(position.width, position.height, position.connect, table_mb=position.table_mb) as solver:
        solver.reset()
        score = solver.solve_within(  # null windows stepping out from 0, as the sequential analyze
            list(state.history), weak=position.weak, step=True,
            on_progress=None if deadline is None else (lambda _progress: time.time() < deadline),
        )
    return None if score is None else -score


def _solver_class() -> type[Solver]:
    """The solver class, imported when first needed (the book answers most positions without it)."""
    from gridgames_connect4.solver import Solver

    return Solver


def book_analysis(state: Connect4State, book: Any, weak: bool = False) -> Analysis | None:
    """The analysis of a position the opening book covers (every column from the book or a quick check), else None."""
    from gridgames_connect4.oracle import book_columns, check_book

    game = state.game
    check_book(book, game.width, game.height, game.connect)
    known = book_columns(book, state.history, weak)
    return None if known is None else analysis_of_columns(state, known, weak)


def analysis_of_columns(state: Connect4State, columns: list[int | None], weak: bool = False) -> Analysis:
    """The exact analysis of every column's score (None: full; signs only when ``weak``): the best score and columns."""
    top = max(s for s in columns if s is not None)
    return Analysis(state, top, tuple(columns), tuple(c + 1 for c, s in enumerate(columns) if s == top), weak)


def analyze_position(
    state: Connect4State,
    *,
    weak: bool = False,
    jobs: int | str | None = None,
    scheduler: str | None = None,
    think: float | None = None,
    table_mb: float | None = None,
    on_progress: Callable[[Any], None] | None = None,
    keep_partial: bool = False,
    book: Any = None,
    shared_table: bool = False,
) -> Analysis:
    """Solve ``state`` with the solver (one column per worker with ``jobs`` or ``scheduler``).

    With ``shared_table`` and ``jobs`` > 1, that many searchers (threads) search each column together on one shared
    table instead (lazy SMP; measured slower than the column split so far, see bench/README.md).

    ``think`` bounds the time in seconds: columns still unsolved then are None and the analysis is partial. Ctrl-C
    raises KeyboardInterrupt, or with ``keep_partial`` returns the columns solved so far, marked "interrupted".
    ``on_progress`` receives a ``SearchProgress`` (sequential searches, between slices of the search) or the
    number of columns solved (parallel runs). ``book`` (a `Book` for this board) answers the positions it covers.
    """
    if state.is_over:
        outcome = state.outcome
        assert outcome is not None
        ended = "a draw" if outcome.winner is None else f"{PLAYER_NAMES[outcome.winner]} won"
        raise GameOverError(f"the game is over ({ended}): there is nothing to analyze")
    if think is not None:
        check_seconds(think, what="think", error=SolverError)
    game = state.game
    if book is not None:  # the opening book answers the positions it covers, at once
        answered = book_analysis(state, book, weak)
        if answered is not None:
            return answered
    solver_cls = _solver_class()  # numba: only when the book does not answer
    deadline = None if think is None else time.time() + think
    scores: list[int | None] = [None] * game.width
    stopped = None
    together = 1
    if scheduler is None and jobs is not None:
        from gridgames.search.parallel import resolve_jobs

        together = resolve_jobs(jobs)
        if together > 1 and not shared_table:
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
            if not keep_partial:
                raise
            stopped = "interrupted"
    else:
        stopped = _analyze_by_columns(state, weak, jobs, scheduler, deadline, table_mb, scores, on_progress)
        if stopped == "interrupted" and not keep_partial:
            raise KeyboardInterrupt
    if stopped is None and any(s is None and state.is_legal(c) for c, s in enumerate(scores)):
        stopped = "time"
    solved = [s for s in scores if s is not None]
    score = max(solved) if solved else None
    best = () if stopped else tuple(c + 1 for c, s in enumerate(scores) if s == score)
    return Analysis(state, score, tuple(scores), best, weak, stopped)


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
