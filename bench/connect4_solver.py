"""Benchmark of the Connect Four solver on Pascal Pons' test sets (and Steininger's for other board sizes).

Usage: python bench/connect4_solver.py [FILE ...] [--sample N [--first]] [--hard-sample N] [--steininger 7x6|9x5|10x6]
                                       [--weak] [--table-mb M] [--batch] [--jobs N] [--no-compile-timing]
                                       [--explored-out JSON]   (each line's positions explored, to compare runs)
                                       [--peer-python PATH]    (connect-four-ai on the same lines, side by side)
       python bench/connect4_solver.py --empty [WxH ...] [--weak] [--jobs N] [--max-seconds S]   (empty boards)
       python bench/connect4_solver.py --tromp 13                      (who wins, every board with w + h <= 13)

Follows Pons' test protocol: the transposition table is reset before each position (untimed), the time and the
positions explored of solve() are recorded. Prints per set the share of right scores, mean positions explored,
mean time per position, positions per second and the ratio of our mean positions explored to Pons' published
figures for his final solver.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# the shared data sits in "shared" next to the repository (or next to the folder of its git worktrees)
DATA = next(
    (
        folder / "shared" / "bench" / "data" / "connect4"
        for folder in REPO.parents
        if (folder / "shared" / "bench" / "data" / "connect4").is_dir()
    ),
    REPO.parent / "shared" / "bench" / "data" / "connect4",
)

# (file, name, Pons' mean positions explored with his final solver)
PONS_SETS = [
    ("Test_L3_R1", "End-Easy", 51.28),
    ("Test_L2_R1", "Middle-Easy", 449.6),
    ("Test_L2_R2", "Middle-Medium", 39_900),
    ("Test_L1_R1", "Begin-Easy", 3_298),
    ("Test_L1_R2", "Begin-Medium", 1_201_000),
    ("Test_L1_R3", "Begin-Hard", 65_920_000),
]
STEININGER_BOARDS = {"7x6": (7, 6), "9x5": (9, 5), "10x6": (10, 6)}

_COMPILE_PROBE = (
    "import time; t = time.perf_counter(); from gridgames_connect4.solve.solver import Solver; s = Solver();"
    " from gridgames_connect4.solve.solver import parse_pons_moves;"
    " s.solve(parse_pons_moves('2252576253462244111563365343671351441'));"
    " s.best_move([3], max_nodes=50); print(time.perf_counter() - t)"
)


# Runs in the peer's interpreter: connect-four-ai's default Solver on the lines given on stdin, after one untimed solve
# (as our warm-up), the table reset before each (untimed), as we do. That Solver carries the depth-8 book the package
# ships (a line of at most 8 moves is answered from it, 0 positions explored); its Python API has no switch to turn
# the book off. Prints "score explored seconds" per line.
_PEER_SCRIPT = """
import sys, time
from connect_four_ai import Position, Solver
solver = Solver()
lines = sys.stdin.read().split()
solver.solve(Position.from_moves(lines[0]))  # untimed, as our warm-up
for line in lines:
    position = Position.from_moves(line)
    solver.reset()
    start = time.perf_counter()
    score = solver.solve(position)
    elapsed = time.perf_counter() - start
    print(score, solver.explored_positions, elapsed)
"""


def run_peer(python: str, rows: list[tuple[str, int]]) -> dict | None:
    """connect-four-ai's results on the same lines, in a subprocess of its interpreter (None if it fails)."""
    out = subprocess.run(
        [python, "-c", _PEER_SCRIPT], input="\n".join(m for m, _ in rows), capture_output=True, text=True
    )
    if out.returncode != 0:
        print(f"{'':<22} peer failed: {out.stderr.strip().splitlines()[-1:]}", flush=True)
        return None
    results = [line.split() for line in out.stdout.splitlines()]
    right = sum(int(r[0]) == e for r, (_, e) in zip(results, rows))
    return {
        "n": len(rows),
        "right": right,
        "nodes": sum(int(r[1]) for r in results),
        "seconds": sum(float(r[2]) for r in results),
    }


