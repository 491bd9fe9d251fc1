"""End-to-end timings of `gridgames solve pentomino`, and the cost of the puzzle layer over the engine.

    python bench/pentomino_cli.py [--repeat 3]

Prints, for 6x10 with the 12 pentominoes: the wall time of whole CLI runs in fresh
processes (startup, numba cache load, search, output), and in this process the time of
`TilingPuzzle.count` / `solutions` next to the engine's own `tiling.count` / `tiling.solve`
on the same compiled problem (ratio = puzzle layer / engine; 1.0 means no overhead).
Medians of ``--repeat`` runs; the machine's core count is printed since other work
on a shared machine makes timings noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from gridgames.search import tiling

from gridgames_pentomino.puzzle import TilingPuzzle

CLI_RUNS = [
    ("--help (startup only)", ["gridgames", "--help"]),
    ("first solution", ["gridgames", "solve", "pentomino", "--board", "6x10"]),
    ("--count (9356)", ["gridgames", "solve", "pentomino", "--board", "6x10", "--count"]),
    ("--count --unique (2339)", ["gridgames", "solve", "pentomino", "--board", "6x10", "--count", "--unique"]),
    ("--jsonl, all 9356", ["gridgames", "solve", "pentomino", "--board", "6x10", "--jsonl"]),
]


def median_time(run: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}  python: {sys.version.split()[0]}  repeat: {args.repeat} (medians)")

    print("\nwhole CLI runs, 6x10, fresh process each")
    for label, command in CLI_RUNS:
        seconds = median_time(lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL), args.repeat)
        print(f"  {label:<26} {seconds:7.3f} s")

    puzzle = TilingPuzzle.create("6x10")
    problem = puzzle.problem()
    next(puzzle.solutions())  # compile / load the kernels before timing
    print("\nin-process, 6x10: puzzle layer vs engine on the same problem")
    pairs = [
        ("count", lambda: puzzle.count(), lambda: tiling.count(problem)),
        ("count unique", lambda: puzzle.count(unique=True), lambda: tiling.count(problem, unique=True)),
        ("list all", lambda: sum(1 for _ in puzzle.solutions()), lambda: sum(1 for _ in tiling.solve(problem))),
    ]
    for label, ours, engine in pairs:
        a = median_time(ours, args.repeat)
        b = median_time(engine, args.repeat)
        print(f"  {label:<14} puzzle {a:7.3f} s   engine {b:7.3f} s   ratio {a / b:5.2f}")
    solutions = list(puzzle.solutions())
    check = median_time(lambda: all(puzzle.is_solution(s) for s in solutions), args.repeat)
    print(f"  is_solution on all {len(solutions)}: {check:.3f} s ({check / len(solutions) * 1e6:.0f} us each)")


if __name__ == "__main__":
    main()
