"""Whole processes timed from outside: ``gridgames connect4 analyze MOVES --json`` against connect-four-ai's process.

Usage: python bench/startup.py --peer-python PATH [--gridgames PATH] [--pairs 7] [--per-ply 3] [--no-plies]

Each measurement is one fresh process; its CPU seconds (user + system) and peak resident memory come from the
kernel (``os.wait4``: the child's own rusage), its wall time from the clock around it. Ours and the peer's
alternate (who goes first alternates too) so that both see the same load; the load average is printed before
and after. Bytecode is cached as in a user's install (PYTHONDONTWRITEBYTECODE is dropped for the children).

* Book answers: positions our shipped book answers (fewer discs than its depth), ``--pairs`` pairs each; the
  median CPU, wall and peak memory of each side and the ratios.
* Every ply: ``--per-ply`` seeded random positions of each ply 1-40 (120 by default) plus the empty board, one
  pair each; medians per band of plies. Ours is our book or our solver (kernels built ahead of time: one warm-up
  run first), the peer's its book (depth 8) or its solver. The columns of both are compared.

The peer's process: ``PEER_SCRIPT`` below in the peer's interpreter (connect-four-ai's ``Solver`` with its
pre-packaged book, ``get_all_move_scores`` of the position, printed as JSON): the same answer (every column's score).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PEER_SCRIPT = """\
import json, sys
from connect_four_ai import Position, Solver
moves = sys.argv[1] if len(sys.argv) > 1 else ""
print(json.dumps({"columns": Solver().get_all_move_scores(Position.from_moves(moves))}))
"""

BOOK_POSITIONS = ["", "4", "44", "4453", "43", "3452", "444444", "12345", "445533", "123456712"]
BANDS = [(0, 7), (8, 12), (13, 20), (21, 30), (31, 41)]


def run(argv: list[str], timeout: float) -> tuple[float, float, float, str]:
    """One fresh process: (CPU seconds, wall seconds, peak resident MiB, standard output)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, env=env, cwd=tempfile.gettempdir())
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.001)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, text


def random_position(ply: int, seed: int) -> str:
    """A seeded random 7x6 position of ``ply`` discs that is not over, where the side to move cannot win at once."""
    from gridgames_connect4.position.rules import Connect4

    rng = random.Random(seed)
    while True:
        state = Connect4().new_state()
        while len(state.history) < ply and not state.is_over:
            state.play(rng.choice(list(state.legal_moves())))
        if state.is_over or len(state.history) != ply:
            continue
        winning = any(_wins_at_once(state, c) for c in state.legal_moves())
        # (connect-four-ai's solver assumes no immediate win; such positions are trivial anyway)
        if not winning:
            return state.notation()


def _wins_at_once(state: object, column: int) -> bool:
    child = state.copy()  # type: ignore[attr-defined]
    child.play(column)
    return child.outcome is not None and child.outcome.winner is not None


def pair(
    ours: list[str], peer: list[str], index: int, timeout: float
) -> tuple[tuple[float, ...], tuple[float, ...], str, str]:
    """Ours and the peer's process, the order alternating with ``index``."""
    if index % 2:
        b = run(peer, timeout)
        a = run(ours, timeout)
    else:
        a = run(ours, timeout)
        b = run(peer, timeout)
    return a[:3], b[:3], a[3], b[3]


PEER_LOOKUPS = """\
import json, sys, time
from connect_four_ai import Position, Solver
solver = Solver()
positions = [Position.from_moves(m) for m in json.loads(sys.argv[1])]
for p in positions:
    solver.solve(p)
best = None
for _ in range(5):
    start = time.perf_counter()
    for p in positions:
        solver.solve(p)
    t = (time.perf_counter() - start) / len(positions)
    best = t if best is None else min(best, t)
lines = json.loads(sys.argv[1])
start = time.perf_counter()
for m in lines:
    solver.solve(Position.from_moves(m))
with_moves = (time.perf_counter() - start) / len(lines)
print(json.dumps({"solve": best, "explored": solver.explored_positions, "with_moves": with_moves}))
"""