def compile_times() -> tuple[float, float]:
    """Seconds to import and run a first solve in a fresh process: with an empty numba cache, then cached."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = []
        for _ in range(2):
            out = subprocess.run(
                [sys.executable, "-c", _COMPILE_PROBE], env=env, capture_output=True, text=True, check=True, cwd=REPO
            )
            runs.append(float(out.stdout.strip().splitlines()[-1]))
    return runs[0], runs[1]


def sample_lines(path: Path, sample: int | None, first: bool = False) -> list[tuple[str, int]]:
    """The (moves, score) lines of a test file, `sample` of them evenly spread (``first``: the first ones; all when
    None)."""
    rows = []
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            rows.append((moves, int(score)))
    if sample is not None and first:
        return rows[:sample]
    if sample is not None and sample < len(rows):
        step = len(rows) / sample
        rows = [rows[int(i * step)] for i in range(sample)]
    return rows


def load_reference(path: Path | None) -> dict[str, tuple[int, int]]:
    """moves -> (positions explored, microseconds) from the output of Pons' solver ("moves score nodes us")."""
    if path is None:
        return {}
    table = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) >= 4:
            table[fields[0]] = (int(fields[2]), int(fields[3]))
    return table


def run_set(solver, rows, one_based: bool, weak: bool, reference: dict[str, tuple[int, int]]) -> dict:
    """Solve every row with a fresh table; return totals (and the comparison with the reference lines)."""
    right = nodes = 0
    seconds = 0.0
    cpu = time.process_time()
    worst = 0.0
    ref = {"n": 0, "same": 0, "nodes": 0, "ours": 0, "micros": 0, "seconds": 0.0}
    lines = []
    for moves, expected in rows:
        columns = [int(ch) - 1 if one_based else int(ch) for ch in moves]
        solver.reset()
        start = time.perf_counter()
        score = solver.solve(columns, weak=weak)
        elapsed = time.perf_counter() - start
        seconds += elapsed
        worst = max(worst, elapsed)
        nodes += solver.explored
        if weak:
            expected = (expected > 0) - (expected < 0)
        right += score == expected
        lines.append((moves, score, solver.explored))
        if moves in reference:
            ref_nodes, ref_micros = reference[moves]
            ref["n"] += 1
            ref["same"] += ref_nodes == solver.explored
            ref["nodes"] += ref_nodes
            ref["ours"] += solver.explored
            ref["micros"] += ref_micros
            ref["seconds"] += elapsed
    return {
        "n": len(rows),
        "right": right,
        "nodes": nodes,
        "seconds": seconds,
        "worst": worst,
        "ref": ref,
        "cpu": time.process_time() - cpu,
        "lines": lines,
    }


def report(name: str, totals: dict, pons: float | None) -> None:
    n = totals["n"]
    mean_nodes = totals["nodes"] / n
    rate = totals["nodes"] / totals["seconds"] if totals["seconds"] else float("nan")
    ratio = f"{mean_nodes / pons:6.3f}" if pons else "     -"
    print(
        f"{name:<22} {n:>5} {totals['right']:>5}/{n:<5} {mean_nodes:>14,.1f} {ratio}"
        f" {1000 * totals['seconds'] / n:>11.3f} {1000 * totals['worst']:>10.1f} {rate / 1e6:>8.2f}"
        f" {1000 * totals['cpu'] / n:>10.3f}  {load()}",
        flush=True,
    )
    ref = totals["ref"]
    if ref["n"]:
        print(
            f"{'':<22} vs Pons' solver on the same {ref['n']} lines: identical explored counts on {ref['same']},"
            f" explored ratio {ref['ours'] / ref['nodes']:.3f}, his {ref['micros'] / 1000 / ref['n']:.3f}"
            f" ms/position, ours {1000 * ref['seconds'] / ref['n']:.3f}",
            flush=True,
        )


def load() -> str:
    """The 1-minute load average (the machine is shared)."""
    return f"{os.getloadavg()[0]:.1f}"


def header() -> None:
    print(
        f"{'set':<22} {'lines':>5} {'right':>11} {'mean explored':>14} {'/Pons':>6}"
        f" {'ms/position':>11} {'worst ms':>10} {'M pos/s':>8} {'cpu ms/pos':>10}  load"
    )


