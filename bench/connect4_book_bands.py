"""Does the shipped book ever make a position slower? Pons' Begin sets, every Nth line, solved with and without it.

Usage: python bench/connect4_book_bands.py [--every 5] [--sets Test_L1_R1,Test_L1_R2,Test_L1_R3] [--min-ply 0]
                                            [--repeat 3]

Each line is solved by a solver with the shipped 7x6 book and by one without (`Solver.solve`, the table reset
before each position, untimed), the two alternating which goes first; the least CPU seconds of --repeat solves
(``time.process_time``) and
positions explored are summed per set and per ply. Prints, per set and per ply, with / without: the bar of issue 40
is no set slower with the book and no ply slower by more than 10%. ``--min-ply`` leaves out the shallow lines
(with the book the root's own entry answers them at once; without it they are the slowest: Begin-Hard's take
seconds each).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from connect4_solver import DATA, PONS_SETS

from gridgames_connect4.solve.book import default_book
from gridgames_connect4.solve.solver import Solver, parse_pons_moves


def timed(solver: Solver, moves: list[int], repeat: int) -> tuple[int, float, int]:
    """The score, the least CPU seconds of ``repeat`` solves (each from a reset table: a loaded machine's
    preemptions inflate single timings of sub-millisecond solves many times), the positions explored."""
    best = float("inf")
    for _ in range(repeat):
        solver.reset()
        start = time.process_time()
        score = solver.solve(moves)
        best = min(best, time.process_time() - start)
    return score, best, solver.explored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=5, help="every Nth line of each set")
    parser.add_argument("--sets", default="Test_L1_R1,Test_L1_R2,Test_L1_R3", help="Pons' set files")
    parser.add_argument("--min-ply", type=int, default=0, help="only lines of at least this many moves")
    parser.add_argument(
        "--repeat", type=int, default=3, help="solves of each line on each side (the least time counts)"
    )
    args = parser.parse_args()
    book = default_book()
    assert book is not None
    with_book, plain = Solver(7, 6, 4, book=book), Solver(7, 6, 4)
    for solver in (with_book, plain):
        solver.solve(parse_pons_moves("4444443"))  # kernels loaded, book read
    names = {file: name for file, name, _ in PONS_SETS}
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"cores: {os.cpu_count()}, load average: {load}; book depth {book.depth}")
    for file in args.sets.split(","):
        lines = (DATA / file).read_text().split("\n")
        rows = [line.split() for i, line in enumerate(lines) if line.strip() and i % args.every == 0]
        rows = [(moves, int(score)) for moves, score in rows if len(moves) >= args.min_ply]
        by_ply: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0, 0, 0, 0])
        for i, (text, expected) in enumerate(rows):
            moves = parse_pons_moves(text)
            order = (with_book, plain) if i % 2 == 0 else (plain, with_book)
            results = {id(s): timed(s, moves, args.repeat) for s in order}
            (s1, t1, e1), (s2, t2, e2) = results[id(with_book)], results[id(plain)]
            assert s1 == s2 == expected, (text, s1, s2, expected)
            row = by_ply[len(moves)]
            row[0] += t1
            row[1] += t2
            row[2] += e1
            row[3] += e2
            row[4] += 1
        total = [sum(r[k] for r in by_ply.values()) for k in range(5)]
        print(
            f"\n{names.get(file, file)} ({file}), every {args.every}th line, {int(total[4])} lines: with the book "
            f"{1000 * total[0] / total[4]:.3f} ms, without {1000 * total[1] / total[4]:.3f} ms a line "
            f"(with / without {total[0] / total[1]:.2f}); "
            f"positions {total[2] / total[4]:,.0f} / {total[3] / total[4]:,.0f}"
        )
        print(
            f"  {'ply':>3} {'lines':>5} {'with ms':>10} {'without ms':>10} {'ratio':>6} {'with pos':>12} "
            f"{'without pos':>12}"
        )
        for ply in sorted(by_ply):
            t1, t2, e1, e2, n = by_ply[ply]
            print(
                f"  {ply:>3} {int(n):>5} {1000 * t1 / n:10.3f} {1000 * t2 / n:10.3f} {t1 / max(t2, 1e-9):6.2f} "
                f"{e1 / n:12,.0f} {e2 / n:12,.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
