"""Go in both learning environments: PettingZoo's api_test and Gymnasium's check_env."""

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
OPTIONS: dict[str, int] = {"size": 5}


def test_pettingzoo_api_test_passes() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env("go", **OPTIONS), num_cycles=300)
    assert [str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED_WARNINGS)] == []


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env_passes() -> None:
    check_env(gym_env("go", opponent="easy", **OPTIONS).unwrapped, skip_render_check=True)


def test_the_pass_is_in_the_mask_at_every_turn_and_two_passes_end_the_episode() -> None:
    env = aec_env("go", size=5)
    env.reset(seed=0)
    mask = env.observe("player_0")["action_mask"]
    assert mask.sum() == 26 and mask[25] == 1
    env.step(25)
    assert env.observe("player_1")["action_mask"][25] == 1
    env.step(25)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1, "player_1": 1}  # the empty board: White's komi wins
