"""Both learning environments on Hex: PettingZoo's api_test, Gymnasium's check_env, the swap in the action mask."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install 'gridgames[rl]'")
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from gridgames.rl import aec_env, gym_env

EXPECTED_WARNINGS = ("Observation is not a NumPy array", "all zeros", "probably should be gymnasium.spaces.box")


def test_pettingzoo_api_test_passes() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env("hex", size=5), num_cycles=100)
    assert [str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED_WARNINGS)] == []


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env_passes_and_the_swap_is_offered_once() -> None:
    env = aec_env("hex", size=5)
    env.reset(seed=3)
    first = env.observe(env.agent_selection)["action_mask"]
    # Red's first move: any cell, no swap
    assert first.shape == (26,) and first[:25].all() and not first[25]
    env.step(12)  # c3, the centre
    second = env.observe(env.agent_selection)["action_mask"]
    # Blue: the swap or any empty cell
    assert second[25] and not second[12] and int(second.sum()) == 25
    check_env(gym_env("hex", opponent="random", size=5), skip_render_check=True)


def test_a_random_gym_episode_ends_with_a_win_never_a_draw() -> None:
    env = gym_env("hex", opponent="random", size=5)
    rng = np.random.default_rng(7)
    for episode in range(5):
        observation, _ = env.reset(seed=episode)
        reward, done = 0.0, False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            done = terminated or truncated
        assert reward in (1.0, -1.0)  # Hex has no draws
