"""How far past its time budget the generic AI goes (issue 37), on a game whose moves are slow.

    python bench/ai_budgets.py                  # budgets 0.1, 0.3 and 1.0 s, 5 runs each, medians
    python bench/ai_budgets.py --move-ms 20     # slower moves (each costs this many ms of CPU)

The game is Nim with a pile of 60 stones whose every move burns ``--move-ms`` of CPU (a
stand-in for a game whose moves are expensive, such as Golomb's pentomino game before
bitmasks). Each line: the engine, the budget, the median seconds the search took, how
far past the budget that is (in per cent and in moves), and the median playouts or
positions. MCTS and negamax runs alternate. The machine's core count and load are printed
first: on a loaded machine the CPU burn of a move takes longer in wall time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from gridgames_test_support.toy_games import Nim, NimState

from gridgames.search.mcts import mcts
from gridgames.search.negamax import search


class SlowNim(Nim):
    """Nim whose moves burn CPU (set on the class by main)."""

    move_seconds = 0.002

    def new_state(self) -> SlowNimState:
        return SlowNimState(self)


class SlowNimState(NimState):
    def play(self, move: int) -> None:
        until = time.process_time() + SlowNim.move_seconds
        while time.process_time() < until:
            pass
        super().play(move)

    def copy(self) -> SlowNimState:
        return SlowNimState(self.game, list(self.moves))


def _run(engine: str, budget: float, seed: int) -> tuple[float, int]:
    state = SlowNim(60).new_state()
    if engine == "mcts":
        result = mcts(state, seconds=budget, rng=random.Random(seed))
        return result.seconds, result.iterations
    found = search(state, seconds=budget)
    return found.seconds, found.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--move-ms", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    SlowNim.move_seconds = args.move_ms / 1000
    print(
        f"cores {os.cpu_count()}, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}, a move costs {args.move_ms:g} "
        "ms of CPU"
    )
    print(f"{'engine':<8} {'budget':>7} {'median s':>9} {'over':>7} {'over (moves)':>13} {'work':>8}")
    for budget in (0.1, 0.3, 1.0):
        times: dict[str, list[float]] = {"mcts": [], "negamax": []}
        work: dict[str, list[int]] = {"mcts": [], "negamax": []}
        for run in range(args.runs):
            for engine in ("mcts", "negamax") if run % 2 == 0 else ("negamax", "mcts"):
                seconds, done = _run(engine, budget, run)
                times[engine].append(seconds)
                work[engine].append(done)
        for engine in ("mcts", "negamax"):
            median = statistics.median(times[engine])
            over = median - budget
            print(
                f"{engine:<8} {budget:>6.1f}s {median:>9.3f} {100 * over / budget:>6.1f}% "
                f"{over / SlowNim.move_seconds:>13.1f} "
                f"{int(statistics.median(work[engine])):>8}"
            )


if __name__ == "__main__":
    main()
