"""Benchmark of the analysis board's scores job: Connect Four's ``move_scores`` hook with the explanation it now adds
against the same hook without it (the explanation replaced by nothing), alternating on each position.

Usage: python bench/web_scores.py [--positions N] [--data FOLDER]

Positions: the first N of Pons' Test_L2_R1 (7x6, middle game, solved by the solver) and N seeded random book positions
(plies 0-11: the shipped book answers). Per position, in one warm process: the hook with the explanation, then
without, then with again (the two "with" runs' mean against the one "without", so neither side always runs first);
CPU seconds; medians per set and the ratio of medians. Prints the machine's core count and load average.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

import gridgames_connect4.surfaces.web as web
from gridgames_connect4.position.rules import Connect4

REPO = Path(__file__).resolve().parents[1]
DATA = next(  # "shared" next to the repository, or next to the folder of its git worktrees
    (
        f / "shared" / "bench" / "data" / "connect4"
        for f in REPO.parents
        if (f / "shared" / "bench" / "data" / "connect4").is_dir()
    ),
    REPO.parent / "shared" / "bench" / "data" / "connect4",
)


class _Budget:
    partial: Any = None

    def keep_going(self, nodes: int = 0) -> bool:
        return True

    def report(self, *args: Any) -> None:
        pass


def _timed(state: Any, explain: bool) -> float:
    original = web._explanation
    if not explain:
        web._explanation = lambda *args: []  # type: ignore[assignment]
    try:
        start = time.process_time()
        result = web.Connect4Web().move_scores(state, _Budget())
        spent = time.process_time() - start
    finally:
        web._explanation = original  # type: ignore[assignment]
    assert result["exact"] and bool(result.get("explanation")) == explain
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    print(f"cores {os.cpu_count()}, load {os.getloadavg()}")
    game = Connect4()
    rng = random.Random(1)
    book_positions = []
    for _ in range(args.positions):
        state = game.new_state()
        for _ in range(rng.randrange(12)):
            state.play(rng.choice(list(state.legal_moves())))
            if state.is_over:
                break
        if not state.is_over:
            book_positions.append(state)
    sets = {"book (plies 0-11)": book_positions}
    source = args.data / "Test_L2_R1"
    if source.exists():
        lines = source.read_text().split()[0::2][: args.positions]
        sets["Test_L2_R1 (solver)"] = [game.from_notation(moves) for moves in lines]
    else:
        print(f"{source} is missing: the solver's set is skipped")
    _timed(book_positions[0], True)  # warm: kernels, the book, the thread's solver
    for name, states in sets.items():
        with_, without = [], []
        for state in states:
            first = _timed(state, True)
            without.append(_timed(state, False))
            with_.append((first + _timed(state, True)) / 2)
        a, b = statistics.median(with_), statistics.median(without)
        print(
            f"{name}: {len(states)} positions, median CPU s with the explanation {a:.4f}, without {b:.4f}, "
            f"ratio {a / b:.2f}; max with {max(with_):.3f}"
        )
    print(f"load after {os.getloadavg()}")


if __name__ == "__main__":
    main()
