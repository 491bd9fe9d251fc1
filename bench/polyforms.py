"""Polyforms on the four lattices (gridgames.lattices): n-form counts, and tiling puzzles of each family, checked
against the published figures, with times.

Part 1, forms: free polyiamonds n = 1..10, polyhexes 1..8, polycubes 1..8 (and one-sided polycubes, where mirror
images differ), polyominoes 1..10.

Part 2, tilings on the lattice engine (`gridgames pentomino solve --lattice ...`): for each puzzle the count up to
the board's symmetry group (``unique``) and the plain count of all tilings, each timed, and the check that the
plain count equals the sum, over the distinct tilings, of the size of their orbit under the group (the distinct
tilings listed, each one's images under the group counted). ``--quick`` skips the 3x4x5 box (minutes).

Prints the machine's core count and load; one core; CPU seconds (``time.process_time``) next to wall seconds.
"""

from __future__ import annotations

import os
import platform
import sys
import time

from gridgames.lattices import CUBIC, HEXAGONAL, SQUARE, TRIANGULAR, free_forms, one_sided_forms

PUBLISHED = [
    ("polyiamonds, free", TRIANGULAR, free_forms, [1, 1, 1, 3, 4, 12, 24, 66, 160, 448]),
    ("polyhexes, free", HEXAGONAL, free_forms, [1, 1, 3, 7, 22, 82, 333, 1448]),
    ("polycubes, free", CUBIC, free_forms, [1, 1, 2, 7, 23, 112, 607, 3811]),
    ("polycubes, one-sided", CUBIC, one_sided_forms, [1, 1, 2, 8, 29, 166, 1023, 6922]),
    ("polyominoes, free", SQUARE, free_forms, [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655]),
]

PUZZLES = [
    # (lattice, board, pieces, published count up to symmetry or None, where it is published)
    ("triangle", "6x6", "hexiamonds", 156, "O'Beirne's hexiamond rhombus; Knuth, TAOCP 4B"),
    ("hex", "4x7", "tetrahexes", None, "no published figure found"),
    ("hex", "hexagon-4", "trihexes+tetrahexes", None, "no published figure found"),
    ("cube", "3x3x3", "soma", 480, "Soma cube: 240 up to rotation and reflection (mirror pairs differ here: 2 x 240)"),
    ("cube", "2x3x10", "flat-pentacubes", 12, "the 12 pentominoes as solids (Gardner)"),
    ("cube", "2x5x6", "flat-pentacubes", 264, "the 12 pentominoes as solids (Gardner)"),
    ("cube", "3x4x5", "flat-pentacubes", 3940, "the 12 pentominoes as solids (Gardner)"),
]


def forms() -> None:
    for label, lattice, generate, counts in PUBLISHED:
        started = time.perf_counter()
        cpu = time.process_time()
        ours = [len(generate(lattice, n)) for n in range(1, len(counts) + 1)]
        verdict = "ok" if ours == counts else f"MISMATCH (published {counts})"
        print(
            f"{label:<22} n=1..{len(counts):<2} {time.perf_counter() - started:7.2f} s wall "
            f"{time.process_time() - cpu:7.2f} s cpu  {ours}  [{verdict}]"
        )


def orbit_sum(problem: object, solutions: list[object], perms: object) -> int:
    """The sum over the solutions of the size of their orbit under the permutations (a (G, n) array)."""
    index = {cell: i for i, cell in enumerate(problem.cells)}  # type: ignore[attr-defined]
    total = 0
    for solution in solutions:
        placed = [(p.piece, [index[c] for c in p.cells]) for p in solution]  # type: ignore[attr-defined]
        images = {frozenset((name, frozenset(int(perm[c]) for c in cells)) for name, cells in placed) for perm in perms}  # type: ignore[attr-defined]
        total += len(images)
    return total


def tilings(quick: bool) -> None:
    from gridgames.search import tiling
    from gridgames.search.tiling import prepare_unique

    from gridgames_pentomino.lattice_puzzle import LatticePuzzle

    # compile the kernels first
    tiling.count(LatticePuzzle.create("cube", "3x3x3", "soma").problem())
    print(
        f"{'puzzle':<44} {'G':>3} {'unique':>7} {'cpu s':>7} {'method':<24} {'all':>7} {'cpu s':>7}  orbits  published"
    )
    for lattice, board, pieces, published, source in PUZZLES:
        if quick and board == "3x4x5":
            continue
        puzzle = LatticePuzzle.create(lattice, board, pieces)
        problem = puzzle.problem()
        prep = prepare_unique(problem, True)
        cpu = time.process_time()
        unique = puzzle.count(unique=True)
        unique_cpu = time.process_time() - cpu
        distinct = list(puzzle.solutions(unique=True))
        assert len(distinct) == unique.count
        cpu = time.process_time()
        everything = tiling.count(problem)
        all_cpu = time.process_time() - cpu
        orbits = orbit_sum(problem, distinct, prep.group)
        check = "ok" if orbits == everything.count else f"MISMATCH ({orbits})"
        verdict = "-" if published is None else ("ok" if len(distinct) == published else f"MISMATCH ({published})")
        label = f"{lattice} {board} / {pieces}"
        print(
            f"{label:<44} {len(prep.group):>3} {len(distinct):>7} {unique_cpu:>7.2f} {unique.method:<24} "
            f"{everything.count:>7} {all_cpu:>7.2f}  [{check}]    [{verdict}] {source}"
        )
        sys.stdout.flush()


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    print(
        f"machine: {platform.machine()}, os.cpu_count() = {os.cpu_count()}, python {platform.python_version()}, one "
        "core"
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    forms()
    print()
    tilings(quick)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
