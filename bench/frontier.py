"""Benchmark of the frontier counter (gridgames.search.frontier): domino tilings of n x n boards, unlimited copies.

Prints the machine, each board's count (checked against Kasteleyn's product formula,
`kasteleyn_dominoes`), the frontier span and the time
(first call includes numba's compilation or cache load, so a warm-up runs first).
"""

from __future__ import annotations

import os
import platform
import sys
import time

from gridgames.grid import Grid
from gridgames.search.frontier import DOMINOES, count_tilings, frontier_span, kasteleyn_dominoes


def _set(spec: str) -> list:
    from gridgames.search.frontier import fixed_shapes
    from gridgames_pentomino.pieces import PieceSet

    return fixed_shapes(PieceSet.parse(spec).pieces)


OTHER_SETS = [
    ((12, 12), "L-trominoes", _set("tromino:L")),
    ((9, 12), "both trominoes", _set("trominoes")),
    ((10, 10), "2x2 squares and dominoes", _set("O,domino")),
    ((6, 12), "the 5 tetrominoes", _set("tetrominoes")),
]


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [8, 12, 16, 18, 20]
    print(
        f"machine: {platform.machine()}, os.cpu_count() = {os.cpu_count()}, python {platform.python_version()}, one "
        "core"
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    count_tilings(Grid.empty(2, 2), DOMINOES)  # compile or load the kernels
    print(f"{'board':>7} {'span':>5} {'seconds':>9} {'cpu s':>8}  domino tilings")
    for n in sizes:
        board = Grid.empty(n, n)
        started, cpu = time.perf_counter(), time.process_time()
        count = count_tilings(board, DOMINOES)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        check = "  [ok]" if count == kasteleyn_dominoes(n, n) else "  [MISMATCH with Kasteleyn's formula]"
        print(f"{n:>3}x{n:<3} {frontier_span(board, DOMINOES):>5} {seconds:>9.3f} {cpu:>8.3f}  {count:,}{check}")
    print("\nother piece sets, any number of copies (the CLI: gridgames pentomino solve --board B --pieces 'SET*')")
    for (h, w), label, shapes in OTHER_SETS:
        board = Grid.empty(h, w)
        started, cpu = time.perf_counter(), time.process_time()
        count = count_tilings(board, shapes)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        print(f"{h:>3}x{w:<3} {frontier_span(board, shapes):>5} {seconds:>9.3f} {cpu:>8.3f}  {count:,}  ({label})")


if __name__ == "__main__":
    main()
