"""The computer players on a game's compiled rules: `make_ai` picks these for a game that declares compiled rules.

They search as `gridgames.search.negamax.NegamaxPlayer` and `gridgames.search.mcts.MCTSPlayer` do, with the same
budgets and notes, at the speed of compiled code.
"""

from __future__ import annotations

import random

import attrs

from gridgames.compiled_rules import rules_of
from gridgames.game import Game, Move, State
from gridgames.search.crules.engines import Engines
from gridgames.search.mcts import MCTSResult
from gridgames.search.negamax import NegamaxResult

__all__ = ["CompiledMCTSPlayer", "CompiledNegamaxPlayer", "engines_for"]

_engines: dict[tuple[type, str], Engines] = {}


def engines_for(game: Game) -> Engines | None:
    """The compiled engines of a game that declares compiled rules (built once per game and process), else None."""
    rules = rules_of(game)
    if rules is None:
        return None
    key = (type(game), repr(game))
    if key not in _engines:
        _engines[key] = Engines(game, rules)
    return _engines[key]


@attrs.define
class CompiledNegamaxPlayer:
    """Iterative-deepening negamax with a transposition table on compiled rules, for ``seconds`` or ``max_nodes``."""

    engines: Engines
    name: str = "negamax"
    seconds: float | None = 1.0
    max_depth: int | None = None
    rng: random.Random | None = None
    max_nodes: int | None = None
    noise: float = 0.0
    note: str = ""
    last: NegamaxResult | None = None

    def choose(self, state: State) -> Move:
        """The best move found within the budget; `note` describes the search."""
        self.last = self.engines.search(
            state,
            seconds=self.seconds,
            max_depth=self.max_depth,
            max_nodes=self.max_nodes,
            noise=self.noise,
            rng=self.rng,
        )
        self.note = self.last.describe()
        return self.last.move


@attrs.define
class CompiledMCTSPlayer:
    """Monte Carlo tree search on compiled rules for ``seconds`` (or ``iterations``) per move."""

    engines: Engines
    name: str = "mcts"
    seconds: float | None = 1.0
    iterations: int | None = None
    exploration: float = 1.4
    rng: random.Random | None = None
    note: str = ""
    last: MCTSResult | None = None

    def choose(self, state: State) -> Move:
        """The most visited move after the search; `note` describes it."""
        self.last = self.engines.mcts(
            state, seconds=self.seconds, iterations=self.iterations, exploration=self.exploration, rng=self.rng
        )
        self.note = self.last.describe()
        return self.last.move
