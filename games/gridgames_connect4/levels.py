"""Connect Four's levels of computer play, from random to perfect: each a player behind one interface.

A player has a ``name``, ``choose(state) -> column`` and, after each choice, a
``note`` (empty, or one line worth telling the user, e.g. that the time ran out).

* ``random``: any legal column (the generic `gridgames.search.players.RandomPlayer`).
* ``easy``: a 2-ply heuristic search with noisy scores.
* ``medium``: a 6-ply heuristic search (alpha-beta, threat-counting evaluation).

The heuristic searches are the generic `gridgames.search.negamax` (what every plugin
gets) on `Connect4State`, whose evaluation reads the state's bitboard.
* ``hard``: an exact move from the opening book where the book covers the position, else
  a short solver search, exact in the endgame; before that (and now and then anyway,
  book or not) a 7-ply heuristic search: strong but beatable.
* ``perfect``: a best move of the opening book where it covers the position (every
  position with fewer discs than the book's depth), else the solver's; among equally
  scored moves a random one. When the score does not fit the time but the outcome
  does, a move that keeps the win. What happens when neither answers in time: see
  `SolverPlayer`.

Every level takes an immediate win and blocks an immediate loss. Every computer
move is bounded by ``think`` seconds, counted as a node budget (so that a seeded game
replays the same on any machine) backed by a deadline. The solver (numba) is imported
only by ``hard`` and ``perfect``, on their first move out of the book; on a board too
large for it they fall back to the heuristic search.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from gridgames_connect4 import heuristic
from gridgames_connect4.position.geometry import Geometry
from gridgames.errors import GameOverError, GridGamesError, OptionError
from gridgames.search.negamax import NegamaxResult, search
from gridgames.search.players import RandomPlayer
from gridgames.parsing import check_seconds

# the rules import this module for their computer players: no import back at run time
if TYPE_CHECKING:
    from gridgames_connect4.position.rules import Connect4, Connect4State
    from gridgames_connect4.solve.book import Book
    from gridgames_connect4.solve.solver import SearchProgress, SearchResult, Solver
    from gridgames_connect4.solve.solver_cache import LentSolver

KINDS = ("random", "easy", "medium", "hard", "perfect")
"""The computer levels, weakest first (hard and perfect use the solver)."""
DEFAULT_THINK = 2.0
NODE_RATE = 16_000
"""Conservative positions per second of the search (13-22 k/s measured by bench/connect4_players.py); budgets use it."""
EASY_DEPTH, EASY_NOISE = 2, 0.2
MEDIUM_DEPTH = 6
PERFECT_FALLBACK_SHARE = 0.4
"""The share of ``think`` the perfect player's fallback search gets, after the solver had all of ``think``."""
PERFECT_FALLBACK_DEPTH = 8
SOLVER_SHARE_OF_THINK = 0.9
"""The perfect player's solver stops at this share of ``think`` of wall time, a backstop: at the assumed node rate
its node budget ends it first (by about 0.7 x think here), so seeded games replay the same where the machine keeps
that rate; the rest leaves the fallback search its time within ``think``."""
OVER_THINK = 0.05
"""The fallback search gets at least this share of ``think`` (a move may end that much past it), and at most what
is left of ``think`` (every move within 10% of ``think``)."""
MIN_FALLBACK_SECONDS = 0.01
"""Less time than this left after the solver: play the solver's depth-limited choice without a fallback search."""
HARD_DEPTH = 7
HARD_SHARE_OF_THINK = 0.3
HARD_MAX_NODES = 500_000
HARD_SLIP = 0.1
"""How often the hard player plays its heuristic search's move even when the solver has an exact one."""


def _require_turn(state: Connect4State) -> None:
    if state.is_over:
        raise GameOverError("the game is over: there is no move to choose")


def forced_move(state: Connect4State, rng: random.Random) -> int | None:
    """An immediate win if there is one, else the block of an immediate loss, else None."""
    game = state.game
    geom = Geometry.of(game.width, game.height, game.connect)
    cur, mask = state.bitboard
    for side in (cur, cur ^ mask):
        columns = heuristic.immediate_wins(geom, side, mask)
        if columns:
            return rng.choice(columns)
    return None


