"""The solver's move choice within a budget of positions: how the budget is shared out (see `best_move`).

Exact play first proves the outcome (win, draw or loss), then the score, then which columns keep it; what does
not fit the budget falls back to keeping a win, and then to an iterative-deepening depth-limited search. The
fractions of the budget each step gets are fixed (below), so a seeded game is repeatable. Searches run on a
`search_driver.SearchDriver`; `gridgames_connect4.solve.solver.Solver.best_move` is the public face.
"""

from __future__ import annotations

import random

import numpy as np
from attrs import frozen

from gridgames.errors import SolverError
from gridgames_connect4.solve.engine import layout as L
from gridgames_connect4.solve.scores import sign
from gridgames_connect4.solve.search_driver import UNLIMITED, SearchDriver, SearchProgress

__all__ = ["SearchResult", "best_move"]


@frozen
class SearchResult:
    """A chosen move with per-column scores (None: full or unknown); exact when proven by the solver."""

    column: int
    scores: tuple[int | None, ...]
    exact: bool
    depth: int | None
    weak: bool = False
    """The move keeps the exact outcome, but the strong scores did not fit the budget: scores are +1, 0, -1."""


def _exact_share(total: int) -> int:
    """The outcome and the score: three quarters (a quarter is kept for the depth-limited search)."""
    return total - total // 4


def _won_columns_share(total: int) -> int:
    """A won position's columns that keep its score: 3/8 (the rest, to 7/8, keeps the win if need be)."""
    return total * 3 // 8


def _keep_win_share(total: int) -> int:
    """A column that keeps the win when the score's columns did not fit: up to 7/8 of the budget in all."""
    return total - total // 8


