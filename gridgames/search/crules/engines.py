"""The framework's engines on a plugin's compiled rules (`gridgames.compiled_rules.CompiledRules`): perft counts,
random playouts, MCTS, iterative-deepening negamax with a transposition table, and an exact solver.

The searches score as their Python counterparts do (`gridgames.search.negamax`, `gridgames.search.mcts`) and
return the same result types, so a player built on them describes its search the same way. Budgets: a number of
positions or playouts (the same work on any machine: a seeded search is reproducible) and/or seconds, read from
``clock`` between compiled calls: MCTS runs in batches sized from the measured speed, negamax gives each deeper
iteration the positions the remaining time allows at the speed measured so far, and stops it there.

    >>> from gridgames.registry import load_game
    >>> game = load_game("mnk").make()
    >>> engines = Engines.of(game)
    >>> engines.solve(game.new_state()).value    # tic-tac-toe is a draw
    0.0
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from types import ModuleType

import attrs
import numpy as np

from gridgames.compiled_rules import DRAW, ONGOING, CompiledRules, rules_of
from gridgames.errors import GameOverError, OptionError, PluginError
from gridgames.game import Game, Move, State
from gridgames.search.crules.build import engine_module
from gridgames.search.crules.rand import seeded
from gridgames.search.mcts import MCTSResult
from gridgames.search.negamax import WIN, NegamaxResult, _with_noise, is_forced, restrict_root_moves

__all__ = ["Engines", "SolveResult", "code_of"]

Clock = Callable[[], float]
TABLE_BITS = 20
"""Entries of a search's transposition table: 2 ** TABLE_BITS (about 26 MB)."""
_BIG = np.int64(2**62)


@attrs.frozen
class SolveResult:
    """An exact solution: the position's value for the player to move (`Outcome.value_for` of the end with best play),
    every root move's value, the best moves and the positions explored."""

    value: float
    scores: dict[Move, float]
    best_moves: tuple[Move, ...]
    positions: int


def _seed(rng: random.Random | None) -> np.ndarray:
    return seeded((rng or random.Random()).getrandbits(63))


