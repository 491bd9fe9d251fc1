"""vector_env on compiled rules (gridgames.rl.compiled_vector): the observations, masks, rewards and ends equal the
single environment's view of the same games (each sub-env's game rebuilt from its history), on many random steps."""

from __future__ import annotations

import numpy as np
import pytest

from gridgames.rl.compiled_vector import CompiledBackend
from gridgames.rl.core import Observer
from gridgames.rl.vector import GenericBackend, vector_env

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize(
    ("name", "options", "seat"), [("othello", {"size": 6}, 0), ("hex", {"size": 5}, 1), ("mnk", {}, 1)]
)
def test_observations_equal_the_single_environments(name: str, options: dict[str, int], seat: int) -> None:
    env = vector_env(name, num_envs=6, seat=seat, **options)
    assert isinstance(env.backend, CompiledBackend)
    game = env.game
    observer = Observer.of(game, name)
    rng = np.random.default_rng(7)
    observations, _ = env.reset(seed=3)
    ended = np.zeros(6, np.bool_)
    episodes = 0
    for step in range(400):
        actions = np.array(
            [
                rng.choice(np.flatnonzero(mask)) if mask.any() and rng.random() > 0.02 else rng.integers(-1, 50)
                for mask in observations["action_mask"]
            ]
        )
        observations, reward, terminated, _, info = env.step(actions)
        for i in range(6):
            state = game.from_moves(env.backend.history(i))
            # the step after an end starts a new game: at most the opponent's first move
            if ended[i]:
                assert len(state.history) == seat
            seen = observer.observe(state, seat)
            assert np.array_equal(observations["observation"][i], seen["observation"]), (step, i)
            assert np.array_equal(observations["action_mask"][i], seen["action_mask"]), (step, i)
            if terminated[i] and not info.get("illegal", np.zeros(6, bool))[i]:
                outcome = state.outcome
                assert outcome is not None
                expected = 0.0 if outcome.winner is None else (1.0 if outcome.winner == seat else -1.0)
                assert reward[i] == expected
                episodes += 1
        ended = terminated.copy()
    assert episodes >= 6


def test_other_opponents_and_compiled_false_keep_the_generic_backend() -> None:
    assert isinstance(vector_env("hex", num_envs=2, opponent="easy").backend, GenericBackend)
    assert isinstance(vector_env("hex", num_envs=2, compiled=False).backend, GenericBackend)
