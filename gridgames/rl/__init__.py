"""Learning environments: PettingZoo (AEC) and Gymnasium adapters for every installed turn-based game.

    from gridgames.rl import aec_env, gym_env
    env = aec_env("connect4")                          # two agents, PettingZoo's AEC API
    env = gym_env("connect4", opponent="medium")       # one agent against a computer level
    env = gymnasium.make("gridgames/connect4-v0", opponent="perfect")   # the same, registered

Needs the optional extra: ``pip install "gridgames[rl]"`` (PettingZoo and Gymnasium).
The guide is ``docs/rl.md``.
"""

from __future__ import annotations

from gridgames.errors import MissingExtraError

INSTALL = 'pip install "gridgames[rl]"'


def _missing() -> list[str]:
    """The packages of the rl extra that cannot be imported."""
    missing = []
    for name in ("pettingzoo", "gymnasium"):
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    return missing


if _missing():  # the extra is optional; say how to get it, in one line
    raise MissingExtraError(f"gridgames.rl needs PettingZoo and Gymnasium ({', '.join(_missing())} missing): {INSTALL}")

from gridgames.rl.aec import GridGamesAECEnv, aec_env  # noqa: E402
from gridgames.rl.core import ActionError  # noqa: E402
from gridgames.rl.gym import GridGamesGymEnv, gym_env, register_envs  # noqa: E402
from gridgames.rl.judge import Judge, JudgeError, Judgement  # noqa: E402

register_envs()

__all__ = [
    "INSTALL",
    "ActionError",
    "GridGamesAECEnv",
    "GridGamesGymEnv",
    "Judge",
    "JudgeError",
    "Judgement",
    "aec_env",
    "gym_env",
    "register_envs",
]
