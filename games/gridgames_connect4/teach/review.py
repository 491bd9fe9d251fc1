"""Post-game review: every move's exact score against the best one available, mistakes marked.

For each move played, the position before it is solved (from a book when one is given and covers it,
else with the solver): the score of the move played and the best score, both from the mover's view in
Pons' convention (+ wins, bigger is sooner; 0 draws; - loses).

GRADES (exact: Connect Four is solved, so no guessed thresholds on winning chances)
  best        the move keeps the best score.
  good        it keeps the result, won later or lost sooner by fewer than ``inaccuracy_moves`` of the mover's moves.
  inaccuracy  it keeps the result but wins later or loses sooner by at least ``inaccuracy_moves`` of the mover's
              moves (``moves_lost``: the best score minus the move's; one point of Pons' score is one move of the
              winner). The default, `INACCURACY_MOVES` = 2, forgives a win one move later or a loss one move
              sooner (graded `GOOD`): marking every such delay was noise (four "inaccuracies" in a game against
              ``easy``). ``--inaccuracy 1`` marks every delay again; larger values forgive more (lila#18262).
  mistake     it turns a win into a draw or a draw into a loss.
  blunder     it turns a win into a loss.
  The coarser ``mark`` (MISTAKE for any change of result, INACCURACY for any delay) is kept for the web page.

ACCURACY (lichess's idea, on exact scores instead of an engine's guess)
  1. Each exact score ``s`` (the mover's, Pons' convention) gets a win chance in percent, `win_chance`:
     50 for a draw; for a win 50 + 50 * (WIN_BASE + (1 - WIN_BASE) * min(1, s / top)), for a loss the mirror
     (100 minus the win chance of -s). ``top`` is the board's largest score, (cells + 1) // 2 - (connect - 1)
     (18 on 7x6). With `WIN_BASE` = 0.8 any win is worth at least 90% and the quickest 100%: a won
     position is almost certainly won, a sooner win a little surer.
  2. A move's accuracy, `move_accuracy`, is 100 * exp(-drop / DROP_SCALE), where ``drop`` is the win chance of
     the best score minus that of the move's score (both the mover's, in percentage points). `DROP_SCALE` = 20:
     a win given away (drop >= 80) scores at most 1.8%, a draw given away (drop >= 40) at most 13.5%, a win one
     move later on 7x6 (drop 0.56) 97.3%, best moves 100%.
  3. A player's accuracy, `Review.accuracy`, is the harmonic mean of their moves' accuracies, each floored at
     `ACCURACY_FLOOR` = 5% (so that one move does not make it 0). The harmonic mean is ruled by the worst moves: a
     game thrown by one blunder cannot hide behind the best moves that follow it once the game is lost (every
     losing move then keeps the "best" score). One blunder among n moves scores at most
     n / ((n - 1) / 100 + 1 / 5): 52.5% in 21 moves, the most a side plays on 7x6. Best play throughout: 100%.
  ``value`` is a move's accuracy divided by 100 (0 to 1).

The positions the book does not answer go to the solver in batches: the children of several positions
in one compiled call (`Solver.solve_many`, the table kept between them), the last positions of the game
first (they solve fastest, and their table entries help the earlier ones). Only positions with at most
`oracle.BATCH_EMPTY_CELLS` empty cells go into batches, each sized to take at most about a tenth of a second,
so Ctrl-C (or a ``keep_going`` that says stop) gets through between two batches; earlier positions, and every
position after one that cost more than a hundredth of a second, are solved alone by `Solver.analyze` in short
slices. An interrupted review keeps the moves reviewed so far and is marked partial.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from gridgames_connect4.position.notation import line_words
from gridgames_connect4.solve.oracle import BATCH_EMPTY_CELLS, PendingColumns, pending_columns, solve_pending
from gridgames_connect4.position.rules import PLAYER_NAMES, Connect4
from gridgames_connect4.solve.scores import sign
from gridgames.errors import OptionError

if TYPE_CHECKING:
    from gridgames_connect4.solve.book import Book
    from gridgames_connect4.solve.solver import Solver

__all__ = [
    "ACCURACY_FLOOR",
    "BEST",
    "BLUNDER",
    "DROP_SCALE",
    "GOOD",
    "GRADES",
    "INACCURACY",
    "INACCURACY_MOVES",
    "INTERRUPTED",
    "MISTAKE",
    "STOPPED",
    "WIN_BASE",
    "MoveReview",
    "Review",
    "check_inaccuracy_moves",
    "game_accuracy",
    "move_accuracy",
    "review_game",
    "top_score",
    "win_chance",
]

BEST = "best"
GOOD = "good"
"""A move that keeps the result but loses fewer than ``inaccuracy_moves`` moves (only with a threshold above 1)."""
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
GRADES = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)
_SPARK = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
INACCURACY_MOVES = 2
"""The default threshold of an inaccuracy, in the mover's moves lost: a one-move delay is `GOOD` (see the module)."""
WIN_BASE = 0.8
"""The share of a win's chance above 50% that any win gets, however slow (see ACCURACY in the module)."""
DROP_SCALE = 20.0
"""The win-chance drop, in percentage points, that divides a move's accuracy by e (see ACCURACY in the module)."""
ACCURACY_FLOOR = 5.0
"""The least accuracy a move counts for in a player's harmonic mean (see ACCURACY in the module)."""
INTERRUPTED = "interrupted"
"""`Review.stopped` after Ctrl-C."""
STOPPED = "stopped"
"""`Review.stopped` when ``keep_going`` said stop (e.g. a time budget ran out)."""
_RESULTS = {1: "win", 0: "draw", -1: "loss"}
BATCH_SECONDS = 0.1
"""About how long one batch of positions may take in one compiled call (Ctrl-C waits for it)."""
ALONE_SECONDS = 0.01
"""A position that costs more than this is searched alone, in slices: batching saves per-call costs of microseconds
only, and the opening's positions get dearer by orders of magnitude within a few moves."""


