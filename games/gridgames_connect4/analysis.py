"""Solving a position for ``gridgames connect4 analyze``: scores as data, and their plain-English lines.

Scores follow Pascal Pons' convention, from the side to move's view: positive, the
side to move forces a win (the bigger, the sooner); zero, a draw; negative, a loss
(the nearer zero, the later). With ``weak`` only the sign is computed (+1, 0, -1).
The position's score is the best column's score.
"""

from __future__ import annotations

from typing import Any

import attrs

from gridgames_connect4.notation import line_words
from gridgames_connect4.rules import PLAYER_NAMES, Connect4, Connect4State
from gridgames.errors import GameOverError, SolverError


@attrs.frozen
class Analysis:
    """The solved position: its move string, the score and each column's (None: full), the best columns (1-based)."""

    state: Connect4State
    score: int
    columns: tuple[int | None, ...]
    best: tuple[int, ...]
    weak: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: {"moves", "score", "columns", "best"}."""
        return {"moves": self.state.notation(), "score": self.score, "columns": list(self.columns), "best": list(self.best)}

    def verdict(self) -> str:
        """What the score means, e.g. 'red wins with its 4th move from now'."""
        state = self.state
        mover = PLAYER_NAMES[state.current_player]
        other = PLAYER_NAMES[1 - state.current_player]
        if self.score == 0:
            return "a draw with best play"
        if self.weak:
            return f"{mover if self.score > 0 else other} wins with best play"
        cells = state.game.width * state.game.height
        n = len(state.history)
        if self.score > 0:
            return f"{mover} wins with its {_ordinal((cells + 1 - n) // 2 - self.score + 1)} move from now"
        return f"{other} wins with its {_ordinal((cells - n) // 2 + self.score + 1)} move from now"

    def lines(self) -> list[str]:
        """The report as lines of text."""
        game = self.state.game
        mover = PLAYER_NAMES[self.state.current_player]
        cells = [("full" if s is None else f"{s:+d}") for s in self.columns]
        width = max(4, *(len(c) for c in cells))
        return [
            f"Position: {self.state.notation() or '(empty board)'} ({game.size}, {line_words(game.connect)}); {mover} to move.",
            f"Score: {self.score:+d}: {self.verdict()}.",
            "Column: " + " ".join(f"{c + 1:>{width}}" for c in range(game.width)),
            "Score:  " + " ".join(f"{c:>{width}}" for c in cells),
            f"Best: {', '.join(str(b) for b in self.best)}",
            "Scores are for the side to move: + wins (bigger is sooner), 0 draws, - loses (nearer 0 is later)."
            if not self.weak else "Scores are for the side to move: +1 win, 0 draw, -1 loss.",
        ]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@attrs.frozen
class Position:
    """What a worker needs to score one column of a position: the board's size, the moves (0-based), weak or not."""

    width: int
    height: int
    connect: int
    moves: tuple[int, ...]
    weak: bool = False

    @classmethod
    def of(cls, state: Connect4State, weak: bool = False) -> Position:
        """The position of a game state."""
        game = state.game
        return cls(game.width, game.height, game.connect, tuple(int(m) for m in state.history), weak)


def column_score(position: Position, column: int) -> int | None:
    """The score of dropping a disc in ``column`` (0-based) for the side to move, None when full; its own Solver."""
    from gridgames_connect4.solver import Solver

    state = Connect4(position.width, position.height, position.connect).from_moves(position.moves)
    if not state.is_legal(column):
        return None
    state.play(column)
    if state.outcome is not None:  # a win at once, or the last cell filled
        if state.outcome.winner is None:
            return 0
        return 1 if position.weak else (position.width * position.height + 1 - len(position.moves)) // 2
    return -Solver(position.width, position.height, position.connect).solve(list(state.history), weak=position.weak)


def _solver_class() -> Any:
    try:
        from gridgames_connect4.solver import Solver  # numba: imported only when analysing
    except ImportError as error:
        raise SolverError(f"the Connect Four solver is not available ({error})") from None
    return Solver


def analyze_position(state: Connect4State, *, weak: bool = False, jobs: int | str | None = None, scheduler: str | None = None) -> Analysis:
    """Solve ``state`` exactly with the solver; with ``jobs`` or ``scheduler``, one column per worker (Ctrl-C: KeyboardInterrupt)."""
    solver = _solver_class()
    if state.is_over:
        outcome = state.outcome
        assert outcome is not None
        ended = "a draw" if outcome.winner is None else f"{PLAYER_NAMES[outcome.winner]} won"
        raise GameOverError(f"the game is over ({ended}): there is nothing to analyze")
    game = state.game
    if jobs is None and scheduler is None:
        columns = tuple(solver(game.width, game.height, game.connect).analyze(list(state.history), weak=weak))
    else:
        columns = _analyze_by_columns(state, weak, jobs, scheduler)
    score = max(s for s in columns if s is not None)
    best = tuple(c + 1 for c, s in enumerate(columns) if s == score)
    return Analysis(state, score, columns, best, weak)


def _analyze_by_columns(state: Connect4State, weak: bool, jobs: int | str | None, scheduler: str | None) -> tuple[int | None, ...]:
    """Every column's score, each solved in a worker (local processes or Dask)."""
    from gridgames.search.parallel import run_parts

    game = state.game
    solver = _solver_class()
    solver(game.width, game.height, game.connect)  # refuses a board too big for the solver here, in one line
    done = run_parts(
        column_score, list(range(game.width)), shared=Position.of(state, weak), jobs=jobs, scheduler=scheduler,
        describe=lambda column: f"column {column + 1} after {state.notation() or 'no move'}",
    )  # fmt: skip
    if done.partial:
        raise KeyboardInterrupt
    return tuple(done.results)
