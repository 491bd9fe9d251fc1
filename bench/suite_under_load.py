"""The test suite with the machine busy: two `yes > /dev/null` processes per core beside `python -m pytest`.

What it runs: `python -m pytest -q -p no:cacheprovider [ARGS]` from the repository's root, first with the busy
processes running (started and stopped here, whatever happens), then, with ``--idle`` too, without them, so the
two wall times compare in one session. Prints the machine's core count and load average before each run, the wall
time, the exit code and pytest's closing line. A quick loop's time: ``--args "-m 'not slow'"``.

    python bench/suite_under_load.py                      # the whole suite at two busy processes per core
    python bench/suite_under_load.py --idle               # and the same suite without them, after
    python bench/suite_under_load.py --per-core 0 --args "-m 'not slow'"   # the quick loop alone
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def busy(processes: int) -> Iterator[None]:
    """``processes`` copies of `yes > /dev/null` for the duration of the block, killed on the way out."""
    children = [
        subprocess.Popen(["yes"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(processes)
    ]
    try:
        yield
    finally:
        for child in children:
            child.kill()
        for child in children:
            child.wait()


def run_suite(args: list[str]) -> tuple[float, int, str]:
    """Wall seconds, exit code and pytest's last line of one run of the suite."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    for line in failed:
        print("   ", line)
    return time.perf_counter() - started, done.returncode, lines[-1] if lines else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-core", type=int, default=2, help="busy processes per core (default 2)")
    parser.add_argument("--idle", action="store_true", help="then run the same suite without the busy processes")
    parser.add_argument("--args", default="", help="more pytest arguments, as one shell-quoted string")
    options = parser.parse_args()
    extra = shlex.split(options.args)
    cores = os.cpu_count() or 1
    plans = [options.per_core * cores] + ([0] if options.idle and options.per_core else [])
    for processes in plans:
        with busy(processes):
            time.sleep(1 if processes else 0)
            print(f"cores {cores}, load {os.getloadavg()[0]:.1f}, busy processes {processes}, pytest {extra}")
            seconds, code, last = run_suite(extra)
        print(f"  wall {seconds / 60:.1f} min, exit {code}: {last}")


if __name__ == "__main__":
    main()