@attrs.define
class HeuristicPlayer:
    """A depth-limited heuristic search: takes wins, blocks losses, then looks ``depth`` plies ahead."""

    name: str
    depth: int
    rng: random.Random
    think: float = DEFAULT_THINK
    noise: float = 0.0
    note: str = ""
    last: NegamaxResult | None = None

    def choose(self, state: Connect4State, columns: Sequence[int] | None = None) -> int:
        """The best column (of ``columns`` when any is open) of a search ``depth`` plies deep (less when time runs out).

        The time is mainly a node budget (``think * NODE_RATE`` positions), so that a seeded
        game replays the same on any machine; a deadline after ``think`` seconds backs it up.
        An immediate win is always taken and an immediate loss always blocked.
        """
        _require_turn(state)
        forced = forced_move(state, self.rng)
        if forced is not None:
            self.last, self.note = None, ""
            return forced
        open_columns = [c for c in state.legal_moves() if columns is None or c in columns]
        if len(open_columns) == 1:
            self.last, self.note = None, ""
            return open_columns[0]
        result = search(
            state,
            seconds=self.think,
            max_depth=self.depth,
            max_nodes=max(1, int(self.think * NODE_RATE)),
            moves=open_columns or None,
            all_scores=True,
            noise=self.noise,
            rng=self.rng,
        )
        self.last = result
        self.note = (
            ""
            if not result.stopped
            else (f"depth-limited search (depth {result.depth}): no deeper result within {self.think:g} s")
        )
        return result.move

    @property
    def depth_reached(self) -> int:
        """The depth of the last search (0 when the move was forced)."""
        return self.last.depth if self.last is not None else 0


def _lend_solver(game: Connect4, book: Book | None) -> LentSolver | None:
    """A solver for the board from the one cache (`solver_cache`), or None when it cannot handle that board."""
    from gridgames_connect4.solve.solver_cache import lend

    try:
        return lend(game.width, game.height, game.connect, book)
    except GridGamesError:  # a board too big for its bitboards
        return None


def _book_for(book: Book | None, game: Connect4) -> Book | None:
    """The book, checked to be for this board (`BookError` otherwise); None stays None."""
    if book is not None:
        from gridgames_connect4.solve.oracle import check_book

        check_book(book, game.width, game.height, game.connect)
    return book


