"""The AEC environment: masks, observations and rewards follow the game; illegal actions; rendering."""

from __future__ import annotations

import functools
import importlib
import sys
import types

import numpy as np
import pytest
from hypothesis import given, settings

REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'
pytest.importorskip("pettingzoo", reason=REASON)
pytest.importorskip("gymnasium", reason=REASON)

from gridgames_connect4 import Connect4  # noqa: E402
from gridgames_test_support.strategies import connect4_playouts, mnk_playouts  # noqa: E402

from gridgames.errors import IllegalMoveError, OptionError, UnknownGameError  # noqa: E402
from gridgames.registry import load_game  # noqa: E402
from gridgames.rl import GridGamesAECEnv, aec_env  # noqa: E402
from gridgames.rl.core import EnvironmentSetupError, rgb  # noqa: E402


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(connect4_playouts(max_width=7, max_height=6))
def test_masks_observations_and_rewards_follow_connect_four(playout: tuple) -> None:
    game, moves = playout
    check_follows(("connect4", {"width": game.width, "height": game.height, "connect": game.connect}), moves)


@settings(max_examples=40, deadline=None)
@given(mnk_playouts())
def test_masks_observations_and_rewards_follow_the_mnk_game(playout: tuple) -> None:
    options, moves = playout
    check_follows(("mnk", options), moves)


def check_follows(game_and_options: tuple[str, dict[str, int]], moves: list[int]) -> None:
    """Play ``moves`` in the environment and in the game side by side; every observation, mask and reward agrees."""
    name, options = game_and_options
    game = load_game(name).make(**options)
    env = aec_env(name, **options)
    env.reset(seed=0)
    state = game.new_state()
    for move in moves:
        agent = env.agent_selection
        seat = int(agent.removeprefix("player_"))
        assert seat == state.current_player
        observation, reward, terminated, truncated, _ = env.last()
        assert (reward, terminated, truncated) == (0, False, False)
        legal = np.zeros(game.info.num_actions, dtype=np.int8)
        legal[list(state.legal_moves())] = 1
        assert observation["action_mask"].tolist() == legal.tolist()
        cells = state.board().cells
        assert observation["observation"][..., 0].tolist() == (cells == seat + 1).astype(int).tolist()
        assert observation["observation"][..., 1].tolist() == (cells == 2 - seat).astype(int).tolist()
        other = env.possible_agents[1 - seat]
        assert env.observe(other)["action_mask"].sum() == 0  # not its turn
        env.step(move)
        state.play(move)
    outcome = state.outcome
    for agent in env.possible_agents:
        seat = int(agent.removeprefix("player_"))
        assert env.terminations[agent] is (outcome is not None)
        assert env._cumulative_rewards[agent] == (0 if outcome is None else outcome.value_for(seat))
    if outcome is not None:
        assert env.observe(env.possible_agents[0])["action_mask"].sum() == 0


def test_a_win_rewards_the_winner_and_punishes_the_loser() -> None:
    env = aec_env("connect4")
    env.reset()
    for move in [0, 1, 0, 1, 0, 1, 0]:  # red drops four in column 1
        env.step(move)
    assert env.rewards == {"player_0": 1, "player_1": -1}
    assert all(env.terminations.values())


def test_an_illegal_action_ends_the_game_with_minus_one_for_its_player_only(caplog: pytest.LogCaptureFixture) -> None:
    env = aec_env("connect4", width=4, height=4)
    env.reset()
    for move in [0, 0, 0, 0]:  # column 1 is full
        env.step(move)
    env.step(0)
    assert "Illegal move" in caplog.text
    assert env._cumulative_rewards == {"player_0": -1, "player_1": 0}
    assert all(env.terminations.values())


def test_the_unwrapped_environment_raises_the_games_error_on_an_illegal_action() -> None:
    env = GridGamesAECEnv("connect4", width=4, height=4)
    env.reset()
    for move in [0, 0, 0, 0]:
        env.step(move)
    with pytest.raises(IllegalMoveError, match="full"):
        env.step(0)


def test_reset_can_start_from_opening_moves() -> None:
    env = aec_env("connect4")
    env.reset(options={"moves": [3, 3, 2]})
    assert env.agent_selection == "player_1"
    assert env.unwrapped.state.history == (3, 3, 2)
    with pytest.raises(EnvironmentSetupError, match="end the game"):
        env.reset(options={"moves": [0, 1, 0, 1, 0, 1, 0]})


def test_ansi_rendering_is_the_games_picture_and_who_is_to_move() -> None:
    env = aec_env("connect4", render_mode="ansi")
    env.reset()
    env.step(3)
    text = env.render()
    assert text.startswith(env.unwrapped.state.to_text() + "\n")
    assert "player_1 to move" in text


def test_rgb_rendering_draws_each_players_discs_in_their_colour() -> None:
    env = aec_env("connect4", render_mode="rgb_array")
    env.reset()
    env.step(0)  # red, bottom left
    env.step(6)  # yellow, bottom right
    picture = env.render()
    cell = picture.shape[1] // 7
    assert picture.shape == (6 * cell, 7 * cell, 3) and picture.dtype == np.uint8
    centre = lambda row, column: tuple(picture[row * cell + cell // 2, column * cell + cell // 2])  # noqa: E731
    corner = tuple(picture[0, 0])
    # red, yellow, empty, the board
    assert len({centre(5, 0), centre(5, 6), centre(0, 0), corner}) == 4


def test_rgb_pictures_differ_exactly_where_the_boards_do() -> None:
    game = load_game("connect4").make()
    before, after = game.from_notation("44"), game.from_notation("443")
    changed = np.argwhere((rgb(before.board(), cell=8) != rgb(after.board(), cell=8)).any(axis=2))
    assert {(r // 8, c // 8) for r, c in changed} == {(5, 2)}


def test_environment_errors_name_the_problem() -> None:
    with pytest.raises(EnvironmentSetupError, match="turn-based"):
        aec_env("pentomino")
    with pytest.raises(UnknownGameError):
        aec_env("no-such-game")
    with pytest.raises(OptionError):
        aec_env("connect4", colour="blue")
    with pytest.raises(EnvironmentSetupError, match="render_mode"):
        aec_env("connect4", render_mode="human")


@functools.cache
def pettingzoos_connect_four() -> types.ModuleType:
    """PettingZoo's connect_four_v3 module; without pygame (used only to draw) a stand-in lets it import."""
    name = "pettingzoo.classic.connect_four.connect_four"
    try:
        return importlib.import_module(name)
    except ImportError as error:
        if error.name != "pygame":
            raise
    saved = sys.modules.get("pygame")
    sys.modules["pygame"] = types.ModuleType("pygame")
    try:
        return importlib.import_module(name)
    finally:
        if saved is None:
            del sys.modules["pygame"]
        else:
            sys.modules["pygame"] = saved


@settings(max_examples=20, deadline=None)
@given(connect4_playouts(game=Connect4()))
def test_on_7x6_the_observations_are_those_of_pettingzoos_connect_four(playout: tuple) -> None:
    connect_four = pettingzoos_connect_four()
    _, moves = playout
    ours, theirs = aec_env("connect4"), connect_four.env()
    ours.reset()
    theirs.reset()
    for move in moves:
        for agent in ours.possible_agents:
            mine, other = ours.observe(agent), theirs.observe(agent)
            assert mine["observation"].tolist() == other["observation"].tolist()
            assert mine["action_mask"].tolist() == other["action_mask"].tolist()
        ours.step(move)
        theirs.step(move)
    assert ours.rewards == theirs.rewards and ours.terminations == theirs.terminations
