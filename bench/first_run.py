"""First run against second run of four commands in a fresh virtual environment after ``pip install .`` (issue 51).

Usage: python bench/first_run.py [--repeat 3] [--keep DIR] [--no-install VENV]

Makes a fresh venv, times ``pip install .`` of this tree (wall and the children's CPU seconds), then runs, each in a
fresh process with an empty XDG cache folder (a user's first run), then again (the second run), the issue's four
commands: ``gridgames solve pentomino --board 6x10 --count``, ``gridgames connect4 analyze 442551175727 --json``,
``gridgames connect4 analyze 44 --height 10 --think 5`` and ``vector_env("connect4", 64, judge=True).reset()``.
CPU seconds (user + system of the child, ``os.wait4``) for each; the bar is first <= 2x second. ``--repeat``
first/second pairs, each with a new empty cache; medians. Prints the core count and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VECTOR = "from gridgames.rl import vector_env\nenv = vector_env('connect4', 64, judge=True)\nenv.reset(seed=1)\n"


def commands(venv: Path) -> dict[str, list[str]]:
    """The four commands of the bar, in the venv."""
    gridgames, python = str(venv / "bin" / "gridgames"), str(venv / "bin" / "python")
    return {
        "solve pentomino --board 6x10 --count": [gridgames, "solve", "pentomino", "--board", "6x10", "--count"],
        "connect4 analyze 442551175727 --json": [gridgames, "connect4", "analyze", "442551175727", "--json"],
        "connect4 analyze 44 --height 10 --think 5": [
            gridgames,
            "connect4",
            "analyze",
            "44",
            "--height",
            "10",
            "--think",
            "5",
        ],
        'vector_env("connect4", 64, judge=True).reset()': [python, "-c", VECTOR],
    }


def cpu_of(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(
        args, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(args)} failed: {process.stderr.read().decode()[-500:]}")  # type: ignore[union-attr]
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="first/second pairs per command (default 3)")
    parser.add_argument("--no-install", type=Path, help="use this venv (gridgames installed) instead of a fresh one")
    args = parser.parse_args()
    print(
        f"python {sys.version.split()[0]}, cores: {os.cpu_count()}, load average: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    if args.no_install is None:
        venv = Path(tempfile.mkdtemp(prefix="gridgames-first-run-")) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True)
        before = os.times()
        start = time.perf_counter()
        subprocess.run([*pip, f"{ROOT}[rl]"], check=True)
        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        print(f"pip install .[rl]: {time.perf_counter() - start:.0f} s wall, {cpu:.0f} s CPU (children)")
    else:
        venv = args.no_install
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GRIDGAMES_", "NUMBA_", "PYTHON"))}
    for name, command in commands(venv).items():
        firsts, seconds = [], []
        for _ in range(args.repeat):
            env = {**base, "XDG_CACHE_HOME": tempfile.mkdtemp(prefix="gridgames-cache-")}
            firsts.append(cpu_of(command, env)[0])
            seconds.append(cpu_of(command, env)[0])
        first, second = statistics.median(firsts), statistics.median(seconds)
        print(f"{name}: first {first:.2f} s CPU, second {second:.2f} s, first/second {first / second:.2f}x")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
