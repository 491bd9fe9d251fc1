"""Benchmark of parallel counting (gridgames.search.parallel_tiling): one process, local processes, a Dask cluster.

Usage: python bench/parallel.py [--repeat N] [--quick] [--jobs N]

Counts Dana Scott's problem -- the 12 pentominoes and the 2x2 square on 8x8 -- all
129,168 tilings and the 16,146 up to symmetry: the plain sequential count
(`tiling.count`, the reference), then by parts (`count_parallel`) in this process
(``--jobs 1``), in N local processes (``--jobs N``, default 2) and on a two-worker
``distributed.LocalCluster`` (one thread each, started before timing, as a running
cluster would be; its first run includes the workers' kernel loading). Wall seconds
are the median of --repeat runs; ratios are against ``--jobs 1`` in the same process.
Then the CLI end to end (fresh processes: start-up, imports and kernel loading
included) for the count up to symmetry. --quick counts only up to symmetry. The
machine's core count and load average are printed: timings are noisy when other work
shares the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numba

from games.pentomino.puzzle import TilingPuzzle
from gridgames.search import tiling
from gridgames.search.parallel_tiling import ParallelCount, count_parallel

BOARD, PIECES = "8x8", "pentominoes+tetromino:O"
KNOWN = {False: 129_168, True: 16_146}
BAR_JOBS, BAR_DASK = 1.7, 1.5


def median_run(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median wall seconds of ``repeat`` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def check(count: int, unique: bool) -> str:
    return "ok" if count == KNOWN[unique] else f"MISMATCH (expected {KNOWN[unique]})"


def line(label: str, seconds: float, count: int, unique: bool, reference: float | None, extra: str = "") -> None:
    ratio = f"{reference / seconds:5.2f}x" if reference else "   ref"
    print(f"  {label:<34} {count:>7}  {seconds:7.2f} s  {ratio}  {extra}[{check(count, unique)}]")


def parts_note(result: ParallelCount) -> str:
    return f"{result.parts_done}/{result.parts} parts, "


def cli_seconds(*args: str) -> tuple[float, str]:
    """Wall seconds of one CLI run in a fresh process, and its output."""
    command = [sys.executable, "-c", "from gridgames.cli import main; main()", "solve", "pentomino", "--board", BOARD, "--pieces", PIECES, "--count", *args]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure (median)")
    parser.add_argument("--quick", action="store_true", help="count only up to symmetry")
    parser.add_argument("--jobs", type=int, default=2, help="local processes (default 2)")
    args = parser.parse_args()
    try:
        import distributed
    except ImportError:
        distributed = None

    print(
        f"machine: {platform.machine()}, os.cpu_count() = {os.cpu_count()}, python {platform.python_version()}, "
        f"numba {numba.__version__}, distributed {distributed.__version__ if distributed else 'not installed'}"
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")
    problem = TilingPuzzle.create(BOARD, PIECES).problem()
    for unique in (True, False):  # load the kernels, set up the symmetry reduction
        tiling.count(problem, unique=unique, start=tiling.split(problem, depth=1, unique=unique)[0])
    cases = [True] if args.quick else [True, False]
    reference: dict[bool, float] = {}
    print(f"\nDana Scott: 12 pentominoes + 2x2 square on 8x8; wall seconds, median of {args.repeat}; ratio vs --jobs 1")
    for unique in cases:
        print(f"{'up to symmetry' if unique else 'all tilings'}")
        seconds, result = median_run(lambda: tiling.count(problem, unique=unique), args.repeat)
        line("plain count, one process", seconds, result.count, unique, None, f"({result.method}) ")
        reference[unique], result = median_run(lambda: count_parallel(problem, unique=unique, jobs=1), args.repeat)
        plain = seconds
        line("by parts, --jobs 1", reference[unique], result.count, unique, None, parts_note(result) + f"{plain / reference[unique]:.2f}x the plain count ")
        seconds, result = median_run(lambda: count_parallel(problem, unique=unique, jobs=args.jobs), args.repeat)
        bar = "meets" if reference[unique] / seconds >= BAR_JOBS else "BELOW"
        line(f"by parts, --jobs {args.jobs}", seconds, result.count, unique, reference[unique], parts_note(result) + f"{bar} the {BAR_JOBS}x bar ")
    if distributed is None:
        print("\n(distributed is not installed: no Dask figures; pip install \"gridgames[dask]\")")
    else:
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
            address = cluster.scheduler_address
            print(f"\nDask LocalCluster, 2 worker processes x 1 thread at {address} (started before timing)")
            for unique in cases:
                for run in ("first run", "second run"):
                    seconds, result = median_run(lambda: count_parallel(problem, unique=unique, scheduler=address), 1 if run == "first run" else args.repeat)
                    bar = "meets" if reference[unique] / seconds >= BAR_DASK else "BELOW"
                    label = f"{'unique' if unique else 'all'}, Dask, {run}"
                    line(label, seconds, result.count, unique, reference[unique], parts_note(result) + f"{bar} the {BAR_DASK}x bar ")
            seconds, out = cli_seconds("--unique", "--scheduler", address)
            print(f"  CLI --unique --scheduler {address}: {seconds:.2f} s end to end: {out}")
    print("\nCLI end to end, up to symmetry (fresh processes: start-up and kernel loading included)")
    one, out1 = cli_seconds("--unique", "--jobs", "1")
    two, out2 = cli_seconds("--unique", "--jobs", str(args.jobs))
    plain_cli, _ = cli_seconds("--unique")
    print(f"  --unique (plain count)  {plain_cli:6.2f} s")
    print(f"  --unique --jobs 1       {one:6.2f} s   {out1}")
    print(f"  --unique --jobs {args.jobs}       {two:6.2f} s   {out2}   ({one / two:.2f}x)")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