def top_score(cells: int, connect: int = 4) -> int:
    """The largest score on a board of ``cells`` cells: a win with the mover's ``connect``-th disc (18 on 7x6)."""
    return max(1, (cells + 1) // 2 - (connect - 1))


def win_chance(score: int, top: int) -> float:
    """The win chance in percent of an exact score (the mover's): 50 for a draw, 90 to 100 for a win (sooner is
    surer), the mirror for a loss (see ACCURACY in the module).

    >>> win_chance(0, 18), win_chance(18, 18), win_chance(-18, 18)
    (50.0, 100.0, 0.0)
    """
    if score == 0:
        return 50.0
    share = WIN_BASE + (1.0 - WIN_BASE) * min(1.0, abs(score) / top)
    return 50.0 + 50.0 * share if score > 0 else 50.0 - 50.0 * share


def move_accuracy(score: int, best: int, top: int) -> float:
    """A move's accuracy in percent from its score and the best one (the mover's): 100 * exp(-drop / DROP_SCALE),
    ``drop`` the fall in win chance (see ACCURACY in the module).

    >>> move_accuracy(3, 3, 18)
    100.0
    """
    drop = max(0.0, win_chance(best, top) - win_chance(score, top))
    return 100.0 * math.exp(-drop / DROP_SCALE)


def game_accuracy(accuracies: Sequence[float]) -> float | None:
    """A player's accuracy from their moves' accuracies (percent): the harmonic mean, each floored at
    `ACCURACY_FLOOR`; None for no move.

    >>> game_accuracy([100.0, 100.0])
    100.0
    """
    if not accuracies:
        return None
    return 100.0 * len(accuracies) / math.fsum(100.0 / max(ACCURACY_FLOOR, a) for a in accuracies)


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
    inaccuracy_moves: int = attrs.field(default=INACCURACY_MOVES, kw_only=True)
    top: int = attrs.field(default=18, kw_only=True)
    """The board's largest score (`top_score`), for the win chances of the accuracy."""

    @property
    def moves_lost(self) -> int:
        """How many of the mover's moves later the game is won, or sooner lost, than with the best move (the best
        score minus the move's; meaningful as a delay when the result is kept)."""
        return self.best - self.score

    @property
    def grade(self) -> str:
        """BEST, GOOD, INACCURACY, MISTAKE or BLUNDER (see the module)."""
        drop = sign(self.best) - sign(self.score)
        if drop == 2:
            return BLUNDER
        if drop == 1:
            return MISTAKE
        if self.score == self.best:
            return BEST
        return INACCURACY if self.moves_lost >= self.inaccuracy_moves else GOOD

    @property
    def accuracy(self) -> float:
        """The move's accuracy in percent, from the drop in win chance (`move_accuracy`, see the module)."""
        return move_accuracy(self.score, self.best, self.top)

    @property
    def value(self) -> float:
        """The move's accuracy from 0 to 1 (see the module)."""
        return self.accuracy / 100.0

    @property
    def mark(self) -> str | None:
        """MISTAKE when the move changed the result, INACCURACY when it only delayed a win or hastened a loss, else
        None."""
        if sign(self.score) < sign(self.best):
            return MISTAKE
        if self.score < self.best:
            return INACCURACY
        return None

    @property
    def change(self) -> str | None:
        """For a mistake, the result before and after, e.g. 'win -> draw'."""
        if self.mark != MISTAKE:
            return None
        return f"{_RESULTS[sign(self.best)]} -> {_RESULTS[sign(self.score)]}"

    def as_dict(self, colours: Sequence[str] = PLAYER_NAMES) -> dict[str, Any]:
        """JSON form, with 1-based columns (``colours``: the colour of the first mover, then the other's)."""
        return {
            "move": self.number,
            "player": colours[self.player],
            "column": self.column + 1,
            "score": self.score,
            "best": self.best,
            "best_columns": [c + 1 for c in self.best_columns],
            "columns": list(self.columns),
            "mark": self.mark,
            "change": self.change,
            "grade": self.grade,
            "moves_lost": self.moves_lost,
            "value": self.value,
            "accuracy": self.accuracy,
        }


@attrs.frozen
class Review:
    """A reviewed game: the board, the moves, one `MoveReview` per move reviewed, how many the book answered.

    ``first``: the first move number to review; ``stopped``: None when every move from ``first`` on was
    reviewed, else `INTERRUPTED` or `STOPPED` (a partial review: see `missing`). ``colours``: the colour of the
    player who moved first, then the other's (("yellow", "red") for a game played with ``--first yellow``).
    """

    game: Connect4
    moves: tuple[int, ...]
    reviews: tuple[MoveReview, ...]
    from_book: int = 0
    first: int = 1
    stopped: str | None = None
    colours: tuple[str, str] = PLAYER_NAMES

    @property
    def partial(self) -> bool:
        """True when the review stopped before every move was reviewed."""
        return self.stopped is not None

    @property
    def missing(self) -> list[int]:
        """The move numbers (1-based) from ``first`` on that were not reviewed (none unless partial)."""
        done = {r.number for r in self.reviews}
        return [n for n in range(self.first, len(self.moves) + 1) if n not in done]

    @property
    def result(self) -> str:
        """How the game stands: 'red wins', 'a draw', or 'unfinished (yellow to move)'."""
        state = self.game.from_moves(self.moves)
        if state.outcome is None:
            return f"unfinished ({self.colours[state.current_player]} to move)"
        return "a draw" if state.outcome.winner is None else f"{self.colours[state.outcome.winner]} wins"

    def accuracy(self, player: int) -> float | None:
        """The player's accuracy in percent (`game_accuracy`, see the module), None when none of their moves was
        reviewed."""
        return game_accuracy([r.accuracy for r in self.reviews if r.player == player])

    def graded(self, player: int, grade: str) -> list[MoveReview]:
        """The player's moves with that grade."""
        return [r for r in self.reviews if r.player == player and r.grade == grade]

    def mistakes(self, player: int | None = None) -> list[MoveReview]:
        """The moves marked as mistakes (of one player, or of both)."""
        return [r for r in self.reviews if r.mark == MISTAKE and player in (None, r.player)]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: board, moves, result and every move's review."""
        game = self.game
        return {
            "width": game.width,
            "height": game.height,
            "connect": game.connect,
            "moves": game.join_notation(self.moves),
            "result": self.result,
            "reviews": [r.as_dict(self.colours) for r in self.reviews],
            "from_book": self.from_book,
            "partial": self.partial,
            "stopped": self.stopped,
            "not_reviewed": self.missing,
            "accuracy": {self.colours[p]: self.accuracy(p) for p in (0, 1)},
            "inaccuracy_moves": self.reviews[0].inaccuracy_moves if self.reviews else INACCURACY_MOVES,
            "graph": self.graph(),
        }

    def graph(self) -> list[int]:
        """The score after each reviewed move from the first mover's view (the mover's score, negated for the second
        player's moves): the game's course, + the first mover wins, - the other."""
        return [r.score if r.player == 0 else -r.score for r in self.reviews]

    def sparkline(self) -> str:
        """The graph as one character a move: a bar from the upper half when the first mover wins (taller: sooner), from
        the lower half when the other does (shorter: sooner), a dash for a draw; scaled to the game's largest score."""
        points = self.graph()
        top = max((abs(v) for v in points), default=0) or 1
        return "".join(
            "\u2500" if v == 0 else _SPARK[4 + round(3 * v / top)] if v > 0 else _SPARK[3 - round(3 * -v / top)]
            for v in points
        )

    def svg(self, width: int = 480, height: int = 160) -> str:
        """The graph as an SVG picture: one point a move (left to right), the draw line across the middle."""
        points = self.graph()
        top = max((abs(v) for v in points), default=0) or 1
        step = width / max(1, len(points) - 1)
        coords = " ".join(f"{i * step:.1f},{height / 2 - v / top * (height / 2 - 4):.1f}" for i, v in enumerate(points))
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><title>Score over the game ({self.colours[0]} up)</title>'
            f'<line x1="0" y1="{height / 2}" x2="{width}" y2="{height / 2}" stroke="#999" stroke-dasharray="4 3"/>'
            f'<polyline points="{coords}" fill="none" stroke="#c00" stroke-width="2"/></svg>'
        )

    def lines(self) -> list[str]:
        """The review as lines of text, one per move, then a summary per player."""
        game = self.game
        out = [
            f"Review of {game.join_notation(self.moves) or '(no move)'} ({game.size}, {line_words(game.connect)}): "
            f"{self.result}.",
            f"{'Move':>4}  {'Player':<6}  {'Played':>6}  {'Score':>5}  {'Best':>4}  Best columns",
        ]
        for r in self.reviews:
            note = ""
            if r.grade in (MISTAKE, BLUNDER):
                note = f"  {r.grade}: {r.change}"
            elif r.grade in (INACCURACY, GOOD):
                lost = f"by {r.moves_lost} move{'s' if r.moves_lost > 1 else ''}"
                note = f"  {r.grade}: " + (f"a slower win {lost}" if r.best > 0 else f"a quicker loss {lost}")
            best = ", ".join(str(c + 1) for c in r.best_columns)
            out.append(
                f"{r.number:>4}  {self.colours[r.player]:<6}  {r.column + 1:>6}  {r.score:>+5d}  {r.best:>+4d}  "
                f"{best}{note}"
            )
        for player in (0, 1):
            mine = [r for r in self.reviews if r.player == player]
            inaccuracies = len(self.graded(player, INACCURACY))
            accuracy = self.accuracy(player)
            out.append(
                f"{self.colours[player].capitalize()}: {len(self.graded(player, BLUNDER))} blunder(s), "
                f"{len(self.graded(player, MISTAKE))} mistake(s), "
                f"{inaccuracies} inaccurac{'y' if inaccuracies == 1 else 'ies'} in {len(mine)} move(s)"
                + ("." if accuracy is None else f"; accuracy {accuracy:.1f}%.")
            )
        if self.partial:
            why = "interrupted" if self.stopped == INTERRUPTED else "stopped"
            out.append(f"Partial review ({why}): move(s) {_ranges(self.missing)} not reviewed.")
        if self.reviews:
            out.append(f"Course ({self.colours[0]} up, {self.colours[1]} down): {self.sparkline()}")
        out.append("Scores are the mover's: + wins (bigger is sooner), 0 draws, - loses (nearer 0 is later).")
        threshold = self.reviews[0].inaccuracy_moves if self.reviews else INACCURACY_MOVES
        out.append(
            f"Blunder: a win into a loss; mistake: a win into a draw or a draw into a loss; inaccuracy: the "
            f"result kept, won {threshold} or more of the mover's moves later or lost as much sooner."
        )
        out.append(
            "Accuracy: each move's drop in win chance (a draw 50%, a win 90-100%, sooner surer), its harmonic "
            "mean over the player's moves: one blunder weighs."
        )
        return out


