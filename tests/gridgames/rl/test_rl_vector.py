"""The vector environment: every step checked against the scalar rules, seeding, opponents and the batched judge."""

from __future__ import annotations

import numpy as np
import pytest

REASON = 'the rl extra is not installed: pip install "gridgames[rl]"'
pytest.importorskip("pettingzoo", reason=REASON)
pytest.importorskip("gymnasium", reason=REASON)

from gridgames_connect4.solve.solver import Solver  # noqa: E402
from gridgames_test_support.vector_reference import check_against_rules  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from gridgames.errors import OptionError  # noqa: E402
from gridgames.rl import GenericBackend, JudgeError, gym_env, vector_env  # noqa: E402

BOARDS = [
    {"width": 7, "height": 6, "connect": 4},
    {"width": 4, "height": 4, "connect": 3},  # short games, many lines
    {"width": 4, "height": 4, "connect": 4},  # draws are common
    {"width": 9, "height": 7, "connect": 5},  # past 64 bits
    {"width": 10, "height": 10, "connect": 6},
]


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS, ids=lambda b: "{width}x{height}c{connect}".format(**b))
@pytest.mark.parametrize("seat", [0, 1])
def test_random_steps_follow_the_rules(board: dict[str, int], seat: int) -> None:
    env = vector_env("connect4", num_envs=32, opponent="random", seat=seat, **board)
    seen = check_against_rules(env, 120, np.random.default_rng(seat))
    assert seen["steps"] == 32 * 120
    for kind in ("agent wins", "opponent wins", "autoreset", "illegal"):
        assert seen[kind] > 0, (kind, seen)
    if board["width"] * board["height"] == 16 and board["connect"] == 4:
        assert seen["draw"] > 0, seen


def test_it_is_a_gymnasium_vector_env_with_next_step_autoreset() -> None:
    env = vector_env("connect4", num_envs=3)
    assert isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    single = gym_env("connect4", opponent="random")
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space


def test_seeds_replay_and_differ_between_sub_envs() -> None:
    def play(seed: int) -> list[tuple[int, ...]]:
        env = vector_env("connect4", num_envs=16, opponent="random", seat=1)
        env.reset(seed=seed)
        for _ in range(3):
            env.step(np.full(16, 3))
        return [env.backend.history(i) for i in range(16)]

    first = play(5)
    assert first == play(5)
    assert len(set(first)) > 1
    assert first != play(6)


def test_a_list_of_seeds_seeds_each_sub_env() -> None:
    a = vector_env("connect4", num_envs=2, seat=1)
    b = vector_env("connect4", num_envs=2, seat=1)
    a.reset(seed=[7, 8])
    b.reset(seed=[8, 7])
    assert a.backend.history(0) == b.backend.history(1) and a.backend.history(1) == b.backend.history(0)


def test_reset_mask_resets_only_those_sub_envs() -> None:
    env = vector_env("connect4", num_envs=2)
    env.reset(seed=0)
    env.step(np.array([3, 3]))
    env.reset(options={"reset_mask": np.array([True, False])})
    assert env.backend.history(0) == () and len(env.backend.history(1)) == 2


def test_float_and_out_of_range_actions_are_illegal_not_crashes() -> None:
    env = vector_env("connect4", num_envs=4)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(np.array([3.5, -1, 7, 2.0]))
    assert list(info["illegal"]) == [True, True, True, False]
    assert list(reward[:3]) == [-1, -1, -1] and terminated[:3].all()
    with pytest.raises(OptionError):
        env.step(np.array([1, 2]))


def test_generic_backend_follows_the_rules_on_a_plugin_and_on_connect4() -> None:
    mnk = vector_env("mnk", num_envs=8, opponent="random", compiled=False)  # mnk declares compiled rules too
    assert isinstance(mnk.backend, GenericBackend)
    seen = check_against_rules(mnk, 20, np.random.default_rng(1))
    assert seen["agent wins"] and seen["opponent wins"] and seen["draw"]
    slow = vector_env("connect4", num_envs=4, compiled=False, width=4, height=4, connect=3)
    assert isinstance(slow.backend, GenericBackend)
    assert check_against_rules(slow, 20, np.random.default_rng(2))["agent wins"]


