"""Benchmark of the polyomino tiling engine (the gridgames.search.tiling package) against the reference solver.

Usage: python bench/tiling.py [--repeat N] [--quick] [--no-compile-timing] [--choices [BOARD ...]] [--stages [BOARD
...]]

Prints, for the 12 pentominoes on 6x10, 5x12, 4x15, 3x20 and 8x8 without its centre:
the count of all tilings and of distinct ones, wall and CPU seconds (median of --repeat
runs, after compilation), nodes and the symmetry method; the reference solver
(gridgames.search.backtrack) timed in the same process on 3x20 and 4x15 (4x15 takes a
minute or more; --quick skips it and the Dana Scott count), with the speed ratio;
first-blank vs most-constrained-cell search and pruning on/off on 6x10; time to the first
solution; boards over 64 cells (multi-word kernel); the 12 pentominoes plus the 2x2
square on 8x8 (Dana Scott); and the numba compile time, cold (fresh cache in a
subprocess) and cached. The machine's core count is printed: timings are for one core,
and noisy when other work shares the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba

from gridgames.grid import Grid
from gridgames.search import backtrack
from gridgames.pieces import Piece
from gridgames.search.tiling import TilingProblem, count, prepare_unique, solve
from gridgames.shapes import PENTOMINOES, TETROMINOES, Shape, polyominoes

REPO = Path(__file__).resolve().parents[1]
CENTRE_8X8 = Grid.from_text("\n".join(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3))
BOARDS = {
    "6x10": (Grid.empty(6, 10), 9356, 2339),
    "5x12": (Grid.empty(5, 12), 4040, 1010),
    "4x15": (Grid.empty(4, 15), 1472, 368),
    "3x20": (Grid.empty(3, 20), 8, 2),
    "8x8-centre": (CENTRE_8X8, 520, 65),
}

_COMPILE_PROBE = (
    "import time; t = time.perf_counter()\n"
    "from gridgames.grid import Grid; from gridgames.shapes import PENTOMINOES\n"
    "from gridgames.search.tiling import TilingProblem, count, prepare_unique, solve, split\n"
    "p = TilingProblem.build(Grid.empty(3, 20), PENTOMINOES)\n"
    "count(p); count(p, mrv=True); count(p, unique='canonical'); list(solve(p, limit=1)); split(p, 4)\n"
    "count(p, multiword=True); count(p, multiword=True, mrv=True)\n"
    "print(time.perf_counter() - t)\n"
)


CELL_ORDERS: dict[str, Callable[[tuple[int, int]], tuple[int, ...]]] = {
    "columns (the default here)": lambda c: (c[1], c[0]),
    "columns, snaking": lambda c: (c[1], c[0] if c[1] % 2 == 0 else -c[0]),
    "diagonals (r + c, then r)": lambda c: (c[0] + c[1], c[0]),
    "columns from the middle row out": lambda c: (c[1], abs(2 * c[0] - 7), c[0]),
}


def reordered(problem: TilingProblem, key: Callable[[tuple[int, int]], tuple[int, ...]]) -> TilingProblem:
    """The same problem with its cells (bits) in another order: the first blank cell of the search changes."""
    cells = sorted(problem.cells, key=key)
    index = {cell: i for i, cell in enumerate(cells)}
    options = [
        (int(problem.option_piece[o]), [index[problem.cells[c]] for c in problem.option_cells(o)])
        for o in range(problem.n_options)
    ]
    return TilingProblem.from_options(cells, problem.order, problem.pieces, options)


def compile_times() -> tuple[float, float]:
    """Seconds to import, compile and run every kernel once in a fresh process: empty numba cache, then cached."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = []
        for _ in range(2):
            out = subprocess.run(
                [sys.executable, "-c", _COMPILE_PROBE], env=env, capture_output=True, text=True, check=True, cwd=REPO
            )
            runs.append(float(out.stdout.strip().splitlines()[-1]))
    return runs[0], runs[1]


def timed(fn: Callable[[], Any], repeat: int) -> tuple[Any, float, float]:
    """The result of fn and its median wall and CPU seconds over ``repeat`` runs."""
    walls, cpus = [], []
    result = None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return result, statistics.median(walls), statistics.median(cpus)


