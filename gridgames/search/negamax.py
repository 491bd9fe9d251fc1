"""Negamax with alpha-beta pruning and iterative deepening, for any two-player zero-sum game.

The search knows only the game protocol (`State.play`, `undo`, `search_order`,
`outcome`, `evaluate`). Scores are from the view of the player to move: a win
scores ``WIN - plies`` (so faster wins score higher and slower losses less badly),
a draw 0, and at the depth horizon the game's own `State.evaluate` in [-1, 1]
(0 when the game provides none). A scored win (`Outcome.scores`) is worth
``value_for * (WIN - plies)``, at least half a win, so a bigger margin scores higher;
every forced result is at least `FORCED` in size (`is_forced`), and a forced result
stops the deepening only when no scored outcome was met (a bigger win may lie deeper).

A pass (`Game.pass_move`) is a move like any other, and a move after which the same
side is to move again (an extra turn) is searched with the same window, not negated.

Chance (`State.chance_outcomes`) makes it expectimax: a chance point scores the mean of
its outcomes' scores, weighted by their probabilities, each searched with a full window
(a chance point costs no depth). A one-player game is searched too (every move is an
extra turn): its scored outcomes are worth their `Outcome.value_for`, on the scale of
`State.evaluate`, not a forced win, so that a longer game with a bigger score is preferred.

Iterative deepening searches depth 1, 2, 3, ... until the budget runs out, a forced
result is found, or a depth searched without reaching the horizon anywhere (the
whole game tree: the result is exact). The budget is a number of positions
(``max_nodes``: a seeded search plays the same on any machine) and/or a deadline
(``seconds`` on ``clock``, read at every position and before every move: a read costs
about 0.1 µs, under 1% of a position, so even a game with slow moves stops within one
move of it). The budget holds inside the first iteration too: only the first root
move is always searched, so that there is a move to play.
The move returned is the best of the deepest completed depth (or, when the budget
cuts depth 1 short, the best of the root moves it scored); the principal variation
of each depth is tried first at the next.

With ``all_scores`` every root move is searched with a full window, so the result's
``scores`` are exact for every move at the depth reached, and a forced result stops
the deepening only once every move's is forced (else only the best move's score is
exact; the others' are upper bounds). ``noise`` adds a uniform random amount to each root score that is not
a forced win or loss before the best is picked (a weaker, less predictable player).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable

import attrs

from gridgames.errors import GameOverError, IllegalMoveError, OptionError
from gridgames.game import CHANCE, Game, Move, Outcome, State

WIN = 1_000_000.0
FORCED = WIN / 4
"""The smallest size of a forced result's score: a scored win is worth at least half of ``WIN - plies``."""
CHECK_EVERY = 1
"""Positions between two looks at the clock."""

__all__ = ["WIN", "FORCED", "CHECK_EVERY", "NegamaxResult", "NegamaxPlayer", "is_forced", "search"]


def is_forced(score: float) -> bool:
    """True when a search score is a forced win or loss (not a heuristic value or a draw)."""
    return abs(score) >= FORCED


class _OutOfBudget(Exception):
    """Raised inside the search when the node budget or the deadline is spent."""


