"""The learning environments refuse what is not an action (issue 38): no truncation, no assert, no IndexError.

``step(3.5)`` played column 3; an out-of-range AEC action was an AssertionError (an IndexError under ``python -O``).
Both environments now raise `ActionError` (a ValueError) for a non-integer or out-of-range action, under ``-O`` too.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gridgames.rl import ActionError, aec_env, gym_env

NOT_ACTIONS = [3.5, 3.0, "3", None, True, np.float64(2.0), np.array([3]), -1, 7, 10**30, np.int64(99)]


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_gym_step_refuses_what_is_not_an_action(action: object) -> None:
    env = gym_env("connect4", opponent="random")
    env.reset(seed=0)
    with pytest.raises(ActionError):
        env.step(action)  # type: ignore[arg-type]
    # the episode goes on: nothing was played
    observation, reward, terminated, truncated, _ = env.step(np.int64(3))
    assert observation["observation"][:, 3].sum() >= 1 and not truncated


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_aec_step_refuses_what_is_not_an_action(action: object) -> None:
    env = aec_env("connect4")
    env.reset(seed=0)
    with pytest.raises(ActionError):
        env.step(action)
    env.step(3)  # nothing was played before
    assert env.agent_selection == "player_1"


def test_numpy_integers_and_0d_arrays_are_actions() -> None:
    env = aec_env("connect4")
    env.reset(seed=1)
    env.step(np.int32(3))
    env.step(np.array(4))
    assert env.agent_selection == "player_0"


def test_a_step_after_the_end_needs_a_reset() -> None:
    import gymnasium

    env = gym_env("connect4", opponent="random")
    env.reset(seed=0)
    env.step(0)
    for _ in range(5):
        env.step(0)  # the sixth disc fills column 0 ... then an illegal move ends the episode
    with pytest.raises(gymnasium.error.ResetNeeded):
        for _ in range(50):
            env.step(0)


def test_an_illegal_action_in_range_still_ends_the_game_with_minus_one() -> None:
    env = aec_env("connect4")
    env.reset(seed=0, options={"moves": [0, 0, 0, 0, 0, 0]})  # column 0 full
    env.step(0)
    assert env.rewards["player_0"] == -1 and all(env.terminations.values())


@pytest.mark.parametrize("seed", [0, 2**32 - 1, 2**63, None])
def test_odd_seeds(seed: int | None) -> None:
    env = gym_env("connect4", opponent="random")
    env.reset(seed=seed)
    aec = aec_env("connect4")
    aec.reset(seed=seed)


@pytest.mark.slow
def test_out_of_range_is_refused_under_python_O() -> None:
    code = (
        "from gridgames.rl import aec_env, ActionError\nenv = aec_env('connect4'); env.reset(seed=0)\n"
        "try:\n    env.step(99)\nexcept ActionError:\n    print('refused')\n"
    )
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "refused", out.stderr[-500:]