class Engines:
    """The compiled engines of one game's compiled rules."""

    def __init__(self, game: Game, rules: CompiledRules) -> None:
        """Engines for ``game`` (whose `compiled_rules` gave ``rules``)."""
        self.game = game
        self.rules = rules
        self.module: ModuleType = engine_module(rules)
        self.params = np.ascontiguousarray(rules.params, dtype=np.int64)
        order = np.arange(rules.num_actions, dtype=np.int64) if rules.order is None else rules.order
        self.order = np.ascontiguousarray(order, dtype=np.int64)
        if sorted(self.order.tolist()) != list(range(rules.num_actions)):
            raise PluginError(f"CompiledRules.order of {rules.name} must list every action once")
        self._depth = rules.max_game_length + 2

    @classmethod
    def of(cls, game: Game) -> Engines:
        """The engines of a game that declares compiled rules; `PluginError` for one that does not."""
        rules = rules_of(game)
        if rules is None:
            raise PluginError(f"{type(game).__name__} declares no compiled rules")
        return cls(game, rules)

    # --- positions ---------------------------------------------------------------------------------
    def encode(self, state: State) -> np.ndarray:
        """The state array of a Python state (checked for its size)."""
        array = np.ascontiguousarray(self.rules.encode(state), dtype=np.int64)
        if array.shape != (self.rules.state_size,):
            raise PluginError(
                f"CompiledRules.encode of {self.rules.name} gave shape {array.shape}, not ({self.rules.state_size},)"
            )
        return array

    def legal(self, s: np.ndarray) -> np.ndarray:
        """The legal-move mask (uint8) of a state array."""
        mask = np.zeros(self.rules.num_actions, np.uint8)
        self.module.legal_mask(s, self.params, mask)
        return mask

    def play(self, s: np.ndarray, move: Move) -> np.ndarray:
        """A new state array: ``s`` after ``move`` (which must be legal)."""
        child = s.copy()
        self.module.step(child, self.params, np.int64(move))
        return child

    def status(self, s: np.ndarray) -> tuple[int, int, tuple[float, ...] | None]:
        """``(result, to_move, scores)`` of a state array (scores None when the rules keep none)."""
        scores = np.zeros(self.rules.num_players, np.float64)
        code, mover = self.module.status(s, self.params, scores)
        return int(code), int(mover), (tuple(scores.tolist()) if self.rules.score is not None else None)

    def _buffers(self) -> tuple[np.ndarray, np.ndarray]:
        return (
            np.zeros((self._depth, self.rules.state_size), np.int64),
            np.zeros((self._depth, self.rules.num_actions), np.uint8),
        )

    def perft(self, state: State | np.ndarray, depth: int) -> np.ndarray:
        """Counts per ply to ``depth``: positions, draws, wins of each player (int64, ``(depth + 1, 2 + players)``)."""
        s = self.encode(state) if isinstance(state, State) else state
        stack, masks = self._buffers()
        stack[0] = s
        counts = np.zeros((depth + 1, 2 + self.rules.num_players), np.int64)
        self.module.perft_from(stack, masks, self.params, 0, depth, counts)
        return counts

    def random_games(self, state: State, games: int, rng: random.Random | None = None) -> tuple[np.ndarray, int]:
        """Wins per player then draws over ``games`` playouts from ``state``, and the moves played."""
        s0 = self.encode(state)
        results = np.zeros(self.rules.num_players + 1, np.int64)
        moves = self.module.random_games(
            s0, self.params, games, _seed(rng), s0.copy(), np.zeros(self.rules.num_actions, np.uint8), results
        )
        return results, int(moves)

    def _root_moves(self, state: State, moves: Iterable[Move] | None) -> list[Move]:
        legal = set(state.legal_moves())
        return restrict_root_moves(self.game, [m for m in self.order.tolist() if m in legal], moves)

    # --- MCTS --------------------------------------------------------------------------------------
    def mcts(
        self,
        state: State,
        *,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        exploration: float = 1.4,
        rng: random.Random | None = None,
        clock: Clock = time.perf_counter,
    ) -> MCTSResult:
        """UCT for ``seconds`` and/or ``iterations`` (at least one), as `gridgames.search.mcts.mcts`: the most visited
        move."""
        if state.is_over:
            raise GameOverError("the game is over: there is no move to search for")
        if seconds is None and iterations is None:
            raise OptionError("MCTS needs a time budget or an iteration count")
        started = clock()
        legal = list(state.legal_moves())
        if len(legal) == 1:
            return MCTSResult(legal[0], 0.0, 0, 0, clock() - started)
        root = self.encode(state)
        capacity = (iterations + 1) if iterations is not None else 1 << 16
        tree = np.full((capacity, 7), -1, np.int64)
        tree[0, 5] = 0
        stats = np.zeros((capacity, 2), np.float64)
        ctl = np.array([1, 0], np.int64)
        random_state = _seed(rng)
        scratch, mask = root.copy(), np.zeros(self.rules.num_actions, np.uint8)
        batch = 16
        while iterations is None or ctl[1] < iterations:
            now = clock()
            if seconds is not None and ctl[1] > 0 and now - started >= seconds:
                break
            todo = batch if iterations is None else min(batch, iterations - int(ctl[1]))
            if ctl[0] + todo > tree.shape[0]:
                grow = max(tree.shape[0], todo)
                tree = np.concatenate([tree, np.full((grow, 7), -1, np.int64)])
                stats = np.concatenate([stats, np.zeros((grow, 2), np.float64)])
            before = clock()
            self.module.mcts_run(root, self.params, tree, stats, ctl, todo, exploration, random_state, scratch, mask)
            spent = clock() - before
            # batches of about a twentieth of the budget (at least 16 playouts)
            if seconds is not None:
                rate = todo / spent if spent > 0 else todo * 1e6
                batch = max(16, min(int(rate * seconds / 20), int(rate * max(0.0, seconds - (clock() - started)))))
        children = []
        child = int(tree[0, 3])
        while child >= 0:
            children.append(child)
            child = int(tree[child, 4])
        best = max(reversed(children), key=lambda c: stats[c, 0])
        visits = stats[best, 0]
        return MCTSResult(
            int(tree[best, 1]), float(stats[best, 1] / visits), int(visits), int(ctl[1]), clock() - started
        )

    # --- negamax -----------------------------------------------------------------------------------
    def search(
        self,
        state: State,
        *,
        seconds: float | None = 1.0,
        max_depth: int | None = None,
        max_nodes: int | None = None,
        moves: Iterable[Move] | None = None,
        all_scores: bool = False,
        noise: float = 0.0,
        rng: random.Random | None = None,
        clock: Clock = time.perf_counter,
        table_bits: int = TABLE_BITS,
    ) -> NegamaxResult:
        """Iterative-deepening alpha-beta with a transposition table, as `gridgames.search.negamax.search` (same
        arguments, scores and result); depth 1 always completes."""
        if state.is_over:
            raise GameOverError("the game is over: there is no move to search for")
        if noise < 0:
            raise OptionError(f"the noise must not be negative, not {noise!r}")
        remaining = max(1, (self.game.info.max_game_length or self.rules.max_game_length) - len(state.history))
        if seconds is None and max_depth is None and max_nodes is None:
            max_depth = remaining
        started = clock()
        root_moves = self._root_moves(state, moves)
        if rng is not None:
            rng.shuffle(root_moves)
        stack, masks = self._buffers()
        stack[0] = self.encode(state)
        size = 1 << table_bits
        table = (
            np.zeros(size, np.uint64),
            np.zeros(size, np.float64),
            np.zeros(size, np.int32),
            np.zeros(size, np.int8),
            np.full(size, -1, np.int64),
        )
        ctl = np.zeros(5, np.int64)
        full = all_scores or noise > 0
        result = NegamaxResult(root_moves[0], 0.0, 0, 0, 0.0, False)
        stopped, depth, best = False, 0, root_moves[0]
        while max_depth is None or depth < max_depth:
            depth += 1
            order = np.array([best] + [m for m in root_moves if m != best], np.int64)
            scores = np.zeros(order.size, np.float64)
            done = False
            # a depth stopped by the time estimate alone runs again (the table keeps its work)
            while not done:
                ctl[2] = ctl[3] = ctl[4] = 0
                by_time = False
                if depth == 1:
                    ctl[1] = _BIG
                else:
                    allowed = _BIG if max_nodes is None else max_nodes
                    if seconds is not None:
                        spent = clock() - started
                        if spent >= seconds:
                            break
                        rate = ctl[0] / spent if spent > 0 else float(_BIG)
                        estimate = int(ctl[0] + max(1000.0, rate * (seconds - spent)))
                        by_time = bool(estimate < allowed)
                        allowed = min(allowed, estimate)
                    ctl[1] = allowed
                done = self._negamax_root(stack, masks, order, depth, full, ctl, table, scores)
                if not done and not by_time:
                    break
            if not done:
                stopped = True
                break
            by_move = {int(m): float(v) for m, v in zip(order.tolist(), scores.tolist())}
            best = max(order.tolist(), key=lambda m: by_move[m])
            hit_horizon = bool(ctl[2])
            result = NegamaxResult(best, by_move[best], depth, int(ctl[0]), 0.0, not hit_horizon, (best,), by_move)
            decided = all(is_forced(v) for v in by_move.values()) if full else is_forced(by_move[best])
            if (decided and not ctl[3]) or not hit_horizon or depth >= remaining:
                break
            if seconds is not None and clock() - started >= seconds:
                break
        if noise > 0 and result.depth > 0:
            result = _with_noise(result, noise, rng or random.Random())
        nodes = min(int(ctl[0]), max_nodes) if max_nodes is not None and stopped else int(ctl[0])
        return attrs.evolve(result, nodes=nodes, seconds=clock() - started, stopped=stopped)

    def _child(self, stack: np.ndarray, move: int) -> tuple[int, int, int]:
        """Play ``move`` from ``stack[0]`` into ``stack[1]``: (the mover, the child's result, its player to move)."""
        stack[1] = stack[0]
        scores = np.zeros(self.rules.num_players, np.float64)
        me = int(self.module.status(stack[0], self.params, scores)[1])
        self.module.step(stack[1], self.params, np.int64(move))
        code, mover = self.module.status(stack[1], self.params, scores)
        return me, int(code), int(mover)

    def _negamax_root(
        self,
        stack: np.ndarray,
        masks: np.ndarray,
        order: np.ndarray,
        depth: int,
        full: bool,
        ctl: np.ndarray,
        table: tuple[np.ndarray, ...],
        scores: np.ndarray,
    ) -> bool:
        """Search each root move to ``depth`` (a full window for each when ``full``), scores into ``scores``; False
        when the budget stopped it."""
        alpha, beta = -2 * WIN, 2 * WIN
        m = self.module
        for i, move in enumerate(order.tolist()):
            window = -2 * WIN if full else alpha
            me, code, mover = self._child(stack, move)
            if code != ONGOING:
                ctl[3] |= self.rules.score is not None
                found = m.value_for(stack[1], self.params, code, me) * (WIN - 1)
            elif mover == me:
                found = m.negamax(stack, masks, self.params, self.order, depth - 1, window, beta, 1, ctl, *table)
            else:
                found = -m.negamax(stack, masks, self.params, self.order, depth - 1, -beta, -window, 1, ctl, *table)
            if ctl[4]:
                return False
            scores[i] = found
            alpha = max(alpha, found)
        return True

    def _solve_root(
        self,
        stack: np.ndarray,
        masks: np.ndarray,
        root_moves: np.ndarray,
        ctl: np.ndarray,
        table: tuple[np.ndarray, ...],
        scores: np.ndarray,
    ) -> bool:
        """The exact value of every root move (a full window each) into ``scores``; False when the budget stopped
        it."""
        m = self.module
        for i, move in enumerate(root_moves.tolist()):
            me, code, mover = self._child(stack, move)
            if code != ONGOING:
                found = m.value_for(stack[1], self.params, code, me)
            else:
                found = m.solve(stack, masks, self.params, self.order, 1, -2.0, 2.0, ctl, *table)
                found = found if mover == me else -found
            if ctl[4]:
                return False
            scores[i] = found
        return True

    # --- the exact solver --------------------------------------------------------------------------
    def solve(self, state: State, *, max_positions: int | None = None, table_bits: int = TABLE_BITS) -> SolveResult:
        """The exact value of ``state`` for the player to move, each move's value and the best moves (a `SolveResult`);
        `OptionError` when ``max_positions`` runs out first."""
        if state.is_over:
            raise GameOverError("the game is over: there is nothing to solve")
        root_moves = np.array(self._root_moves(state, None), np.int64)
        stack, masks = self._buffers()
        stack[0] = self.encode(state)
        size = 1 << table_bits
        table = (
            np.zeros(size, np.uint64),
            np.zeros(size, np.float64),
            np.zeros(size, np.int8),
            np.full(size, -1, np.int64),
        )
        ctl = np.zeros(5, np.int64)
        ctl[1] = _BIG if max_positions is None else max_positions
        scores = np.zeros(root_moves.size, np.float64)
        if not self._solve_root(stack, masks, root_moves, ctl, table, scores):
            raise OptionError(f"the position was not solved within {max_positions:,} positions")
        by_move = {int(m): float(v) for m, v in zip(root_moves.tolist(), scores.tolist())}
        value = max(by_move.values())
        best = tuple(m for m, v in by_move.items() if v == value)
        return SolveResult(value, by_move, best, int(ctl[0]))


def code_of(state: State) -> int:
    """A Python state's result as compiled rules give it: `ONGOING`, `DRAW` or the winner."""
    outcome = state.outcome
    if outcome is None:
        return ONGOING
    return DRAW if outcome.winner is None else outcome.winner
