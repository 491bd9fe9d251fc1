"""Benchmark of issue 45: counts of random small tiling problems against a brute-force counter, at scale.

Usage: python bench/tiling_property.py [--problems 500] [--seed 7] [--show 10]

The check of tests/gridgames/search/test_tiling_property.py (`gridgames_test_support.tiling_oracle`) on
``--problems`` random problems of one seed: square, triangular, hexagonal and cubic boards with holes, piece
multisets of the board's area (often impossible), less or more, and for each every count and listing path of
the engine and of the pentomino puzzles (all tilings and up to symmetry) against the brute force. Prints a
table per lattice: problems tried, those whose answer is 0 (by how the areas compare; first cell bare: no placement
covers the board's first cell, which crashed before the fix), those with symmetric tilings, mismatches, crashes,
the seconds of the brute force and of the paths; then the problems that failed (up to ``--show``), the machine's
core count and load. The bar (issue 45): at least 500 problems, mismatches 0, crashes 0. Exits 1 when any failed.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from gridgames_test_support.tiling_oracle import LATTICE_NAMES, Outcome, Problem, brute_force, check, random_problems

COLUMNS = (
    "lattice",
    "problems",
    "zero",
    "zero: area short",
    "zero: area over",
    "zero: area right",
    "first cell bare",
    "orbits < all",
    "mismatches",
    "crashes",
    "brute s",
    "paths s",
)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1, 5, 15 min)"


def bare_first_cell(problem: Problem) -> bool:
    """Issue 45's trigger: every copy must be used and no placement covers the board's first cell (in bit order)."""
    from gridgames.errors import PuzzleError

    try:
        built = problem.build()
    except PuzzleError:  # no piece fits anywhere
        return False
    return problem.exact and built.anchor_start[0] == built.anchor_start[1]


def _run(problems: list[Problem]) -> list[tuple[Outcome, float, float]]:
    """Each problem checked, with the seconds of one brute force and of the rest of the check (the engine's paths,
    the puzzles', the orbits)."""
    out = []
    for problem in problems:
        start = time.perf_counter()
        brute_force(problem)
        brute = time.perf_counter() - start
        outcome = check(problem)  # the brute force again, then every engine path
        out.append((outcome, brute, max(time.perf_counter() - start - 2 * brute, 0.0)))
    return out


def _rows(results: list[tuple[Outcome, float, float]]) -> list[list[str]]:
    """The table: one row per lattice and the total."""
    groups: dict[str, list[tuple[Outcome, float, float]]] = defaultdict(list)
    for row in results:
        groups[row[0].problem.lattice].append(row)
    groups["all"] = results
    rows = []
    for name in (*LATTICE_NAMES, "all"):
        group = groups.get(name, [])
        zero = [o.problem for o, _, _ in group if o.tilings == 0]
        rows.append(
            [
                name,
                str(len(group)),
                str(len(zero)),
                str(sum(p.area < len(p.board) for p in zero)),
                str(sum(p.area > len(p.board) for p in zero)),
                str(sum(p.exact for p in zero)),
                str(sum(bare_first_cell(p) for p in zero)),
                str(sum(0 < o.distinct < o.tilings for o, _, _ in group)),
                str(sum(bool(o.mismatches) for o, _, _ in group)),
                str(sum(o.crash is not None for o, _, _ in group)),
                f"{sum(b for _, b, _ in group):.2f}",
                f"{sum(e for _, _, e in group):.2f}",
            ]
        )
    return rows


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(COLUMNS)]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(COLUMNS, widths)) + " |"]
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    lines += [
        "| " + " | ".join(v.rjust(w) if i else v.ljust(w) for i, (v, w) in enumerate(zip(r, widths))) + " |"
        for r in rows
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the check and print the table; 1 when a problem failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=500, help="random problems to check (the bar: 500)")
    parser.add_argument("--seed", type=int, default=7, help="the random problems' seed")
    parser.add_argument("--show", type=int, default=10, help="failed problems to print")
    args = parser.parse_args(argv)
    print(
        f"python {sys.version.split()[0]}, {platform.machine()}, os.cpu_count() = {os.cpu_count()}, load average "
        f"{_load()}"
    )
    from gridgames.search.tiling import kernels_compiled

    if not kernels_compiled():
        print("compiling the tiling kernels first (not timed)")
        check(random_problems(0, 1)[0])
    problems = random_problems(args.seed, args.problems)
    start = time.perf_counter()
    results = _run(problems)
    wall = time.perf_counter() - start
    print(
        f"{args.problems} problems of seed {args.seed} in {wall:.1f} s (brute force twice per problem, then every "
        "engine path)"
    )
    print(_table(_rows(results)))
    failed = [o for o, _, _ in results if o.mismatches or o.crash]
    for outcome in failed[: args.show]:
        print(
            f"FAILED {outcome.problem.describe()}: brute force {outcome.tilings} ({outcome.distinct} up to symmetry);"
            f" {'; '.join(outcome.mismatches)}{' crash: ' + outcome.crash if outcome.crash else ''}"
        )
    print(
        f"problems tried {len(results)}, zero-answer {sum(o.tilings == 0 for o, _, _ in results)}, "
        f"mismatches {sum(bool(o.mismatches) for o, _, _ in results)}, crashes "
        f"{sum(o.crash is not None for o, _, _ in results)}, "
        f"time {wall:.1f} s; load average after {_load()}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
