"""Scores of Connect Four positions as plain values (Pons' convention: for the side to move, a win with its own k-th
disc scores cells/2 + 1 - k, a loss the negative of the winner's, a draw 0) and their weak form, the outcome alone.

Plain Python, no numpy: the solver, the book-then-solver lookup, the review and the explanations share it.

>>> [sign(score) for score in (-5, 0, 3)]
[-1, 0, 1]
"""

from __future__ import annotations

__all__ = ["sign"]


def sign(score: int) -> int:
    """-1, 0 or 1: the outcome a score stands for (a weak score from a strong one)."""
    return (score > 0) - (score < 0)
