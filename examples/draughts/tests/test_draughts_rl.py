"""Draughts in both learning environments: PettingZoo's api_test and Gymnasium's check_env."""

from __future__ import annotations

import warnings

import pytest

REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'
pytest.importorskip("pettingzoo", reason=REASON)
pytest.importorskip("gymnasium", reason=REASON)

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from gridgames.rl import aec_env, gym_env  # noqa: E402

EXPECTED_WARNINGS = ("Observation is not a NumPy array", "all zeros", "probably should be gymnasium.spaces.box")
OPTIONS: dict[str, int] = {}


def test_pettingzoo_api_test_passes() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env("draughts", **OPTIONS), num_cycles=300)
    assert [str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED_WARNINGS)] == []


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env_passes() -> None:
    check_env(gym_env("draughts", opponent="easy", **OPTIONS).unwrapped, skip_render_check=True)


def test_the_observation_has_a_plane_of_kings_and_the_mask_the_forced_capture() -> None:
    from gridgames_draughts import DraughtsGame

    game = DraughtsGame()
    env = aec_env("draughts")
    env.reset(seed=0)
    for move in ("11-15", "22-18"):
        env.step(game.parse_move(move))
    observation = env.observe("player_0")
    assert observation["observation"].shape[-1] >= 3
    assert observation["action_mask"].nonzero()[0].tolist() == [game.parse_move("15x22")]
