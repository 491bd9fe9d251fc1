"""Benchmark of the generic exact-cover engine (gridgames.search.exact_cover) on known problems.

Usage: python bench/exact_cover.py [--big] [--repeat N]

Counts the solutions of n queens (rows and columns primary, diagonals secondary),
pentomino tilings of 3x20 and 4x15 (with --big also 5x12 and 6x10) and domino
tilings, checks each count against the known one, and prints the median time, the
search-tree nodes and nodes per second. The reference, run in the same process on
the smaller problems, is a plain-Python Algorithm X (dicts of sets, most-constrained
item first); the ratio is reference time / engine time. If the `xcover` package
(a numba "dancing cells" solver) is importable it is timed as a second reference.
The first line gives the time to load (or compile) the numba kernel.

``--peers`` instead times our tiling engine (count all: by orbits, the default, and by the
plain search) beside the exact-cover packages installed from PyPI (xcover, miniexact, pyxcc,
exact_cover: each given the same matrix of cells + 12 pieces, each in a fresh process with a
time limit) on the tiling benchmark's boards and Dana Scott's, in CPU seconds, with ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gridgames.search.exact_cover import ExactCover
from gridgames.shapes import Shape

PENTOMINOES = {
    "F": ".XX/XX./.X.",
    "I": "XXXXX",
    "L": "XXXX/X...",
    "N": "XX../.XXX",
    "P": "XX/XX/X.",
    "T": "XXX/.X./.X.",
    "U": "X.X/XXX",
    "V": "X../X../XXX",
    "W": "X../XX./.XX",
    "X": ".X./XXX/.X.",
    "Y": "XXXX/.X..",
    "Z": "XX./.X./.XX",
}


def queens(n: int) -> ExactCover:
    """N queens: rows and columns primary, diagonals secondary."""
    options = [[r, n + c, 2 * n + r + c, 4 * n - 1 + r - c + n - 1] for r in range(n) for c in range(n)]
    return ExactCover.from_options(options, primary=2 * n, secondary=2 * (2 * n - 1))


def _orientations(picture: str) -> set[tuple[tuple[int, int], ...]]:
    """The fixed orientations of a picture ('X' a square, '/' between rows), from the shared `Shape`."""
    return {o.cells for o in Shape.from_text(picture.replace("/", "\n")).orientations()}


def pentominoes(height: int, width: int) -> ExactCover:
    """The 12 pentominoes, each once, tiling a rectangle."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    options = []
    for name, picture in PENTOMINOES.items():
        for shape in sorted(_orientations(picture)):
            for r in range(height):
                for c in range(width):
                    placed = [(r + dr, c + dc) for dr, dc in shape]
                    if all(pr < height and pc < width for pr, pc in placed):
                        options.append((name, [name, *placed]))
    return ExactCover.from_items([*PENTOMINOES, *cells], options)


