"""`TilingHooks`: tiling by hand for any puzzle that declares its board and pieces, on the tiling engine.

A plugin whose puzzle has a ``board`` (a `Grid`: its empty cells are the cells to fill) and ``pieces`` (anything
`gridgames.pieces.as_pieces` reads: `Piece` objects with their copies, ``{name: Shape}``...), and optionally
``one_sided``, gets the page's *Tile by hand* by returning ``TilingHooks()`` (or a subclass adding its other hooks)
from its ``web`` factory. The completions of a partial tiling are counted by `gridgames.search.tiling` from the
placed pieces (``start=``), on the puzzle's compiled problem (built once per puzzle; a puzzle with a
``problem()`` method returning its `TilingProblem` lends it).
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from typing import Any

from gridgames.game import CountResult, Placement, ProgressCallback, Solution
from gridgames.pieces import as_pieces

__all__ = ["StartedTiling", "TilingHooks"]


class StartedTiling:
    """The completions of a partial tiling, as a puzzle counts and lists them (every solution holds the placed
    pieces)."""

    def __init__(self, problem: Any, placed: Sequence[Placement]) -> None:
        self.problem = problem
        self.placed = list(placed)

    def count(self, *, unique: bool = False, on_progress: ProgressCallback | None = None) -> CountResult:
        """The number of completions (partial when interrupted)."""
        from gridgames.search import tiling

        started = time.perf_counter()
        result = tiling.count(self.problem, start=self.placed, on_progress=on_progress)
        return CountResult(
            result.count, result.partial, False, time.perf_counter() - started, result.nodes, result.method
        )

    def solutions(
        self, *, limit: int | None = None, unique: bool = False, on_progress: ProgressCallback | None = None
    ) -> Iterator[Solution]:
        """The completions, lazily (KeyboardInterrupt at the end when interrupted)."""
        from gridgames.search import tiling

        stream = tiling.solve(self.problem, start=self.placed, limit=limit, on_progress=on_progress)
        try:
            for solution in stream:
                yield tuple(Placement(p.piece, p.cells) for p in solution)
        finally:
            interrupted = stream.partial
            stream.close()
        if interrupted:
            raise KeyboardInterrupt


class TilingHooks:
    """The ``hand_pieces`` and ``hand_rest`` hooks of a puzzle with a ``board`` Grid and ``pieces``."""

    def __init__(self) -> None:
        self._problems: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def problem(self, puzzle: Any) -> Any:
        """The puzzle's compiled `TilingProblem` (its own ``problem()`` when it has one; else built once)."""
        own = getattr(puzzle, "problem", None)
        if callable(own):
            return own()
        with self._lock:
            found = self._problems.get(puzzle)
        if found is None:
            from gridgames.search.tiling import TilingProblem

            found = TilingProblem.build(puzzle.board, self._pieces(puzzle))
            with self._lock:
                self._problems[puzzle] = found
        return found

    @staticmethod
    def _pieces(puzzle: Any) -> tuple[Any, ...]:
        return as_pieces(puzzle.pieces, one_sided=bool(getattr(puzzle, "one_sided", False)))

    def hand_pieces(self, puzzle: Any) -> dict[str, Any]:
        """The board's empty cells and each piece's orientations (square lattice)."""
        return {
            "lattice": "square",
            "cells": [list(c) for c in puzzle.board.board_cells()],
            "pieces": [
                {
                    "name": p.name,
                    "count": p.count,
                    "orientations": [[list(c) for c in getattr(o, "cells", o)] for o in p.orientations()],
                }
                for p in self._pieces(puzzle)
            ],
        }

    def hand_rest(self, puzzle: Any, placed: Sequence[Placement]) -> StartedTiling:
        """The completions of ``placed``: the engine's search from them."""
        return StartedTiling(self.problem(puzzle), placed)