def check_inaccuracy_moves(value: object) -> int:
    """The inaccuracy threshold checked: a whole number of moves from 1 (`OptionError` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise OptionError(f"the inaccuracy threshold must be a whole number of moves from 1, not {value!r}")
    return value


def _ranges(numbers: Sequence[int]) -> str:
    """Sorted numbers as ranges: [1, 2, 3, 7] -> '1-3, 7'."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _solve_alone(solver: Solver, pos: PendingColumns, keep_going: Callable[[], bool] | None) -> list[int | None] | None:
    """Every column's score of one position, searched in short slices (Ctrl-C gets through); None if told to stop."""

    def watch(_progress: object) -> bool:
        return keep_going is None or bool(keep_going())

    scores = solver.analyze(list(pos.moves), on_progress=watch)
    if any(scores[c] is None for c in pos.children):
        return None
    return scores


def review_game(
    game: Connect4,
    moves: Sequence[int],
    *,
    book: Book | None = None,
    solver: Solver | None = None,
    first: int = 1,
    on_progress: Callable[[int, int], object] | None = None,
    keep_going: Callable[[], bool] | None = None,
    keep_partial: bool = False,
    colours: Sequence[str] = PLAYER_NAMES,
    inaccuracy_moves: int = INACCURACY_MOVES,
) -> Review:
    """Review the moves of a game (0-based columns) from move number ``first`` on, using ``book`` where it answers.

    ``on_progress(reviewed, total)`` is called as moves get reviewed; ``keep_going()``, asked between batches
    (and between slices of a long search), stops the review when it returns False (a partial review, `STOPPED`).
    Ctrl-C raises KeyboardInterrupt, or with ``keep_partial`` returns the partial review (`INTERRUPTED`).
    ``colours``: the players' colours in turn order (the first mover's first), as the review names them.
    ``inaccuracy_moves``: the moves lost from which a move that keeps the result is an inaccuracy (see the module).
    """
    check_inaccuracy_moves(inaccuracy_moves)
    state = game.from_moves(moves)  # refuses illegal games, in one line
    moves = tuple(int(m) for m in state.history)
    if not isinstance(first, int) or first < 1:
        raise OptionError(f"the first move to review must be 1 or later, not {first!r}")
    if first > max(1, len(moves)):
        raise OptionError(f"the game has {len(moves)} move(s): there is no move {first} to review from")
    if tuple(colours) not in (PLAYER_NAMES, PLAYER_NAMES[::-1]):
        raise OptionError(f"the colours must be red and yellow in turn order, not {colours!r}")
    if book is not None:
        from gridgames_connect4.solve.oracle import check_book

        check_book(book, game.width, game.height, game.connect)
    total = max(0, len(moves) - first + 1)
    scored: dict[int, list[int | None]] = {}
    from_book = 0
    stopped: str | None = None

    def report() -> None:
        if on_progress is not None:
            on_progress(len(scored), total)

    todo = []
    for i in range(first - 1, len(moves)):
        found = book.column_scores(list(moves[:i])) if book is not None else None
        if found is None:
            todo.append(i)
        else:
            scored[i] = list(found)
            from_book += 1
    try:
        if todo:
            report()
            if solver is None:  # numba: only when the book does not answer
                from gridgames_connect4.solve.oracle import solver_for

                solver = solver_for(game.width, game.height, game.connect, book)
            stopped = _solve_positions(
                solver, pending_columns(game, moves, todo), todo[::-1], scored, report, keep_going
            )
        report()
    except KeyboardInterrupt:
        if not keep_partial:
            raise
        stopped = INTERRUPTED
    reviews = []
    for i in sorted(scored):
        scores, column = scored[i], moves[i]
        best = max(s for s in scores if s is not None)
        played = scores[column]
        assert played is not None  # the column was legal, so it was scored
        reviews.append(
            MoveReview(
                i + 1,
                i % 2,
                column,
                played,
                best,
                tuple(c for c, s in enumerate(scores) if s == best),
                tuple(scores),
                inaccuracy_moves=inaccuracy_moves,
                top=top_score(game.width * game.height, game.connect),
            )
        )
    return Review(game, moves, tuple(reviews), from_book, first, stopped, (colours[0], colours[1]))


