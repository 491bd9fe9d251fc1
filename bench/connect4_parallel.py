"""Benchmark of `connect4 analyze --jobs N`: every column of a position solved in one process, then in N.

Usage: python bench/connect4_parallel.py [MOVES ...] [--jobs N] [--repeat R]   (default: 4453 444 3344, best of 2)

Prints wall seconds of analyze_position sequentially (one Solver, one table shared by the columns), with N
searchers (threads) searching each column together on one shared table (lazy SMP, `shared_table=True`), and with
the columns split over N processes (`--jobs N`: one column per task, a fresh table each), best of R alternating runs,
the speed-ups, the core count and the load average (the machine may be shared).
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

    from gridgames_connect4.teach.analysis import analyze_position

    from gridgames_connect4.solve.scorer import Limits
    from gridgames_connect4.position.rules import Connect4

    print(f"cores (os.cpu_count): {os.cpu_count()}, jobs {args.jobs}, best of {args.repeat}")
    analyze_position(Connect4().from_notation("4444555533"))  # compile outside the timing
    analyze_position(Connect4().from_notation("4444555533"), Limits(jobs=args.jobs))
    analyze_position(Connect4().from_notation("4444555533"), Limits(jobs=args.jobs, shared_table=True))
    print(f"{'position':<12} {'score':>5} {'1 process s':>12} {'shared s':>9} {'x':>5} {'split s':>8} {'x':>5}  load")
    runs = {"one": {}, "shared": {"jobs": args.jobs, "shared_table": True}, "split": {"jobs": args.jobs}}
    for moves in args.moves:
        state = Connect4().from_notation(moves)
        best = dict.fromkeys(runs, float("inf"))
        results = {}
        for _ in range(args.repeat):
            for name, options in runs.items():
                start = time.perf_counter()
                results[name] = analyze_position(state, Limits(**options))
                best[name] = min(best[name], time.perf_counter() - start)
        assert results["one"] == results["shared"] == results["split"], moves
        print(
            f"{moves:<12} {results['one'].score:>+5d} {best['one']:>12.2f} {best['shared']:>9.2f}"
            f" {best['one'] / best['shared']:>5.2f} {best['split']:>8.2f} {best['one'] / best['split']:>5.2f}"
            f"  {os.getloadavg()[0]:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
