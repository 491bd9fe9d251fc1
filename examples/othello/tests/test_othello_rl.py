"""Othello in both learning environments: PettingZoo's api_test, Gymnasium's check_env, and the two kinds of reward."""

from __future__ import annotations

import warnings

import pytest

REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'
pytest.importorskip("pettingzoo", reason=REASON)
pytest.importorskip("gymnasium", reason=REASON)

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from gridgames.errors import OptionError  # noqa: E402
from gridgames.rl import aec_env, gym_env  # noqa: E402

from gridgames_othello import OthelloGame  # noqa: E402

EXPECTED_WARNINGS = ("Observation is not a NumPy array", "all zeros", "probably should be gymnasium.spaces.box")
# 4x4, Black wins 11-5
GAME = ["c4", "d2", "a1", "a2", "a3", "d4", "c1", "b4", "d3", "b1", "d1", "pass", "a4"]


@pytest.mark.parametrize("reward", ["outcome", "margin"])
@pytest.mark.parametrize("size", [4, 8])
def test_pettingzoo_api_test_passes(size: int, reward: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env("othello", size=size, reward=reward), num_cycles=300)
    assert [str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED_WARNINGS)] == []


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("reward", ["outcome", "margin"])
def test_gymnasium_check_env_passes(reward: str) -> None:
    check_env(gym_env("othello", opponent="easy", size=6, reward=reward).unwrapped, skip_render_check=True)


def _final_rewards(reward: str) -> dict[str, float]:
    game = OthelloGame(4)
    env = aec_env("othello", size=4, reward=reward)
    env.reset(seed=0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for move in GAME:
        env.step(game.parse_move(move))
        for agent in env.possible_agents:
            totals[agent] += env.rewards.get(agent, 0)
    assert all(env.terminations.values())
    return totals


def test_the_aec_rewards_are_the_outcome_or_the_margin() -> None:
    assert _final_rewards("outcome") == {"player_0": 1, "player_1": -1}
    assert _final_rewards("margin") == {"player_0": 6.0, "player_1": -6.0}


def test_the_gym_reward_is_the_margin_when_asked() -> None:
    game = OthelloGame(4)
    env = gym_env("othello", opponent="random", size=4, reward="margin")
    env.reset(seed=1, options={"moves": [game.parse_move(m) for m in GAME[:-1]]})
    _, reward, terminated, _, _ = env.step(game.parse_move("a4"))
    assert terminated and reward == 6.0
    env = gym_env("othello", opponent="random", size=4)
    env.reset(seed=1, options={"moves": [game.parse_move(m) for m in GAME[:-1]]})
    assert env.step(game.parse_move("a4"))[1] == 1.0


def test_an_unknown_reward_is_refused() -> None:
    with pytest.raises(OptionError, match="unknown reward 'points'"):
        aec_env("othello", reward="points")
    with pytest.raises(OptionError, match="unknown reward 'points'"):
        gym_env("othello", reward="points")


def test_the_text_render_shows_the_scores() -> None:
    game = OthelloGame(4)
    env = aec_env("othello", size=4, render_mode="ansi")
    env.reset(options={"moves": [game.parse_move(m) for m in GAME[:-1]]})
    env.step(game.parse_move("a4"))
    assert env.render().splitlines()[-1] == "player_0 wins 11-5: the board is full"
