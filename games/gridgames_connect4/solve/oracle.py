"""The pieces the scorer (`gridgames_connect4.solve.scorer`), the review and the players share: a book's answer for
a position's columns, a solver for a board, and many positions' columns in one compiled call.

A book of depth D holds the score of every position with at most D discs (see `gridgames_connect4.solve.book`).
It answers every column of a position with fewer than D discs: each child has at most D discs, and the
children it has no entry for (a win at once, a full board, a position whose every move loses next move)
are scored here. A position with D discs or more goes to the solver (which, when it accepts a ``book``,
probes the book inside its search too: `solver_for`).

Several positions' columns can go to the solver in one compiled call: `pending_columns` lists the child
positions to solve (wins at once and the last cell are scored without a search) and `solve_pending`
solves them all in one `Solver.solve_many` call, keeping the solver's table (the review and the hints).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from gridgames_connect4.position.geometry import Geometry
from gridgames_connect4.solve.book import BookError
from gridgames_connect4.solve.scores import sign

if TYPE_CHECKING:
    from gridgames_connect4.solve.book import Book
    from gridgames_connect4.solve.solver import Solver

__all__ = [
    "BATCH_EMPTY_CELLS",
    "PendingColumns",
    "best_from_book",
    "book_columns",
    "check_book",
    "pending_columns",
    "solve_pending",
    "solver_for",
]


def check_book(book: Book, width: int, height: int, connect: int) -> None:
    """Refuse (`BookError`, one line) a book made for another board than width x height with lines of connect."""
    if (book.width, book.height, book.connect) != (width, height, connect):
        name = repr(book.path) if book.path else "the book"
        raise BookError(
            f"{name} is a book for {book.width}x{book.height} with lines of {book.connect}, "
            f"not {width}x{height} with lines of {connect}"
        )


def book_columns(book: Book, moves: Sequence[int], weak: bool = False) -> list[int | None] | None:
    """Each column's exact score after ``moves`` (0-based; None: full) when the book covers the position, else None.

    With ``weak`` the scores are reduced to their signs (+1 win, 0 draw, -1 loss), as the solver's weak mode gives.
    """
    scores = book.column_scores(list(moves))
    if scores is None:
        return None
    return [None if s is None else sign(s) if weak else s for s in scores]


def best_from_book(
    book: Book, moves: Sequence[int], rng: random.Random | None = None
) -> tuple[int, list[int | None]] | None:
    """A best column (a random one of the best with ``rng``, else the first) and every column's score, or None."""
    scores = book_columns(book, moves)
    if scores is None:
        return None
    top = max(s for s in scores if s is not None)
    best = [c for c, s in enumerate(scores) if s == top]
    return (rng.choice(best) if rng is not None else best[0]), scores


def solver_for(
    width: int, height: int, connect: int, book: Book | None = None, *, table_bits: int | None = None
) -> Solver:
    """A new solver for the board, given the book to probe inside its search (`solver_cache.lend` lends one kept
    from earlier searches instead)."""
    from gridgames_connect4.solve.solver import Solver

    return Solver(width, height, connect, table_bits, book=book)


BATCH_EMPTY_CELLS = 22
"""Positions with at most this many empty cells may go to the solver's batch call, which cannot be interrupted and
has no time limit: on Pons' 7x6 sets (a sample of every set) every column of such a position was scored within
0.02 s (106 k positions at most); with 23-28 empty cells it took up to 0.2 s, with 29 or more seconds
(bench/README.md, "Connect Four judges on the batch call")."""


@attrs.frozen
class PendingColumns:
    """A position whose columns are to be scored: its index (discs played), moves, the scores known without a search
    (a win at once, the last cell: a draw; None elsewhere) and the columns whose child positions the solver must
    score."""

    index: int
    moves: tuple[int, ...]
    known: tuple[int | None, ...]
    children: tuple[int, ...]
    empty: int
    """The empty cells of the position."""


def pending_columns(game: Any, moves: Sequence[int], indices: Sequence[int]) -> dict[int, PendingColumns]:
    """The positions after the first i of ``moves`` (legal 0-based columns) for every i in ``indices``, by i."""
    geom = Geometry.of(game.width, game.height, game.connect)
    cells = game.width * game.height
    wanted = set(indices)
    out: dict[int, PendingColumns] = {}
    cur = mask = 0  # the bitboards of the side to move and of every disc
    for i in range(len(moves) + 1):
        if i in wanted:
            wins = geom.winning_cells(cur, mask) & geom.playable(mask)
            known: list[int | None] = [None] * game.width
            children = []
            for c in range(game.width):
                if not geom.can_play(mask, c):
                    continue
                if wins & geom.columns[c]:
                    known[c] = (cells + 1 - i) // 2  # Pons' score of winning with this disc
                elif i + 1 == cells:
                    known[c] = 0
                else:
                    children.append(c)
            out[i] = PendingColumns(i, tuple(moves[:i]), tuple(known), tuple(children), cells - i)
        if i < len(moves):
            cur ^= mask  # the other side's discs: it moves next
            mask |= geom.drop(mask, moves[i])
    return out


def solve_pending(solver: Solver, positions: Sequence[PendingColumns]) -> list[list[int | None]]:
    """Every column's exact score of each position (None: full), all their children solved in one compiled call.

    The call is `Solver.solve_many` with the table kept (``reset=False``): it neither forgets what the solver knew
    nor can it be interrupted before it returns, so give it positions known to be cheap.
    """
    children = [[*pos.moves, c] for pos in positions for c in pos.children]
    scores = iter(solver.solve_many(children, reset=False) if children else ())
    out = []
    for pos in positions:
        row = list(pos.known)
        for c in pos.children:
            row[c] = -next(scores)
        out.append(row)
    return out
