"""A PettingZoo AEC environment for any installed turn-based game.

``aec_env(name, **options)`` builds the game ``name`` with its options and wraps it as
PettingZoo's classic board games are wrapped (``connect_four_v3.env()``):

* agents ``player_0``, ``player_1``, ... in the game's seat order (``player_0`` moves first);
* observations as described in `gridgames.rl.core` (own pieces first, an ``action_mask``);
* ``Discrete(num_actions)`` actions: the game's integer actions;
* rewards at the end only: +1 to the winner, -1 to every other player, 0 to all on a draw
  (``reward="outcome"``, the default), or with ``reward="margin"`` each player's score margin
  (`Outcome.margin_for`: own score minus the best other's, e.g. Othello's disc difference;
  +1 / -1 / 0 for a game whose outcomes carry no scores), or with ``reward="score"`` at every step
  the change of each player's own score (`State.scores`; a one-player game's points as they come);
* chance outcomes (`State.chance_outcomes`) drawn by the environment from the ``reset`` seed (another
  seed, other outcomes); the agents never act at a chance point;
* an illegal action ends the game: -1 to the player who made it, 0 to the others (PettingZoo's
  ``TerminateIllegalWrapper``, as in its classic games); an action outside the action space (or
  not an integer: 3.5, "3") is refused as PettingZoo's ``AssertOutOfBoundsWrapper`` refuses it, but
  with `ActionError` (a ValueError), which ``python -O`` does not skip; the unwrapped
  `GridGamesAECEnv` refuses it alike, and raises the game's `IllegalMoveError` for an illegal one;
* ``reset(options={"moves": [...]})`` starts from the position after those integer actions;
* ``render_mode`` ``"ansi"`` (the game's text picture) or ``"rgb_array"`` (drawn from its board);
* with ``judge=True`` (Connect Four only), each player's ``info`` carries the solver's verdict on
  its last move (``move_score``, ``best_score``, ``is_best``) and the player to move's carries
  the ``score`` of the position it faces (see `gridgames.rl.judge`).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gridgames.rl.core import (
    RENDER_MODES,
    Observer,
    ScoreRewards,
    check_action,
    check_render_mode,
    check_reward,
    final_reward,
    load_turn_based,
    render,
    start_state,
)
from gridgames.game import play_chance
from gridgames.rl.judge import Judge

ILLEGAL_REWARD = -1


class GridGamesAECEnv(AECEnv):  # type: ignore[misc]
    """A turn-based gridgames game as a PettingZoo AEC environment (unwrapped: illegal moves raise)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "gridgames_v0", "is_parallelizable": False, "render_fps": 2}

    def __init__(
        self,
        game_name: str,
        *,
        render_mode: str | None = None,
        judge: bool = False,
        judge_table_bits: int | None = None,
        reward: str = "outcome",
        **options: Any,
    ) -> None:
        """The game ``game_name`` built with ``options`` (its own options, e.g. width=9, height=7, connect=5)."""
        super().__init__()
        self.reward = check_reward(reward)
        self.game = load_turn_based(game_name, options)
        self.render_mode = check_render_mode(render_mode)
        self.metadata = {**type(self).metadata, "name": f"gridgames_{game_name}_v0"}
        self._observer = Observer.of(self.game, game_name)
        self.judge = Judge(self.game, judge_table_bits) if judge else None
        n = self.game.info.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        space = self._observer.space()
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(self.game.info.num_actions) for agent in self.possible_agents}
        self.state = self.game.new_state()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: one action per integer action of the game."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, after ``options["moves"]`` if given; ``seed`` seeds ``np_random`` and the action spaces'
        sampling."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self._chance = random.Random(seed)  # chance outcomes: the same seed, the same outcomes
        self.state = start_state(self.game, options, self._chance)
        self._scores = ScoreRewards.start(self.state)
        self.agents = self.possible_agents[:]
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]
        if self.judge is not None:
            self.infos[self.agent_selection]["score"] = self.judge.score(self.state)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees: the planes from its view and, if it is to move, the legal actions."""
        return self._observer.observe(self.state, self._seat[agent])

    def step(self, action: int | None) -> None:
        """Play the selected agent's action; at the end of the game, reward every agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = check_action(action, self.game.info.num_actions)
        self._cumulative_rewards[agent] = 0
        self.state.play(move)
        play_chance(self.state, self._chance)
        outcome = self.state.outcome
        if self.judge is not None:
            self.infos[agent] = self.judge.judge_last_move(self.state).as_info()
        if self.reward == "score":
            for other in self.agents:
                self.rewards[other] = self._scores.pay(self.state, self._seat[other])
        if outcome is not None:
            for other in self.agents if self.reward != "score" else ():
                value = final_reward(outcome, self._seat[other], self.reward)
                self.rewards[other] = int(value) if self.reward == "outcome" else value
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]
            if self.judge is not None:
                self.infos[self.agent_selection] = {
                    **self.infos[self.agent_selection],
                    "score": self.judge.score(self.state),
                }
        self._accumulate_rewards()
        if outcome is not None and self.state.current_player >= 0:  # not a chance point's CHANCE
            self.agent_selection = self.possible_agents[self.state.current_player]

    def render(self) -> str | np.ndarray | None:
        """The position as text (``ansi``) or RGB pixels (``rgb_array``); None without a render mode."""
        return render(self.state, self.render_mode, self.possible_agents)

    def close(self) -> None:
        """Nothing to release."""


def aec_env(
    game_name: str,
    *,
    render_mode: str | None = None,
    judge: bool = False,
    judge_table_bits: int | None = None,
    reward: str = "outcome",
    **options: Any,
) -> AECEnv:
    """A PettingZoo AEC environment for the installed game ``game_name``, wrapped as PettingZoo's classic games
    (``reward``: "outcome", "margin" or "score")."""
    env: AECEnv = GridGamesAECEnv(
        game_name, render_mode=render_mode, judge=judge, judge_table_bits=judge_table_bits, reward=reward, **options
    )
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=ILLEGAL_REWARD)
    env = _CheckedActions(env)
    return wrappers.OrderEnforcingWrapper(env)


class _CheckedActions(wrappers.BaseWrapper):  # type: ignore[misc]
    """PettingZoo's ``AssertOutOfBoundsWrapper`` without ``assert``: an action outside the space is an `ActionError`."""

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if not (action is None and (self.terminations[agent] or self.truncations[agent])):
            action = check_action(action, int(self.action_space(agent).n))
        super().step(action)
