"""Connect Four's hooks for ``gridgames serve`` (see `gridgames.web.hooks`): exact column scores, review, its save files.

* ``move_targets``: a click anywhere in a column drops a disc there;
* ``computer_move``: the levels of `gridgames_connect4.players` (their shared solver is used
  by one thread at a time);
* ``move_scores``: every column's exact score (Pons' convention, the side to move's view)
  from the solver, stopped by the page's budget (unsolved columns are then None);
* ``review``: after the game, every move's score against the best (mistakes marked),
  the last positions first (they solve fastest), as far as the budget goes;
* ``save_text`` / ``load_text``: the same JSON as ``gridgames play connect4`` (``s FILE``, ``--load``).
"""

from __future__ import annotations

import random
import threading
from typing import Any

from gridgames_connect4 import save
from gridgames_connect4.analysis import Analysis
from gridgames_connect4.review import MoveReview
from gridgames_connect4.rules import PLAYER_NAMES, Connect4State

__all__ = ["Connect4Web"]

SCORE_HELP = "exact score of each column for the side to move: + wins (bigger is sooner), 0 draws, - loses"
TABLE_MB = 32
_PLAYER_LOCK = threading.Lock()  # the players share one solver per board size (gridgames_connect4.players.shared_solver)
_local = threading.local()


def _solver(state: Connect4State, budget: Any, on_slice: Any = None) -> Any:
    """This thread's solver for the board (its table reused, reset), stopping when the budget says so."""
    from gridgames_connect4.solver import Solver

    game = state.game
    key = (game.width, game.height, game.connect)
    solvers = getattr(_local, "solvers", None)
    if solvers is None:
        solvers = _local.solvers = {}
    solver = solvers.get(key)
    if solver is None:
        solvers.clear()  # one board size per thread at a time: memory stays bounded
        solver = solvers[key] = Solver(*key, table_mb=TABLE_MB)
    solver.reset()

    def watch(progress: Any) -> bool:
        budget.report(None, None, f"{progress.explored:,} positions searched")
        if on_slice is not None:
            on_slice()
        return bool(budget.keep_going(progress.explored))

    solver.on_progress = watch
    return solver


class Connect4Web:
    """The web hooks of Connect Four."""

    score_help = SCORE_HELP

    def move_targets(self, state: Connect4State) -> dict[int, list[tuple[int, int]]]:
        """Every cell of a playable column plays that column."""
        height = state.game.height
        return {column: [(row, column) for row in range(height)] for column in state.legal_moves()}

    def computer_move(self, state: Connect4State, level: str, rng: random.Random, think: float) -> tuple[int, str]:
        """The move of a computer level (thinking at most ``think`` seconds) and its note."""
        from gridgames_connect4.players import make_player

        player = make_player(level, state.game, rng, think)
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

        _solver(state, budget, publish).analyze(list(state.history), into=columns)
        publish()
        exact = all(columns[c] is not None for c in legal)
        known = [s for c, s in enumerate(columns) if s is not None and c in legal]
        score = max(known) if known else None
        best = tuple(c + 1 for c, s in enumerate(columns) if s == score and c in legal) if exact else ()
        analysis = Analysis(state, score, tuple(columns), best, stopped=None if exact else "time")
        note = analysis.verdict() if exact and score is not None else "not exact: the time budget ran out"
        return {"scores": {c: columns[c] for c in legal}, "exact": exact, "note": note, "help": SCORE_HELP}

    def review(self, state: Connect4State, budget: Any) -> list[dict[str, Any]]:
        """Every move's score against the best (None where the budget ran out), mistakes marked; last moves solved first."""
        game, moves = state.game, list(state.history)
        entries: list[dict[str, Any]] = []
        for i in range(len(moves) - 1, -1, -1):
            number = i + 1
            entry: dict[str, Any] = {"number": number, "player": PLAYER_NAMES[i % 2], "move": game.format_move(moves[i]),
                                     "score": None, "best": None, "mark": None}  # fmt: skip
            if budget.keep_going():
                budget.report((len(moves) - i) / max(1, len(moves)), len(entries), f"reviewing move {number}")
                scores = _solver(state, budget).analyze(moves[:i])
                legal = [c for c in range(game.width) if scores[c] is not None]
                if scores[moves[i]] is not None and len(legal) == len(set(game.from_moves(moves[:i]).legal_moves())):
                    best = max(scores[c] for c in legal)  # type: ignore[type-var]
                    review = MoveReview(number, i % 2, moves[i], scores[moves[i]], best,  # type: ignore[arg-type]
                                        tuple(c for c in legal if scores[c] == best), tuple(scores))  # fmt: skip
                    entry.update(score=review.score, best=review.best, mark=review.mark,
                                 best_moves=[game.format_move(c) for c in review.best_columns])  # fmt: skip
            entries.append(entry)
        return entries[::-1]

    def save_text(self, state: Connect4State, seats: list[str], think: float | None, seed: int | None) -> str:
        """The terminal game's save file (gridgames-connect4 JSON)."""
        named = dict(zip(PLAYER_NAMES, seats)) if all(s in save.SEAT_KINDS for s in seats) else None
        return save.to_json(state, seats=named, think=think, seed=seed)

    def load_text(self, text: str) -> tuple[Connect4State, list[str | None]]:
        """A position and its seats (in turn order; None where the file names none) from a save file's text."""
        saved = save.from_json(text, source="the uploaded file")
        order = PLAYER_NAMES if saved.first == "red" else PLAYER_NAMES[::-1]
        return saved.state, [saved.seats.get(colour) for colour in order]
