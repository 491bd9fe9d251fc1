"""Polyform generation on the four lattices (gridgames.lattices): counts checked against the published ones, with times.

Free forms: polyiamonds n = 1..10, polyhexes 1..8, polycubes 1..8 (and one-sided polycubes, where
mirror images differ), polyominoes 1..10. Prints the machine's core count and load; one core.
"""

from __future__ import annotations

import os
import platform
import time

from gridgames.lattices import CUBIC, HEXAGONAL, SQUARE, TRIANGULAR, free_forms, one_sided_forms

PUBLISHED = [
    ("polyiamonds, free", TRIANGULAR, free_forms, [1, 1, 1, 3, 4, 12, 24, 66, 160, 448]),
    ("polyhexes, free", HEXAGONAL, free_forms, [1, 1, 3, 7, 22, 82, 333, 1448]),
    ("polycubes, free", CUBIC, free_forms, [1, 1, 2, 7, 23, 112, 607, 3811]),
    ("polycubes, one-sided", CUBIC, one_sided_forms, [1, 1, 2, 8, 29, 166, 1023, 6922]),
    ("polyominoes, free", SQUARE, free_forms, [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655]),
]


def main() -> None:
    print(f"machine: {platform.machine()}, os.cpu_count() = {os.cpu_count()}, python {platform.python_version()}, one core")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for label, lattice, generate, counts in PUBLISHED:
        started = time.perf_counter()
        cpu = time.process_time()
        ours = [len(generate(lattice, n)) for n in range(1, len(counts) + 1)]
        verdict = "ok" if ours == counts else f"MISMATCH (published {counts})"
        print(f"{label:<22} n=1..{len(counts):<2} {time.perf_counter() - started:7.2f} s wall {time.process_time() - cpu:7.2f} s cpu  {ours}  [{verdict}]")


if __name__ == "__main__":
    main()
