"""The exact judge: the Connect Four solver's score of every position and of every move played.

Scores follow Pascal Pons' convention, from the view of the player concerned: positive, a
forced win (the bigger, the sooner); zero, a draw; negative, a loss (the nearer zero, the
later). A move is perfect when its score equals the best score its player had before it.
The judge holds one `Solver` (its transposition table: about 43 MB by default, less with a
smaller ``table_bits``) and solves each position once: the position after a move is the
position before the next one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from gridgames.errors import SolverError
from gridgames.game import Game, State


class JudgeError(SolverError):
    """No exact judge for this game or board (only Connect Four on boards the solver handles has one)."""


@attrs.frozen
class Judgement:
    """The solver's verdict on the move just played, from its player's view, and the score of the position it left."""

    move_score: int
    """The move's score for the player who made it."""
    best_score: int
    """The best score that player had before the move (the position's score then)."""
    score: int | None
    """The score of the position now for the player to move, None once the game is over."""

    @property
    def is_best(self) -> bool:
        """True when the move keeps the best score its player had (a perfect move)."""
        return self.move_score == self.best_score

    def as_info(self) -> dict[str, Any]:
        """The entries the mover's ``info`` carries: move_score, best_score, is_best."""
        return {"move_score": self.move_score, "best_score": self.best_score, "is_best": self.is_best}


class Judge:
    """Scores Connect Four positions and moves exactly with one solver (see the module's docstring)."""

    def __init__(self, game: Game, table_bits: int | None = None) -> None:
        from gridgames_connect4.rules import Connect4  # the only game with an exact solver

        if not isinstance(game, Connect4):
            raise JudgeError(f"there is an exact judge only for Connect Four, not for {type(game).__name__}")
        try:
            from gridgames_connect4.solver import Solver
        except ImportError as error:  # pragma: no cover - the solver ships with gridgames
            raise JudgeError(f"the Connect Four solver is not available ({error})") from None
        try:
            self._solver = Solver(game.width, game.height, game.connect, table_bits=table_bits)
        except SolverError as error:
            raise JudgeError(f"no exact judge for Connect Four {game.size}, connect {game.connect}: {error}") from None
        self._cells = game.width * game.height
        self._known: dict[tuple[int, ...], int] = {}

    def _solve(self, moves: Sequence[int]) -> int:
        key = tuple(moves)
        if key not in self._known:
            if len(self._known) >= 4:  # keep only the last few positions: enough to solve each one once
                self._known.pop(next(iter(self._known)))
            self._known[key] = self._solver.solve(list(key))
        return self._known[key]

    def score(self, state: State) -> int | None:
        """The score of ``state`` for the player to move, or None once the game is over."""
        return None if state.is_over else self._solve(state.history)

    def judge_last_move(self, state: State) -> Judgement:
        """The verdict on the last move played in ``state`` (which has at least one move)."""
        history = state.history
        if not history:
            raise JudgeError("no move has been played yet: there is nothing to judge")
        before = history[:-1]
        best = self._solve(before)
        outcome = state.outcome
        if outcome is None:
            after = self._solve(history)
            return Judgement(-after, best, after)
        if outcome.winner is None:
            return Judgement(0, best, None)
        return Judgement((self._cells + 1 - len(before)) // 2, best, None)