def warm_up(solver) -> float:
    """Load the compiled kernels and touch every page of the table before timing; the touch's seconds.

    Both are one-time costs of a process. The table's first touch (56 MiB: 50-70 ms in a fresh process here) would
    otherwise land on the first lines timed, End-Easy's, where it is most of their time (55 us a line).
    """
    solver.best_move([], max_nodes=100)
    solver.reset()
    start = time.perf_counter()
    for pages in (solver.driver.table.entries, solver.driver.table.gens):  # zeros are empty entries
        pages.view("uint8")[::4096] = 0
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="test files (Pons format); default: his six sets")
    parser.add_argument("--sample", type=int, default=None, help="lines per set (default: all)")
    parser.add_argument("--hard-sample", type=int, default=100, help="lines of Begin-Hard (default 100)")
    parser.add_argument("--steininger", choices=sorted(STEININGER_BOARDS), help="run Steininger's sets instead")
    parser.add_argument("--only", default="", help="with --steininger: run only files whose name contains this")
    parser.add_argument(
        "--reference",
        type=Path,
        default=None,
        help="per-line output of Pons' own solver (moves score nodes micros) on the same lines:"
        " compare explored counts line by line",
    )
    parser.add_argument("--weak", action="store_true", help="weak solve (compare signs only)")
    parser.add_argument("--table-bits", type=int, default=None, help="about 2^B table entries (8 bytes each)")
    parser.add_argument("--table-mb", type=float, default=None, help="table size in MiB (default 56)")
    parser.add_argument("--batch", action="store_true", help="also time solve_many on each set (one compiled call)")
    parser.add_argument("--empty", nargs="*", default=None, metavar="WxH", help="solve empty boards (default 7x6)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="searchers on one position (Solver(jobs=N): helper threads, one table)"
    )
    parser.add_argument("--first", action="store_true", help="--sample takes the first lines, not evenly spread ones")
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=None,
        help="with --empty: stop a solve after this many seconds and report it unfinished",
    )
    parser.add_argument(
        "--tromp",
        type=int,
        default=None,
        metavar="N",
        help="weak-solve the empty board of every size with 4 <= w, h and w + h <= N",
    )
    parser.add_argument(
        "--peer-python",
        default=None,
        metavar="PATH",
        help="a Python with connect-four-ai installed: run its solver on the same lines (subprocess)",
    )
    parser.add_argument(
        "--shipped-book", action="store_true", help="Pons' sets with the shipped 7x6 book in the search"
    )
    parser.add_argument("--no-compile-timing", action="store_true", help="skip the cold/cached compile probe")
    parser.add_argument(
        "--explored-out",
        type=Path,
        default=None,
        metavar="JSON",
        help="write each line's score and positions explored (per set) to this file, to compare runs",
    )
    args = parser.parse_args()

    from gridgames_connect4.solve.solver import Solver
    from gridgames.errors import SolverError

    print(f"cores (os.cpu_count): {os.cpu_count()}   python {sys.version.split()[0]}   load {load()}", flush=True)
    if args.empty is not None or args.tromp is not None:
        boards = (
            ([tuple(map(int, b.split("x"))) for b in args.empty] or [(7, 6)])
            if args.empty is not None
            else [(w, h) for h in range(4, args.tromp - 3) for w in range(4, args.tromp - h + 1)]
        )
        weak = args.weak or args.tromp is not None
        print(f"jobs {args.jobs} (cpu s: every thread of the process)")
        print(
            f"{'board':<6} {'mode':<6} {'score':>5} {'explored':>15} {'wall s':>8} {'cpu s':>8} {'M pos/cpu-s':>11}  "
            "load"
        )
        for width, height in boards:
            solver = Solver(width, height, table_bits=args.table_bits, table_mb=args.table_mb, jobs=args.jobs)
            # compile outside the timing, on a small board with the same layout (a few discs on a big board can
            # take longer than the empty board of a small one)
            warm = Solver(4, 4, table_bits=12, two_words=solver.driver.words == 2)
            warm.solve_many([[0, 1]])
            warm.solve([0, 1])  # the resumable kernel too (the path of jobs > 1 and --max-seconds)
            deadline = None if args.max_seconds is None else time.time() + args.max_seconds
            last = [time.time()]

            def watch(progress, deadline=deadline, last=last) -> bool:
                if time.time() - last[0] >= 60:
                    last[0] = time.time()
                    print(
                        f"  ... {progress.explored:,} positions, {progress.seconds:.0f} s, window "
                        f"[{progress.lo}, {progress.hi}], load {load()}",
                        file=sys.stderr,
                        flush=True,
                    )
                return deadline is None or time.time() < deadline

            wall, cpu = time.perf_counter(), time.process_time()
            score = solver.solve_within([], weak=weak, on_progress=watch)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            shown = "  n/a" if score is None else f"{score:>+5d}"
            print(
                f"{width}x{height:<4} {'weak' if weak else 'strong':<6} {shown} {solver.explored:>15,d}"
                f" {wall:>8.2f} {cpu:>8.2f} {solver.explored / max(cpu, 1e-9) / 1e6:>11.2f}  {load()}",
                flush=True,
            )
            if score is None:
                print(f"  {width}x{height}: not finished within --max-seconds {args.max_seconds:g}", flush=True)
        return
    if not args.no_compile_timing:
        cold, cached = compile_times()
        print(f"numba import + first solve: cold compile {cold:.2f} s, cached {cached:.2f} s", flush=True)

    if args.steininger:
        width, height = STEININGER_BOARDS[args.steininger]
        folder = DATA / "steininger" / args.steininger
        try:
            solver = Solver(width, height, table_bits=args.table_bits, table_mb=args.table_mb, jobs=args.jobs)
        except SolverError as exc:
            print(f"steininger {args.steininger}: unsupported: {exc}")
            return
        jobs = [
            (f"{args.steininger} {p.stem}", p, None, False) for p in sorted(folder.glob("*.txt")) if args.only in p.stem
        ]
    else:
        book = None
        if args.shipped_book:
            from gridgames_connect4.solve.book import default_book

            book = default_book(7, 6, 4)
            print(f"the shipped 7x6 book: depth {book.depth}, {len(book):,} positions" if book else "no shipped book")
        solver = Solver(table_bits=args.table_bits, table_mb=args.table_mb, book=book, jobs=args.jobs)
        if args.files:
            known = {f: (name, pons) for f, name, pons in PONS_SETS}
            jobs = [(*known.get(p.name, (p.name, None)), True) for p in args.files]
            jobs = [(name, p, pons, one) for (name, pons, one), p in zip(jobs, args.files)]
        else:
            jobs = [(name, DATA / f, pons, True) for f, name, pons in PONS_SETS]
    print(
        f"board {solver.width}x{solver.height} connect {solver.connect}, table {solver.table_entries:,d} entries"
        f" ({solver.table_bytes / 2**20:.1f} MiB), reset per position, {'weak' if args.weak else 'strong'},"
        f" jobs {args.jobs}"
    )
    reference = load_reference(args.reference)
    peer_python = args.peer_python
    if peer_python is None:
        print("connect-four-ai column skipped (give --peer-python PATH, a Python with connect-four-ai installed)")
    print(f"the table's first touch, before timing: {1000 * warm_up(solver):.0f} ms")
    header()
    explored: dict[str, list[tuple[str, int, int]]] = {}
    for name, path, pons, one_based in jobs:
        if not path.exists():
            print(f"{name:<22} missing: {path}")
            continue
        sample = args.hard_sample if name == "Begin-Hard" else args.sample
        if sample == 0:
            continue
        rows = sample_lines(path, sample, args.first)
        totals = run_set(solver, rows, one_based, args.weak, reference)
        report(name, totals, None if args.weak else pons)
        explored[name] = totals["lines"]
        if args.explored_out is not None:
            args.explored_out.write_text(json.dumps(explored) + "\n", encoding="utf-8")
        batch_ms = None
        if args.batch:
            positions = [[int(ch) - 1 if one_based else int(ch) for ch in moves] for moves, _ in rows]
            start = time.perf_counter()
            scores = solver.solve_many(positions, weak=args.weak)
            seconds = time.perf_counter() - start
            batch_ms = 1000 * seconds / len(rows)
            right = sum(s == ((e > 0) - (e < 0) if args.weak else e) for s, (_, e) in zip(scores, rows))
            print(
                f"{'':<22} solve_many: {right}/{len(rows)} right, {batch_ms:.3f} ms/position,"
                f" mean explored {solver.explored / len(rows):,.1f}",
                flush=True,
            )
        if peer_python and one_based and not args.weak:
            peer = run_peer(peer_python, rows)
            if peer is not None:
                ours = 1000 * totals["seconds"] / len(rows)
                theirs = 1000 * peer["seconds"] / peer["n"]
                batch = f", solve_many {batch_ms:.3f} ms ({batch_ms / theirs:.2f}x)" if batch_ms is not None else ""
                print(
                    f"{'':<22} connect-four-ai: {peer['right']}/{peer['n']} right, {theirs:.3f} ms/position,"
                    f" mean explored {peer['nodes'] / peer['n']:,.1f}; ours/peer: solve {ours:.3f} ms"
                    f" ({ours / theirs:.2f}x){batch}  load {load()}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
