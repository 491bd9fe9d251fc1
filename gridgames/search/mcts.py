"""Monte Carlo tree search (UCT with random playouts) and its player.

MCTS needs nothing from a game but the protocol: `State.copy`, `play`,
`legal_moves` and `Outcome.value_for`, so it plays any game, including those
that provide no evaluation and those with more than two players. Each iteration
walks down the tree by the UCT rule, adds one node, plays random moves to the end
and credits the result to every node on the way, from the view of the player who
moved into it. The move chosen is the most visited one.

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

from gridgames.errors import GameOverError, OptionError
from gridgames.game import Move, State

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
    value: float = 0.0  # total result for ``mover``: +1 per win, 0 per draw, -1 per loss

    def best_child(self, exploration: float) -> _Node:
        """The child maximising the UCT bound."""
        log_visits = math.log(self.visits)
        return max(
            self.children,
            key=lambda c: c.value / c.visits + exploration * math.sqrt(log_visits / c.visits),
        )


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
        return (
            f"mcts {self.iterations:,} playouts in {self.seconds:.2f} s, "
            f"move scores {self.value:+.2f} ({self.visits:,} visits)"
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
    rng = rng or random.Random()
    started = time.perf_counter()
    deadline = None if seconds is None else started + seconds
    root = _Node(None, None, _shuffled(state, rng))
    if len(root.untried) == 1:  # nothing to think about
        return MCTSResult(root.untried[0], 0.0, 0, 0, time.perf_counter() - started)
    done = 0
    while iterations is None or done < iterations:
        if deadline is not None and done > 0 and time.perf_counter() > deadline:
            break
        if not _iterate(root, state.copy(), exploration, rng, deadline if done > 0 else None):
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


def _iterate(root: _Node, state: State, exploration: float, rng: random.Random, deadline: float | None = None) -> bool:
    """One MCTS iteration on a private copy of the root state: select, expand, play out, back up.

    False, with the tree unchanged, when ``deadline`` passes before the iteration is done.
    """
    node = root
    while not node.untried and node.children:  # selection
        if _late(deadline):
            return False
        node = node.best_child(exploration)
        state.play(node.move)  # type: ignore[arg-type]
    if node.untried:  # expansion
        if _late(deadline):
            return False
        move = node.untried.pop()
        mover = state.current_player
        state.play(move)
        child = _Node(move, mover, [] if state.is_over else _shuffled(state, rng), parent=node)
        node.children.append(child)
        node = child
    while not state.is_over:  # playout
        if _late(deadline):
            _drop(node)
            return False
        state.play(rng.choice(list(state.legal_moves())))
    outcome = state.outcome
    assert outcome is not None
    up: _Node | None = node
    while up is not None:  # back-propagation
        up.visits += 1
        if up.mover is not None:
            up.value += outcome.value_for(up.mover)
        up = up.parent
    return True


def _drop(node: _Node) -> None:
    """Undo an expansion whose playout was cut short: the node's move goes back to its parent's untried moves."""
    if node.visits == 0 and node.parent is not None and node.move is not None:
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
