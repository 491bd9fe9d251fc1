"""Benchmark of parallel counting (gridgames.search.tiling.parallel_count): one process, local processes, Dask.

Usage: python bench/parallel.py [--repeat N] [--quick] [--jobs N]

Counts Dana Scott's problem -- the 12 pentominoes and the 2x2 square on 8x8 -- all
129,168 tilings and the 16,146 up to symmetry: the plain sequential count
(`tiling.count`, the reference), then by parts (`count_parallel`) in this process
(``--jobs 1``), in N local processes (``--jobs N``, default 2) and on a two-worker
``distributed.LocalCluster`` (one thread each, started before timing, as a running
cluster would be; its first run includes the workers' kernel loading, unless they
were started with ``--preload gridgames.search.tiling.warm_up``: both are shown). Wall seconds
are the best of --repeat runs (other work on the machine only slows a run down; the
``--jobs`` runs alternate so that both see the same conditions), with the CPU seconds
of this process and its finished workers (cpu/wall near N means N busy cores); ratios
are against ``--jobs 1`` in the same process.
Then the CLI end to end (fresh processes: start-up, imports and kernel loading
included) for the count up to symmetry. --quick counts only up to symmetry. The
machine's core count and load average are printed: timings are noisy when other work
shares the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numba

from gridgames_pentomino.puzzle import TilingPuzzle
from gridgames.search import tiling
from gridgames.search.tiling.parallel_count import WARM_UP, ParallelCount, count_parallel

BOARD, PIECES = "8x8", "pentominoes+tetromino:O"
KNOWN = {False: 129_168, True: 16_146}
BAR_JOBS, BAR_DASK = 1.7, 1.5


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished (waited-for) child processes."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall seconds, CPU seconds (this process and finished workers) and the result of one run."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = fn()
    return time.perf_counter() - wall, cpu_seconds() - cpu, result


def best_of(runs: list[tuple[float, float, Any]]) -> tuple[float, float, Any]:
    """The fastest run."""
    return min(runs, key=lambda run: run[0])


def check(count: int, unique: bool) -> str:
    return "ok" if count == KNOWN[unique] else f"MISMATCH (expected {KNOWN[unique]})"


def line(
    label: str, run: tuple[float, float, Any], unique: bool, reference: float | None, extra: str = "", cpu: bool = True
) -> None:
    seconds, used, result = run
    ratio = f"{reference / seconds:5.2f}x" if reference else "   ref"
    busy = f"cpu {used:6.2f} s" if cpu else " " * 12
    print(f"  {label:<28} {result.count:>7}  {seconds:7.2f} s  {busy}  {ratio}  {extra}[{check(result.count, unique)}]")


def parts_note(result: ParallelCount) -> str:
    return f"{result.parts_done}/{result.parts} parts, "


def cli_seconds(*args: str) -> tuple[float, str]:
    """Wall seconds of one CLI run in a fresh process, and its output."""
    command = [
        sys.executable,
        "-c",
        "from gridgames.cli import main; main()",
        "solve",
        "pentomino",
        "--board",
        BOARD,
        "--pieces",
        PIECES,
        "--count",
        *args,
    ]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (the best is shown)")
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
    print(f"\nDana Scott: 12 pentominoes + 2x2 square on 8x8; wall seconds, best of {args.repeat}; ratio vs --jobs 1")
    for unique in cases:
        print(f"{'up to symmetry' if unique else 'all tilings'}  (load average now {os.getloadavg()[0]:.2f})")
        plain = timed(lambda: tiling.count(problem, unique=unique))
        line("plain count, one process", plain, unique, None, f"({plain[2].method}) ")
        runs: dict[int, list[tuple[float, float, Any]]] = {1: [], args.jobs: []}
        for _ in range(args.repeat):
            for jobs in runs:
                runs[jobs].append(timed(lambda: count_parallel(problem, unique=unique, jobs=jobs)))
        one, many = best_of(runs[1]), best_of(runs[args.jobs])
        reference[unique] = one[0]
        line("by parts, --jobs 1", one, unique, None, parts_note(one[2]) + f"{plain[0] / one[0]:.2f}x the plain count ")
        bar = "meets" if one[0] / many[0] >= BAR_JOBS else "BELOW"
        line(f"by parts, --jobs {args.jobs}", many, unique, one[0], parts_note(many[2]) + f"{bar} the {BAR_JOBS}x bar ")
    if distributed is None:
        print('\n(distributed is not installed: no Dask figures; pip install "gridgames[dask]")')
    else:
        with distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster:
            address = cluster.scheduler_address
            print(f"\nDask LocalCluster, 2 worker processes x 1 thread at {address} (started before timing)")
            for unique in cases:
                first = timed(lambda: count_parallel(problem, unique=unique, scheduler=address))
                later = best_of(
                    [
                        timed(lambda: count_parallel(problem, unique=unique, scheduler=address))
                        for _ in range(args.repeat)
                    ]
                )
                for label, run in (("first run", first), (f"best of {args.repeat} more", later)):
                    bar = "meets" if reference[unique] / run[0] >= BAR_DASK else "BELOW"
                    what = f"{'unique' if unique else 'all'}, Dask, {label}"
                    line(
                        what,
                        run,
                        unique,
                        reference[unique],
                        parts_note(run[2]) + f"{bar} the {BAR_DASK}x bar ",
                        cpu=False,
                    )
            seconds, out = cli_seconds("--unique", "--scheduler", address)
            print(f"  CLI --unique --scheduler {address}: {seconds:.2f} s end to end: {out}")
        with distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            preload=[WARM_UP],
        ) as cluster:
            print(f"Dask LocalCluster as above, workers started with --preload {WARM_UP}")
            for unique in cases:
                run = timed(lambda: count_parallel(problem, unique=unique, scheduler=cluster.scheduler_address))
                bar = "meets" if reference[unique] / run[0] >= BAR_DASK else "BELOW"
                what = f"{'unique' if unique else 'all'}, Dask, first run"
                line(
                    what, run, unique, reference[unique], parts_note(run[2]) + f"{bar} the {BAR_DASK}x bar ", cpu=False
                )
    print(
        f"\nCLI end to end, up to symmetry, best of {args.repeat} (fresh processes: start-up and kernel loading "
        "included)"
    )
    variants = {
        "plain count": ("--unique",),
        "--jobs 1": ("--unique", "--jobs", "1"),
        f"--jobs {args.jobs}": ("--unique", "--jobs", str(args.jobs)),
    }
    cli: dict[str, list[tuple[float, str]]] = {name: [] for name in variants}
    for _ in range(args.repeat):
        for name, options in variants.items():
            cli[name].append(cli_seconds(*options))
    best = {name: min(runs) for name, runs in cli.items()}
    for name, (seconds, out) in best.items():
        ratio = (
            f"  ({best['--jobs 1'][0] / seconds:.2f}x vs --jobs 1)"
            if name.startswith("--jobs") and name != "--jobs 1"
            else ""
        )
        print(f"  {name:<12} {seconds:6.2f} s{ratio}   {out}")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
