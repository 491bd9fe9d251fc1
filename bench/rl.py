"""Benchmark of the learning environments: steps per second of random play, gridgames.rl against PettingZoo.

Usage: python bench/rl.py [--steps N] [--repeat N] [--quick]
       python bench/rl.py --vector [--peers PYTHON] [--repeat N] [--quick]
       python bench/rl.py --check STEPS

--vector: the vector environment (``vector_env("connect4", num_envs=4096)``) against EnvPool's
``ConnectFour-v1``, pgx's ``connect_four`` (jax on CPU, jit-compiled, the same batch) and OpenSpiel's
``connect_four`` (run by ``--peers``, a Python with those installed: they stay out of our venv), and
against today's single Gymnasium env; then against ``medium`` and ``perfect``, and the batched judge.
Each figure comes from its own process; the processes alternate for --repeat rounds, medians count.
--check STEPS: the correctness check of tests/gridgames/rl/test_rl_vector.py at scale: STEPS random
vectorised steps (1,024 sub-envs) each replayed on the scalar rules.

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
import json
import os
import platform
import statistics
import subprocess
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
    parser.add_argument("--vector", action="store_true", help="the vector environment against EnvPool, pgx, OpenSpiel")
    parser.add_argument("--peers", default=sys.executable, help="the Python that has envpool, pgx and open_spiel")
    parser.add_argument("--check", type=int, default=0, metavar="STEPS", help="replay STEPS vector steps on the rules")
    parser.add_argument("--worker", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(WORKERS[args.worker](args.quick)))
        return
    if args.check:
        check(args.check)
        return
    if args.vector:
        vector_main(args.peers, 1 if args.quick else args.repeat, args.quick)
        return
    steps, repeat = (5_000, 1) if args.quick else (args.steps, args.repeat)
    # pettingzoo.classic's old import path
    warnings.filterwarnings("ignore", category=DeprecationWarning)

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


NUM_ENVS = 4096


def _masked_random(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal column per row of ``mask`` (the same numpy policy for every batched env)."""
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def _timed(step: Callable[[], int], seconds: float) -> float:
    """Calls ``step`` (which returns the env steps it made) for about ``seconds``; steps per second."""
    step()  # warm up (compilation, first resets)
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        done += step()
    return done / (time.perf_counter() - started)


def work_vector(quick: bool, opponent: str = "random", num_envs: int = NUM_ENVS) -> dict[str, float]:
    """Ours: vector_env("connect4", num_envs) against ``opponent``, random masked actions; a step is a move and a
    reply."""
    from gridgames.rl import vector_env

    env = vector_env("connect4", num_envs=num_envs, opponent=opponent)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)

    def step() -> int:
        nonlocal obs
        obs, *_ = env.step(_masked_random(rng, obs["action_mask"]))
        return num_envs

    return {"steps_per_s": _timed(step, 1.0 if quick else 4.0)}


def work_single(quick: bool) -> dict[str, float]:
    """Today's single Gymnasium env against random (a step is a move and a reply)."""
    return {"steps_per_s": gym_steps_per_second(3_000 if quick else 20_000)}


def work_envpool(quick: bool) -> dict[str, float]:
    """EnvPool's ConnectFour-v1, num_envs envs on one thread; a step is one ply (its two players alternate)."""
    import envpool

    env = envpool.make("ConnectFour-v1", env_type="gymnasium", num_envs=NUM_ENVS, num_threads=1)
    rng = np.random.default_rng(0)
    _, info = env.reset()
    mask = info["legal_action_mask"]

    def step() -> int:
        nonlocal mask
        *_, info = env.step(_masked_random(rng, mask))
        mask = info["legal_action_mask"]
        return NUM_ENVS

    return {"steps_per_s": _timed(step, 1.0 if quick else 4.0)}


