"""The one cache of Connect Four solvers: every caller borrows one here, so one policy bounds their memory.

A `Solver` holds a transposition table (56 MiB by default) that is worth keeping between searches of one game,
and is not for two threads at once. So a caller borrows a solver for a block of work (``with lend(...) as
solver:``), and no other thread gets that solver until it comes back; a thread that finds none idle gets a new
one. At most `MAX_IDLE` idle solvers are kept (the least recently returned go first): the computer players, the
analysis workers and the web's threads all share them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from types import TracebackType
from typing import TYPE_CHECKING

from gridgames_connect4.solve.solver import Solver

if TYPE_CHECKING:
    from gridgames_connect4.solve.book import Book

__all__ = ["MAX_IDLE", "LentSolver", "clear", "lend"]

MAX_IDLE = 2
"""Idle solvers kept for later borrowers, over every board size (each keeps its table)."""

_Key = tuple[int, int, int, "Book | None", "float | None"]
_lock = threading.Lock()
# by id(solver), least recently returned first
_idle: OrderedDict[int, tuple[_Key, Solver]] = OrderedDict()


class LentSolver:
    """A solver lent for a ``with`` block (`lend`); it returns to the cache when the block ends."""

    def __init__(self, key: _Key) -> None:
        self._key = key
        self.solver = _borrow(key)

    def __enter__(self) -> Solver:
        return self.solver

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        _give_back(self._key, self.solver)


def lend(
    width: int, height: int, connect: int, book: Book | None = None, *, table_mb: float | None = None
) -> LentSolver:
    """A solver for the board probing ``book`` (its table as its last borrower left it), for a ``with`` block.

    Raises `SolverError` at once (before the block) for a board the solver cannot handle.
    """
    return LentSolver((width, height, connect, book, table_mb))


def clear() -> None:
    """Drop every idle solver (their tables' memory goes back)."""
    with _lock:
        _idle.clear()


def _borrow(key: _Key) -> Solver:
    with _lock:
        for ident, (idle_key, solver) in _idle.items():
            if idle_key == key:
                del _idle[ident]
                return solver
    width, height, connect, book, table_mb = key
    return Solver(width, height, connect, book=book, table_mb=table_mb)


def _give_back(key: _Key, solver: Solver) -> None:
    with _lock:
        _idle[id(solver)] = (key, solver)
        while len(_idle) > MAX_IDLE:
            _idle.popitem(last=False)