@attrs.define
class SolverPlayer:
    """The solver's best move within a node budget, falling back on a heuristic search where it cannot help.

    When the solver cannot finish within its share of ``think``, the fallback search
    (given the rest of the time) chooses among the columns the solver has not proven
    to lose. ``slip``: how often to play the fallback's move anyway. ``quiet``: say
    nothing about depth-limited moves (they are the design of the level, not a limit).
    ``book``: an opening book for the board, consulted first (after the slip).

    ``exact_first`` (the perfect player): the exact search gets the whole node budget of
    ``think * share`` (at the solver's fixed conservative rate, `solver.nodes_for_seconds`),
    so a position the book or the solver answers within ``think`` is always played exactly.
    The solver proves the outcome first: a won position whose score takes longer still gets a
    move that keeps the win (`Solver.best_move`, ``weak``). When neither does (on 7x6 with the
    shipped book: none in the seeded games measured, see bench/README.md; without a
    book, those of the first eight to ten plies), the solver's own depth-limited search spends a third
    more nodes, then an 8-ply heuristic search (``fallback``) chooses among the columns not
    proven to lose, and ``note`` says so: such a move is not guaranteed best.

    Every move ends within ``think`` seconds of wall time (14-17 s were once seen for
    ``--think 2`` on 9x7 connect-5, where the solver runs far below its assumed rate): the
    solver also stops at a deadline, `SOLVER_SHARE_OF_THINK` of ``think`` (``share`` of it for
    ``hard``), and the fallback search gets what is left of ``think``, at least
    `OVER_THINK` of it. The solver's slices of about 0.03 s let Ctrl-C through at once.
    """

    name: str
    rng: random.Random
    fallback: HeuristicPlayer
    think: float = DEFAULT_THINK
    share: float = 1.0
    max_nodes: int | None = None
    slip: float = 0.0
    quiet: bool = False
    note: str = ""
    book: Book | None = None
    exact_first: bool = False
    fallback_share: float = 0.0
    from_book: int = 0
    """How many moves the book gave."""

    def choose(self, state: Connect4State) -> int:
        """The book's or the solver's choice (exact when it finishes in time), else a depth-limited search's."""
        _require_turn(state)
        forced = forced_move(state, self.rng)
        if forced is not None:
            self.note = ""
            return forced
        game = state.game
        # drawn once: before the book with one, after the solver check without (as before books)
        slipped = None
        if self.book is not None:
            slipped = bool(self.slip) and self.rng.random() < self.slip
            if not slipped:
                from gridgames_connect4.solve.oracle import best_from_book

                found = best_from_book(self.book, state.history, self.rng)
                if found is not None:
                    self.note = ""
                    self.from_book += 1
                    return found[0]
        lent = _lend_solver(game, self.book)
        if lent is None:
            self.fallback.think = self.think
            column = self.fallback.choose(state)
            depth = self.fallback.depth_reached
            self.note = f"the solver cannot handle a {game.size} board: heuristic search (depth {depth})"
            return column
        with lent as solver:
            if slipped is None:
                slipped = bool(self.slip) and self.rng.random() < self.slip
            if slipped:
                self.fallback.think = self.think
                column = self.fallback.choose(state)
                self.note = "" if self.quiet else self.fallback.note
                return column
            # a fixed rate: seeded games replay the same
            from gridgames_connect4.solve.solver import nodes_for_seconds

            started = time.monotonic()
            stop_at = started + self.think * (SOLVER_SHARE_OF_THINK if self.exact_first else self.share)
            budget = nodes_for_seconds(self.think * self.share)
            if self.max_nodes is not None:
                budget = min(budget, self.max_nodes)
            # best_move keeps a quarter of max_nodes for its depth-limited search
            if self.exact_first:
                budget = budget * 4 // 3 + 1
            result = _best_move_by(
                solver,
                list(state.history),
                stop_at,
                max_nodes=max(budget, 1),
                rng=self.rng,
                all_scores=not self.exact_first,
            )
        if result.exact:
            self.note = ""
            return result.column
        not_lost = [c for c in state.legal_moves() if (result.scores[c] or 0) >= 0]  # None: unknown
        given = self.think * (self.fallback_share if self.exact_first else 1 - self.share)
        left = _fallback_seconds(self.think, started, given)
        # no time left for a search: the solver's depth-limited choice
        if left < MIN_FALLBACK_SECONDS:
            self.note = (
                ""
                if self.quiet
                else (f"depth-limited search (depth {result.depth}): no exact result within {self.think:g} s")
            )
            return result.column if result.column in not_lost or not not_lost else not_lost[0]
        self.fallback.think = left
        column = self.fallback.choose(state, not_lost)
        depth = self.fallback.depth_reached
        self.note = (
            "" if self.quiet else (f"depth-limited search (depth {depth}): no exact result within {self.think:g} s")
        )
        return column


def _fallback_seconds(think: float, started: float, given: float) -> float:
    """The fallback search's seconds: ``given``, cut to what is left of ``think`` since ``started``, but at least
    ``think * OVER_THINK``."""
    return max(think * OVER_THINK, min(given, started + think - time.monotonic()))


def _best_move_by(solver: Solver, moves: list[int], stop_at: float, **options: Any) -> SearchResult:
    """``solver.best_move(moves, **options)``, stopped at the monotonic time ``stop_at`` (the deadline backs the node
    budget up, and its slices of about 0.03 s let Ctrl-C through)."""

    def in_time(_progress: SearchProgress) -> bool:
        return time.monotonic() < stop_at

    return solver.best_move(moves, on_progress=in_time, **options)


BOOK, SOLVER = "book", "solver"
"""Where a hint's scores came from (`Advice.source`). A hint on a position with at most `oracle.BATCH_EMPTY_CELLS`
empty cells solves every column in one batch call (no time limit: such positions are cheap); earlier positions get
`Solver.best_move` within the think time."""


@attrs.frozen
class Advice:
    """A suggested column: with every column's exact score when the book or the solver answered in time, else why.

    ``source``: where the scores came from, `BOOK` or `SOLVER` ("" without scores). A column whose score is None is
    full, or (from the solver) was not scored within the time.
    """

    column: int
    scores: tuple[int | None, ...] | None
    reason: str = ""
    source: str = ""