def dominoes(height: int, width: int) -> ExactCover:
    """Domino tilings of a rectangle."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    options = [
        (i, [(r, c), (r + dr, c + dc)])
        for i, (r, c) in enumerate(cells)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < height and c + dc < width
    ]
    return ExactCover.from_items(cells, options)


def reference_count(problem: ExactCover) -> int:
    """Plain-Python Algorithm X with dicts of sets (most-constrained item first)."""
    columns: dict[int, set[int]] = {i: set() for i in range(problem.num_items)}
    for k, option in enumerate(problem.options):
        for item in option:
            columns[item].add(k)
    primary = set(range(problem.num_primary))
    rows = problem.options

    def select(k: int) -> list[set[int]]:
        removed = []
        for item in rows[k]:
            for other in columns[item]:
                for j in rows[other]:
                    if j != item:
                        columns[j].discard(other)
            removed.append(columns.pop(item))
        return removed

    def deselect(k: int, removed: list[set[int]]) -> None:
        for item in reversed(rows[k]):
            columns[item] = removed.pop()
            for other in columns[item]:
                for j in rows[other]:
                    if j != item:
                        columns[j].add(other)

    def search() -> int:
        open_items = [i for i in primary if i in columns]
        if not open_items:
            return 1
        item = min(open_items, key=lambda i: len(columns[i]))
        total = 0
        for k in list(columns[item]):
            removed = select(k)
            total += search()
            deselect(k, removed)
        return total

    return search()


def _median_time(run: Callable[[], int], repeat: int) -> tuple[float, int]:
    times, value = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


def _xcover() -> Callable[[ExactCover], int] | None:
    try:
        import xcover  # type: ignore[import-not-found]
    except ImportError:
        return None

    def count(problem: ExactCover) -> int:
        names = [f"i{i}" for i in range(problem.num_items)]
        options = [[names[i] for i in option] for option in problem.options]
        return sum(
            1
            for _ in xcover.covers(
                options, primary=names[: problem.num_primary], secondary=names[problem.num_primary :]
            )
        )

    return count


# --- the peers: installable exact-cover packages on the tiling benchmark's boards -------------------

Rows = list[list[str]]


def _peer_xcover(items: list[str], rows: Rows) -> int:
    import xcover  # type: ignore[import-not-found]

    return sum(1 for _ in xcover.covers(rows, primary=items))


def _peer_miniexact(items: list[str], rows: Rows) -> int:
    import miniexact  # type: ignore[import-not-found]

    solver = miniexact.miniexacts_x()  # Algorithm X, dancing links, in C
    ids = {name: solver.primary(name) for name in items}
    for row in rows:
        for name in row:
            solver.add(ids[name])
        solver.add(0)  # ends the option
    found = 0
    while solver.solve() == 10:  # 10: a solution, 20: no more
        found += 1
    return found


def _peer_pyxcc(items: list[str], rows: Rows) -> int:
    import pyxcc  # type: ignore[import-not-found]

    problem = pyxcc.Problem(items, [], [pyxcc.Option(f"o{i}", row, []) for i, row in enumerate(rows)])
    return int(pyxcc.solve(problem, True).count())


def _without_bench_dir() -> list[str]:
    """sys.path without this folder, whose exact_cover.py (this file) hides the package of that name."""
    here = Path(__file__).resolve().parent
    return [p for p in sys.path if Path(p or ".").resolve() != here]


def _peer_exact_cover(items: list[str], rows: Rows) -> int:
    import numpy as np

    sys.path[:] = _without_bench_dir()
    import exact_cover  # type: ignore[import-not-found]

    index = {name: i for i, name in enumerate(items)}
    matrix = np.zeros((len(rows), len(items)), dtype=bool)
    for r, row in enumerate(rows):
        matrix[r, [index[name] for name in row]] = True
    return int(exact_cover.get_solution_count(matrix))


PEERS = {"xcover": _peer_xcover, "miniexact": _peer_miniexact, "pyxcc": _peer_pyxcc, "exact_cover": _peer_exact_cover}
"""Counting functions of the exact-cover packages on PyPI that install here (pip install xcover miniexact pyxcc
exact-cover)."""


def tiling_matrix(board: object, pieces: object) -> tuple[list[str], Rows]:
    """The exact-cover matrix of a tiling: items are the cells and the pieces (each used once), rows the placements."""
    from gridgames.search.tiling import TilingProblem

    problem = TilingProblem.build(board, pieces)  # type: ignore[arg-type]
    items = [f"c{i}" for i in range(problem.n_cells)] + list(problem.piece_names)
    rows = [
        [f"c{c}" for c in problem.option_cells(o)] + [problem.piece_names[problem.option_piece[o]]]
        for o in range(problem.n_options)
    ]
    return items, rows


WARM_UP = (["a", "b", "c"], [["a"], ["b", "c"], ["a", "b"], ["c"]])
"""A tiny exact cover (2 solutions) each peer solves before it is timed: its import and any compilation or cache
loading (xcover is numba) are left out, as our kernels' are (they are loaded before ours is timed)."""


REPEAT_BELOW = 1.0
"""A run of under this many CPU seconds (ours or a peer's) is run twice more and the median is reported: at a few ms,
one run on the shared VM can take twice its usual time (3x20: ours 6 ms once, 2.5-3 ms as a rule)."""


def median_run(run: Callable[[], tuple[int, float, float]]) -> tuple[int, float, float]:
    """``run()`` -> (result, cpu, wall) once, or three times when it took under `REPEAT_BELOW` CPU seconds: the
    result, and the median CPU and wall seconds."""
    runs = [run()]
    if runs[0][1] < REPEAT_BELOW:
        runs += [run(), run()]
    return runs[-1][0], statistics.median(r[1] for r in runs), statistics.median(r[2] for r in runs)


