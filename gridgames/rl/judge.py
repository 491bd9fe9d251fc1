"""The exact judge: a game's exact score of every position and of every move played.

Any game whose `Game.exact_solver` returns a solver has one (of the built-in games, Connect Four:
its perfect solver, with Pascal Pons' score convention). Scores are from the view of the player
concerned: positive, a forced win (the bigger, the sooner); zero, a draw; negative, a loss (the
nearer zero, the later). A move is perfect when its score equals the best score its player had
before it. The judge holds one solver (Connect Four's transposition table: about 56 MB by default,
less with a smaller ``table_bits``) and solves each position once: the position after a move is the
position before the next one. Where it needs two positions it has not solved yet (the position before
the move and the one after it), a solver with a batch call (``solve_many(positions, reset=False)``, as
Connect Four's) solves both in one call; the table is kept between calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from gridgames.errors import SolverError
from gridgames.game import Game, State


class JudgeError(SolverError):
    """No exact judge for this game or board (the game has no `Game.exact_solver`, or it refuses the board)."""


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
    """Scores a game's positions and moves exactly with the one solver its `Game.exact_solver` gives (Connect
    Four's)."""

    def __init__(self, game: Game, table_bits: int | None = None) -> None:
        try:
            solver = game.exact_solver(table_bits)
        except SolverError as error:
            raise JudgeError(f"no exact judge for {error}") from None
        if solver is None:
            raise JudgeError(
                f"there is no exact judge for {type(game).__name__}: the game has no exact solver (Game.exact_solver)"
            )
        self._solver = solver
        self._known: dict[tuple[int, ...], int] = {}

    def _solve(self, *positions: Sequence[int]) -> list[int]:
        """The scores of ``positions``, those not known yet solved together (one batch call where the solver has
        one)."""
        keys = [tuple(moves) for moves in positions]
        found = {key: self._known[key] for key in keys if key in self._known}
        new = [key for key in dict.fromkeys(keys) if key not in found]
        if new:
            batch = getattr(self._solver, "solve_many", None)
            if len(new) > 1 and batch is not None:
                scores = batch([list(key) for key in new], reset=False)
            else:
                scores = [self._solver.solve(list(key)) for key in new]
            for key, score in zip(new, scores):
                found[key] = int(score)
                # keep only the last few positions: enough to solve each one once
                if len(self._known) >= 4:
                    self._known.pop(next(iter(self._known)))
                self._known[key] = int(score)
        return [found[key] for key in keys]

    def score(self, state: State) -> int | None:
        """The score of ``state`` for the player to move, or None once the game is over."""
        return None if state.is_over else self._solve(state.history)[0]

    def judge_last_move(self, state: State) -> Judgement:
        """The verdict on the last move played in ``state`` (which has at least one move)."""
        history = state.history
        if not history:
            raise JudgeError("no move has been played yet: there is nothing to judge")
        before = history[:-1]
        outcome = state.outcome
        if outcome is None:
            best, after = self._solve(before, history)
            return Judgement(-after, best, after)
        (best,) = self._solve(before)
        if outcome.winner is None:
            return Judgement(0, best, None)
        return Judgement(self._solver.win_score(len(before)), best, None)
