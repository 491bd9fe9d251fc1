"""Positions explored by the solver's other calls, to compare two trees line by line (issue 39's Solver split).

Usage: python bench/connect4_solver_calls.py OUT.json

`bench/connect4_solver.py --explored-out` covers `solve`; this covers the rest: on 70 lines of Pons' sets (every
50th of Middle-Easy, Middle-Medium and Begin-Easy, every 100th of Begin-Medium) `analyze`, `best_move` at
budgets of 2,000, 50,000 and 1,000,000 positions (exact, weak and depth-limited answers all occur) and
`solve_within(step=True)` on 20,000; then, through the shipped 7x6 book, `analyze` and `best_move` (300,000) on
58 random positions of 0-12 discs (seed 39). Each call after `reset`. Writes every answer and count to OUT.json
(run it in each tree, e.g. `PYTHONPATH=OLD:OLD/games python bench/connect4_solver_calls.py before.json`, then
compare the files) and prints the totals and the CPU seconds.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gridgames_connect4.solve.solver import Solver

REPO = Path(__file__).resolve().parents[1]
DATA = next(
    (
        folder / "shared" / "bench" / "data" / "connect4"
        for folder in REPO.parents
        if (folder / "shared" / "bench" / "data" / "connect4").is_dir()
    ),
    REPO.parent / "shared" / "bench" / "data" / "connect4",
)
SETS = (("Test_L2_R1", 50), ("Test_L2_R2", 50), ("Test_L1_R1", 50), ("Test_L1_R2", 100))


def on_sets(solver: Solver) -> dict[str, list[list[Any]]]:
    """Every call's answer and positions explored on the sampled lines, by line."""
    out: dict[str, list[list[Any]]] = {}
    for name, step in SETS:
        lines = (DATA / name).read_text().split("\n")
        for line in lines[::step]:
            if not line.strip():
                continue
            moves = line.split()[0]
            cols = [int(c) - 1 for c in moves]
            rec: list[list[Any]] = []
            solver.reset()
            rec.append(["analyze", solver.analyze(cols), solver.explored])
            for budget in (2_000, 50_000, 1_000_000):
                solver.reset()
                r = solver.best_move(cols, max_nodes=budget, rng=random.Random(len(moves)))
                rec.append(["best", budget, r.column, list(r.scores), r.exact, r.depth, r.weak, solver.explored])
            solver.reset()
            found = solver.solve_within(cols, max_nodes=20_000, step=True)
            rec.append(["within", found, solver.explored])
            out[moves] = rec
    return out


def with_book() -> list[list[Any]]:
    """analyze and best_move through the shipped book on random early positions."""
    from gridgames_connect4.solve.book import default_book
    from gridgames_connect4.position.rules import Connect4
    from gridgames_connect4.solve.solver import Solver

    rng = random.Random(39)
    solver = Solver(book=default_book())
    out: list[list[Any]] = []
    for _ in range(60):
        state = Connect4().new_state()
        for _ in range(rng.randrange(0, 13)):
            state.play(rng.choice(list(state.legal_moves())))
            if state.is_over:
                break
        if state.is_over:
            continue
        moves = list(state.history)
        solver.reset()
        scores = solver.analyze(moves)
        explored = solver.explored
        solver.reset()
        r = solver.best_move(moves, max_nodes=300_000, rng=random.Random(1))
        out.append([moves, scores, explored, r.column, list(r.scores), r.exact, r.depth, r.weak, solver.explored])
    return out


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    from gridgames_connect4.solve.solver import Solver

    if not DATA.is_dir():
        sys.exit(f"no test sets at {DATA}")
    print(f"cores (os.cpu_count): {os.cpu_count()}   load {os.getloadavg()[0]:.1f}")
    cpu = time.process_time()
    sets = on_sets(Solver())
    book = with_book()
    seconds = time.process_time() - cpu
    calls = sum(len(v) for v in sets.values())
    explored = sum(int(r[-1]) for v in sets.values() for r in v)
    print(
        f"{len(sets)} lines, {calls} calls, {explored:,} positions; {len(book)} positions through the book,"
        f" {sum(int(r[2]) for r in book):,} explored by analyze; {seconds:.1f} CPU s, load {os.getloadavg()[0]:.1f}"
    )
    Path(sys.argv[1]).write_text(json.dumps({"sets": sets, "book": book}) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