def _run_peer(name: str, items: list[str], rows: Rows, queue: object) -> None:
    """In a child process: count with one peer, report (count, cpu seconds, wall seconds) or the error.

    The peer is imported and warmed up on `WARM_UP` first; the clock then runs from the matrix (items and rows,
    as lists of names) to the count: the peer's own set-up of its data structures and its search (`median_run`).
    """

    def run() -> tuple[int, float, float]:
        cpu, wall = time.process_time(), time.perf_counter()
        found = PEERS[name](items, rows)
        return found, time.process_time() - cpu, time.perf_counter() - wall

    try:
        PEERS[name](*WARM_UP)
        queue.put(median_run(run))  # type: ignore[attr-defined]
    except Exception as error:  # a peer that fails is reported, not fatal
        queue.put((None, 0.0, f"{type(error).__name__}: {error}"))  # type: ignore[attr-defined]


def time_peer(name: str, items: list[str], rows: Rows, limit: float) -> tuple[int | None, float, float | str]:
    """A peer's count and CPU and wall seconds, in a fresh process stopped after ``limit`` seconds (count None)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_run_peer, args=(name, items, rows, queue))
    process.start()
    process.join(limit)
    if process.is_alive():
        process.kill()
        process.join()
        return None, limit, f"> {limit:.0f} s"
    return queue.get() if not queue.empty() else (None, 0.0, "died")


def peers_on_tiling_boards(limit: float, boards: list[str] | None = None) -> None:
    """Our engine (count all, by orbits and by the plain search) beside each peer on the tiling benchmark's boards."""
    from gridgames.game import CountResult
    from gridgames.grid import Grid
    from gridgames.search.tiling import TilingProblem, count
    from gridgames.shapes import PENTOMINOES as SHAPES, TETROMINOES

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from tiling import BOARDS  # type: ignore[import-not-found]

    cases = {name: (board, dict(SHAPES), everything) for name, (board, everything, _) in BOARDS.items()}
    cases["dana-scott"] = (Grid.empty(8, 8), dict(SHAPES, O=TETROMINOES["O"]), 129_168)
    count(TilingProblem.build(Grid.empty(3, 20), SHAPES))  # load the kernels
    available = [name for name in PEERS if _importable(name)]
    print(
        f"peers installed: {', '.join(available) or 'none'}; each in a fresh process, stopped after {limit:.0f} s; CPU "
        "seconds"
    )
    print(
        "peers: from the matrix (cell and piece names) to the count, after import and a warm-up on a tiny matrix (not "
        "timed)"
    )
    print(
        "ours: from the board and pieces to the count: build the problem + count all (count() as it is: by orbits when "
        "a"
    )
    print(
        "      piece can be pre-placed, order and piece chosen by Knuth's estimates); plain: the same by the plain "
        "search;"
    )
    print("      'w/o build': the count alone, the problem built (our kernels are loaded before anything is timed)")
    print(f"both: a run under {REPEAT_BELOW:.0f} s CPU is run twice more and the median is given")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'board':<11} {'count':>7} {'ours':>7} {'plain':>7}  "
        + "  ".join(f"{n:>14}" for n in available)
        + "  best peer / ours, / ours w/o build (/ plain)  ours by"
    )
    for name in boards or list(cases):
        board, pieces, known = cases[name]
        builds: list[float] = []

        def job(method: str = "auto") -> tuple[CountResult, float, float]:
            cpu = time.process_time()
            problem = TilingProblem.build(board, pieces)
            builds.append(time.process_time() - cpu)
            # includes the symmetry set-up and the plan (once per problem)
            found = count(problem, method=method)
            return found, time.process_time() - cpu, 0.0

        ours, ours_cpu, _ = median_run(job)
        searched = ours_cpu - statistics.median(builds)
        plain, plain_cpu, _ = median_run(lambda: job("search"))
        items, rows = tiling_matrix(board, pieces)
        cells, best = [], None
        for peer in available:
            found, seconds, wall = time_peer(peer, items, rows, limit)
            if found is None:
                cells.append(f"{wall if isinstance(wall, str) else 'failed':>14}")
                best = min(best or limit, limit) if isinstance(wall, str) and wall.startswith(">") else best
                continue
            cells.append(f"{seconds:>9.3f}{'' if found == known else ' (!=)':>5}")
            best = seconds if best is None else min(best, seconds)
        ok = "ok" if ours.count == plain.count == known else "MISMATCH"
        ratio = (
            f"{best / ours_cpu:>6.1f}x {best / searched:>6.1f}x  ({best / plain_cpu:>6.1f}x)" if best else f"{'-':>10}"
        )
        how = "orbits" if ours.method.startswith("all by orbits") else "search"
        print(
            f"{name:<11} {ours.count:>7} {ours_cpu:>7.4f} {plain_cpu:>7.4f}  "
            + "  ".join(cells)
            + f"  {ratio}  {how} [{ok}]",
            flush=True,
        )