@attrs.frozen
class NegamaxResult:
    """What a negamax search found: the move, its score for the player to move, the depth, effort and whether it is
    exact.

    ``scores`` holds the score of every root move searched at ``depth`` (exact with
    ``all_scores``, else upper bounds for all but the best); ``stopped`` is True when
    the budget cut a deeper iteration short.
    """

    move: Move
    score: float
    depth: int
    nodes: int
    seconds: float
    exact: bool
    pv: tuple[Move, ...] = ()
    scores: dict[Move, float] = attrs.field(factory=dict, hash=False)
    stopped: bool = False
    one_player: bool = False
    """The game has one player: ``score`` is on `Outcome.value_for`'s scale of a score, s / (|s| + 1)."""

    def describe(self) -> str:
        """A one-line summary, such as ``depth 6, score +0.25, 10,432 nodes in 0.50 s`` (one player: ``expected
        score 1,234``, the score ``value_for`` maps to ``score``)."""
        if self.one_player and abs(self.score) < 1:
            expected = self.score / (1.0 - abs(self.score))  # the inverse of s / (|s| + 1)
            return f"depth {self.depth}, expected score {expected:,.0f}, {self.nodes:,} nodes in {self.seconds:.2f} s"
        if is_forced(self.score):
            plies = WIN - abs(self.score)
            if (
                plies != int(plies) or plies >= FORCED
            ):  # a scored win: value_for * (WIN - plies); the line is the game's end
                plies = len(self.pv)
            verdict = f"{'wins' if self.score > 0 else 'loses'} in {int(plies)} plies"
        elif self.exact:
            verdict = "draw with best play" if self.score == 0 else f"score {self.score:+.2f} (exact)"
        else:
            verdict = f"score {self.score:+.2f}"
        return f"depth {self.depth}, {verdict}, {self.nodes:,} nodes in {self.seconds:.2f} s"


@attrs.define
class _Search:
    """One search: the budget, node counter and principal variations."""

    deadline: float | None = None
    max_nodes: int | None = None
    nodes: int = 0
    hit_horizon: bool = False
    scored: bool = False  # a scored outcome was reached: a forced win may yet grow deeper down
    pv: list[Move] = attrs.field(factory=list)
    clock: Callable[[], float] = time.perf_counter

    def tick(self) -> None:
        """Count a position; raise `_OutOfBudget` once the budget is spent."""
        self.nodes += 1
        self.check()

    def check(self) -> None:
        """Raise `_OutOfBudget` when the positions counted exceed the budget or the deadline has passed."""
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfBudget
        if self.deadline is not None and self.nodes % CHECK_EVERY == 0 and self.clock() > self.deadline:
            raise _OutOfBudget

    def ordered(self, state: State, ply: int, on_pv: bool) -> list[Move]:
        moves = state.search_order()
        if on_pv and ply < len(self.pv) and self.pv[ply] in moves:
            moves.remove(self.pv[ply])
            moves.insert(0, self.pv[ply])
        return moves

    def child(
        self, state: State, mover: int, depth: int, alpha: float, beta: float, ply: int, on_pv: bool
    ) -> tuple[float, list[Move]]:
        """The score for ``mover`` of the position after their move (they may be to move again)."""
        if state.current_player == CHANCE:
            return self.chance(state, mover, depth, ply), []
        if state.current_player == mover:  # an extra turn: same side, same window
            return self.negamax(state, depth, alpha, beta, ply, on_pv)
        score, line = self.negamax(state, depth, -beta, -alpha, ply, on_pv)
        return -score, line

    def negamax(
        self, state: State, depth: int, alpha: float, beta: float, ply: int, on_pv: bool
    ) -> tuple[float, list[Move]]:
        """The score of ``state`` for the player to move, searched ``depth`` plies, and its principal variation."""
        self.tick()
        if depth == 0:
            self.hit_horizon = True
            value = state.evaluate()
            return (0.0 if value is None else max(-1.0, min(1.0, float(value)))), []
        best, line = -2 * WIN, []
        for i, move in enumerate(self.ordered(state, ply, on_pv)):
            if i:
                # a position's moves may be many and slow: the budget holds between them
                self.check()
            score, rest = self.move_score(state, move, depth, alpha, beta, ply, on_pv and i == 0)
            if score > best:
                best, line = score, [move, *rest]
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best, line

    def chance(self, state: State, mover: int, depth: int, ply: int) -> float:
        """The expected score for ``mover`` of a chance point: its outcomes' scores weighted by their probabilities."""
        self.tick()
        self.scored = True  # a mean of outcomes is no forced result: deeper searches may change it
        total = 0.0
        for move, probability in state.chance_outcomes():
            state.play(move)
            try:
                outcome = state.outcome
                if outcome is not None:
                    score = _final(outcome, mover, ply)
                else:
                    score, _ = self.child(state, mover, depth, -2 * WIN, 2 * WIN, ply, False)
            finally:
                state.undo()
            total += probability * score
        return total

    def move_score(
        self, state: State, move: Move, depth: int, alpha: float, beta: float, ply: int, on_pv: bool
    ) -> tuple[float, list[Move]]:
        """The score of ``move`` for the player making it, searched ``depth`` plies from before it."""
        mover = state.current_player
        state.play(move)
        try:
            outcome = state.outcome
            if outcome is not None:
                self.scored = self.scored or outcome.scores is not None
                return _final(outcome, mover, ply + 1), []
            return self.child(state, mover, depth - 1, alpha, beta, ply + 1, on_pv)
        finally:
            state.undo()


