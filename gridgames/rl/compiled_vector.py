"""A `gridgames.rl.vector.VectorBackend` on a game's compiled rules: every sub-env's agent move, random replies and
observation in one compiled call (`gridgames.search.crules.kernels.vector_step`).

`vector_env` uses it for a game whose compiled rules give the board (`CompiledRules.board`) and whose observation
is the default planes (one per player, from its `State.board`), against the ``random`` opponent; any other set-up
runs on `gridgames.rl.vector.GenericBackend`. The observations are those of `gridgames.rl.core.Observer`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gridgames.compiled_rules import rules_of
from gridgames.game import Game
from gridgames.rl.core import Observer

__all__ = ["CompiledBackend", "compiled_backend"]


class CompiledBackend:
    """N games of compiled rules against random replies, stepped in one compiled call."""

    def __init__(self, game: Game, observer: Observer, num_envs: int, seat: int, illegal_reward: float) -> None:
        """Backend of ``num_envs`` games of ``game`` (with compiled rules and a board) for the agent in ``seat``."""
        from gridgames.search.crules.players import engines_for
        from gridgames.search.crules.rand import seeded

        engines = engines_for(game)
        assert engines is not None and observer._lookup is not None  # compiled_backend checked both
        self._engines = engines
        self._module = engines.module
        self._seeded = seeded
        rules = engines.rules
        self.seat = seat
        self.num_envs = num_envs
        self._illegal_reward = illegal_reward
        self._start = engines.encode(game.new_state())
        self._states = np.repeat(self._start[None, :], num_envs, axis=0)
        self._lookup = np.ascontiguousarray(np.stack(observer._lookup), dtype=np.int8)
        self.observation = np.zeros((num_envs, *observer.shape), np.int8)
        self.action_mask = np.zeros((num_envs, rules.num_actions), np.int8)
        self._cells = np.zeros(observer.shape[0] * observer.shape[1], np.int64)
        self._mask = np.zeros(rules.num_actions, np.uint8)
        self._histories = np.zeros((num_envs, rules.max_game_length), np.int64)
        self._lengths = np.zeros(num_envs, np.int64)
        self._rngs = np.concatenate([seeded(i) for i in range(num_envs)]).reshape(num_envs, 1)
        self._reward = np.zeros(num_envs)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._illegal = np.zeros(num_envs, np.bool_)

    def reset(self, which: np.ndarray, seeds: Sequence[int | None]) -> None:
        """New games where ``which``; see `gridgames.rl.vector.VectorBackend.reset`."""
        for i, seed in enumerate(seeds):
            if seed is not None and which[i]:
                self._rngs[i] = self._seeded(seed)
        self._module.vector_reset(
            self._states,
            self._engines.params,
            self._start,
            np.ascontiguousarray(which, np.bool_),
            self.seat,
            self._rngs,
            self.observation,
            self.action_mask,
            self._lookup,
            self._cells,
            self._mask,
            self._histories,
            self._lengths,
        )

    def step(self, actions: np.ndarray, active: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The agent's actions and the replies where ``active``; see `gridgames.rl.vector.VectorBackend.step`."""
        self._module.vector_step(
            self._states,
            self._engines.params,
            np.ascontiguousarray(actions, np.int64),
            np.ascontiguousarray(active, np.bool_),
            self.seat,
            self._rngs,
            self._reward,
            self._terminated,
            self._illegal,
            self._illegal_reward,
            self.observation,
            self.action_mask,
            self._lookup,
            self._cells,
            self._mask,
            self._histories,
            self._lengths,
        )
        return self._reward, self._terminated, self._illegal

    def history(self, i: int) -> tuple[int, ...]:
        """The integer actions played in sub-env i since its reset."""
        return tuple(int(m) for m in self._histories[i, : self._lengths[i]])


def compiled_backend(
    game: Game, name: str, num_envs: int, opponent: str, seat: int, illegal_reward: float
) -> CompiledBackend | None:
    """The compiled backend for these settings, or None where it does not apply (see the module)."""
    rules = rules_of(game)
    if rules is None or rules.board is None or opponent != "random" or game.computer_levels():
        return None
    observer = Observer.of(game, name)
    if observer._lookup is None or observer.shape[2] != game.info.num_players:
        return None
    return CompiledBackend(game, observer, num_envs, seat, illegal_reward)
