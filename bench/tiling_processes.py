"""Whole processes timed from outside: `gridgames solve pentomino ... --count` against the exact-cover peers.

Usage: python bench/tiling_processes.py [--repeat N] [--peer-python PATH] [--limit SECONDS] [--cases NAME ...] [--parts]
       [--before CHECKOUT]

Each case is run as fresh processes, in turn: ours (``python -m gridgames solve pentomino ... --count``), then
each peer installed for ``--peer-python`` (xcover, miniexact, pyxcc: pip install them into a venv of their own)
given the same exact-cover matrix (cells and pieces as items, one row per placement; for a count up to symmetry the
matrix of the problem our engine searches, one piece restricted to one placement per orbit) in a JSON file, read by
a few lines that import the peer and count. The clock runs from the process's start to its exit: interpreter,
imports, set-up and search. Medians of ``--repeat`` rounds (default 7), wall and CPU seconds (user + system of the
process and its children, from ``getrusage``); the ratio is the best peer's median over ours. A peer slower than
``--limit`` seconds on a case is not run again on it (when every peer is, the ratio is a bound on wall time).
``--parts`` times Dana Scott's board (pentominoes+O on 8x8): a plain ``--count`` against ``--jobs 1`` and
``--jobs 2`` (counts by parts), alternating. The machine's core count and its load average before and after each
case are printed: the machine may be shared, so read CPU seconds too.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PEER_SCRIPT = """
import json, sys
name, path = sys.argv[1], sys.argv[2]
with open(path) as f:
    data = json.load(f)
items, rows = data["items"], data["rows"]
if name == "xcover":
    import xcover
    found = sum(1 for _ in xcover.covers(rows, primary=items))
elif name == "miniexact":
    import miniexact
    solver = miniexact.miniexacts_x()
    ids = {item: solver.primary(item) for item in items}
    for row in rows:
        for item in row:
            solver.add(ids[item])
        solver.add(0)
    found = 0
    while solver.solve() == 10:
        found += 1
else:
    import pyxcc
    problem = pyxcc.Problem(items, [], [pyxcc.Option(f"o{i}", row, []) for i, row in enumerate(rows)])
    found = int(pyxcc.solve(problem, True).count())
