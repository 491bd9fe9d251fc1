"""The generic computer players and the factory that picks one for a game.

`make_ai` picks the generic computer player for a game: negamax (`gridgames.search.negamax`;
expectimax where chance occurs) when the game has an evaluation (and two players, zero-sum,
or one player), Monte Carlo tree search (`gridgames.search.mcts`) otherwise; ``"random"``
plays a uniformly random legal move. `ai_kinds` lists the kinds that apply to a game.
A player thinks for ``seconds`` per move, or, given ``nodes``, does a fixed amount of work
instead (negamax: that many positions; MCTS: that many playouts, each adding one tree node),
so that with a seeded ``rng`` it plays the same moves on every run and every machine.

>>> AI_KINDS
('ai', 'negamax', 'mcts', 'random')
"""

from __future__ import annotations

import random
from typing import Literal

import attrs

from gridgames.errors import GameOverError, OptionError
from gridgames.game import AI_KINDS, Game, Move, Player, State
from gridgames.search.mcts import MCTSPlayer
from gridgames.search.negamax import NegamaxPlayer

__all__ = ["AI_KINDS", "AIKind", "RandomPlayer", "ai_kinds", "has_evaluation", "make_ai"]

AIKind = Literal["ai", "negamax", "mcts", "random"]


@attrs.define
class RandomPlayer:
    """A player choosing uniformly among the legal moves."""

    name: str = "random"
    rng: random.Random = attrs.field(factory=random.Random)
    note: str = "a random legal move"

    def choose(self, state: State) -> Move:
        """A random legal move; raises `GameOverError` once the game is over."""
        if state.is_over:
            raise GameOverError("the game is over: there is no move to choose")
        return self.rng.choice(list(state.legal_moves()))


def has_evaluation(game: Game) -> bool:
    """True when the game's states provide a heuristic evaluation (`State.evaluate` is not None)."""
    return game.new_state().evaluate() is not None


def _negamax_applies(game: Game) -> bool:
    """True when negamax can play the game: one player, or two in a zero-sum game."""
    info = game.info
    return info.num_players == 1 or (info.num_players == 2 and info.zero_sum)


def ai_kinds(game: Game) -> tuple[str, ...]:
    """The generic computer players that can play ``game`` (`AI_KINDS` but negamax where it does not apply).

    >>> from gridgames.registry import load_game
    >>> ai_kinds(load_game("connect4").make())
    ('ai', 'negamax', 'mcts', 'random')
    """
    return tuple(kind for kind in AI_KINDS if kind != "negamax" or _negamax_applies(game))


def make_ai(
    state_or_game: State | Game,
    kind: str = "ai",
    *,
    seconds: float = 1.0,
    rng: random.Random | None = None,
    nodes: int | None = None,
    compiled: bool = True,
) -> Player:
    """A computer player: "negamax", "mcts", "random", or "ai" (negamax if the game has an evaluation, else MCTS).

    ``nodes`` replaces the time budget by a fixed one (negamax positions, MCTS playouts): reproducible with ``rng``.
    A game that declares compiled rules (`gridgames.compiled_rules`) gets the same search on them
    (`gridgames.search.crules.players`), unless ``compiled`` is False.
    """
    game = state_or_game if isinstance(state_or_game, Game) else state_or_game.game
    if kind not in AI_KINDS:
        raise OptionError(f"unknown computer player {kind!r} (choose from {', '.join(AI_KINDS)})")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise OptionError(f"the node budget must be a whole number of at least 1, not {nodes!r}")
    if kind == "ai":
        kind = "negamax" if _negamax_applies(game) and has_evaluation(game) else "mcts"
    if kind == "negamax":
        if not _negamax_applies(game):
            raise OptionError(
                f"negamax plays one-player and two-player zero-sum games; this one has {game.info.num_players} "
                "players" + ("" if game.info.zero_sum else " and is not zero-sum")
            )
    if kind in ("negamax", "mcts") and compiled:
        fast = _compiled_player(game, kind, seconds=None if nodes is not None else seconds, nodes=nodes, rng=rng)
        if fast is not None:
            return fast
    if kind == "negamax":
        if nodes is not None:
            return NegamaxPlayer(name="negamax", seconds=None, max_nodes=nodes, rng=rng)
        return NegamaxPlayer(name="negamax", seconds=seconds, rng=rng)
    if kind == "mcts":
        if nodes is not None:
            return MCTSPlayer(name="mcts", seconds=None, iterations=nodes, rng=rng)
        return MCTSPlayer(name="mcts", seconds=seconds, rng=rng)
    return RandomPlayer(rng=rng or random.Random())


def _compiled_player(
    game: Game, kind: str, *, seconds: float | None, nodes: int | None, rng: random.Random | None
) -> Player | None:
    """The player of ``kind`` on the game's compiled rules, or None when it declares none."""
    from gridgames.compiled_rules import rules_of

    if rules_of(game) is None:
        return None
    from gridgames.search.crules.players import CompiledMCTSPlayer, CompiledNegamaxPlayer, engines_for

    engines = engines_for(game)
    if engines is None:  # pragma: no cover - rules_of said it has some
        return None
    if kind == "negamax":
        return CompiledNegamaxPlayer(engines, name="negamax", seconds=seconds, max_nodes=nodes, rng=rng)
    return CompiledMCTSPlayer(engines, name="mcts", seconds=seconds, iterations=nodes, rng=rng)