def _importable(name: str) -> bool:
    import importlib.machinery

    return importlib.machinery.PathFinder.find_spec(name, _without_bench_dir()) is not None


def main(argv: Iterable[str] | None = None) -> None:
    """Run the benchmark and print one line per problem."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="also 5x12 and 6x10 pentominoes (tens of seconds)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per problem (median reported)")
    parser.add_argument(
        "--peers",
        action="store_true",
        help="instead: our tiling engine beside the exact-cover packages installed, on the tiling boards",
    )
    parser.add_argument(
        "--limit", type=float, default=300.0, help="seconds a peer may take on one board (--peers), default 300"
    )
    parser.add_argument(
        "--boards", nargs="*", help="with --peers: only these boards (6x10 5x12 4x15 3x20 8x8-centre dana-scott)"
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.peers:
        peers_on_tiling_boards(args.limit, args.boards)
        return

    print(f"cores: {os.cpu_count()}  python {sys.version.split()[0]}")
    started = time.perf_counter()
    queens(4).count()
    print(f"kernel load or compile: {time.perf_counter() - started:.2f} s")

    problems: list[tuple[str, Callable[[], ExactCover], int, bool]] = [
        ("queens 8", lambda: queens(8), 92, True),
        ("queens 10", lambda: queens(10), 724, True),
        ("queens 12", lambda: queens(12), 14_200, False),
        ("queens 13", lambda: queens(13), 73_712, False),
        ("dominoes 6x6", lambda: dominoes(6, 6), 6_728, True),
        ("dominoes 8x8", lambda: dominoes(8, 8), 12_988_816, False),
        ("pentominoes 3x20", lambda: pentominoes(3, 20), 8, True),
        ("pentominoes 4x15", lambda: pentominoes(4, 15), 1_472, False),
    ]
    if args.big:
        problems += [
            ("pentominoes 5x12", lambda: pentominoes(5, 12), 4_040, False),
            ("pentominoes 6x10", lambda: pentominoes(6, 10), 9_356, False),
        ]
    xcover_count = _xcover()
    print(
        f"{'problem':<18} {'count':>11} {'ok':>3} {'seconds':>8} {'nodes':>11} {'nodes/s':>10} {'python ref':>10} "
        f"{'ratio':>7}" + ("  xcover  ratio" if xcover_count else "")
    )
    for name, build, known, with_reference in problems:
        problem = build()
        seconds, found = _median_time(lambda: problem.count().count, args.repeat)
        nodes = problem.count().nodes
        line = (
            f"{name:<18} {found:>11,} {'yes' if found == known else 'NO':>3} {seconds:>8.3f} {nodes:>11,} "
            f"{nodes / seconds:>10,.0f}"
        )
        if with_reference:
            ref_seconds, ref_found = _median_time(lambda: reference_count(problem), 1)
            assert ref_found == known, f"the reference counts {ref_found} for {name}"
            line += f" {ref_seconds:>10.3f} {ref_seconds / seconds:>7.1f}"
        else:
            line += f" {'-':>10} {'-':>7}"
        if xcover_count is not None:
            x_seconds, x_found = _median_time(lambda: xcover_count(problem), 1)
            line += f"  {x_seconds:>6.3f} {x_seconds / seconds:>6.2f}" + (
                "" if x_found == known else " (xcover count differs!)"
            )
        print(line, flush=True)


if __name__ == "__main__":
    main()
