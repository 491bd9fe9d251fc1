"""Negamax with alpha-beta pruning and iterative deepening, for any two-player zero-sum game.

The search knows only the game protocol (`State.play`, `undo`, `legal_moves`,
`outcome`, `evaluate`). Scores are from the view of the player to move: a win
scores ``WIN - plies`` (so faster wins score higher and slower losses less badly),
a draw 0, and at the depth horizon the game's own `State.evaluate` in [-1, 1]
(0 when the game provides none).

Iterative deepening searches depth 1, 2, 3, ... until the time budget runs out
(the clock is checked every `CHECK_EVERY` nodes), a forced result is found, or a
depth searched without reaching the horizon anywhere (the whole game tree: the
result is exact). The move returned is the best of the deepest completed depth;
the principal variation of each depth is tried first at the next.
"""

from __future__ import annotations

import random
import time

import attrs

from gridgames.errors import GameOverError
from gridgames.game import Move, State

WIN = 1_000_000.0
CHECK_EVERY = 256


class _OutOfTime(Exception):
    """Raised inside the search when the time budget is spent."""


@attrs.frozen
class SearchResult:
    """What a negamax search found: the move, its score for the player to move, the depth, effort and whether it is exact."""

    move: Move
    score: float
    depth: int
    nodes: int
    seconds: float
    exact: bool
    pv: tuple[Move, ...] = ()

    def describe(self) -> str:
        """A one-line summary, such as ``depth 6, score +0.25, 10,432 nodes in 0.50 s``."""
        if abs(self.score) >= WIN / 2:
            plies = int(WIN - abs(self.score))
            verdict = f"{'wins' if self.score > 0 else 'loses'} in {plies} plies"
        elif self.exact:
            verdict = "draw with best play" if self.score == 0 else f"score {self.score:+.2f} (exact)"
        else:
            verdict = f"score {self.score:+.2f}"
        return f"depth {self.depth}, {verdict}, {self.nodes:,} nodes in {self.seconds:.2f} s"


@attrs.define
class _Search:
    """One search: the deadline, node counter and principal variations."""

    deadline: float | None
    nodes: int = 0
    hit_horizon: bool = False
    pv: list[Move] = attrs.field(factory=list)

    def tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime

    def ordered(self, state: State, ply: int, on_pv: bool) -> list[Move]:
        moves = list(state.legal_moves())
        if on_pv and ply < len(self.pv) and self.pv[ply] in moves:
            moves.remove(self.pv[ply])
            moves.insert(0, self.pv[ply])
        return moves

    def child(self, state: State, mover: int, depth: int, alpha: float, beta: float, ply: int, on_pv: bool) -> tuple[float, list[Move]]:
        """The score for ``mover`` of the position after their move (they may be to move again)."""
        if state.current_player == mover:  # an extra turn: same side, same window
            return self.negamax(state, depth, alpha, beta, ply, on_pv)
        score, line = self.negamax(state, depth, -beta, -alpha, ply, on_pv)
        return -score, line

    def negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int, on_pv: bool) -> tuple[float, list[Move]]:
        """The score of ``state`` for the player to move, searched ``depth`` plies, and its principal variation."""
        self.tick()
        if depth == 0:
            self.hit_horizon = True
            value = state.evaluate()
            return (0.0 if value is None else max(-1.0, min(1.0, float(value)))), []
        best, line = -2 * WIN, []
        for i, move in enumerate(self.ordered(state, ply, on_pv)):
            mover = state.current_player
            state.play(move)
            try:
                outcome = state.outcome
                if outcome is not None:
                    score, rest = outcome.value_for(mover) * (WIN - ply - 1), []
                else:
                    score, rest = self.child(state, mover, depth - 1, alpha, beta, ply + 1, on_pv and i == 0)
            finally:
                state.undo()
            if score > best:
                best, line = score, [move, *rest]
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best, line


def search(
    state: State, *, seconds: float | None = 1.0, max_depth: int | None = None, rng: random.Random | None = None
) -> SearchResult:
    """The best move for the player to move by iterative-deepening alpha-beta within ``seconds`` (None: no limit)."""
    if state.is_over:
        raise GameOverError("the game is over: there is no move to search for")
    if seconds is None and max_depth is None:
        max_depth = state.game.info.max_game_length - len(state.history)
    started = time.perf_counter()
    work = state.copy()
    root_moves = list(work.legal_moves())
    if rng is not None:
        rng.shuffle(root_moves)  # ties between equally good moves are broken at random
    run = _Search(deadline=None)
    result = SearchResult(root_moves[0], 0.0, 0, 0, 0.0, False)
    depth = 0
    remaining = max(1, state.game.info.max_game_length - len(state.history))
    while max_depth is None or depth < max_depth:
        depth += 1
        run.hit_horizon = False
        if not run.pv:
            run.pv = [root_moves[0]]
        order = [run.pv[0]] + [m for m in root_moves if m != run.pv[0]]
        try:
            score, line = _root(run, work, depth, order)
        except _OutOfTime:
            break
        finally:
            while len(work.history) > len(state.history):
                work.undo()
        run.pv = line
        result = SearchResult(line[0], score, depth, run.nodes, time.perf_counter() - started, not run.hit_horizon, tuple(line))
        if abs(score) >= WIN / 2 or not run.hit_horizon or depth >= remaining:
            break
        if seconds is not None:
            run.deadline = started + seconds  # depth 1 always completes; deeper ones stop at the deadline
    return attrs.evolve(result, nodes=run.nodes, seconds=time.perf_counter() - started)


def _root(run: _Search, state: State, depth: int, order: list[Move]) -> tuple[float, list[Move]]:
    """Search the root moves in the given order; returns the best score and principal variation."""
    alpha, beta = -2 * WIN, 2 * WIN
    best, line = -2 * WIN, [order[0]]
    for i, move in enumerate(order):
        mover = state.current_player
        state.play(move)
        try:
            outcome = state.outcome
            if outcome is not None:
                score, rest = outcome.value_for(mover) * (WIN - 1), []
            else:
                score, rest = run.child(state, mover, depth - 1, alpha, beta, 1, i == 0)
        finally:
            state.undo()
        if score > best:
            best, line = score, [move, *rest]
        alpha = max(alpha, score)
    return best, line


@attrs.define
class NegamaxPlayer:
    """A computer player searching with iterative-deepening negamax for ``seconds`` per move."""

    name: str = "ai"
    seconds: float | None = 1.0
    max_depth: int | None = None
    rng: random.Random | None = None
    note: str = ""
    last: SearchResult | None = None

    def choose(self, state: State) -> Move:
        """The best move found in the time budget; `note` describes the search."""
        self.last = search(state, seconds=self.seconds, max_depth=self.max_depth, rng=self.rng)
        self.note = self.last.describe()
        return self.last.move
