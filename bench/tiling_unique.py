"""Benchmark of issue 57: search time of counts up to symmetry against all counts, and MRV against first-blank order.

Usage: python bench/tiling_unique.py [--repeat 3] [--cases 6x10 5x12 3x20 8x8-centre hexiamonds]

In one process, after a warm-up count of each kind (kernels compiled or loaded), for the 12 pentominoes on 6x10,
5x12, 3x20 and 8x8 less its centre and the 12 hexiamonds on the 6x6 rhombus (triangular lattice, 72 cells: the
multi-word kernel), counts by `gridgames.search.tiling.count` in turn, ``--repeat`` rounds alternating:

* ``unique``: the distinct tilings (``unique=True``), first-blank order;
* ``all``: all tilings as the engine counts them by default (by orbits when a piece is free: |G| x the distinct
  count, the same tree);
* ``plain``: all tilings by the plain search over every tiling (``method="search"``), the count without symmetry;
* ``unique-mrv``: the distinct tilings with the fewest-options (MRV) cell order.

Prints per case and kind the count (checked against the known one), the nodes, the median search seconds
(`CountResult.seconds`: kernel time plus planning, process start-up and kernel loading excluded) and the CPU
microseconds per node; then the ratios unique / all, unique / plain and, for the orders, MRV / first-blank nodes,
per-node cost and seconds. The machine's core count and load are printed: a shared machine scales every second.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
from collections.abc import Callable
from functools import partial
from typing import Any

from gridgames.game import CountResult
from gridgames.search.tiling import TilingProblem, count

CASES: dict[str, tuple[str | None, str, str, int, int]] = {  # lattice, board, pieces, all, unique
    "6x10": (None, "6x10", "pentominoes", 9356, 2339),
    "5x12": (None, "5x12", "pentominoes", 4040, 1010),
    "3x20": (None, "3x20", "pentominoes", 8, 2),
    "8x8-centre": (None, "8x8-centre", "pentominoes", 520, 65),
    "hexiamonds": ("triangle", "6x6", "hexiamonds", 624, 156),
}

KINDS: dict[str, dict[str, Any]] = {
    "unique": {"unique": True},
    "all": {},
    "plain": {"method": "search"},
    "unique-mrv": {"unique": True, "mrv": True},
}


def problem_of(lattice: str | None, board: str, pieces: str) -> TilingProblem:
    """The case's tiling problem as the pentomino game builds it."""
    if lattice is None:
        from gridgames_pentomino.puzzle import TilingPuzzle

        return TilingPuzzle.create(board, pieces).problem()
    from gridgames_pentomino.lattice_puzzle import LatticePuzzle

    return LatticePuzzle.create(lattice, board, pieces).problem()


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(problem: TilingProblem, repeat: int) -> dict[str, tuple[CountResult, float]]:
    """Each kind's last result and median search seconds over ``repeat`` alternating rounds (after a warm-up)."""
    runs: dict[str, list[float]] = {kind: [] for kind in KINDS}
    last: dict[str, CountResult] = {}
    counters: dict[str, Callable[[], CountResult]] = {kind: partial(count, problem, **kw) for kind, kw in KINDS.items()}
    for counter in counters.values():
        counter()
    for _ in range(repeat):
        for kind, counter in counters.items():
            last[kind] = counter()
            runs[kind].append(last[kind].seconds)
    return {kind: (last[kind], statistics.median(runs[kind])) for kind in KINDS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    args = parser.parse_args()
    print(f"{platform.python_version()}, cores: {os.cpu_count()}, load before: {_load()} (1, 5, 15 min)")
    print(f"{'case':<11} {'kind':<11} {'count':>6} {'nodes':>11} {'search s':>9} {'us/node':>8}  method")
    summary = []
    wrong = False
    for name in args.cases:
        lattice, board, pieces, known_all, known_unique = CASES[name]
        results = measure(problem_of(lattice, board, pieces), args.repeat)
        for kind, (result, seconds) in results.items():
            known = known_unique if kind.startswith("unique") else known_all
            flag = "" if result.count == known else f"  WRONG (known {known})"
            wrong = wrong or bool(flag)
            per_node = 1e6 * seconds / max(result.nodes, 1)
            print(
                f"{name:<11} {kind:<11} {result.count:>6} {result.nodes:>11,} {seconds:>9.4f} {per_node:>8.3f}  "
                f"{result.method}{flag}"
            )
        (u, us), (_, alls), (_, plain), (m, ms) = (results[k] for k in KINDS)
        summary.append(
            f"{name:<11} {us / alls:>8.2f}x {us / plain:>8.2f}x   {m.nodes / max(u.nodes, 1):>8.2f}x "
            f"{(ms / max(m.nodes, 1)) / (us / max(u.nodes, 1)):>8.1f}x {ms / us:>8.2f}x"
        )
    print(
        f"\n{'case':<11} {'u / all':>9} {'u / plain':>9}   {'MRV nodes':>9} {'per node':>9} {'seconds':>9}"
        "   (unique, first-blank; MRV over first-blank, unique)"
    )
    print("\n".join(summary))
    print(f"load after: {_load()}")
    if wrong:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
