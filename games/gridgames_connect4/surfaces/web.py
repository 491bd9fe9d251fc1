"""Connect Four's hooks for ``gridgames serve`` (see `gridgames.web.hooks`): exact column scores, review, its save
files.

* ``move_targets``: a click anywhere in a column drops a disc there;
* ``computer_move``: the levels of `gridgames_connect4.levels` (one move at a time; every solver here is
  borrowed from `gridgames_connect4.solve.solver_cache`);
* ``move_scores``: every column's exact score (Pons' convention, the side to move's view)
  from the opening book or the solver, stopped by the page's budget (unsolved columns are then None), with
  ``ends`` (each column's number of discs to the end with best play) and ``explanation`` (the position in words,
  `gridgames_connect4.teach.explain`);
* ``review``: after the game, every move's score against the best (mistakes marked, each graded as
  `gridgames_connect4.teach.review` does),
  the last positions first (they solve fastest), in batches, as far as the budget goes;
* ``drill_positions``, ``drill_answer``: the drill page (the positions before the mistakes, as ``connect4 drill``;
  each answer judged and explained as ``connect4 explain``);

The opening book shipped for the board (`gridgames_connect4.solve.book.default_book`), if any, answers as in the
terminal: the positions it covers at once, the others through the solver, which probes it in its search.

Save files, and the colours of a game whose first mover is yellow, need no hook: the page saves and loads
through `gridgames.saves` as the terminal does (0.1's own files converted on read), the colours are the
game's ``first`` option and `Connect4.player_styles` tells the page to draw player 0 yellow.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gridgames_connect4.teach.analysis import Analysis
from gridgames_connect4.teach.explain import end_ply
from gridgames_connect4.teach.review import review_game
from gridgames_connect4.position.rules import Connect4State

if TYPE_CHECKING:
    from gridgames_connect4.solve.book import Book
    from gridgames_connect4.solve.solver import SearchProgress
    from gridgames_connect4.solve.solver_cache import LentSolver

__all__ = ["Connect4Web"]

SCORE_HELP = "exact score of each column for the side to move: + wins (bigger is sooner), 0 draws, - loses"
TABLE_MB = 32
EXPLAIN_SECONDS = 2.0
"""How long the explanation of a position may take beyond its scores (its forced line near the end)."""
_PLAYER_LOCK = threading.Lock()  # one computer move at a time: each search takes a core and a table


def _book(state: Connect4State) -> Book | None:
    """The opening book shipped for the board, or None."""
    from gridgames_connect4.solve.book import default_book

    game = state.game
    return default_book(game.width, game.height, game.connect)


def _lend_solver(state: Connect4State) -> LentSolver:
    """A solver for the board from the one cache (`solver_cache`), for a ``with`` block."""
    from gridgames_connect4.solve.solver_cache import lend

    game = state.game
    return lend(game.width, game.height, game.connect, _book(state), table_mb=TABLE_MB)


def _watch(budget: Any, on_slice: Callable[[], None] | None = None) -> Callable[[SearchProgress], bool]:
    """A search's watcher that reports to the budget and stops when it says so."""

    def watch(progress: SearchProgress) -> bool:
        budget.report(None, None, f"{progress.explored:,} positions searched")
        if on_slice is not None:
            on_slice()
        return bool(budget.keep_going(progress.explored))

    return watch


def _explanation(state: Connect4State, book: Any, budget: Any) -> list[str]:
    """The position explained in words (`gridgames_connect4.teach.explain`), one claim a line; [] when the solver does
    not finish it within `EXPLAIN_SECONDS` (the forced line of a late position needs a few more solves)."""
    from gridgames_connect4.teach.explain import explain_position, lines

    from gridgames.errors import GridGamesError

    try:
        with _lend_solver(state) as solver:
            found = explain_position(state.game, list(state.history), book=book, solver=solver, think=EXPLAIN_SECONDS)
    except GridGamesError:
        return []
    return lines(found, state.game.colours)[1:]  # the first line repeats the moves the page shows


