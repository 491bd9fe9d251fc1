"""Benchmark of `connect4 analyze --jobs N`: every column of a position solved in one process, then in N.

Usage: python bench/connect4_parallel.py [MOVES ...] [--jobs N] [--repeat R]

Prints wall seconds of analyze_position sequentially (one Solver, one table shared by the columns) and with N
local processes (one column per task, a fresh table per column), best of R alternating runs, the speed-up, the
core count and the load average (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import time

DEFAULT_POSITIONS = ["4453", "444", "3344"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("moves", nargs="*", default=DEFAULT_POSITIONS, help="positions (1-based digits)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()

    from gridgames_connect4.analysis import analyze_position
    from gridgames_connect4.rules import Connect4

    print(f"cores (os.cpu_count): {os.cpu_count()}, jobs {args.jobs}, best of {args.repeat}")
    analyze_position(Connect4().from_notation("4444555533"))  # compile outside the timing
    analyze_position(Connect4().from_notation("4444555533"), jobs=args.jobs)
    print(f"{'position':<12} {'score':>5} {'1 process s':>12} {f'{args.jobs} processes s':>14} {'speed-up':>8}  load")
    for moves in args.moves:
        state = Connect4().from_notation(moves)
        best = {1: float("inf"), args.jobs: float("inf")}
        results = {}
        for _ in range(args.repeat):
            for jobs in (1, args.jobs):
                start = time.perf_counter()
                results[jobs] = analyze_position(state, jobs=None if jobs == 1 else jobs)
                best[jobs] = min(best[jobs], time.perf_counter() - start)
        assert results[1] == results[args.jobs], moves
        print(f"{moves:<12} {results[1].score:>+5d} {best[1]:>12.2f} {best[args.jobs]:>14.2f}"
              f" {best[1] / best[args.jobs]:>8.2f}  {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
