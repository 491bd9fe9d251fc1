"""Post-game review: every move's exact score against the best one available, mistakes marked.

For each move played, the position before it is solved (from a book when one is given and covers it,
else with the solver): the score of the move played and the best score, both from the mover's view in
Pons' convention (+ wins, bigger is sooner; 0 draws; - loses). A move is a **mistake** when it changes
the game-theoretic result for the mover (a win thrown away into a draw or a loss, a draw into a loss), an
**inaccuracy** when it keeps the result but delays a win or hastens a loss.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from gridgames_connect4.notation import line_words
from gridgames_connect4.rules import PLAYER_NAMES, Connect4
from gridgames.errors import OptionError

if TYPE_CHECKING:
    from gridgames_connect4.book import Book
    from gridgames_connect4.solver import Solver

__all__ = ["MISTAKE", "INACCURACY", "MoveReview", "Review", "review_game"]

MISTAKE = "mistake"
INACCURACY = "inaccuracy"
_RESULTS = {1: "win", 0: "draw", -1: "loss"}


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@attrs.frozen
class MoveReview:
    """One move: its number (1-based), who played it (0 first), the column (0-based), its score, the best, a mark."""

    number: int
    player: int
    column: int
    score: int
    best: int
    best_columns: tuple[int, ...]
    columns: tuple[int | None, ...]

    @property
    def mark(self) -> str | None:
        """MISTAKE when the move changed the result, INACCURACY when it only delayed a win or hastened a loss, else None."""
        if _sign(self.score) < _sign(self.best):
            return MISTAKE
        if self.score < self.best:
            return INACCURACY
        return None

    @property
    def change(self) -> str | None:
        """For a mistake, the result before and after, e.g. 'win -> draw'."""
        if self.mark != MISTAKE:
            return None
        return f"{_RESULTS[_sign(self.best)]} -> {_RESULTS[_sign(self.score)]}"

    def as_dict(self) -> dict[str, Any]:
        """JSON form, with 1-based columns."""
        return {"move": self.number, "player": PLAYER_NAMES[self.player], "column": self.column + 1,
                "score": self.score, "best": self.best, "best_columns": [c + 1 for c in self.best_columns],
                "columns": list(self.columns), "mark": self.mark, "change": self.change}


@attrs.frozen
class Review:
    """A reviewed game: the board, the moves, one `MoveReview` per move, and how many positions the book answered."""

    game: Connect4
    moves: tuple[int, ...]
    reviews: tuple[MoveReview, ...]
    from_book: int = 0

    @property
    def result(self) -> str:
        """How the game stands: 'red wins', 'a draw', or 'unfinished (yellow to move)'."""
        state = self.game.from_moves(self.moves)
        if state.outcome is None:
            return f"unfinished ({PLAYER_NAMES[state.current_player]} to move)"
        return "a draw" if state.outcome.winner is None else f"{PLAYER_NAMES[state.outcome.winner]} wins"

    def mistakes(self, player: int | None = None) -> list[MoveReview]:
        """The moves marked as mistakes (of one player, or of both)."""
        return [r for r in self.reviews if r.mark == MISTAKE and player in (None, r.player)]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: board, moves, result and every move's review."""
        game = self.game
        return {"width": game.width, "height": game.height, "connect": game.connect,
                "moves": game.join_notation(self.moves), "result": self.result,
                "reviews": [r.as_dict() for r in self.reviews], "from_book": self.from_book}

    def lines(self) -> list[str]:
        """The review as lines of text, one per move, then a summary per player."""
        game = self.game
        out = [f"Review of {game.join_notation(self.moves) or '(no move)'} ({game.size}, {line_words(game.connect)}): {self.result}.",
               f"{'Move':>4}  {'Player':<6}  {'Played':>6}  {'Score':>5}  {'Best':>4}  Best columns"]
        for r in self.reviews:
            note = ""
            if r.mark == MISTAKE:
                note = f"  mistake: {r.change}"
            elif r.mark == INACCURACY:
                note = "  inaccuracy: " + ("a slower win" if r.best > 0 else "a quicker loss")
            best = ", ".join(str(c + 1) for c in r.best_columns)
            out.append(f"{r.number:>4}  {PLAYER_NAMES[r.player]:<6}  {r.column + 1:>6}  {r.score:>+5d}  {r.best:>+4d}  {best}{note}")
        for player in (0, 1):
            mine = [r for r in self.reviews if r.player == player]
            inaccuracies = sum(r.mark == INACCURACY for r in mine)
            out.append(f"{PLAYER_NAMES[player].capitalize()}: {len(self.mistakes(player))} mistake(s), "
                       f"{inaccuracies} inaccurac{'y' if inaccuracies == 1 else 'ies'} in {len(mine)} move(s).")
        out.append("Scores are the mover's: + wins (bigger is sooner), 0 draws, - loses (nearer 0 is later).")
        return out


def _keep_going(_progress: object) -> None:
    """A progress watcher that never stops the search (it only makes the search run in short slices)."""


def review_game(game: Connect4, moves: Sequence[int], *, book: Book | None = None, solver: Solver | None = None,
                first: int = 1) -> Review:
    """Review the moves of a game (0-based columns) from move number ``first`` on, using ``book`` where it answers."""
    state = game.from_moves(moves)  # refuses illegal games, in one line
    moves = tuple(int(m) for m in state.history)
    if not isinstance(first, int) or first < 1:
        raise OptionError(f"the first move to review must be 1 or later, not {first!r}")
    if book is not None:
        from gridgames_connect4.oracle import check_book

        check_book(book, game.width, game.height, game.connect)
    reviews = []
    from_book = 0
    for i, column in enumerate(moves[first - 1 :], start=first - 1):
        before = list(moves[:i])
        scores = book.column_scores(before) if book is not None else None
        if scores is None:
            if solver is None:  # numba: only when the book does not answer
                from gridgames_connect4.oracle import solver_for

                solver = solver_for(game.width, game.height, game.connect, book)
                solver.on_progress = _keep_going  # the search runs in slices, so Ctrl-C gets through at once
            scores = solver.analyze(before)
        else:
            from_book += 1
        best = max(s for s in scores if s is not None)
        played = scores[column]
        assert played is not None
        reviews.append(MoveReview(i + 1, i % 2, column, played, best,
                                  tuple(c for c, s in enumerate(scores) if s == best), tuple(scores)))
    return Review(game, moves, tuple(reviews), from_book)
