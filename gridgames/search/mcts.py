"""Monte Carlo tree search (UCT with random playouts) and its player.

MCTS needs nothing from a game but the protocol: `State.copy`, `play`,
`legal_moves` and `Outcome.value_for`, so it plays any game, including those
that provide no evaluation and those with more than two players. Each iteration
walks down the tree by the UCT rule, adds one node, plays a playout and credits
the result to every node on the way, from the view of the player who moved into it.
The move chosen is the most visited one.

A playout plays the game's playout policy (`State.playout_move`; by default a
uniformly random legal move) to the end, or, in a game that declares
`Game.playout_plies` (moves costly to list), that many moves, after which the game's
evaluation (`State.evaluate`) scores the position instead of an outcome; such a game's
new nodes have their moves listed only when they are expanded in turn.

Chance (`State.chance_outcomes`) is sampled: an iteration that reaches a chance point
draws an outcome with its probability (the tree keeps a child per outcome drawn), and
playouts draw them alike. In a one-player game whose outcomes carry a score, a playout
credits that score (`Outcome.margin_for`), and UCT compares the children's mean scores
scaled to [0, 1] by the lowest and highest score met so far, so a bigger score is better
whatever its size.

A time budget is honoured to within one move: the clock is read before every move
an iteration plays (a read costs about 0.1 µs, far less than a move), and an
iteration the deadline cuts short is dropped, not counted. The first iteration is
never dropped (a move is needed): when the deadline cuts its playout short, the
position reached is scored by the evaluation (a draw without one). An
``iterations`` budget alone does the same work on any machine, so a seeded search
(``rng``) is reproducible; ``clock`` (seconds, `time.perf_counter` by default) may be
replaced, as tests do with a fake one.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

import attrs

from gridgames.errors import GameOverError, IllegalMoveError, OptionError
from gridgames.game import CHANCE, Move, State, draw_chance

CHECK_EVERY = 1
"""Iterations between two looks at the clock (the clock is also read before every move of an iteration)."""
Clock = Callable[[], float]
"""A source of seconds (`time.perf_counter`, or a fake one in tests)."""


@attrs.frozen
class _Deadline:
    """When the search must stop (None: never), read on ``clock``."""

    at: float | None
    clock: Clock

    def passed(self) -> bool:
        return self.at is not None and self.clock() > self.at


NO_DEADLINE = _Deadline(None, time.perf_counter)


@attrs.define(eq=False)
class _Node:
    """A node of the search tree: the move into it, who played it, its statistics and children."""

    move: Move | None
    mover: int | None
    # None until the node is first expanded (listing moves may be costly)
    untried: list[Move] | None
    parent: _Node | None = None
    children: list[_Node] = attrs.field(factory=list)
    visits: int = 0
    # total result for ``mover``: +1 per win, 0 per draw, -1 per loss (one player: the scores)
    value: float = 0.0
    # the position after ``move`` is a chance point: the children are its outcomes drawn
    chance: bool = False

    def best_child(self, exploration: float, scale: _Scale | None = None) -> _Node:
        """The child maximising the UCT bound (mean results scaled to [0, 1] by ``scale`` when given)."""
        log_visits = math.log(self.visits)
        low, span = (0.0, 1.0) if scale is None or scale.high <= scale.low else (scale.low, scale.high - scale.low)
        return max(
            self.children,
            key=lambda c: (c.value / c.visits - low) / span + exploration * math.sqrt(log_visits / c.visits),
        )

    def outcome_child(self, move: Move, state: State, rng: random.Random) -> _Node:
        """The child of a chance point for the outcome ``move``, just played in ``state`` (made on its first draw)."""
        for child in self.children:
            if child.move == move:
                return child
        chance = not state.is_over and state.current_player == CHANCE
        child = _Node(move, None, [] if state.is_over or chance else _shuffled(state, rng), parent=self, chance=chance)
        self.children.append(child)
        return child


@attrs.define
class _Scale:
    """The lowest and highest result a search has credited (a one-player game's scores)."""

    low: float = math.inf
    high: float = -math.inf

    def add(self, value: float) -> None:
        self.low, self.high = min(self.low, value), max(self.high, value)


@attrs.frozen
class MCTSResult:
    """What an MCTS search found: the move, its mean result for the mover in [-1, 1], iterations and time."""

    move: Move
    value: float
    visits: int
    iterations: int
    seconds: float

    def describe(self) -> str:
        """A one-line summary, such as ``mcts 2,000 playouts in 0.50 s, move scores +0.31 (412 visits)``."""
        if self.iterations == 0:
            return "the only legal move"
        # a one-player mean score
        value = f"{self.value:+.2f}" if abs(self.value) <= 1 else f"{self.value:+,.0f}"
        return (
            f"mcts {self.iterations:,} playouts in {self.seconds:.2f} s, move scores {value} ({self.visits:,} visits)"
        )


def mcts(
    state: State,
    *,
    seconds: float | None = 1.0,
    iterations: int | None = None,
    exploration: float = 1.4,
    rng: random.Random | None = None,
    playout_plies: int | None = None,
    clock: Clock = time.perf_counter,
) -> MCTSResult:
    """Search with UCT for ``seconds`` and/or ``iterations`` (at least one must be given); the most visited move.

    ``playout_plies`` caps each playout (then the evaluation scores it; default: the game's `Game.playout_plies`).
    """
    if state.is_over:
        raise GameOverError("the game is over: there is no move to search for")
    if seconds is None and iterations is None:
        raise OptionError("MCTS needs a time budget or an iteration count")
    if playout_plies is not None and (isinstance(playout_plies, bool) or playout_plies < 0):
        raise OptionError(f"playout_plies must be a whole number of at least 0, not {playout_plies!r}")
    if state.current_player == CHANCE:
        raise IllegalMoveError("this position is a chance point: its outcome is drawn, not searched for")
    rng = rng or random.Random()
    started = clock()
    deadline = _Deadline(None if seconds is None else started + seconds, clock)
    plies = state.game.playout_plies if playout_plies is None else playout_plies
    moves = _shuffled(state, rng)
    if len(moves) == 1:  # nothing to think about
        return MCTSResult(moves[0], 0.0, 0, 0, clock() - started)
    root = _Node(None, None, moves)
    done = 0
    scale = _Scale() if state.game.info.num_players == 1 else None
    while iterations is None or done < iterations:
        if done > 0 and deadline.passed():
            break
        if not _iterate(root, state.copy(), exploration, rng, deadline, scale, first=done == 0, plies=plies):
            break  # the deadline came in the middle of the iteration
        done += 1
    best = max(root.children, key=lambda c: c.visits)
    assert best.move is not None  # children always carry a move
    return MCTSResult(best.move, best.value / best.visits, best.visits, done, clock() - started)


def _shuffled(state: State, rng: random.Random) -> list[Move]:
    moves = list(state.legal_moves())
    rng.shuffle(moves)
    return moves


def _iterate(
    root: _Node,
    state: State,
    exploration: float,
    rng: random.Random,
    deadline: _Deadline = NO_DEADLINE,
    scale: _Scale | None = None,
    *,
    first: bool = False,
    plies: int | None = None,
) -> bool:
    """One MCTS iteration on a private copy of the root state: select, expand, play out, back up.

    False, with the tree unchanged, when ``deadline`` passes before the iteration is done (never on the ``first``:
    its playout is cut short and scored as it stands). ``scale``: a one-player game's, whose scores are credited as
    they are (see the module's docstring).
    """
    late = NO_DEADLINE if first else deadline
    node = root
    # selection, through outcomes drawn
    while node.chance or (not _untried(node, state, rng) and node.children):
        if late.passed():
            return False
        if node.chance:
            node = node.outcome_child(_draw(state, rng), state, rng)
            continue
        node = node.best_child(exploration, scale)
        state.play(node.move)  # type: ignore[arg-type]
    if node.untried:  # expansion
        if late.passed():
            return False
        move = node.untried.pop()
        mover = state.current_player
        state.play(move)
        chance = not state.is_over and state.current_player == CHANCE
        child = _Node(move, mover, [] if chance else None, parent=node, chance=chance)
        # full playouts: list the new node's moves now, as always (same draws)
        if plies is None and not chance:
            _untried(child, state, rng)
        node.children.append(child)
        node = child
    values = _playout(state, rng, plies, deadline, first, scale)
    if values is None:
        _drop(node)
        return False
    up: _Node | None = node
    while up is not None:  # back-propagation
        up.visits += 1
        if up.mover is not None:
            up.value += values[up.mover]
        up = up.parent
    return True


def _untried(node: _Node, state: State, rng: random.Random) -> list[Move]:
    """The node's moves not yet expanded, listed (shuffled) on the first call: none once the game is over."""
    if node.untried is None:
        node.untried = [] if state.is_over else _shuffled(state, rng)
    return node.untried


def _playout(
    state: State, rng: random.Random, plies: int | None, deadline: _Deadline, first: bool, scale: _Scale | None
) -> Sequence[float] | None:
    """Play the playout policy from ``state`` (at most ``plies`` moves; chance points draw their outcomes): each
    player's result, or None when the deadline cut it short (the ``first`` iteration's is scored as it stands)."""
    played = 0
    while plies is None or played < plies:
        if deadline.passed():
            return _values(state, scale, ended=False) if first else None
        if not state.is_over and state.current_player == CHANCE:
            _draw(state, rng)
            continue
        move = state.playout_move(rng)
        if move is None:  # the default policy: a uniformly random legal move
            if state.is_over:
                return _values(state, scale, ended=True)
            move = rng.choice(list(state.legal_moves()))
        state.play(move)
        played += 1
    return _values(state, scale, ended=False)


def _values(state: State, scale: _Scale | None, *, ended: bool) -> list[float]:
    """Each player's result: the outcome's when the game ``ended`` (a one-player game's score itself, noted on its
    ``scale``; else in [-1, 1]), otherwise the evaluation's (the player to move's value, its negation for the
    others; all 0 without an evaluation, or the outcome's if the game is over)."""
    players = range(state.game.info.num_players)
    outcome = state.outcome if ended else None
    if outcome is not None:
        if scale is not None and outcome.scores is not None:
            scale.add(outcome.margin_for(0))
            return [outcome.margin_for(p) for p in players]
        return [outcome.value_for(p) for p in players]
    value = state.evaluate()
    if value is None:
        outcome = state.outcome  # a game without an evaluation: its outcome if over, else a draw
        return [outcome.value_for(p) if outcome is not None else 0.0 for p in players]
    value = max(-1.0, min(1.0, float(value)))
    mover = state.current_player
    return [value if p == mover else -value for p in players]


def _draw(state: State, rng: random.Random) -> Move:
    """Play a chance point's outcome drawn from ``rng``; the outcome."""
    move = draw_chance(state, rng)
    state.play(move)
    return move


def _drop(node: _Node) -> None:
    """Undo an expansion whose playout was cut short: the node's move goes back to its parent's untried moves."""
    if node.visits == 0 and node.parent is not None and node.move is not None and not node.parent.chance:
        node.parent.children.remove(node)
        if node.parent.untried is not None:  # always: the parent's moves were listed to expand it
            node.parent.untried.append(node.move)


@attrs.define
class MCTSPlayer:
    """A computer player running Monte Carlo tree search for ``seconds`` (or ``iterations``) per move."""

    name: str = "mcts"
    seconds: float | None = 1.0
    iterations: int | None = None
    exploration: float = 1.4
    rng: random.Random | None = None
    note: str = ""
    last: MCTSResult | None = None
    playout_plies: int | None = None

    def choose(self, state: State) -> Move:
        """The most visited move after the search; `note` describes it."""
        self.last = mcts(
            state,
            seconds=self.seconds,
            iterations=self.iterations,
            exploration=self.exploration,
            rng=self.rng,
            playout_plies=self.playout_plies,
        )
        self.note = self.last.describe()
        return self.last.move
