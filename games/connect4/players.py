"""Computer players for Connect Four, from random to perfect, behind one interface.

A player has a ``name``, ``choose(state) -> column`` and, after each choice, a
``note`` (empty, or one line worth telling the user, e.g. that the time ran out).

* ``random``: any legal column.
* ``easy``: a 2-ply heuristic search with noisy scores.
* ``medium``: a 6-ply heuristic search (alpha-beta, threat-counting evaluation).
* ``hard``: a short solver search (exact near the end, depth-limited before), and now
  and then the medium player's move instead: strong but beatable.
* ``perfect``: the solver's best move; among equally scored moves a random one.

Every level takes an immediate win and blocks an immediate loss. Every computer
move is bounded by ``think`` seconds; when the solver cannot finish in time it
plays the best move of a depth-limited search and says so in ``note``. The solver
(numba) is imported only by ``hard`` and ``perfect``, on their first move; on a
board too large for it they fall back to the heuristic search.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import attrs

from games.connect4 import heuristic
from games.connect4.rules import Connect4, Connect4State
from gridgames.errors import GameOverError, GridGamesError, OptionError

if TYPE_CHECKING:
    from games.connect4.solver import Solver

KINDS = ("random", "easy", "medium", "hard", "perfect")
"""The computer levels, weakest first."""
DEFAULT_THINK = 2.0
EASY_DEPTH, EASY_NOISE = 2, 12.0
MEDIUM_DEPTH = 6
HARD_SHARE_OF_THINK = 0.25
HARD_MAX_NODES = 300_000
HARD_SLIP = 0.15
"""How often the hard player plays the medium player's move instead of the solver's."""


def _require_turn(state: Connect4State) -> None:
    if state.is_over:
        raise GameOverError("the game is over: there is no move to choose")


def forced_move(state: Connect4State, rng: random.Random) -> int | None:
    """An immediate win if there is one, else the block of an immediate loss, else None."""
    game = state.game
    geom = heuristic.Geometry.of(game.width, game.height, game.connect)
    cur, mask = geom.position(state.history)
    for side in (cur, cur ^ mask):
        columns = heuristic.immediate_wins(geom, side, mask)
        if columns:
            return rng.choice(columns)
    return None


@attrs.define
class RandomPlayer:
    """Plays a uniformly random legal column."""

    rng: random.Random
    name: str = "random"
    note: str = ""

    def choose(self, state: Connect4State) -> int:
        """A random legal column."""
        _require_turn(state)
        return self.rng.choice(list(state.legal_moves()))


@attrs.define
class HeuristicPlayer:
    """A depth-limited heuristic search: takes wins, blocks losses, then looks ``depth`` plies ahead."""

    name: str
    depth: int
    rng: random.Random
    think: float = DEFAULT_THINK
    noise: float = 0.0
    note: str = ""
    last: heuristic.Choice | None = None

    def choose(self, state: Connect4State) -> int:
        """The best column of a search ``depth`` plies deep (less when ``think`` seconds run out)."""
        _require_turn(state)
        game = state.game
        geom = heuristic.Geometry.of(game.width, game.height, game.connect)
        choice = heuristic.choose(geom, state.history, self.depth, rng=self.rng, noise=self.noise, seconds=self.think)
        self.last = choice
        self.note = "" if choice.complete else (
            f"depth-limited search (depth {choice.depth}): no deeper result within {self.think:g} s"
        )
        return choice.column


@lru_cache(maxsize=2)
def shared_solver(width: int, height: int, connect: int) -> Solver | None:
    """The solver for a board size (one per size, reused), or None when it cannot handle that board."""
    try:
        from games.connect4.solver import Solver
    except ImportError:  # the solver module is optional
        return None
    try:
        return Solver(width, height, connect)
    except GridGamesError:
        return None


@attrs.define
class SolverPlayer:
    """Plays the solver's best move within a node budget; ``slip`` is how often it plays ``fallback``'s move."""

    name: str
    rng: random.Random
    fallback: HeuristicPlayer
    think: float = DEFAULT_THINK
    share: float = 1.0
    max_nodes: int | None = None
    slip: float = 0.0
    note: str = ""

    def choose(self, state: Connect4State) -> int:
        """The solver's choice (exact when it finishes in time), or the fallback's on boards it cannot handle."""
        _require_turn(state)
        forced = forced_move(state, self.rng)
        if forced is not None:
            self.note = ""
            return forced
        game = state.game
        solver = shared_solver(game.width, game.height, game.connect)
        if solver is None:
            column = self.fallback.choose(state)
            self.note = f"the solver cannot handle a {game.size} board: heuristic search (depth {self.fallback.depth})"
            return column
        if self.slip and self.rng.random() < self.slip:
            column = self.fallback.choose(state)
            self.note = self.fallback.note
            return column
        budget = solver.nodes_for_seconds(self.think * self.share)
        if self.max_nodes is not None:
            budget = min(budget, self.max_nodes)
        result = solver.best_move(list(state.history), max_nodes=max(budget, 1), rng=self.rng)
        self.note = "" if result.exact or self.slip else (
            f"depth-limited search (depth {result.depth}): no exact result within {self.think:g} s"
        )
        return result.column


def make_player(kind: str, game: Connect4, rng: random.Random | None = None, think: float = DEFAULT_THINK) -> Any:
    """A computer player of the given level (one of `KINDS`), thinking at most ``think`` seconds a move."""
    rng = rng if rng is not None else random.Random()
    if not isinstance(think, (int, float)) or not think > 0:
        raise OptionError(f"the thinking time must be a positive number of seconds, not {think!r}")
    medium = HeuristicPlayer("medium", MEDIUM_DEPTH, rng, think)
    if kind == "random":
        return RandomPlayer(rng)
    if kind == "easy":
        return HeuristicPlayer("easy", EASY_DEPTH, rng, think, noise=EASY_NOISE)
    if kind == "medium":
        return medium
    if kind == "hard":
        return SolverPlayer("hard", rng, medium, think, HARD_SHARE_OF_THINK, HARD_MAX_NODES, HARD_SLIP)
    if kind == "perfect":
        return SolverPlayer("perfect", rng, HeuristicPlayer("medium", MEDIUM_DEPTH + 2, rng, think), think)
    raise OptionError(f"unknown player {kind!r} (choose from {', '.join(KINDS)})")
