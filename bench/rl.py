"""Benchmark of the learning environments: steps per second of random play, gridgames.rl against PettingZoo.

Usage: python bench/rl.py [--steps N] [--repeat N] [--quick]

Needs the rl extra and pygame (PettingZoo's connect_four_v3 imports it; it is not in the
extra, which has no use for it): ``pip install ".[rl]" pygame``.

Plays random games on 7x6 Connect Four through PettingZoo's AEC API in both
environments -- ``gridgames.rl.aec_env("connect4")`` and ``pettingzoo.classic.connect_four_v3.env()``,
each wrapped the same way (TerminateIllegal, AssertOutOfBounds, OrderEnforcing) -- with
the same policy (a uniformly random legal action from the observation's mask, drawn from
a numpy generator seeded alike) for the same number of steps, each step being
``env.last()`` (observation and mask), the choice and ``env.step(action)``, games
restarting with ``reset()`` when they end. The two alternate for --repeat rounds and the
best round of each counts (other work on the machine only slows a round down). Then the
same for the Gymnasium environment against the random opponent (a step there is the
agent's move and the computer's reply), for reference. The machine's core count, load
average and the versions are printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

import numpy as np


def aec_steps_per_second(make: Callable[[], Any], steps: int, seed: int = 0) -> float:
    """Steps per second of ``steps`` random AEC steps (whole games, restarted as they end)."""
    env = make()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    started = time.perf_counter()
    while done < steps:
        env.reset()
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            action = None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(action)
            done += 1
            if done == steps:
                break
    return steps / (time.perf_counter() - started)


def gym_steps_per_second(steps: int, seed: int = 0) -> float:
    """Steps per second of the Gymnasium environment against the random opponent (random agent)."""
    from gridgames.rl import gym_env

    env = gym_env("connect4", opponent="random")
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    started = time.perf_counter()
    for _ in range(steps):
        observation, _reward, terminated, _truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(observation["action_mask"])))
        )
        if terminated:
            observation, _ = env.reset()
    return steps / (time.perf_counter() - started)


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50_000, help="AEC steps per round (default 50,000)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best of each counts (default 3)")
    parser.add_argument("--quick", action="store_true", help="5,000 steps, one round")
    args = parser.parse_args()
    steps, repeat = (5_000, 1) if args.quick else (args.steps, args.repeat)
    warnings.filterwarnings("ignore", category=DeprecationWarning)  # pettingzoo.classic's old import path

    from pettingzoo.classic import connect_four_v3

    from gridgames.rl import aec_env

    print(
        f"python {platform.python_version()}, {platform.machine()}, cores: {os.cpu_count()}, "
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        "versions: "
        + ", ".join(
            f"{p} {version(p)}"
            for p in ("gridgames", "pettingzoo", "gymnasium", "numpy", "pygame-ce" if _has("pygame-ce") else "pygame")
        )
    )
    print(f"random play on 7x6 Connect Four, AEC API, {steps:,} steps per round, best of {repeat}")
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(repeat):
        ours.append(aec_steps_per_second(lambda: aec_env("connect4"), steps))
        theirs.append(aec_steps_per_second(connect_four_v3.env, steps))
    best_ours, best_theirs = max(ours), max(theirs)
    print(
        f"  gridgames.rl aec_env('connect4'):   {best_ours:>9,.0f} steps/s  (rounds: "
        f"{', '.join(f'{x:,.0f}' for x in ours)})"
    )
    print(
        f"  pettingzoo connect_four_v3.env():   {best_theirs:>9,.0f} steps/s  (rounds: "
        f"{', '.join(f'{x:,.0f}' for x in theirs)})"
    )
    print(f"  ratio ours / connect_four_v3: {best_ours / best_theirs:.2f}x")
    gym = max(gym_steps_per_second(steps // 2) for _ in range(repeat))
    print(f"  gridgames.rl gym_env('connect4', opponent='random'): {gym:,.0f} steps/s (agent move + reply)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    sys.stdout.flush()


def _has(package: str) -> bool:
    try:
        version(package)
    except Exception:
        return False
    return True


if __name__ == "__main__":
    main()
