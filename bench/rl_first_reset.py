"""Benchmark of a fresh process's first judged reset: ``vector_env("connect4", judge=True)`` and the README's gym env.

Usage: python bench/rl_first_reset.py [--repeat N] [--envs N] [--before CHECKOUT]

Each figure comes from a new Python process (bytecode written and reused, as an installed package's is; run it
without PYTHONDONTWRITEBYTECODE), which times with time.perf_counter: importing ``gridgames.rl``, making the env,
its first ``reset(seed=0)`` and a second one, and says whether numba was imported. Three programs alternate for
--repeat rounds (medians count): ``aot`` (this tree: the kernels compiled with the package),
``jit`` (this tree with GRIDGAMES_VECTOR_JIT=1: numba's JIT kernels, from numba's cache on disk) and, with
``--before``, an earlier checkout first on PYTHONPATH. A first untimed run of each fills the caches. The machine's
core count and load average are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CODE = """
import json, sys, time
t0 = time.perf_counter()
from gridgames.rl import gym_env, vector_env
t1 = time.perf_counter()
env = gym_env("connect4", opponent="perfect", judge=True) if sys.argv[1] == "gym" else vector_env(
    "connect4", num_envs=int(sys.argv[2]), judge=True)
t2 = time.perf_counter()
env.reset(seed=0)
t3 = time.perf_counter()
env.reset(seed=1)
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "make": t2 - t1, "first_reset": t3 - t2, "second_reset": t4 - t3,
                  "numba": "numba" in sys.modules}))
"""


def run(program: str, kind: str, envs: int, before: str | None) -> dict[str, float]:
    """One fresh process of ``program`` (aot, jit or before) making the ``kind`` env (gym or vector): its times."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "GRIDGAMES_VECTOR_JIT")}
    if program == "jit":
        env["GRIDGAMES_VECTOR_JIT"] = "1"
    if program == "before" and before is not None:
        env["PYTHONPATH"] = os.pathsep.join([before, os.path.join(before, "games")])
    done = subprocess.run(
        [sys.executable, "-c", CODE, kind, str(envs)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=tempfile.gettempdir(),
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    """Alternate the programs' fresh processes; print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="alternating rounds; medians count (default 7)")
    parser.add_argument("--envs", type=int, default=4096, help="the vector env's sub-envs (default 4,096)")
    parser.add_argument("--before", help="a checkout of an earlier gridgames to time as well (first on PYTHONPATH)")
    args = parser.parse_args()
    from gridgames_connect4.learn import vector_aot
    from gridgames_connect4.solve.engine import aot

    if vector_aot.load() is None or aot.load() is None:  # the package's build compiles them
        sys.exit("the compiled kernels do not verify here: see `gridgames doctor`")
    programs = ["aot", "jit"] + (["before"] if args.before else [])
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"python {sys.version.split()[0]}, cores: {os.cpu_count()}, load average before: {load}")
    print(f"fresh processes, {args.repeat} alternating rounds, medians (s); vector_env: {args.envs:,} envs")
    for kind in ("vector", "gym"):
        figures: dict[str, dict[str, list[float]]] = {p: {} for p in programs}
        for program in programs:  # untimed: fills numba's and Python's caches
            run(program, kind, args.envs, args.before)
        for r in range(args.repeat):
            for program in programs if r % 2 == 0 else programs[::-1]:
                for key, value in run(program, kind, args.envs, args.before).items():
                    figures[program].setdefault(key, []).append(float(value))
        label = f"vector_env(num_envs={args.envs})" if kind == "vector" else "gym_env(opponent='perfect')"
        print(f"  {label}, judge=True:")
        for program in programs:
            m = {k: statistics.median(v) for k, v in figures[program].items()}
            print(
                f"    {program:<7} import {m['import']:.3f}  make {m['make']:.4f}  first reset {m['first_reset']:.4f}"
                f"  second {m['second_reset']:.4f}  make+first {m['make'] + m['first_reset']:.4f}"
                f"  numba imported: {m['numba'] > 0}"
            )
        aot = figures["aot"]
        for program in programs[1:]:
            other = figures[program]
            ratio = statistics.median(other["first_reset"]) / statistics.median(aot["first_reset"])
            both = statistics.median([a + b for a, b in zip(other["make"], other["first_reset"])]) / statistics.median(
                [a + b for a, b in zip(aot["make"], aot["first_reset"])]
            )
            print(f"    {program} / aot: first reset {ratio:.1f}x, make + first reset {both:.1f}x")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
