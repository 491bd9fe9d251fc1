"""Solving a position for ``gridgames connect4 analyze``: scores as data, and their plain-English lines.

Scores follow Pascal Pons' convention, from the side to move's view: positive, the
side to move forces a win (the bigger, the sooner); zero, a draw; negative, a loss
(the nearer zero, the later). With ``weak`` only the sign is computed (+1, 0, -1).
The position's score is the best column's score.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from gridgames_connect4.teach import report
from gridgames_connect4.position.rules import Connect4State
from gridgames_connect4.solve.scorer import Limits, score_columns

if TYPE_CHECKING:
    pass


@attrs.frozen
class Analysis:
    """The solved position: its move string, the score and each column's (None: full or unsolved), the best columns
    (1-based).

    ``stopped`` says why some playable columns are unsolved: "interrupted" (Ctrl-C) or "time" (the think limit);
    then ``score`` is the best solved column's (a lower bound, None if none was solved) and ``best`` is empty.
    """

    state: Connect4State
    score: int | None
    columns: tuple[int | None, ...]
    best: tuple[int, ...]
    weak: bool = False
    stopped: str | None = None

    @property
    def partial(self) -> bool:
        """True when some playable column is unsolved (the answer is not exact)."""
        return self.stopped is not None

    @property
    def unsolved(self) -> tuple[int, ...]:
        """The playable columns without a score (1-based)."""
        return tuple(c + 1 for c, s in enumerate(self.columns) if s is None and self.state.is_legal(c))

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: {"moves", "score", "columns", "best"}, plus "partial", "stopped" and "unsolved" when
        partial."""
        return report.analysis_dict(
            self.state.notation(),
            self.score,
            self.columns,
            self.best,
            self.stopped,
            self.unsolved if self.partial else (),
        )

    def verdict(self) -> str:
        """What the score means, e.g. 'red wins with its 4th move from now'."""
        if self.score is None:
            raise ValueError("no column was solved: the analysis has no score to put in words")
        game = self.state.game
        return report.verdict(self.score, self.weak, game.width * game.height, len(self.state.history))

    def lines(self) -> list[str]:
        """The report as lines of text."""
        game, state = self.state.game, self.state
        return report.analysis_lines(
            state.notation(),
            (game.width, game.height, game.connect),
            len(state.history),
            self.score,
            self.columns,
            [state.is_legal(c) for c in range(game.width)],
            self.best,
            self.weak,
            self.stopped,
            self.unsolved,
        )


def book_analysis(state: Connect4State, book: Any, weak: bool = False) -> Analysis | None:
    """The analysis of a position the opening book covers (every column from the book or a quick check), else None."""
    from gridgames_connect4.solve.oracle import book_columns, check_book

    game = state.game
    check_book(book, game.width, game.height, game.connect)
    known = book_columns(book, state.history, weak)
    return None if known is None else analysis_of_columns(state, known, weak)


def analysis_of_columns(state: Connect4State, columns: list[int | None], weak: bool = False) -> Analysis:
    """The exact analysis of every column's score (None: full; signs only when ``weak``): the best score and columns."""
    top = max(s for s in columns if s is not None)
    return Analysis(state, top, tuple(columns), tuple(c + 1 for c, s in enumerate(columns) if s == top), weak)


def analyze_position(state: Connect4State, limits: Limits | None = None) -> Analysis:
    """The analysis of ``state``: every column scored within ``limits`` (`gridgames_connect4.solve.scorer`)."""
    scores = score_columns(state, limits or Limits())
    solved = [s for s in scores.columns if s is not None]
    score = max(solved) if solved else None
    best = () if scores.stopped else tuple(c + 1 for c, s in enumerate(scores.columns) if s == score)
    return Analysis(state, score, scores.columns, best, scores.weak, scores.stopped)
