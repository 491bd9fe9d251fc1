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

from gridgames.errors import GameOverError, OptionError
from gridgames.game import Move, State

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
    untried: list[Move] | None  # None until the node is first expanded (listing moves may be costly)
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
    rng = rng or random.Random()
    started = clock()
    deadline = _Deadline(None if seconds is None else started + seconds, clock)
    plies = state.game.playout_plies if playout_plies is None else playout_plies
    moves = _shuffled(state, rng)
    if len(moves) == 1:  # nothing to think about
        return MCTSResult(moves[0], 0.0, 0, 0, clock() - started)
    root = _Node(None, None, moves)
    done = 0
    while iterations is None or done < iterations:
        if done > 0 and deadline.passed():
            break
        if not _iterate(root, state.copy(), exploration, rng, deadline, first=done == 0, plies=plies):
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
    root: _Node, state: State, exploration: float, rng: random.Random, deadline: _Deadline = NO_DEADLINE, *,
    first: bool = False, plies: int | None = None
) -> bool:
    """One MCTS iteration on a private copy of the root state: select, expand, play out, back up.

    False, with the tree unchanged, when ``deadline`` passes before the iteration is done (never on the ``first``:
    its playout is cut short and scored as it stands).
    """
    late = NO_DEADLINE if first else deadline
    node = root
    while not _untried(node, state, rng) and node.children:  # selection
        if late.passed():
            return False
        node = node.best_child(exploration)
        state.play(node.move)  # type: ignore[arg-type]
    if node.untried:  # expansion
        if late.passed():
            return False
        move = node.untried.pop()
        mover = state.current_player
        state.play(move)
        child = _Node(move, mover, None, parent=node)
        if plies is None:  # full playouts: list the new node's moves now, as always (the same seeded draws)
            _untried(child, state, rng)
        node.children.append(child)
        node = child
    values = _playout(state, rng, plies, deadline, first)
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
    state: State, rng: random.Random, plies: int | None, deadline: _Deadline, first: bool
) -> Sequence[float] | None:
    """Play the playout policy from ``state`` (at most ``plies`` moves): each player's result, or None when the
    deadline cut it short (the ``first`` iteration's is scored as it stands instead)."""
    played = 0
    while plies is None or played < plies:
        if deadline.passed():
            return _values(state, ended=False) if first else None
        move = state.playout_move(rng)
        if move is None:  # the default policy: a uniformly random legal move
            if state.is_over:
                return _values(state, ended=True)
            move = rng.choice(list(state.legal_moves()))
        state.play(move)
        played += 1
    return _values(state, ended=False)


def _values(state: State, *, ended: bool) -> list[float]:
    """Each player's result in [-1, 1]: the outcome's when the game ``ended``, else the evaluation's (the player to
    move's value, its negation for the others; all 0 without an evaluation, or the outcome's if the game is over)."""
    players = range(state.game.info.num_players)
    outcome = state.outcome if ended else None
    if outcome is not None:
        return [outcome.value_for(p) for p in players]
    value = state.evaluate()
    if value is None:
        outcome = state.outcome  # a game without an evaluation: its outcome if over, else a draw
        return [outcome.value_for(p) if outcome is not None else 0.0 for p in players]
    value = max(-1.0, min(1.0, float(value)))
    mover = state.current_player
    return [value if p == mover else -value for p in players]


def _drop(node: _Node) -> None:
    """Undo an expansion whose playout was cut short: the node's move goes back to its parent's untried moves."""
    if node.visits == 0 and node.parent is not None and node.move is not None:
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
            state, seconds=self.seconds, iterations=self.iterations, exploration=self.exploration, rng=self.rng,
            playout_plies=self.playout_plies
        )
        self.note = self.last.describe()
        return self.last.move