def _final(outcome: Outcome, player: int, plies: int) -> float:
    """The search score for ``player`` of a game that ended after ``plies`` plies: a win or a loss scaled by ``WIN -
    plies``, a one-player score its bare `Outcome.value_for` (on the scale of `State.evaluate`)."""
    if outcome.winner is None and outcome.scores is not None and len(outcome.scores) == 1:
        return outcome.value_for(player)
    return outcome.value_for(player) * (WIN - plies)


def search(
    state: State,
    *,
    seconds: float | None = 1.0,
    max_depth: int | None = None,
    max_nodes: int | None = None,
    moves: Iterable[Move] | None = None,
    all_scores: bool = False,
    noise: float = 0.0,
    rng: random.Random | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> NegamaxResult:
    """The best move for the player to move by iterative-deepening alpha-beta.

    ``seconds`` / ``max_nodes`` bound the search (None: no bound); ``moves`` restricts
    the root to those legal moves; ``all_scores`` scores every root move exactly;
    ``noise`` perturbs the root scores that are not forced results; ``rng`` breaks ties;
    ``clock`` gives the seconds the deadline is read on.
    """
    if state.is_over:
        raise GameOverError("the game is over: there is no move to search for")
    if noise < 0:
        raise OptionError(f"the noise must not be negative, not {noise!r}")
    if state.current_player == CHANCE:
        raise IllegalMoveError("this position is a chance point: its outcome is drawn, not searched for")
    longest = state.game.info.max_game_length
    if seconds is None and max_depth is None and max_nodes is None and longest is not None:
        max_depth = longest - len(state.history)
    started = clock()
    work = state.copy()
    root_moves = _root_moves(work, moves)
    if rng is not None:
        rng.shuffle(root_moves)  # ties between equally good moves are broken at random
    run = _Search(clock=clock)
    budget = (None if seconds is None else started + seconds, max_nodes)
    result = NegamaxResult(root_moves[0], 0.0, 0, 0, 0.0, False)
    depth = 0
    stopped = False
    full = all_scores or noise > 0
    remaining = max(1, longest - len(state.history)) if longest is not None else None
    while max_depth is None or depth < max_depth:
        depth += 1
        run.hit_horizon = False
        if not run.pv or run.pv[0] not in root_moves:
            run.pv = [root_moves[0]]
        order = [run.pv[0]] + [m for m in root_moves if m != run.pv[0]]
        scores: dict[Move, float] = {}
        lines: dict[Move, list[Move]] = {}
        try:
            _root(run, work, depth, order, full, scores, lines, budget)
        except _OutOfBudget:
            stopped = True
            if depth == 1:  # cut inside the first iteration: the best of the root moves it scored
                result = _partial(run, order, scores, lines)
            break
        finally:
            while len(work.history) > len(state.history):
                work.undo()
        best = max(order, key=lambda m: scores[m])  # the first of the best, in search order
        run.pv = [best, *lines[best]]
        result = NegamaxResult(best, scores[best], depth, run.nodes, 0.0, not run.hit_horizon, tuple(run.pv), scores)
        decided = all(is_forced(v) for v in scores.values()) if full else is_forced(scores[best])
        if (decided and not run.scored) or not run.hit_horizon or (remaining is not None and depth >= remaining):
            break
    if noise > 0 and result.depth > 0:
        result = _with_noise(result, noise, rng or random.Random())
    return attrs.evolve(
        result,
        nodes=run.nodes,
        seconds=clock() - started,
        stopped=stopped,
        one_player=state.game.info.num_players == 1,
    )


def _partial(
    run: _Search, order: list[Move], scores: dict[Move, float], lines: dict[Move, list[Move]]
) -> NegamaxResult:
    """The result of a first iteration the budget cut short: its best scored root move (the first is always)."""
    best = max((m for m in order if m in scores), key=lambda m: scores[m])
    run.pv = [best, *lines[best]]
    return NegamaxResult(best, scores[best], 1, run.nodes, 0.0, False, tuple(run.pv), dict(scores))


def _root_moves(state: State, moves: Iterable[Move] | None) -> list[Move]:
    """The root moves in search order, restricted to ``moves`` (which must be legal) when given."""
    return restrict_root_moves(state.game, state.search_order(), moves)


def restrict_root_moves(game: Game, ordered: list[Move], moves: Iterable[Move] | None) -> list[Move]:
    """``ordered`` (a position's legal moves in search order) restricted to ``moves`` when given: `IllegalMoveError`
    when one of them is not legal or none is given (the compiled negamax shares it)."""
    if moves is None:
        return ordered
    wanted = list(dict.fromkeys(moves))
    illegal = [m for m in wanted if m not in ordered]
    if illegal:
        raise IllegalMoveError(f"move {game.format_move(illegal[0])!r} is not legal here")
    if not wanted:
        raise IllegalMoveError("no root move to search: the list of moves is empty")
    return [m for m in ordered if m in wanted]


def _root(
    run: _Search,
    state: State,
    depth: int,
    order: list[Move],
    full: bool,
    scores: dict[Move, float],
    lines: dict[Move, list[Move]],
    budget: tuple[float | None, int | None],
) -> None:
    """Search the root moves in the given order into ``scores`` and ``lines`` (a full window for each when ``full``).

    The budget (deadline, positions) is armed once the first move is scored and read before every other move.
    """
    alpha, beta = -2 * WIN, 2 * WIN
    for i, move in enumerate(order):
        if i or depth > 1:
            # the first root move of depth 1 always completes: a move to play
            run.deadline, run.max_nodes = budget
            run.check()
        score, rest = run.move_score(state, move, depth, -2 * WIN if full else alpha, beta, 0, i == 0)
        scores[move], lines[move] = score, rest
        alpha = max(alpha, score)


def _with_noise(result: NegamaxResult, noise: float, rng: random.Random) -> NegamaxResult:
    """The result with the move of the best noisy score (forced wins and losses keep their exact scores)."""
    noisy = {m: s + (rng.uniform(-noise, noise) if not is_forced(s) else 0.0) for m, s in result.scores.items()}
    move = max(noisy, key=lambda m: noisy[m])
    if move == result.move:
        return result
    return attrs.evolve(result, move=move, score=result.scores[move], pv=(move,))


@attrs.define
class NegamaxPlayer:
    """A computer player searching with iterative-deepening negamax for ``seconds`` per move."""

    name: str = "ai"
    seconds: float | None = 1.0
    max_depth: int | None = None
    rng: random.Random | None = None
    max_nodes: int | None = None
    noise: float = 0.0
    note: str = ""
    last: NegamaxResult | None = None

    def choose(self, state: State) -> Move:
        """The best move found within the budget; `note` describes the search."""
        self.last = search(
            state,
            seconds=self.seconds,
            max_depth=self.max_depth,
            max_nodes=self.max_nodes,
            noise=self.noise,
            rng=self.rng,
        )
        self.note = self.last.describe()
        return self.last.move