def work_pgx(quick: bool) -> dict[str, float]:
    """pgx connect_four, jax on CPU: vmapped, auto-reset step with a masked random action, jit-compiled; one ply a
    step."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make("connect_four")
    init = jax.jit(jax.vmap(env.init))
    step_fn = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def play(state: Any, key: Any) -> Any:
        key_action, key_reset = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(key_action, logits, axis=-1)
        return step_fn(state, action, jax.random.split(key_reset, NUM_ENVS))

    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, NUM_ENVS))

    def step() -> int:
        nonlocal state, key
        key, sub = jax.random.split(key)
        state = play(state, sub)
        state.terminated.block_until_ready()
        return NUM_ENVS

    return {"steps_per_s": _timed(step, 1.0 if quick else 4.0)}


def work_openspiel(quick: bool) -> dict[str, float]:
    """OpenSpiel's connect_four, one game at a time in Python (its C++ state), random legal actions; one ply a step."""
    import random

    import pyspiel

    game = pyspiel.load_game("connect_four")
    rng = random.Random(0)
    state = game.new_initial_state()

    def step() -> int:
        nonlocal state
        for _ in range(1000):
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(rng.choice(state.legal_actions()))
        return 1000

    return {"steps_per_s": _timed(step, 1.0 if quick else 4.0)}


def work_medium(quick: bool) -> dict[str, float]:
    """Ours against medium (the game's 6-ply search per env, in Python), 32 envs."""
    return work_vector(quick, "medium", 32)


def work_perfect(quick: bool) -> dict[str, float]:
    """Ours against perfect (book, then null windows on the children past it), 256 envs, a random agent: 12 steps
    to warm up (every env's first position past the book, the solver's compiled code loaded), then 40 timed
    steps; per wall-clock second and per CPU second of the process (the machine's load slows only the first)."""
    from gridgames.rl import vector_env

    num_envs = 256
    env = vector_env("connect4", num_envs=num_envs, opponent="perfect")
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    for _ in range(12):
        obs, *_ = env.step(_masked_random(rng, obs["action_mask"]))
    steps = 10 if quick else 40
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        obs, *_ = env.step(_masked_random(rng, obs["action_mask"]))
    done, wall, cpu = steps * num_envs, time.perf_counter() - started, time.process_time() - cpu
    return {"steps_per_s": done / wall, "steps_per_cpu_s": done / cpu}


def work_judge(quick: bool) -> dict[str, float]:
    """The batched judge: reset times (1 and 4,096 envs; the first includes reading the book), positions judged
    per second in random play against random (64 envs, 30 steps: the position faced and the move's, each counted;
    the book answers up to 10 discs, the solver after), and the single env's judged resets (its first loads the
    solver's compiled code)."""
    from gridgames.rl import gym_env, vector_env

    out: dict[str, float] = {}
    started = time.perf_counter()
    single = gym_env("connect4", opponent="perfect", judge=True)
    single.reset(seed=0)
    out["single_first_reset_s"] = time.perf_counter() - started
    started = time.perf_counter()
    single.reset(seed=1)
    out["single_reset_s"] = time.perf_counter() - started
    for n in (1, NUM_ENVS):
        env = vector_env("connect4", num_envs=n, judge=True)
        started = time.perf_counter()
        env.reset(seed=0)
        out[f"vector_reset_{n}_s"] = time.perf_counter() - started
    env = vector_env("connect4", num_envs=64, judge=True)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    judged, started, cpu = 0, time.perf_counter(), time.process_time()
    for _ in range(10 if quick else 30):
        obs, _r, _t, _tr, info = env.step(_masked_random(rng, obs["action_mask"]))
        judged += int(info["_score"].sum()) + int(info["_move_score"].sum())
    out["positions_per_s"] = judged / (time.perf_counter() - started)
    out["positions_per_cpu_s"] = judged / (time.process_time() - cpu)
    return out


