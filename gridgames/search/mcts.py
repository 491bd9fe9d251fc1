"""Monte Carlo tree search (UCT with random playouts) and its player.

MCTS needs nothing from a game but the protocol: `State.copy`, `play`,
`legal_moves` and `Outcome.value_for`, so it plays any game, including those
that provide no evaluation and those with more than two players. Each iteration
walks down the tree by the UCT rule, adds one node, plays random moves to the end
and credits the result to every node on the way, from the view of the player who
moved into it. The move chosen is the most visited one.

Chance (`State.chance_outcomes`) is sampled: an iteration that reaches a chance point
draws an outcome with its probability (the tree keeps a child per outcome drawn), and
playouts draw them alike. In a one-player game whose outcomes carry a score, a playout
credits that score (`Outcome.margin_for`), and UCT compares the children's mean scores
scaled to [0, 1] by the lowest and highest score met so far, so a bigger score is better
whatever its size.

A time budget is honoured to within one move: the clock is read before every move
an iteration plays (a read costs about 0.1 µs, far less than a move), and an
iteration the deadline cuts short is dropped, not counted; the first iteration always
completes. An ``iterations`` budget alone does the same work on any machine, so a
seeded search (``rng``) is reproducible.
"""

from __future__ import annotations

import math
import random
import time

import attrs

from gridgames.errors import GameOverError, IllegalMoveError, OptionError
from gridgames.game import CHANCE, Move, State, draw_chance

CHECK_EVERY = 1
"""Iterations between two looks at the clock (the clock is also read before every move of an iteration)."""


@attrs.define(eq=False)
class _Node:
    """A node of the search tree: the move into it, who played it, its statistics and children."""

    move: Move | None
    mover: int | None
    untried: list[Move]
    parent: _Node | None = None
    children: list[_Node] = attrs.field(factory=list)
    visits: int = 0
    value: float = 0.0  # total result for ``mover``: +1 per win, 0 per draw, -1 per loss (one player: the scores)
    chance: bool = False  # the position after ``move`` is a chance point: the children are its outcomes drawn

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
        value = f"{self.value:+.2f}" if abs(self.value) <= 1 else f"{self.value:+,.0f}"  # a one-player mean score
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
) -> MCTSResult:
    """Search with UCT for ``seconds`` and/or ``iterations`` (at least one must be given); the most visited move."""
    if state.is_over:
        raise GameOverError("the game is over: there is no move to search for")
    if seconds is None and iterations is None:
        raise OptionError("MCTS needs a time budget or an iteration count")
    if state.current_player == CHANCE:
        raise IllegalMoveError("this position is a chance point: its outcome is drawn, not searched for")
    rng = rng or random.Random()
    started = time.perf_counter()
    deadline = None if seconds is None else started + seconds
    root = _Node(None, None, _shuffled(state, rng))
    if len(root.untried) == 1:  # nothing to think about
        return MCTSResult(root.untried[0], 0.0, 0, 0, time.perf_counter() - started)
    done = 0
    scale = _Scale() if state.game.info.num_players == 1 else None
    while iterations is None or done < iterations:
        if deadline is not None and done > 0 and time.perf_counter() > deadline:
            break
        if not _iterate(root, state.copy(), exploration, rng, deadline if done > 0 else None, scale):
            break  # the deadline came in the middle of the iteration
        done += 1
    best = max(root.children, key=lambda c: c.visits)
    assert best.move is not None  # children always carry a move
    return MCTSResult(best.move, best.value / best.visits, best.visits, done, time.perf_counter() - started)


def _shuffled(state: State, rng: random.Random) -> list[Move]:
    moves = list(state.legal_moves())
    rng.shuffle(moves)
    return moves


def _late(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _iterate(
    root: _Node,
    state: State,
    exploration: float,
    rng: random.Random,
    deadline: float | None = None,
    scale: _Scale | None = None,
) -> bool:
    """One MCTS iteration on a private copy of the root state: select, expand, play out, back up.

    False, with the tree unchanged, when ``deadline`` passes before the iteration is done.
    ``scale``: a one-player game's, whose scores are credited as they are (see the module's docstring).
    """
    node = root
    while node.chance or (not node.untried and node.children):  # selection, through the outcomes drawn
        if _late(deadline):
            return False
        if node.chance:
            node = node.outcome_child(_draw(state, rng), state, rng)
            continue
        node = node.best_child(exploration, scale)
        state.play(node.move)  # type: ignore[arg-type]
    if node.untried:  # expansion
        if _late(deadline):
            return False
        move = node.untried.pop()
        mover = state.current_player
        state.play(move)
        chance = not state.is_over and state.current_player == CHANCE
        untried = [] if state.is_over or chance else _shuffled(state, rng)
        child = _Node(move, mover, untried, parent=node, chance=chance)
        node.children.append(child)
        node = child
    while not state.is_over:  # playout
        if _late(deadline):
            _drop(node)
            return False
        if state.current_player == CHANCE:
            _draw(state, rng)
        else:
            state.play(rng.choice(list(state.legal_moves())))
    outcome = state.outcome
    assert outcome is not None
    raw = scale is not None and outcome.scores is not None
    if raw and scale is not None:
        scale.add(outcome.margin_for(0))
    up: _Node | None = node
    while up is not None:  # back-propagation
        up.visits += 1
        if up.mover is not None:
            up.value += outcome.margin_for(up.mover) if raw else outcome.value_for(up.mover)
        up = up.parent
    return True


def _draw(state: State, rng: random.Random) -> Move:
    """Play a chance point's outcome drawn from ``rng``; the outcome."""
    move = draw_chance(state, rng)
    state.play(move)
    return move


def _drop(node: _Node) -> None:
    """Undo an expansion whose playout was cut short: the node's move goes back to its parent's untried moves."""
    if node.visits == 0 and node.parent is not None and node.move is not None and not node.parent.chance:
        node.parent.children.remove(node)
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

    def choose(self, state: State) -> Move:
        """The most visited move after the search; `note` describes it."""
        self.last = mcts(
            state, seconds=self.seconds, iterations=self.iterations, exploration=self.exploration, rng=self.rng
        )
        self.note = self.last.describe()
        return self.last.move