class Connect4Web:
    """The web hooks of Connect Four."""

    score_help = SCORE_HELP

    def prepare(self, say: Callable[[str], None]) -> None:
        """Build (or compile) the solver's kernels now, so that the first hint or perfect move does not wait for
        them."""
        from gridgames_connect4.solve.solver import Solver, prepare_kernels

        prepare_kernels(say)
        # load them into this process (milliseconds when built ahead; else numba compiles or loads its own now)
        Solver(4, 4, table_bits=12).solve([0, 1])

    def move_targets(self, state: Connect4State) -> dict[int, list[tuple[int, int]]]:
        """Every cell of a playable column plays that column."""
        height = state.game.height
        return {column: [(row, column) for row in range(height)] for column in state.legal_moves()}

    def computer_move(self, state: Connect4State, level: str, rng: random.Random, think: float) -> tuple[int, str]:
        """The move of a computer level (thinking at most ``think`` seconds) and its note."""
        from gridgames_connect4.levels import make_player

        player = make_player(level, state.game, rng, think, _book(state))
        with _PLAYER_LOCK:
            column = player.choose(state)
        return column, getattr(player, "note", "")

    def move_scores(self, state: Connect4State, budget: Any) -> dict[str, Any]:
        """Every playable column's exact score (None where the budget ran out), the best columns and the verdict."""
        columns: list[int | None] = [None] * state.game.width
        legal = set(state.legal_moves())
        fmt = state.game.format_move

        def publish() -> None:  # the columns solved so far, shown while the others are searched
            budget.partial = {"scores": {fmt(c): columns[c] for c in sorted(legal) if columns[c] is not None}}

        book = _book(state)
        known = book.column_scores(list(state.history)) if book is not None else None
        if known is not None:
            columns[:] = known
        else:
            with _lend_solver(state) as solver:
                solver.reset()
                solver.analyze(list(state.history), into=columns, on_progress=_watch(budget, publish))
        publish()
        exact = all(columns[c] is not None for c in legal)
        solved = [s for c, s in enumerate(columns) if s is not None and c in legal]
        score = max(solved) if solved else None
        best = tuple(c + 1 for c, s in enumerate(columns) if s == score and c in legal) if exact else ()
        analysis = Analysis(state, score, tuple(columns), best, stopped=None if exact else "time")
        note = analysis.verdict() if exact and score is not None else "not exact: the time budget ran out"
        cells, plies = state.game.width * state.game.height, len(state.history)
        ends = {fmt(c): end_ply(cells, plies, s) - plies for c in legal if (s := columns[c]) is not None}
        result = {
            "scores": {c: columns[c] for c in legal},
            "exact": exact,
            "note": note,
            "help": SCORE_HELP,
            "ends": ends,
        }
        if exact:
            result["explanation"] = _explanation(state, book, budget)
        return result

    def review(self, state: Connect4State, budget: Any) -> list[dict[str, Any]]:
        """Every move's score against the best (None where the budget ran out), mistakes marked; last moves solved
        first.

        The positions are solved in batches (`gridgames_connect4.teach.review.review_game`), the budget asked between
        them.
        """
        game, moves = state.game, list(state.history)
        names = game.colours
        total = max(1, len(moves))

        def progress(done: int, _total: int) -> None:
            budget.report(done / total, done, f"{done} of {len(moves)} moves reviewed")

        with _lend_solver(state) as solver:
            solver.reset()
            report = review_game(
                game, moves, book=_book(state), solver=solver, on_progress=progress, keep_going=budget.keep_going
            )
        done = {r.number: r for r in report.reviews}
        accuracy = {p: report.accuracy(p) for p in (0, 1)}
        entries: list[dict[str, Any]] = []
        for i, column in enumerate(moves):
            entry: dict[str, Any] = {
                "number": i + 1,
                "player": names[i % 2],
                "move": game.format_move(column),
                "score": None,
                "best": None,
                "mark": None,
            }
            review = done.get(i + 1)
            if review is not None:
                entry.update(
                    score=review.score,
                    best=review.best,
                    mark=review.mark,
                    best_moves=[game.format_move(c) for c in review.best_columns],
                    grade=review.grade,
                    moves_lost=review.moves_lost,
                    value=review.value,
                    accuracy=review.accuracy,
                    player_accuracy=accuracy[review.player],
                )
            entries.append(entry)
        return entries

    def drill_positions(self, state: Connect4State, budget: Any) -> list[dict[str, Any]]:
        """The positions before the game's mistakes and blunders (both players'), from its review (as
        ``connect4 drill``): each with its ply, move number, the player to move, the move played, its grade, the
        best moves and every column's exact score."""
        from gridgames_connect4.teach.drill import drill_positions

        game, moves = state.game, list(state.history)
        with _lend_solver(state) as solver:
            solver.reset()
            report = review_game(
                game, moves, book=_book(state), solver=solver, keep_going=budget.keep_going, colours=game.colours
            )
        if report.partial:
            budget.report(None, None, "the review stopped at the time budget: only the moves reviewed are drilled")
        fmt = game.format_move
        return [
            {
                "ply": len(p.moves),
                "number": p.number,
                "player": game.colours[p.player],
                "played": fmt(p.played),
                "grade": p.grade,
                "best": [fmt(c) for c in p.best],
                "scores": {fmt(c): s for c, s in enumerate(p.scores) if s is not None},
            }
            for p in drill_positions(report)
        ]

    def drill_answer(self, state: Connect4State, move: int, budget: Any) -> dict[str, Any]:
        """Whether ``move`` is best in ``state`` and why: ``connect4 explain``'s lines and claims (JSON) for it."""
        from gridgames_connect4.teach.explain import explain_position, lines

        game = state.game
        with _lend_solver(state) as solver:
            ex = explain_position(game, state.history, move, book=_book(state), solver=solver, think=budget.seconds)
        score = ex.columns[move]
        return {
            "right": score == ex.score,
            "score": score,
            "best_score": ex.score,
            "best": [game.format_move(c) for c in ex.best],
            "lines": lines(ex, game.colours)[1:],
            "explanation": ex.as_dict(game.colours),
        }