def lookups(peer_python: str) -> None:
    """In-process lookups: ours (score_of_key, score, column_scores, scores_of_keys batched) and connect-four-ai's
    ``Solver.solve`` on positions both books hold (8 discs), each the best of 5 passes over the positions; each
    per call in a list comprehension, as the peer's, and the cost of calling an empty Python function so."""
    import numpy as np

    from gridgames_connect4.solve.book import default_book

    book = default_book()
    assert book is not None
    lines = [random_position(8, 500 + i) for i in range(400)]
    moves = [[int(c) - 1 for c in line] for line in lines]
    geometry = book.geometry
    keys = [geometry.canonical(sum(geometry.replay(m)[:2])) for m in moves]
    keys = [k for k in keys if book.score_of_key(k) is not None]  # (warms the index: > 256 lookups)
    wanted = np.array(keys, dtype=np.uint64)

    def best(call: object, count: int) -> float:
        times = []
        for _ in range(5):
            start = time.perf_counter()
            call()  # type: ignore[operator]
            times.append((time.perf_counter() - start) / count)
        return min(times)

    many = book.keys[np.random.default_rng(5).integers(0, len(book), 40_000)]

    def nothing(key: int) -> None:
        return None

    ours = {
        "an empty Python function (the floor of a call)": best(lambda: [nothing(k) for k in keys], len(keys)),
        "score_of_key (one key)": best(lambda: [book.score_of_key(k) for k in keys], len(keys)),
        "score (moves: replay + key + lookup)": best(lambda: [book.score(m) for m in moves], len(moves)),
        "column_scores (every column)": best(lambda: [book.column_scores(m[:7]) for m in moves], len(moves)),
        "scores_of_keys (batched, per key)": best(lambda: book.scores_of_keys(wanted), len(keys)),
        "scores_of_keys (40,000 random entries, per key)": best(lambda: book.scores_of_keys(many), len(many)),
    }
    out = subprocess.run(
        [peer_python, "-c", PEER_LOOKUPS, json.dumps(lines)], capture_output=True, text=True, check=True
    )
    peer = json.loads(out.stdout)
    print(f"cores: {os.cpu_count()}, load average: {load()}; {len(keys)} keys of 8-disc positions in our book")
    for name, seconds in ours.items():
        print(f"  ours {name:<40} {seconds * 1e6:8.2f} us")
    print(
        f"  connect-four-ai Solver.solve (its book, 8 discs)     {peer['solve'] * 1e6:8.2f} us "
        f"(explored {peer['explored']} on the last)"
    )
    print(f"  connect-four-ai Position.from_moves + Solver.solve    {peer['with_moves'] * 1e6:8.2f} us")


def med(runs: list[tuple[float, ...]], k: int) -> float:
    """The median of item ``k`` of the runs."""
    return statistics.median(r[k] for r in runs)


