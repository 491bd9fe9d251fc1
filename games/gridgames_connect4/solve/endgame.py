"""Exact scores of positions with few empty cells, in Python ints: the columns of ``analyze`` without numpy or numba.

A fresh ``gridgames connect4 analyze`` on a position near the end of a game spends about 0.2 s loading numpy, the
command line and the compiled solver for a search of a few hundred positions (docs/startup.md). `column_scores`
searches such a position here instead, Pons' negamax (alpha-beta, a win at once first, no move that hands the
opponent a win, the score window tightened by the moves left) on `geometry.Geometry`'s bitboards, within a budget of
positions: None when the position needs more (then the compiled solver answers). Tested against the solver.
"""

from __future__ import annotations

from gridgames_connect4.position.geometry import Geometry

MAX_EMPTY = 24
"""Positions with more empty cells than this are not tried (their searches rarely fit the budget)."""

BUDGET = 8000
"""Positions searched at most (about 30 ms of CPU): most positions of 20 empty cells or fewer fit."""


class _BudgetSpent(Exception):
    pass


class _EndgameSearch:
    def __init__(self, geometry: Geometry, budget: int) -> None:
        self.g, self.budget = geometry, budget
        self.cells = geometry.cells
        self.order = geometry.order  # centre first
        self.columns = geometry.columns

    def negamax(self, p: int, mask: int, n: int, alpha: int, beta: int) -> int:
        """The score of the side to move (stones ``p``) when it lies in (alpha, beta), else a bound beyond it."""
        self.budget -= 1
        if self.budget < 0:
            raise _BudgetSpent
        g, cells = self.g, self.cells
        if g.wins_at_once(p, mask):
            return (cells + 1 - n) // 2
        safe = g.non_losing(p, mask)
        if not safe:
            return -((cells - n) // 2)
        if n >= cells - 2:  # neither side can win any more
            return 0
        low = -((cells - 2 - n) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (cells - 1 - n) // 2
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        for c in self.order:
            move = safe & self.columns[c]
            if move:
                score = -self.negamax(p ^ mask, mask | move, n + 1, -beta, -alpha)
                if score >= beta:
                    return score
                if score > alpha:
                    alpha = score
        return alpha


def column_scores(geometry: Geometry, moves: list[int], budget: int = BUDGET) -> list[int | None] | None:
    """Each column's exact score after ``moves`` (None: full), or None when the position has more than `MAX_EMPTY`
    empty cells or its searches need more than ``budget`` positions. The position must be legal and not over."""
    n = len(moves)
    if geometry.cells - n > MAX_EMPTY:
        return None
    p, mask = geometry.position(moves)
    if geometry.has_line(p ^ mask):
        return None
    search = _EndgameSearch(geometry, budget)
    cells, wins = geometry.cells, geometry.winning_cells(p, mask)
    out: list[int | None] = []
    try:
        for c in range(geometry.width):
            cell = geometry.drop(mask, c)
            if not cell:
                out.append(None)
            elif wins & cell:
                out.append((cells + 1 - n) // 2)
            elif n + 1 == cells:
                out.append(0)
            else:
                out.append(-search.negamax(p ^ mask, mask | cell, n + 1, -cells, cells))
    except _BudgetSpent:
        return None
    return out
