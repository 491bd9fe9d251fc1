"""A Gymnasium environment: one agent against one of the game's computer players.

``gym_env(name, opponent="medium", seat=0, **options)``: the agent plays seat ``seat``
(0 moves first) of the two-player game ``name``; the computer plays the other seat at
level ``opponent``. In a one-player game (a puzzle played move by move, such as Lights
Out) the agent plays every move and there is no opponent (``opponent`` is not used);
the reward at the end is the outcome's value for the agent (+1 when it won, 0 otherwise). Levels are the game's own
(`Game.computer_levels`; Connect Four: random, easy, medium, hard, perfect) or, for a game without any, the generic ones
in `GENERIC_LEVELS`: ``random``, and the generic AI (negamax with the game's evaluation, else Monte Carlo tree search)
at three fixed search budgets, ``easy``, ``medium`` and ``hard``. Budgets are counted in nodes, depths or iterations,
never in seconds, so that ``reset(seed=...)`` makes an episode replay exactly: the seed drives the computer's random
choices. Negamax's depths are capped by a number of positions (`NEGAMAX_NODES`), so a game with hundreds of moves per
position (a Blokus) costs a fraction of a second a step at ``medium``, not a whole depth-2 tree; a game declares other
levels with `Game.computer_levels`.

``reset(options={"moves": [...]})`` starts from the position after those integer actions
(handy with the judge: the solver takes long on the opening positions of big boards).
Observations and rewards are those of the AEC environment (`gridgames.rl.aec`) for the
agent's seat (``reward="outcome"``: +1 / -1 / 0; ``reward="margin"``: the score margin of a
game whose outcomes carry scores; ``reward="score"``: each step, the change of the agent's own score).
Chance outcomes (`State.chance_outcomes`) are drawn from ``reset(seed=...)``: the same seed, the same
outcomes; another seed, others. An illegal action ends the episode with reward -1 and ``info["illegal"]``.
With ``judge=True`` (Connect Four), ``info`` carries the solver's verdict on the agent's
move (``move_score``, ``best_score``, ``is_best``) and the ``score`` of the position the
agent now faces (also after ``reset``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium import spaces

from gridgames.errors import OptionError
from gridgames.game import Game, Player, State, play_chance
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
from gridgames.rl.judge import Judge

if TYPE_CHECKING:
    from gridgames.search.crules.engines import Engines

GENERIC_LEVELS = ("random", "easy", "medium", "hard")
"""Levels for games without computer players of their own."""
NEGAMAX_DEPTHS = {"easy": 1, "medium": 2, "hard": 4}
NEGAMAX_NODES = {"easy": 500, "medium": 1_000, "hard": 5_000}
"""The most positions each level searches (its depth is reached only where the tree is that small)."""
MCTS_ITERATIONS = {"easy": 50, "medium": 300, "hard": 1500}
ILLEGAL_REWARD = -1.0


def levels(game: Game) -> tuple[str, ...]:
    """The opponent levels a game offers: its own, else `GENERIC_LEVELS`."""
    return game.computer_levels() or GENERIC_LEVELS


def make_opponent(game: Game, level: str, rng: random.Random) -> Player:
    """A computer player of ``level`` (see `levels`) drawing its random choices from ``rng``."""
    if game.computer_levels():
        if level not in game.computer_levels():
            raise OptionError(f"unknown opponent {level!r} (choose from {', '.join(game.computer_levels())})")
        return game.computer_player(level, rng)
    from gridgames.search.mcts import MCTSPlayer
    from gridgames.search.negamax import NegamaxPlayer
    from gridgames.search.players import RandomPlayer, has_evaluation

    if level not in GENERIC_LEVELS:
        raise OptionError(f"unknown opponent {level!r} (choose from {', '.join(GENERIC_LEVELS)})")
    if level == "random":
        return RandomPlayer(rng=rng)
    info = game.info
    engines = _compiled_engines(game)  # a game with compiled rules: the same search, compiled
    if info.num_players == 2 and info.zero_sum and has_evaluation(game):
        if engines is not None:
            from gridgames.search.crules.players import CompiledNegamaxPlayer

            return CompiledNegamaxPlayer(engines, name=level, seconds=None, max_depth=NEGAMAX_DEPTHS[level], rng=rng)
        return NegamaxPlayer(
            name=level, seconds=None, max_depth=NEGAMAX_DEPTHS[level], max_nodes=NEGAMAX_NODES[level], rng=rng
        )
    if engines is not None:
        from gridgames.search.crules.players import CompiledMCTSPlayer

        return CompiledMCTSPlayer(engines, name=level, seconds=None, iterations=MCTS_ITERATIONS[level], rng=rng)
    return MCTSPlayer(name=level, seconds=None, iterations=MCTS_ITERATIONS[level], rng=rng)


def _compiled_engines(game: Game) -> Engines | None:
    """The compiled engines of a game that declares compiled rules, else None."""
    from gridgames.compiled_rules import rules_of

    if rules_of(game) is None:
        return None
    from gridgames.search.crules.players import engines_for

    return engines_for(game)


class GridGamesGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """A gridgames game as a single-agent Gymnasium environment: against a computer player, or alone in a one-player
    game."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        game_name: str,
        opponent: str = "medium",
        seat: int = 0,
        *,
        render_mode: str | None = None,
        judge: bool = False,
        judge_table_bits: int | None = None,
        reward: str = "outcome",
        **options: Any,
    ) -> None:
        """The game ``game_name`` (with its ``options``), the agent in ``seat``, the computer at level ``opponent``."""
        self.reward = check_reward(reward)
        self.game = load_turn_based(game_name, options)
        players = self.game.info.num_players
        if players not in (1, 2):
            raise OptionError(f"{game_name} has {players} players; gym_env needs a one- or two-player game")
        if seat not in range(players) or isinstance(seat, bool):
            raise OptionError(
                f"seat must be 0 (moves first) or 1, not {seat!r}"
                if players == 2
                else f"seat must be 0 in a one-player game, not {seat!r}"
            )
        if players == 2 and opponent not in levels(self.game):
            raise OptionError(f"unknown opponent {opponent!r} (choose from {', '.join(levels(self.game))})")
        self.opponent_level = opponent
        self.seat = seat
        self.render_mode = check_render_mode(render_mode)
        self._observer = Observer.of(self.game, game_name)
        self.observation_space = self._observer.space()
        self.action_space = spaces.Discrete(self.game.info.num_actions)
        self.judge = Judge(self.game, judge_table_bits) if judge else None
        self.state: State = self.game.new_state()
        self._chance = random.Random(0)
        self._scores = ScoreRewards([0.0] * players)
        self._over = True  # until the first reset
        self.opponent: Player | None = make_opponent(self.game, opponent, random.Random(0)) if players == 2 else None

    def _observation(self) -> dict[str, np.ndarray]:
        return self._observer.observe(self.state, self.seat)

    def _reply(self) -> None:
        """The chance outcomes (drawn from the reset's seed) and the computer's moves until it is the agent's turn or
        the game is over."""
        play_chance(self.state, self._chance)
        while self.opponent is not None and self.state.outcome is None and self.state.current_player != self.seat:
            self.state.play(self.opponent.choose(self.state))
            play_chance(self.state, self._chance)

    def _score_info(self) -> dict[str, Any]:
        return {} if self.judge is None else {"score": self.judge.score(self.state)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game (after ``options["moves"]`` if given), then the computer's moves until the agent's turn; ``seed``
        makes it repeatable."""
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        # apart from the opponent's choices
        self._chance = random.Random(int(self.np_random.integers(2**63)))
        if self.opponent is not None:
            self.opponent = make_opponent(self.game, self.opponent_level, rng)
        self.state = start_state(self.game, options, self._chance)
        self._reply()
        self._scores = ScoreRewards.start(self.state)
        self._over = False
        return self._observation(), self._score_info()

    def step(self, action: int | np.integer[Any]) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play the agent's action and the computer's reply; reward +1 / -1 / 0 when the game ends."""
        if self._over:
            raise gymnasium.error.ResetNeeded("the episode is over (or not started): call reset()")
        # 3.5 is refused, not truncated to 3
        move = check_action(action, self.game.info.num_actions)
        if not self.state.is_legal(move):
            self._over = True
            return self._observation(), ILLEGAL_REWARD, True, False, {"illegal": True}
        self.state.play(move)
        info: dict[str, Any] = {}
        if self.judge is not None:
            info.update(self.judge.judge_last_move(self.state).as_info())
        self._reply()
        outcome = self.state.outcome
        if self.judge is not None:
            info.update(self._score_info())
        if self.reward == "score":
            reward = self._scores.pay(self.state, self.seat)
        else:
            reward = 0.0 if outcome is None else final_reward(outcome, self.seat, self.reward)
        self._over = outcome is not None
        return self._observation(), reward, outcome is not None, False, info

    def render(self) -> str | np.ndarray | None:
        """The position as text (``ansi``) or RGB pixels (``rgb_array``); None without a render mode."""
        return render(
            self.state,
            self.render_mode,
            ["agent" if s == self.seat else "computer" for s in range(self.game.info.num_players)],
        )

    def close(self) -> None:
        """Nothing to release."""


def gym_env(
    game_name: str,
    opponent: str = "medium",
    seat: int = 0,
    *,
    render_mode: str | None = None,
    judge: bool = False,
    judge_table_bits: int | None = None,
    reward: str = "outcome",
    **options: Any,
) -> GridGamesGymEnv:
    """A Gymnasium environment: the agent in ``seat`` of ``game_name`` against the computer at level ``opponent``
    (``reward``: "outcome", "margin" or "score")."""
    return GridGamesGymEnv(
        game_name,
        opponent,
        seat,
        render_mode=render_mode,
        judge=judge,
        judge_table_bits=judge_table_bits,
        reward=reward,
        **options,
    )


def register_envs() -> list[str]:
    """Register ``gridgames/NAME-v0`` with Gymnasium for every installed game (``gymnasium.make`` then builds
    `gym_env`)."""
    from gridgames.registry import default_registry

    ids = []
    for name in default_registry().names():
        env_id = f"gridgames/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="gridgames.rl.gym:GridGamesGymEnv", kwargs={"game_name": name})
        ids.append(env_id)
    return ids