def _solve_positions(
    solver: Solver,
    positions: dict[int, PendingColumns],
    order: Sequence[int],
    scored: dict[int, list[int | None]],
    report: Callable[[], None],
    keep_going: Callable[[], bool] | None,
) -> str | None:
    """Solve the positions in ``order`` into ``scored`` (batches, then one by one in slices); STOPPED or None."""
    size = 4  # positions in the next batch: doubled while batches stay short
    # once a position costs more than a batch may take, each is searched alone, in slices
    alone = False
    at = 0
    while at < len(order):
        if keep_going is not None and not keep_going():
            return STOPPED
        if alone:
            pos = positions[order[at]]
            scores = _solve_alone(solver, pos, keep_going)
            if scores is None:
                return STOPPED
            scored[pos.index] = scores
            at += 1
        else:
            batch = [positions[i] for i in order[at : at + size]]
            # the later (cheaper) ones come first
            batch = [pos for pos in batch if pos.empty <= BATCH_EMPTY_CELLS]
            # a batch call cannot be interrupted: positions this early are searched alone
            if not batch:
                alone = True
                continue
            started = time.perf_counter()
            for pos, scores in zip(batch, solve_pending(solver, batch)):
                scored[pos.index] = scores
            at += len(batch)
            per_position = (time.perf_counter() - started) / len(batch)
            if per_position > ALONE_SECONDS:
                alone = True
            else:  # the earlier positions cost more: aim at half of BATCH_SECONDS
                size = max(1, min(2 * size, int(BATCH_SECONDS / 2 / max(per_position, 1e-6))))
        report()
    return None