print(found)
"""
"""What a peer's process runs: read the matrix, import the peer, count (the peers' own APIs, as
bench/exact_cover.py)."""

PEERS = ("xcover", "miniexact", "pyxcc")

# name: (CLI arguments after `solve pentomino`, known count, lattice or None, board, pieces, unique)
CASES: dict[str, tuple[list[str], int, str | None, str, str, bool]] = {
    "3x20": (["-b", "3x20"], 8, None, "3x20", "pentominoes", False),
    "8x8-centre": (["-b", "8x8-centre"], 520, None, "8x8-centre", "pentominoes", False),
    "5x12": (["-b", "5x12"], 4040, None, "5x12", "pentominoes", False),
    "6x10": (["-b", "6x10"], 9356, None, "6x10", "pentominoes", False),
    "dana-scott": (["-b", "8x8", "-p", "pentominoes+O"], 129_168, None, "8x8", "pentominoes+O", False),
    "hexiamonds": (
        ["--lattice", "triangle", "-b", "6x6", "-p", "hexiamonds"],
        624,
        "triangle",
        "6x6",
        "hexiamonds",
        False,
    ),
    "hexiamonds-u": (
        ["--lattice", "triangle", "-b", "6x6", "-p", "hexiamonds", "--unique"],
        156,
        "triangle",
        "6x6",
        "hexiamonds",
        True,
    ),
    "pentacubes-u": (
        ["--lattice", "cube", "-b", "2x5x6", "-p", "flat-pentacubes", "--unique"],
        264,
        "cube",
        "2x5x6",
        "flat-pentacubes",
        True,
    ),
}


def matrix(lattice: str | None, board: str, pieces: str, unique: bool) -> tuple[dict[str, list], str]:
    """The exact-cover matrix of a case (items, rows of item names) and what it is."""
    from gridgames.search import tiling

    if lattice is None:
        from gridgames_pentomino.puzzle import TilingPuzzle

        problem = TilingPuzzle.create(board, pieces).problem()
    else:
        from gridgames_pentomino.lattice_puzzle import LatticePuzzle

        problem = LatticePuzzle.create(lattice, board, pieces).problem()
    what = "all placements"
    if unique:
        prep = tiling.prepare_unique(problem, True)
        if not prep.method.startswith("restricted"):
            raise SystemExit(f"{board}: no piece to restrict ({prep.method}); the peers cannot be given the same count")
        problem, what = prep.problem, prep.method
    names = list(problem.piece_names)
    items = [f"c{i}" for i in range(problem.n_cells)] + names
    rows = [
        [f"c{c}" for c in problem.option_cells(o)] + [names[int(problem.option_piece[o])]]
        for o in range(problem.n_options)
    ]
    return {"items": items, "rows": rows}, what


def timed(command: list[str], limit: float, path: str | None = None) -> tuple[float, float, str]:
    """Run a process to its end: wall seconds, CPU seconds (its and its children's user + system), its output.
    ``path``: a checkout whose gridgames (and games) the process imports instead of the installed one."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([path, os.path.join(path, "games")])
    try:
        # from a neutral folder: `python -m` puts the working folder first on sys.path (a checkout there would win)
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=limit, env=env, check=False, cwd=tempfile.gettempdir()
        )
        out = done.stdout.strip() if done.returncode == 0 else f"failed: {done.stderr.strip().splitlines()[-1:]}"
    except subprocess.TimeoutExpired:
        out = "timeout"
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def first_number(text: str) -> int | None:
    """The first whole number in a program's output (our CLI writes '8 solutions ...', peers '8'), or None."""
    word = text.replace(",", "").split()[0] if text.split() else ""
    return int(word) if word.isdigit() else None


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_cases(names: list[str], repeat: int, peer_python: str, limit: float, before: str | None = None) -> None:
    ours = [sys.executable, "-m", "gridgames", "solve", "pentomino"]
    peers = [
        p
        for p in PEERS
        if subprocess.run([peer_python, "-c", f"import {p}"], capture_output=True, check=False).returncode == 0
    ]
    print(
        f"cores: {os.cpu_count()}; rounds: {repeat} (medians); ours: {' '.join(ours[1:])} ... --count; "
        f"peers ({peer_python}): {', '.join(peers)}"
    )
    print(
        "seconds of whole processes, wall / CPU (user + system); "
        "ratio: the best peer's median over ours (> 1: ours ahead)"
    )
    if before is not None:
        print(f"before: the same command with the checkout {before} first on PYTHONPATH")
    olds = ["before"] if before is not None else []
    print(
        f"{'case':<13} {'count':>7} {'ours':>13}  "
        + "  ".join(f"{p:>15}" for p in olds + peers)
        + "  best/ours wall, CPU   load before -> after"
    )
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "peer.py"
        script.write_text(PEER_SCRIPT, encoding="utf-8")
        for name in names:
            args, known, lattice, board, pieces, unique = CASES[name]
            data, _what = matrix(lattice, board, pieces, unique)
            path = Path(tmp) / f"{name}.json"
            path.write_text(json.dumps(data), encoding="utf-8")
            programs = {
                "ours": [*ours, *args, "--count"],
                **{p: [peer_python, str(script), p, str(path)] for p in peers},
            }
            if before is not None:
                programs = {"ours": programs["ours"], "before": programs["ours"], **{p: programs[p] for p in peers}}
            for program in ("ours", "before"):  # a first run may compile kernels: not timed
                if program in programs:
                    timed(programs[program], limit * 4, before if program == "before" else None)
            times: dict[str, list[tuple[float, float]]] = {p: [] for p in programs}
            wrong: dict[str, str] = {}
            given_up: set[str] = set()
            loaded = load()
            for _ in range(repeat):
                for program, command in programs.items():
                    if program in given_up:
                        continue
                    wall, cpu, out = timed(command, limit, before if program == "before" else None)
                    found = first_number(out)
                    if out == "timeout" or found is None:
                        given_up.add(program)
                        wrong[program] = f"> {limit:.0f} s" if out == "timeout" else out[:14]
                        continue
                    if found != known:
                        wrong[program] = f"count {found}"
                    times[program].append((wall, cpu))
            cells = {}
            medians: dict[str, tuple[float, float]] = {}
            for program, runs in times.items():
                if program in wrong or not runs:
                    cells[program] = wrong.get(program, "-")
                    continue
                medians[program] = (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
                cells[program] = f"{medians[program][0]:.2f} / {medians[program][1]:.2f}"
            rivals = [medians[p] for p in peers if p in medians]
            slow = [p for p in peers if wrong.get(p, "").startswith(">")]
            if "ours" in medians and rivals:
                best_wall, best_cpu = min(r[0] for r in rivals), min(r[1] for r in rivals)
                ratio = f"{best_wall / medians['ours'][0]:>5.2f}x {best_cpu / medians['ours'][1]:>5.2f}x"
            # every peer stopped at the limit: a bound on wall time only
            elif "ours" in medians and slow:
                ratio = f"> {limit / medians['ours'][0]:.1f}x wall"
            else:
                ratio = "-"
            print(
                f"{name:<13} {known:>7} {cells['ours']:>13}  "
                + "  ".join(f"{cells[p]:>15}" for p in olds + peers)
                + f"  {ratio:>13}   {loaded} -> {load()}",
                flush=True,
            )


def run_parts(repeat: int) -> None:
    """Dana Scott's board: a plain count against counts by parts in one and two processes, alternating."""
    base = [sys.executable, "-m", "gridgames", "solve", "pentomino", "-b", "8x8", "-p", "pentominoes+O", "--count"]
    programs = {"--count": base, "--jobs 1": [*base, "--jobs", "1"], "--jobs 2": [*base, "--jobs", "2"]}
    times: dict[str, list[tuple[float, float]]] = {p: [] for p in programs}
    before = load()
    loads = []
    for _ in range(repeat):
        for program, command in programs.items():
            loads.append(os.getloadavg()[0])
            wall, cpu, out = timed(command, 600)
            if first_number(out) != 129_168:
                raise SystemExit(f"{program}: {out}")
            times[program].append((wall, cpu))
    print(
        f"Dana Scott's board (pentominoes+O on 8x8), whole processes, {repeat} rounds, cores: {os.cpu_count()}, "
        f"load {before} -> {load()}; 1-minute load before each process: {min(loads):.2f}-{max(loads):.2f} "
        f"(median {statistics.median(loads):.2f})"
    )
    if max(loads) > 0.5:
        print(
            f"  NOTE: the machine was not idle (load up to {max(loads):.2f}): --jobs 2's wall time says nothing "
            "about two free cores"
        )
    plain = statistics.median(w for w, _ in times["--count"])
    plain_cpu = statistics.median(c for _, c in times["--count"])
    walls = {}
    for program, runs in times.items():
        wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
        walls[program] = wall
        print(
            f"  {program:<9} wall {wall:6.2f} s  CPU {cpu:6.2f} s   "
            f"plain --count / this: wall {plain / wall:4.2f}x, CPU {cpu / plain_cpu:4.2f} of plain's"
        )
    print(
        f"  --jobs 1 / --jobs 2 wall: {walls['--jobs 1'] / walls['--jobs 2']:4.2f}x (bar: --count / --jobs 2 >= 1.8x "
        "on two idle cores; --jobs 1 CPU within 1.10 of plain's)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--peer-python", default=sys.executable, help="the Python that has xcover, miniexact and pyxcc")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds after which a process is stopped")
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    parser.add_argument("--parts", action="store_true", help="time Dana Scott's board by parts instead")
    parser.add_argument("--before", help="a checkout of an earlier gridgames to time as well (first on PYTHONPATH)")
    args = parser.parse_args(argv)
    if args.parts:
        run_parts(args.repeat)
    else:
        run_cases(args.cases, args.repeat, args.peer_python, args.limit, args.before)


if __name__ == "__main__":
    main()
