"""PettingZoo's api_test and Gymnasium's check_env pass on gridgames' environments."""

from __future__ import annotations

import warnings

import pytest

REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'
pytest.importorskip("pettingzoo", reason=REASON)
pytest.importorskip("gymnasium", reason=REASON)

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from gridgames.rl import aec_env, gym_env  # noqa: E402

# api_test warns about every dict observation of an environment whose name is not on its own list of
# PettingZoo's classic games, and about the empty board's all-zero planes: neither is a failure.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "all zeros", "probably should be gymnasium.spaces.box")

BOARDS = [
    pytest.param("connect4", {}, id="connect4-7x6"),
    pytest.param("connect4", {"width": 9, "height": 7, "connect": 5}, id="connect4-9x7-connect5"),
    pytest.param("mnk", {}, id="mnk-3x3"),
    pytest.param("mnk", {"width": 6, "height": 5, "k": 4}, id="mnk-6x5-k4"),
]


@pytest.mark.parametrize(("name", "options"), BOARDS)
def test_pettingzoo_api_test_passes_on_the_aec_environment(name: str, options: dict[str, int]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec_env(name, **options), num_cycles=200)
    unexpected = [str(w.message) for w in caught if not any(e in str(w.message) for e in EXPECTED_WARNINGS)]
    assert unexpected == []


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("render_mode", ["ansi", "rgb_array"])
def test_pettingzoo_api_test_passes_with_a_render_mode(render_mode: str) -> None:
    env = aec_env("connect4", render_mode=render_mode)
    api_test(env, num_cycles=50)
    assert env.render() is not None


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: aec_env("connect4", width=5, height=4), num_cycles=50)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        pytest.param("connect4", {"opponent": "random"}, id="connect4-random"),
        pytest.param("connect4", {"opponent": "easy", "seat": 1}, id="connect4-easy-seat1"),
        pytest.param(
            "connect4", {"opponent": "medium", "width": 9, "height": 7, "connect": 5}, id="connect4-9x7-medium"
        ),
        pytest.param("mnk", {"opponent": "medium"}, id="mnk-medium"),
        pytest.param("mnk", {"opponent": "hard", "seat": 1}, id="mnk-hard-seat1"),
    ],
)
@pytest.mark.slow
def test_gymnasium_check_env_passes(name: str, options: dict[str, object]) -> None:
    check_env(gym_env(name, **options), skip_render_check=True)


@pytest.mark.parametrize("name", ["connect4", "mnk"])
def test_gymnasium_check_env_passes_on_the_registered_environment_with_every_render_mode(name: str) -> None:
    env = gymnasium.make(f"gridgames/{name}-v0", opponent="easy", render_mode="ansi")
    check_env(env.unwrapped)  # its spec lets check_env make it in every declared render mode