def advise(state: Connect4State, rng: random.Random, think: float = DEFAULT_THINK, book: Book | None = None) -> Advice:
    """The perfect player's advice: exact scores from the book or the solver when either answers in time, else a
    search's choice."""
    _require_turn(state)
    game = state.game
    if _book_for(book, game) is not None:
        from gridgames_connect4.solve.oracle import best_from_book

        found = best_from_book(book, state.history, rng)  # type: ignore[arg-type]
        if found is not None:
            return Advice(found[0], tuple(found[1]), source=BOOK)
    geom = Geometry.of(game.width, game.height, game.connect)
    cur, mask = state.bitboard
    lent = _lend_solver(game, book)
    not_lost = None
    seconds = think
    if lent is not None:
        from gridgames_connect4.solve.oracle import BATCH_EMPTY_CELLS, pending_columns, solve_pending
        from gridgames_connect4.solve.solver import nodes_for_seconds

        moves = list(state.history)
        with lent as solver:
            # cheap: every column in one call
            if game.width * game.height - len(moves) <= BATCH_EMPTY_CELLS:
                scores = solve_pending(solver, [pending_columns(game, moves, [len(moves)])[len(moves)]])[0]
                top = max(s for s in scores if s is not None)
                best = [c for c in geom.order if scores[c] == top]
                return Advice(rng.choice(best), tuple(scores), source=SOLVER)
            started = time.monotonic()
            result = _best_move_by(
                solver,
                moves,
                started + think * SOLVER_SHARE_OF_THINK,
                max_nodes=nodes_for_seconds(think) * 4 // 3 + 1,
                rng=rng,
            )
        if result.exact and result.weak:
            return Advice(result.column, None, f"it keeps the win, proven; the scores did not fit in {think:g} s")
        if result.exact:
            return Advice(result.column, result.scores, source=SOLVER)
        not_lost = [c for c in state.legal_moves() if (result.scores[c] or 0) >= 0]  # None: unknown
        seconds = _fallback_seconds(think, started, think * PERFECT_FALLBACK_SHARE)
    wins = heuristic.immediate_wins(geom, cur, mask)
    if wins:
        return Advice(wins[0], None, "it wins at once")
    losses = heuristic.immediate_wins(geom, cur ^ mask, mask)
    if losses:
        return Advice(losses[0], None, "it blocks an immediate loss" if len(losses) == 1 else "the game is lost anyway")
    hint_search = HeuristicPlayer("hint", PERFECT_FALLBACK_DEPTH, rng, seconds)
    column = hint_search.choose(state, not_lost)
    depth = hint_search.depth_reached
    why = f"; no exact result within {think:g} s" if lent is not None else ""
    return Advice(column, None, f"a {depth}-ply search{why}")


def make_player(
    kind: str, game: Connect4, rng: random.Random | None = None, think: float = DEFAULT_THINK, book: Book | None = None
) -> Any:
    """A computer player of the given level (one of `KINDS`), thinking at most ``think`` seconds a move; hard and
    perfect use ``book``."""
    rng = rng if rng is not None else random.Random()
    book = _book_for(book, game)
    check_seconds(think, what="the thinking time")
    medium = HeuristicPlayer("medium", MEDIUM_DEPTH, rng, think)
    if kind == "random":
        return RandomPlayer(rng=rng, note="")
    if kind == "easy":
        return HeuristicPlayer("easy", EASY_DEPTH, rng, think, noise=EASY_NOISE)
    if kind == "medium":
        return medium
    if kind == "hard":
        fallback = HeuristicPlayer("hard", HARD_DEPTH, rng, think)
        return SolverPlayer(
            "hard", rng, fallback, think, HARD_SHARE_OF_THINK, HARD_MAX_NODES, HARD_SLIP, quiet=True, book=book
        )
    if kind == "perfect":
        fallback = HeuristicPlayer("perfect", PERFECT_FALLBACK_DEPTH, rng, think)
        return SolverPlayer(
            "perfect", rng, fallback, think, 1.0, book=book, exact_first=True, fallback_share=PERFECT_FALLBACK_SHARE
        )
    raise OptionError(f"unknown player {kind!r} (choose from {', '.join(KINDS)})")