def _deepening_share(total: int, spent: int) -> int:
    """The depth-limited search: what is left, and at least an eighth."""
    return max(total - spent, total // 8)


def best_move(
    d: SearchDriver,
    moves: list[int] | tuple[int, ...],
    max_nodes: int | None,
    rng: random.Random | None,
    all_scores: bool,
) -> SearchResult:
    """Best column after `moves`: perfect play, or a depth-limited search if `max_nodes` runs out.

    Exact play first proves the outcome (win, draw or loss), then the score, then which columns keep it (all of
    them when the budget allows, else those proven; ties are broken with `rng`, else the most central column
    wins), then, with `all_scores`, scores the other columns while the budget lasts (None where it ran out).
    When the score does not fit the budget but the outcome did, a column that keeps the win is played
    (`SearchResult.weak`; exact when the score is +1). A depth-limited result only scores the columns that
    lose at once.
    """
    p, mask, n = d.position(moves)
    playable = [c for c in d.order if d.can_play(mask, c)]
    if not playable:
        raise SolverError("no legal move: the board is full")
    if max_nodes is not None and (not isinstance(max_nodes, int) or max_nodes < 1):
        raise SolverError(f"max_nodes must be a positive integer, got {max_nodes!r}")
    d.explored = 0
    total = UNLIMITED if max_nodes is None else max_nodes
    wins = d.wins(p, mask)
    best = [c for c in playable if wins & d.cell(mask, c)]
    score: int | None = d.win_score(n)
    weak = False
    # at the book's deepest ply every child's other parents are in the book: their scores bound the child's
    bounds = d.bounds_by_parents(p, mask) if n == d.book_arrays.depth else {}
    if not best:  # no win at once: prove the outcome, then the score, then which columns reach it
        budget = _exact_share(total)
        least = d.book_lower(p, mask, n)  # one disc past the book: its parents' scores bound it
        won = least is not None and least >= 1  # then no search is needed for the outcome
        outcome = 1 if won else d.solve_raw(p, mask, n, True, budget)
        # a sign (a book inside the search can give the exact score at once)
        if outcome is not None:
            outcome = sign(outcome)
        score = None
        if outcome == 0:
            score = 0
        elif outcome is not None:  # the score, within the outcome's side of 0
            lo, hi = (1, d.win_score(n)) if outcome > 0 else (d.loss_score(n), -1)
            if least is not None and least > lo:
                lo = least
            score = d.step_search(p, mask, n, lo, hi, budget - d.explored, at_lo=least is not None)
        if score is not None:
            given = _won_columns_share(total) if outcome == 1 else budget
            best = columns_reaching(d, p, mask, n, score, playable, given, bounds=bounds)
        # the score's columns did not fit: keep the win (exact when the score is +1)
        if not best and outcome == 1:
            best = _a_winning_column(d, p, mask, n, playable, _keep_win_share(total), bounds)
            weak = score != 1
            score = 1
    scores: list[int | None] = [score if c in best else None for c in range(d.width)]
    if best:
        if all_scores and not weak:
            _fill_scores(d, p, mask, n, scores, playable, total, bounds)
        column = rng.choice(best) if rng is not None else best[0]
        return SearchResult(column=column, scores=tuple(scores), exact=True, depth=None, weak=weak)
    _fill_scores(d, p, mask, n, scores, playable, 0)  # only the moves that lose at once
    column, depth = _deepening(d, p, mask, n, _deepening_share(total, d.explored), rng)
    return SearchResult(column=column, scores=tuple(scores), exact=False, depth=depth)


def columns_reaching(
    d: SearchDriver,
    p: int,
    mask: int,
    n: int,
    score: int,
    playable: list[int],
    budget: int,
    first: bool = False,
    bounds: dict[int, int] | None = None,
) -> list[int]:
    """Playable columns proven to keep `score`, the position's exact score or outcome (no win at once exists).

    Every column is tried with a node budget that doubles each round, so cheap proofs come first: a column is
    settled when its move is proven to keep `score` or to fall short. All of them when the budget allows;
    when it runs out, those proven so far; and when every column but one falls short, that one (some column
    keeps the position's score). [] if none is known when the budget runs out. With `first`, the first found.
    ``bounds``: known least scores of some children, by column; a child bounded at target or more falls short.
    """
    target = 1 - score  # the move keeps `score` unless the opponent then scores at least target
    pending = [c for c in playable if bounds is None or bounds.get(c, target - 1) < target]
    # every other column falls short, and some column keeps the score
    if len(pending) == 1 < len(playable):
        return pending
    best: list[int] = []
    step = 1024
    while pending:
        for c in list(pending):
            cp, cm = p ^ mask, mask | d.cell(mask, c)
            reply: int | None
            if d.wins_at_once(cp, cm):
                reply = (d.cells - n) // 2  # the opponent wins at once
            else:
                before = d.explored
                if before >= budget:
                    return [column for column in playable if column in best]
                given = min(step, budget - before)
                reply = d.search(cp, cm, n + 1, target - 1, target, given)
                if reply is None:
                    if d.explored - before < given:  # told to stop (on_progress)
                        return []
                    continue
            pending.remove(c)
            if reply < target:
                best.append(c)
                if first:
                    return best
            # every other column falls short, and some column keeps it
            elif not best and len(pending) == 1:
                best = pending
                pending = []
                break
        step *= 2
    return [column for column in playable if column in best]


def _a_winning_column(
    d: SearchDriver, p: int, mask: int, n: int, playable: list[int], budget: int, bounds: dict[int, int] | None = None
) -> list[int]:
    """One column that keeps a won position's win, [] if out of budget.

    The position is searched for a win first (its best move then sits in the table, so the column is found at
    once); at the opening book's deepest ply the book is left out there, since it would answer at once with
    no move, while the book cannot help below that ply.
    """
    book = d.arrays_of_book(None) if n >= d.book_arrays.depth >= 0 else d.book_arrays
    won = d.search(p, mask, n, 0, 1, budget - d.explored, book)
    if won is None or won < 1:
        return []
    return columns_reaching(d, p, mask, n, 1, playable, budget, first=True, bounds=bounds)


def _fill_scores(
    d: SearchDriver,
    p: int,
    mask: int,
    n: int,
    scores: list[int | None],
    playable: list[int],
    budget: int,
    bounds: dict[int, int] | None = None,
) -> None:
    """Score the unscored playable columns in place until `budget` (total explored) runs out.

    ``bounds``: known least scores of some children, by column (each child's search starts there).
    """
    lost_at_once = d.loss_score(n)
    for c in playable:
        if scores[c] is not None:
            continue
        cp, cm = p ^ mask, mask | d.cell(mask, c)
        if d.wins_at_once(cp, cm):
            scores[c] = lost_at_once
            continue
        if d.explored >= budget:
            continue
        child = d.solve_probing(cp, cm, n + 1, False, budget - d.explored, (bounds or {}).get(c))
        if child is not None:
            scores[c] = -child


def _deepening(d: SearchDriver, p: int, mask: int, n: int, budget: int, rng: random.Random | None) -> tuple[int, int]:
    """Iterative-deepening depth-limited search: (best column, deepest completed depth)."""
    stats = d.stats
    # moves, scores by ply
    scratch = (d.board_rows(d.cells + 2), np.zeros((d.cells + 2, d.width), np.int64))
    best_cols = [c for c in d.order if d.can_play(mask, c)]
    reached = 0
    spent = 0
    wins = d.wins(p, mask)
    watch = d.watch
    for depth in range(1, d.cells - n + 1):
        if depth > 1 and watch is not None and watch(SearchProgress(spent, 0.0, -L.INF, L.INF)) is False:
            break  # told to stop (a deadline, Ctrl-C): the deepest completed depth answers
        stats[:] = 0
        limit = UNLIMITED if depth == 1 else budget - spent
        values: dict[int, int] = {}
        alpha = -L.INF
        for c in best_cols:  # previous best first
            cell = d.cell(mask, c)
            if wins & cell:
                values[c] = L.WIN_BASE + d.win_score(n)
                alpha = max(alpha, values[c])
                continue
            v = -d.limited(p ^ mask, mask | cell, n + 1, depth - 1, 1 - alpha, limit, scratch)
            if stats[1]:
                break
            values[c] = v
            alpha = max(alpha, v)
        spent += int(stats[0])
        if stats[1]:
            break
        top = max(values.values())
        ties = [c for c in best_cols if values[c] == top]
        first = rng.choice(ties) if rng is not None else ties[0]
        best_cols = [first] + sorted((c for c in best_cols if c != first), key=lambda c: -values[c])
        reached = depth
        if abs(top) >= L.WIN_BASE:
            break  # proven result: deeper search changes nothing
    d.explored += spent
    return best_cols[0], reached
