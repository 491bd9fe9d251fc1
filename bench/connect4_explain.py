"""Benchmark of ``gridgames connect4 explain``: warm-process seconds per position, and the fresh-process figure.

Usage: python bench/connect4_explain.py [--per-ply N] [--deep N] [--fresh N] [--seed S]

* Warm: one process, the shipped 7x6 book loaded once and one Solver made and warmed (its one-time cost printed:
  a position near its end needs it for the forced line); `explain_position` on N seeded random positions of each
  ply the book covers (0 to depth - 1: the book answers every column); median, 95th percentile and maximum
  seconds per ply group (wall clock, and the process's CPU seconds of the slowest: on a loaded machine the wall
  clock of one position can be several times its CPU time). Then --deep positions of plies 24-36 (the scores and
  the forced line by the solver).
* Fresh: ``gridgames connect4 explain MOVES --json`` in a new process (what a user waits for, start-up included)
  alternated with ``gridgames connect4 analyze MOVES --json`` on the same book positions as the reference; medians
  of --fresh runs each and their ratio. PYTHONDONTWRITEBYTECODE is unset in the children.
Prints the machine's core count and load average before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from gridgames_connect4.solve.book import default_book
from gridgames_connect4.teach.explain import explain_position
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from gridgames_test_support.connect4_minimax import random_open_position


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _stats(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    median = statistics.median(ordered)
    return f"median {median * 1000:8.2f} ms  p95 {p95 * 1000:8.2f} ms  max {ordered[-1] * 1000:8.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-ply", type=int, default=30)
    parser.add_argument("--deep", type=int, default=30)
    parser.add_argument("--fresh", type=int, default=5)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    print(f"cores {os.cpu_count()}, load average {_load()}")
    game = Connect4(7, 6, 4)
    book = default_book(7, 6, 4)
    assert book is not None, "the 7x6 book is not shipped"
    rng = random.Random(args.seed)
    explain_position(game, [3, 3], book=book)  # imports, caches of the board's lines
    # a position near its end needs the solver for the forced line: made once
    started = time.perf_counter()
    solver = Solver(7, 6, 4, book=book)
    # loads (or compiles) the kernels
    solver.analyze(random_open_position(random.Random(0), 7, 6, 4, 30))
    print(f"the first solver of a process, made and warmed: {time.perf_counter() - started:.2f} s (once)")
    every: list[float] = []
    slowest = (0.0, 0.0, "")  # wall, CPU, moves
    for ply in range(book.depth):
        times = []
        for _ in range(args.per_ply if ply else 1):
            moves = random_open_position(rng, 7, 6, 4, ply)
            started, cpu = time.perf_counter(), time.process_time()
            ex = explain_position(game, moves, book=book, solver=solver)
            times.append(time.perf_counter() - started)
            slowest = max(slowest, (times[-1], time.process_time() - cpu, game.join_notation(moves)))
            assert ex.from_book
        every += times
        print(f"warm, book, ply {ply:2d}: {len(times):3d} positions  {_stats(times)}")
    print(f"warm, book, plies 0-{book.depth - 1}: {len(every)} positions  {_stats(every)}")
    print(f"warm, book, the slowest: {slowest[2]}, {slowest[0]:.3f} s wall, {slowest[1]:.3f} s CPU")
    if args.deep:
        times = []
        lines = 0
        for _ in range(args.deep):
            moves = random_open_position(rng, 7, 6, 4, rng.randrange(24, 37))
            started = time.perf_counter()
            ex = explain_position(game, moves, book=book, solver=solver)
            times.append(time.perf_counter() - started)
            lines += bool(ex.line)
        print(f"warm, solver, plies 24-36: {len(times)} positions ({lines} with a forced line)  {_stats(times)}")
    if args.fresh:
        exe = shutil.which("gridgames")
        assert exe, "the gridgames command is not installed"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        picks = [random_open_position(rng, 7, 6, 4, rng.randrange(2, book.depth)) for _ in range(args.fresh)]
        runs: dict[str, list[float]] = {"explain": [], "analyze": []}
        for moves in picks:
            text = "".join(str(m + 1) for m in moves)
            for command in ("explain", "analyze"):  # alternated
                started = time.perf_counter()
                subprocess.run([exe, "connect4", command, text, "--json"], env=env, check=True, capture_output=True)
                runs[command].append(time.perf_counter() - started)
        e, a = statistics.median(runs["explain"]), statistics.median(runs["analyze"])
        print(
            f"fresh process, book positions: explain median {e:.3f} s, analyze median {a:.3f} s "
            f"(ratio {e / a:.2f}; {args.fresh} runs each, alternated)"
        )
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