def test_a_plugin_has_no_batched_judge() -> None:
    with pytest.raises(JudgeError):
        vector_env("mnk", num_envs=2, judge=True)


def test_the_perfect_opponent_keeps_the_value() -> None:
    board = {"width": 5, "height": 4, "connect": 4}
    solver = Solver(5, 4, 4, table_bits=18)
    env = vector_env("connect4", num_envs=16, opponent="perfect", seat=1, **board)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(12):
        before = [env.backend.history(i) for i in range(16)]
        actions = (rng.random((16, 5)) * obs["action_mask"]).argmax(axis=1)
        obs, _, _, _, _ = env.step(actions)
        for i in range(16):
            after = env.backend.history(i)
            if len(after) == len(before[i]) + 2:  # the agent's move and the opponent's reply
                scores = solver.analyze(list(after[:-1]))
                best, got = max(s for s in scores if s is not None), scores[after[-1]]
                assert got is not None and (got > 0) == (best > 0) and (got < 0) == (best < 0), after
                assert got == best or best >= 0, after  # lost: the latest loss
                checked += 1
    assert checked > 50


def test_the_judge_scores_moves_as_the_solver_does() -> None:
    solver = Solver(5, 4, 4, table_bits=18)
    env = vector_env("connect4", num_envs=8, opponent="random", judge=True, width=5, height=4)
    obs, info = env.reset(seed=1)
    assert (info["score"] == solver.solve([])).all() and info["_score"].all()
    rng = np.random.default_rng(1)
    best = moves = ends = 0
    for _ in range(30):
        before = [env.backend.history(i) for i in range(8)]
        actions = (rng.random((8, 5)) * obs["action_mask"]).argmax(axis=1)
        obs, _, _, _, info = env.step(actions)
        for i in range(8):
            if not info["_move_score"][i]:
                continue
            scores = solver.analyze(list(before[i]))
            assert info["move_score"][i] == scores[actions[i]]
            assert info["best_score"][i] == max(s for s in scores if s is not None)
            assert info["regret"][i] == info["best_score"][i] - info["move_score"][i] >= 0
            assert info["is_best"][i] == (info["regret"][i] == 0)
            moves += 1
            best += bool(info["is_best"][i])
            if info["_score"][i]:
                assert info["score"][i] == solver.solve(list(env.backend.history(i)))
        if "perfect_move_rate" in info:
            rates = info["perfect_move_rate"][info["_perfect_move_rate"]]
            assert ((rates >= 0) & (rates <= 1)).all()
            ends += len(rates)
    assert moves > 100 and 0 < best < moves and ends > 0


def test_the_judge_past_the_7x6_book_scores_as_the_solver_does() -> None:
    from gridgames_connect4.solve.book import default_book

    book = default_book(7, 6, 4)
    if book is None:
        pytest.skip("no shipped 7x6 book")
    solver = Solver(7, 6, 4, book=book, table_bits=20)
    env = vector_env("connect4", num_envs=3, opponent="perfect", judge=True)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    past = 0
    for _ in range(9):
        actions = (rng.random((3, 7)) * obs["action_mask"]).argmax(axis=1)
        before = [env.backend.history(i) for i in range(3)]
        obs, _, _, _, info = env.step(actions)
        for i in range(3):
            # the move did not end the game
            replied = len(env.backend.history(i)) == len(before[i]) + 2
            # its position is past the book
            if info["_move_score"][i] and replied and len(before[i]) >= 10:
                assert info["move_score"][i] == -solver.solve([*before[i], int(actions[i])])
                assert info["best_score"][i] == solver.solve(list(before[i]))
                past += 1
            if info["_score"][i] and len(env.backend.history(i)) > 10:
                assert info["score"][i] == solver.solve(list(env.backend.history(i)))
    assert past > 0
