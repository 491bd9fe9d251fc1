"""Both learning environments on Golomb's game: PettingZoo's api_test and Gymnasium's check_env, planes of the unused
pieces."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install 'gridgames[rl]'")
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from gridgames.rl import aec_env, gym_env

EXPECTED_WARNINGS = ("Observation is not a NumPy array", "all zeros", "probably should be gymnasium.spaces.box")


def test_pettingzoo_api_test_passes() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env("golomb", width=6, height=6), num_cycles=100)
    assert [str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED_WARNINGS)] == []


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env_passes_and_the_observation_shows_the_unused_pieces() -> None:
    env = gym_env("golomb", opponent="random", width=6, height=6)
    check_env(env.unwrapped if hasattr(env, "unwrapped") else env, skip_render_check=True)
    observation, _ = env.reset(seed=1)
    assert observation["observation"].shape == (6, 6, 14) and observation["observation"][..., 2:].all()
    assert observation["action_mask"].all()  # seat 0 on the empty board: every placement is legal