WORKERS: dict[str, Callable[[bool], dict[str, float]]] = {
    "vector": work_vector,
    "single": work_single,
    "envpool": work_envpool,
    "pgx": work_pgx,
    "openspiel": work_openspiel,
    "medium": work_medium,
    "perfect": work_perfect,
    "judge": work_judge,
}
PEERS = ("envpool", "pgx", "openspiel")


def _run(python: str, name: str, quick: bool) -> dict[str, float] | str:
    """One worker in its own process: its figures, or the last line of its error."""
    command = [python, __file__, "--worker", name] + (["--quick"] if quick else [])
    env = {
        **os.environ,
        "JAX_PLATFORMS": "cpu",
        "OMP_NUM_THREADS": "1",
        "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
    }
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        return (done.stderr.strip().splitlines() or ["failed"])[-1]
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def vector_main(peers: str, repeat: int, quick: bool) -> None:
    """Alternate ours and the peers' processes for ``repeat`` rounds; print medians and ratios."""
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"python {platform.python_version()}, cores: {os.cpu_count()}, load average before: {load}")
    print(
        f"random play on 7x6 Connect Four with masks, {NUM_ENVS:,} envs, one core each, {repeat} alternating rounds, "
        "medians"
    )
    figures: dict[str, list[float]] = {}
    errors: dict[str, str] = {}
    for _ in range(repeat):
        for name in ("vector", *PEERS, "single"):
            result = _run(peers if name in PEERS else sys.executable, name, quick)
            if isinstance(result, str):
                errors[name] = result
            else:
                figures.setdefault(name, []).append(result["steps_per_s"])
    median = {name: statistics.median(values) for name, values in figures.items()}
    labels = {
        "vector": "gridgames vector_env (move + random reply)",
        "envpool": "EnvPool ConnectFour-v1 (one ply)",
        "pgx": "pgx connect_four, jit (one ply)",
        "openspiel": "OpenSpiel connect_four (one ply)",
        "single": "gridgames gym_env today (move + reply)",
    }
    for name, label in labels.items():
        if name in median:
            ratio = (
                f"  ours / this: {median['vector'] / median[name]:.1f}x"
                if "vector" in median and name != "vector"
                else ""
            )
            print(f"  {label:<46} {median[name]:>12,.0f} steps/s{ratio}")
        elif name in errors:
            print(f"  {label:<46} failed: {errors[name]}")
    for name in ("medium", "perfect"):
        result = _run(sys.executable, name, quick)
        if isinstance(result, str):
            print(f"  against {name}: {result}")
            continue
        cpu = f", {result['steps_per_cpu_s']:,.0f} per CPU second" if "steps_per_cpu_s" in result else ""
        print(f"  against {name}: {result['steps_per_s']:,.0f} steps/s{cpu}")
    judge = _run(sys.executable, "judge", quick)
    print("  judge: " + (judge if isinstance(judge, str) else ", ".join(f"{k} {v:,.4g}" for k, v in judge.items())))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def check(steps: int) -> None:
    """Replay ``steps`` random vectorised steps (1,024 sub-envs, both seats, two boards) on the scalar rules."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "support"))
    from gridgames_test_support.vector_reference import check_against_rules

    from gridgames.rl import vector_env

    started = time.perf_counter()
    total: dict[str, int] = {}
    runs = [({"seat": 0}, 0.5), ({"seat": 1}, 0.3), ({"seat": 0, "width": 4, "height": 4}, 0.2)]
    for options, share in runs:
        env = vector_env("connect4", num_envs=1024, **options)  # type: ignore[arg-type]
        seen = check_against_rules(env, max(1, -(-int(steps * share) // 1024)), np.random.default_rng(0))
        print(f"  {options}: {dict(seen)}")
        for key, value in seen.items():
            total[key] = total.get(key, 0) + value
    print(
        f"checked {total['steps']:,} vector steps against the rules in {time.perf_counter() - started:.0f} s: {total}"
    )


def _has(package: str) -> bool:
    try:
        version(package)
    except Exception:
        return False
    return True


if __name__ == "__main__":
    main()
