"""The vector environment played against the scalar rules: every sub-env's step replayed on a `State`.

`check_against_rules` steps a `gridgames.rl.GridGamesVectorEnv` with random actions (mostly legal, now and then
illegal) and, for every sub-env and step, replays the agent's action and the opponent's reply (read from the
backend's history) on the game's own `State`, then asserts: the step ends exactly when the rules end the game,
the reward has the sign of the rules' outcome for the agent (+1 its line, -1 the opponent's or an illegal action,
0 a draw or nothing), a draw only on an outcome without a winner, the observation and mask equal
`Observer.observe` of the reference state, and an autoreset returns a new game's first observation with reward 0.
Used by tests/gridgames/rl/test_rl_vector.py (fast) and bench/rl.py --check (a million steps).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from gridgames.game import State
from gridgames.rl.core import Observer


def _replay(game: Any, moves: tuple[int, ...]) -> State:
    state = game.new_state()
    for m in moves:
        state.play(m)
    return state


def _random_actions(mask: np.ndarray, rng: np.random.Generator, illegal_rate: float) -> np.ndarray:
    """A random legal action per row of ``mask`` (a random integer, maybe illegal, with ``illegal_rate``)."""
    n, a = mask.shape
    noise = rng.random((n, a)) * mask
    actions = noise.argmax(axis=1)
    wild = rng.random(n) < illegal_rate
    actions[wild] = rng.integers(-1, a + 1, size=int(wild.sum()))
    return actions.astype(np.int64)


def check_against_rules(env: Any, steps: int, rng: np.random.Generator, illegal_rate: float = 0.01) -> Counter[str]:
    """Step ``env`` ``steps`` times, checking every sub-env against the rules; the counts of each kind of ending."""
    game, seat, n = env.game, env.seat, env.num_envs
    observer = Observer.of(game, "reference")
    backend = env.backend
    seen: Counter[str] = Counter()

    def check_observation(obs: dict[str, np.ndarray], i: int, state: State) -> None:
        expected = observer.observe(state, seat)
        assert np.array_equal(obs["observation"][i], expected["observation"]), (
            f"env {i}: planes differ after {state.history}"
        )
        assert np.array_equal(obs["action_mask"][i], expected["action_mask"]), (
            f"env {i}: mask differs after {state.history}"
        )

    def fresh(i: int) -> State:
        history = backend.history(i)
        assert len(history) == (1 if seat == 1 else 0), f"env {i}: a new game starts with {history}"
        state = _replay(game, history)
        assert state.outcome is None and state.current_player == seat
        return state

    obs, _ = env.reset(seed=int(rng.integers(1 << 30)))
    refs = [fresh(i) for i in range(n)]
    for i in range(n):
        check_observation(obs, i, refs[i])
    ended = np.zeros(n, np.bool_)
    for _ in range(steps):
        actions = _random_actions(obs["action_mask"], rng, illegal_rate)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        illegal = info.get("illegal", np.zeros(n, np.bool_))
        for i in range(n):
            if ended[i]:  # NEXT_STEP autoreset: the action is ignored
                assert reward[i] == 0 and not terminated[i] and not illegal[i]
                refs[i] = fresh(i)
                seen["autoreset"] += 1
                check_observation(obs, i, refs[i])
                continue
            state, action = refs[i], int(actions[i])
            if not state.is_legal(action):
                assert illegal[i] and terminated[i] and reward[i] == -1, f"env {i}: illegal {action} not refused"
                assert backend.history(i) == state.history
                seen["illegal"] += 1
                check_observation(obs, i, state)
                continue
            assert not illegal[i]
            state.play(action)
            if state.outcome is None and game.info.num_players == 2:
                history = backend.history(i)
                assert history[: len(state.history)] == state.history and len(history) == len(state.history) + 1
                state.play(history[-1])  # the opponent's reply must be legal
            assert backend.history(i) == state.history
            outcome = state.outcome
            assert bool(terminated[i]) == (outcome is not None), (
                f"env {i}: terminated {terminated[i]} after {state.history}"
            )
            if outcome is None:
                assert reward[i] == 0
            elif outcome.winner is None:
                assert reward[i] == 0
                seen["draw"] += 1
            elif outcome.winner == seat:
                assert reward[i] == 1
                seen["agent wins"] += 1
            else:
                assert reward[i] == -1
                seen["opponent wins"] += 1
            check_observation(obs, i, state)
        ended = terminated.copy()
        seen["steps"] += n
    return seen