def load() -> str:
    """The load average over 1, 5 and 15 minutes (timings are noisy when it is above the free cores)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1, 5, 15 min)"


def check(name: str, got: int, want: int) -> str:
    """'ok' or a loud mismatch marker."""
    return "ok" if got == want else f"MISMATCH (expected {want})"


def choices(names: list[str]) -> None:
    """Exact cost of counting all by orbits with each candidate piece pre-placed, in both scan orders, and the
    choice."""
    from gridgames.search.tiling.planning import plan_count
    from gridgames.search.tiling.stepping import Search
    from gridgames.search.tiling.orbits import free_pieces, plan

    boards = {name: (board, PENTOMINOES) for name, (board, _, _) in BOARDS.items()}
    boards["dana-scott"] = (Grid.empty(8, 8), dict(PENTOMINOES, O=TETROMINOES["O"]))
    print(f"counting all by orbits, each candidate piece pre-placed (within 3x the fewest orbits); load {load()}")
    for name in names:
        board, pieces = boards[name]
        built = TilingProblem.build(board, pieces)
        cpu = time.process_time()
        searched, chosen = plan_count(built)
        spent = time.process_time() - cpu
        what = "the plain search" if chosen is None else f"{searched.pieces[chosen.piece].name} pre-placed"
        print(f"  {name}: the estimates chose {searched.order} order, {what} ({spent * 1000:.1f} ms CPU)")
        for order in ("column", "diagonal"):
            problem = built.reordered(order)
            prep = plan(problem, False, "search").prep
            frees = free_pieces(problem)
            fewest = min(len(f.representatives) for f in frees)
            for free in frees:
                if len(free.representatives) > 3 * fewest:
                    continue
                cpu, nodes, found = time.process_time(), 0, 0
                for root in free.representatives:
                    search = Search(prep, mrv=False, prune=True, prefix=(root,), target=-1, store=False, buffer=0)
                    while not search.done:
                        search.step(1 << 24)
                    nodes, found = nodes + search.nodes, found + search.solutions
                print(
                    f"    {order:<9} {problem.pieces[free.piece].name} at {len(free.representatives):3d} placements: "
                    f"{found * free.group:7d} tilings, {nodes:12,d} nodes, {time.process_time() - cpu:7.3f} s CPU",
                    flush=True,
                )


def stages(names: list[str], repeat: int) -> None:
    """CPU time of each stage of the whole job the exact-cover peers are compared on (board and pieces to the count):
    build, plan (`plan_count`: estimates, order, piece), count (symmetry set-up and search); median and least of
    ``repeat`` runs after three warm-up runs on the board."""
    from gridgames.search.tiling.planning import plan_count

    print(f"stages of the whole job, CPU ms, median / least of {repeat} runs after 3 warm-up runs; load {load()}")
    print(f"{'board':<11} {'build':>13} {'plan':>13} {'count':>13} {'job':>13}  nodes      method")
    for name in names:
        board = BOARDS[name][0]
        for _ in range(3):
            count(TilingProblem.build(board, PENTOMINOES))
        times: dict[str, list[float]] = {"build": [], "plan": [], "count": [], "job": []}
        for _ in range(repeat):
            t0 = time.process_time()
            problem = TilingProblem.build(board, PENTOMINOES)
            t1 = time.process_time()
            plan_count(problem)
            t2 = time.process_time()
            result = count(problem)
            t3 = time.process_time()
            for key, spent in zip(times, (t1 - t0, t2 - t1, t3 - t2, t3 - t0)):
                times[key].append(spent * 1000)
        cells = " ".join(f"{statistics.median(v):6.2f}/{min(v):6.2f}" for v in times.values())
        print(
            f"{name:<11} {cells}  {result.nodes:<9,d}  {result.method}  [{check(name, result.count, BOARDS[name][1])}]",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (median), default 3")
    parser.add_argument("--quick", action="store_true", help="skip the reference on 4x15 and the Dana Scott full count")
    parser.add_argument("--no-compile-timing", action="store_true", help="skip the cold/cached compile measurement")
    parser.add_argument(
        "--stages",
        nargs="*",
        help="instead: CPU time of build, plan and count of the whole job, per board "
        "(default all five; --repeat runs each)",
    )
    parser.add_argument(
        "--choices",
        nargs="*",
        help="instead: each piece and order's cost beside the estimates' choice "
        "(boards: 6x10 5x12 4x15 3x20 8x8-centre dana-scott; default 8x8-centre dana-scott)",
    )
    args = parser.parse_args(argv)
    if args.stages is not None:
        stages(args.stages or list(BOARDS), args.repeat)
        return
    if args.choices is not None:
        choices(args.choices or ["8x8-centre", "dana-scott"])
        return
    print(
        f"machine: {platform.machine()} {platform.processor() or ''}, os.cpu_count() = {os.cpu_count()}, "
        f"python {platform.python_version()}, numba {numba.__version__}; timings: one core, median of {args.repeat}"
    )
    print(f"load average before: {load()}")

    if not args.no_compile_timing:
        cold, cached = compile_times()
        print(f"\ncompile + first runs in a fresh process: cold cache {cold:.2f} s, cached {cached:.2f} s")
    warm = TilingProblem.build(Grid.empty(3, 20), PENTOMINOES)
    for kwargs in ({}, {"mrv": True}, {"unique": "canonical"}, {"multiword": True}, {"multiword": True, "mrv": True}):
        count(warm, **kwargs)

    print(f"\n12 pentominoes, first blank cell along the short side, pruning on (the defaults); load {load()}")
    print(
        "all: by the plain search (method='search'); orbits: count() as it is by default (all from the distinct ones);"
    )
    print(
        "first: build + first count() in CPU s, with the one-off symmetry set-up; others: median of repeats, set-up "
        "cached"
    )
    print(
        f"{'board':<11} {'build s':>8} {'all':>6} {'wall s':>8} {'cpu s':>7} {'nodes':>11}   {'orbits':>6} "
        f"{'cpu s':>7} {'first':>6} "
        f"{'nodes':>10}   {'unique':>6} {'cpu s':>7} {'nodes':>10}  method of the orbit count"
    )
    fast: dict[str, float] = {}
    for name, (board, everything, distinct) in BOARDS.items():
        first_cpu = time.process_time()
        problem, build_wall, _ = timed(lambda b=board: TilingProblem.build(b, PENTOMINOES), 1)
        orbit = count(problem)
        first_cpu = time.process_time() - first_cpu
        full, wall, cpu = timed(lambda p=problem: count(p, method="search"), args.repeat)
        orbit, _, ocpu = timed(lambda p=problem: count(p), args.repeat)
        uniq, uwall, ucpu = timed(lambda p=problem: count(p, unique=True), args.repeat)
        fast[name] = wall
        print(
            f"{name:<11} {build_wall:8.3f} {full.count:6d} {wall:8.3f} {cpu:7.3f} {full.nodes:11,d}   {orbit.count:6d} "
            f"{ocpu:7.3f} "
            f"{first_cpu:6.3f} {orbit.nodes:10,d}   {uniq.count:6d} {ucpu:7.3f} {uniq.nodes:10,d}  {orbit.method}  "
            f"[{check(name, full.count, everything)}, {check(name, orbit.count, everything)}, "
            f"{check(name, uniq.count, distinct)}]"
        )

    print("\nreference solver (gridgames/search/backtrack.py, plain Python on a Grid), same process")
    for name in ("3x20",) if args.quick else ("3x20", "4x15"):
        board, everything, _ = BOARDS[name]
        found, wall, cpu = timed(lambda b=board: backtrack.count_solutions(b, PENTOMINOES), 1)
        print(
            f"{name:<11} {found:6d} tilings in {wall:8.2f} s wall ({cpu:.2f} s cpu): "
            f"fast engine is {wall / fast[name]:,.0f}x faster  [{check(name, found, everything)}]"
        )

    print(f"\n6x10 search variants (count all / count unique); load {load()}")
    six = TilingProblem.build(Grid.empty(6, 10), PENTOMINOES)
    # the symmetry set-up (tens of ms) is cached per problem: keep it out of the ratios
    prepare_unique(six, True)
    base = None
    for label, kwargs in (
        ("first blank, prune", {}),
        ("first blank, no prune", {"prune": False}),
        ("MRV (cells and pieces), prune", {"mrv": True}),
        ("MRV, no prune", {"mrv": True, "prune": False}),
        ("multi-word kernel, first blank", {"multiword": True}),
        ("row scan (long side), prune", "row"),
    ):
        problem = TilingProblem.build(Grid.empty(6, 10), PENTOMINOES, order="row") if kwargs == "row" else six
        prepare_unique(problem, True)
        options = {} if kwargs == "row" else kwargs
        full, wall, _ = timed(lambda p=problem, o=options: count(p, method="search", **o), 1)
        uniq, uwall, _ = timed(lambda p=problem, o=options: count(p, unique=True, **o), 1)
        base = base or (wall, uwall)
        print(
            f"  {label:<32} {full.count:5d} {wall:7.3f} s {full.nodes:12,d} nodes ({wall / base[0]:5.2f}x)   "
            f"{uniq.count:5d} {uwall:7.3f} s {uniq.nodes:11,d} nodes ({uwall / base[1]:5.2f}x)"
        )

    print(
        "\nplain search (count all, method='search') by cell order: the bit order decides the first blank cell; load "
        f"{load()}"
    )
    for name in ("6x10", "5x12", "8x8-centre"):
        built = TilingProblem.build(BOARDS[name][0], PENTOMINOES)
        for label, key in CELL_ORDERS.items():
            problem = reordered(built, key)
            full, _, cpu = timed(lambda p=problem: count(p, method="search"), 1)
            print(
                f"  {name:<11} {label:<32} {full.count:6d} {cpu:7.3f} s cpu {full.nodes:12,d} nodes  "
                f"[{check(name, full.count, BOARDS[name][1])}]"
            )

    first, wall, _ = timed(lambda: next(iter(solve(six, limit=1))), args.repeat)
    print(f"\nfirst 6x10 solution: {wall * 1000:.2f} ms (solve(limit=1), problem already built)")
    stream_all, wall, _ = timed(lambda: sum(1 for _ in solve(six)), 1)
    print(f"all 6x10 solutions streamed as Placements: {stream_all} in {wall:.3f} s")

    print("\nboards over 64 cells (multi-word kernel)")
    tromino = [Piece.of(Shape.from_text("###", "I3"), count=22)]
    result, wall, _ = timed(lambda: count(TilingProblem.build(Grid.empty(3, 22), tromino)), 1)
    print(
        f"  3x22 by 22 straight trominoes: {result.count} tilings (a(n) = a(n-1) + a(n-3) gives 2745) in {wall:.3f} s"
    )
    hexo, wall, _ = timed(lambda: count(TilingProblem.build(Grid.empty(6, 35), polyominoes(6))), 1)
    print(
        f"  6x35 by the 35 hexominoes: {hexo.count} tilings, {hexo.nodes} nodes (checkerboard parity) in {wall:.3f} s "
        "incl. build"
    )
    spare = [Piece.of(s) for s in PENTOMINOES.values()] + [Piece.of(Shape.from_text("#", "M"), count=5)]
    many = TilingProblem.build(Grid.empty(5, 13), spare)
    _, wall, _ = timed(lambda: next(iter(solve(many))), 1)
    print(f"  5x13 by the 12 pentominoes and 5 monominoes: first tiling in {wall * 1000:.1f} ms")
    tet = TilingProblem.build(Grid.empty(4, 5), TETROMINOES)
    print(f"  (5 tetrominoes on 4x5: {count(tet).count} tilings, {count(tet).nodes} nodes)")

    dana = dict(PENTOMINOES, O=TETROMINOES["O"])
    scott = TilingProblem.build(Grid.empty(8, 8), dana)
    print("\nDana Scott: the 12 pentominoes and the 2x2 square on 8x8")
    uniq, uwall, _ = timed(lambda: count(scott, unique=True), 1)
    print(f"  distinct: {uniq.count} in {uwall:.2f} s ({uniq.method}, {uniq.nodes:,d} nodes)")
    orbit, owall, ocpu = timed(lambda: count(TilingProblem.build(Grid.empty(8, 8), dana)), 1)
    print(
        f"  all by orbits: {orbit.count} in {owall:.2f} s wall, {ocpu:.2f} s CPU incl. build and set-up "
        f"({orbit.method}, {orbit.nodes:,d} nodes)"
        f"  [{check('scott', orbit.count, 129_168)}]"
    )
    if not args.quick:
        full, wall, _ = timed(lambda: count(scott, method="search"), 1)
        print(
            f"  all by the plain search: {full.count} in {wall:.2f} s ({full.nodes:,d} nodes); all / distinct = "
            f"{full.count / uniq.count:g}"
        )
        canon, cwall, _ = timed(lambda: count(scott, unique="canonical"), 1)
        print(
            f"  distinct by canonicalising every tiling: {canon.count} in {cwall:.2f} s  "
            f"[{check('scott', canon.count, uniq.count)}]"
        )
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