def columns_of(text: str) -> list[int | None] | None:
    try:
        return json.loads(text)["columns"]
    except (ValueError, KeyError, TypeError):
        return None


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gridgames", default=shutil.which("gridgames"), help="our console script (default: on PATH)")
    parser.add_argument("--peer-python", required=True, help="a Python with connect-four-ai installed")
    parser.add_argument("--pairs", type=int, default=7, help="pairs per book position")
    parser.add_argument("--per-ply", type=int, default=3, help="seeded positions of each ply 1-40")
    parser.add_argument("--no-plies", action="store_true", help="only the book answers")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a process may take")
    # (the child that lists them)
    parser.add_argument("--positions", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--lookups", action="store_true", help="in-process book lookups against the peer's")
    args = parser.parse_args()
    # in a child process: this one stays small (a child's peak memory starts at its parent's)
    if args.positions:
        deep = random_position(14, 1)
        plies = [(0, "")] + [
            (ply, random_position(ply, 1000 * ply + i)) for ply in range(1, 41) for i in range(args.positions)
        ]
        print(json.dumps({"deep": deep, "plies": plies}))
        return
    if args.lookups:
        lookups(args.peer_python)
        return
    script = Path(tempfile.gettempdir()) / "gridgames_bench_peer_analyze.py"
    script.write_text(PEER_SCRIPT)

    def ours(moves: str) -> list[str]:
        return [args.gridgames, "connect4", "analyze", moves, "--json"]

    def peer(moves: str) -> list[str]:
        return [args.peer_python, str(script), moves]

    print(f"cores: {os.cpu_count()}, load average before: {load()}")
    print(f"ours: {args.gridgames} ({sys.version.split()[0]} here); peer: {args.peer_python} {script.name}")
    listed = json.loads(
        subprocess.run(
            [sys.executable, __file__, "--peer-python", args.peer_python, "--positions", str(args.per_ply)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    # beyond both books: the warm-up builds our kernels ahead of time, caches bytecode
    deep = listed["deep"]
    run(ours(deep), args.timeout)
    run(peer(deep), args.timeout)

    print(f"\nBook answers ({args.pairs} pairs each, alternating; medians): CPU ms, wall ms, peak MiB")
    print(
        f"{'moves':<10} {'ours cpu':>8} {'peer cpu':>8} {'ratio':>6}   {'ours wall':>9} {'peer wall':>9}   "
        f"{'ours MiB':>8} {'peer MiB':>8}"
    )
    all_ratios, ours_all, peer_all = [], [], []
    for moves in BOOK_POSITIONS:
        a_runs, b_runs = [], []
        for i in range(args.pairs):
            a, b, out_a, out_b = pair(ours(moves), peer(moves), i, args.timeout)
            a_runs.append(a)
            b_runs.append(b)
            if columns_of(out_a) != columns_of(out_b):
                print(f"  columns differ on {moves!r}: ours {columns_of(out_a)}, peer {columns_of(out_b)}")
        ratio = med(a_runs, 0) / med(b_runs, 0)
        all_ratios.append(ratio)
        ours_all += a_runs
        peer_all += b_runs
        print(
            f"{moves or '(empty)':<10} {1000 * med(a_runs, 0):8.1f} {1000 * med(b_runs, 0):8.1f} {ratio:6.2f}   "
            f"{1000 * med(a_runs, 1):9.1f} {1000 * med(b_runs, 1):9.1f}   "
            f"{med(a_runs, 2):8.1f} {med(b_runs, 2):8.1f}"
        )
    print(
        f"{'all':<10} {1000 * med(ours_all, 0):8.1f} {1000 * med(peer_all, 0):8.1f} "
        f"{med(ours_all, 0) / med(peer_all, 0):6.2f}   "
        f"{1000 * med(ours_all, 1):9.1f} {1000 * med(peer_all, 1):9.1f}   "
        f"{med(ours_all, 2):8.1f} {med(peer_all, 2):8.1f}   (peak MiB: max ours {max(r[2] for r in ours_all):.1f}, "
        f"peer {max(r[2] for r in peer_all):.1f})"
    )
    print(f"load average: {load()}")
    if args.no_plies:
        return

    positions = [tuple(item) for item in listed["plies"]]
    print(f"\nEvery ply: {len(positions)} seeded positions (plies 0-40), one alternating pair each; medians per band")
    by_band: dict[tuple[int, int], list[tuple[tuple[float, ...], tuple[float, ...]]]] = {band: [] for band in BANDS}
    differ = 0
    for i, (ply, moves) in enumerate(positions):
        a, b, out_a, out_b = pair(ours(moves), peer(moves), i, args.timeout)
        if columns_of(out_a) != columns_of(out_b):
            differ += 1
            print(f"  columns differ on {moves!r}: ours {columns_of(out_a)}, peer {columns_of(out_b)}")
        band = next(band for band in BANDS if band[0] <= ply <= band[1])
        by_band[band].append((a, b))
        print(
            f"  ply {ply:2} {moves or '(empty)':<42} ours {a[1]:7.3f} s wall {a[0]:7.3f} s cpu {a[2]:6.1f} MiB | "
            f"peer {b[1]:7.3f} s wall {b[0]:7.3f} s cpu {b[2]:6.1f} MiB",
            flush=True,
        )
    print(
        f"\n{'plies':<7} {'n':>3} {'ours wall':>10} {'peer wall':>10} {'ratio':>6}   {'ours cpu':>9} {'peer cpu':>9} "
        f"{'ratio':>6}   {'ours MiB':>8} {'peer MiB':>8}"
    )
    for band, rows in by_band.items():
        ow, pw = statistics.median(r[0][1] for r in rows), statistics.median(r[1][1] for r in rows)
        oc, pc = statistics.median(r[0][0] for r in rows), statistics.median(r[1][0] for r in rows)
        om, pm = statistics.median(r[0][2] for r in rows), statistics.median(r[1][2] for r in rows)
        print(
            f"{band[0]:>2}-{band[1]:<4} {len(rows):>3} {ow:10.3f} {pw:10.3f} {ow / pw:6.2f}   "
            f"{oc:9.3f} {pc:9.3f} {oc / pc:6.2f}   "
            f"{om:8.1f} {pm:8.1f}"
        )
    print(f"columns differing: {differ} of {len(positions)}; load average after: {load()}")


if __name__ == "__main__":
    main()
