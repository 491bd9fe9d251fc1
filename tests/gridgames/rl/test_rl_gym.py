"""The Gymnasium environment: seeded episodes replay, rewards follow the game, opponents and seats."""

from __future__ import annotations

import numpy as np
import pytest

REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'
pytest.importorskip("pettingzoo", reason=REASON)
pytest.importorskip("gymnasium", reason=REASON)

import gymnasium  # noqa: E402

from gridgames.errors import OptionError  # noqa: E402
from gridgames.registry import load_game  # noqa: E402
from gridgames.rl import gym_env  # noqa: E402
from gridgames.rl.gym import GENERIC_LEVELS, levels  # noqa: E402


def episode(env: gymnasium.Env, seed: int, policy_seed: int = 0) -> list[tuple[object, ...]]:
    """Every (observation, reward, terminated, info) of one episode of a seeded random agent."""
    rng = np.random.default_rng(policy_seed)
    observation, info = env.reset(seed=seed)
    seen: list[tuple[object, ...]] = [(observation["observation"].tobytes(), 0.0, False, info)]
    terminated = False
    while not terminated:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        seen.append((observation["observation"].tobytes(), reward, terminated, info))
    return seen


@pytest.mark.parametrize(
    ("name", "opponent", "options"),
    [
        ("connect4", "random", {}),
        ("connect4", "medium", {"width": 5, "height": 4}),
        ("connect4", "hard", {"width": 5, "height": 4}),
        ("mnk", "medium", {"width": 4, "height": 4}),
    ],
)
@pytest.mark.slow
def test_a_seeded_episode_replays_exactly(name: str, opponent: str, options: dict[str, int]) -> None:
    first = episode(gym_env(name, opponent, **options), seed=7)
    again = episode(gym_env(name, opponent, **options), seed=7)
    assert first == again


def test_different_seeds_give_the_random_opponent_different_games() -> None:
    env = gym_env("connect4", "random")
    games = {tuple(step[0] for step in episode(env, seed)) for seed in range(5)}
    assert len(games) > 1


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("seed", range(3))
def test_the_final_reward_is_the_games_outcome_for_the_agents_seat(seat: int, seed: int) -> None:
    env = gym_env("connect4", "easy", seat, width=5, height=4)
    steps = episode(env, seed)
    outcome = env.state.outcome
    assert outcome is not None
    assert steps[-1][1] == outcome.value_for(seat)
    assert all(reward == 0.0 for _, reward, _, _ in steps[:-1])


def test_in_seat_one_the_computer_moves_first() -> None:
    env = gym_env("connect4", "random", seat=1)
    observation, _ = env.reset(seed=0)
    assert len(env.state.history) == 1
    # the computer's disc, in the opponent's plane
    assert observation["observation"][..., 1].sum() == 1
    assert observation["observation"][..., 0].sum() == 0
    assert observation["action_mask"].tolist() == env.state.legal_mask().tolist()


def test_an_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = gym_env("connect4", "random", width=4, height=4)
    env.reset(options={"moves": [0, 1, 0, 1, 0, 0]})  # column 1 is full, the agent (red) to move
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal": True})
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(1)


def test_stepping_after_the_end_asks_for_a_reset() -> None:
    env = gym_env("connect4", "random", width=4, height=4)
    env.reset(options={"moves": [0, 1, 0, 1, 0, 1]})
    env.step(0)  # red's fourth disc in column 1 wins
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(2)


def test_opponents_are_the_games_own_levels_or_the_generic_ones() -> None:
    assert levels(load_game("connect4").make())[:3] == ("random", "easy", "medium")
    assert levels(load_game("mnk").make()) == GENERIC_LEVELS
    with pytest.raises(OptionError, match="random, easy, medium"):
        gym_env("connect4", "grandmaster")
    with pytest.raises(OptionError, match="seat"):
        gym_env("connect4", "random", seat=2)


def test_a_strong_opponent_never_loses_tic_tac_toe_to_a_random_agent() -> None:
    results = [episode(gym_env("mnk", "hard"), seed)[-1][1] for seed in range(5)]
    assert all(result <= 0 for result in results)
