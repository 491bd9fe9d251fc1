"""Time the heuristic Connect Four levels: positions per second of the search and seconds per move.

    python bench/connect4_players.py [--level medium] [--repeat 3]

For each position the chosen level searches to its full depth without a budget
(``think`` is huge), best of ``--repeat`` runs; the node rate is what
`gridgames_connect4.levels.NODE_RATE` should stay below (a budget of
``think * NODE_RATE`` positions then takes about ``think`` seconds or less).
Then the same level with the default ``--think`` budget: how deep it gets and how long it takes.
"""

from __future__ import annotations

import argparse
import random
import time

from gridgames_connect4 import Connect4
from gridgames_connect4.levels import DEFAULT_THINK, NODE_RATE, make_player

POSITIONS = ("", "4", "4453", "44433352", "3455", "43344553")


def run(level: str, moves: str, think: float, repeat: int) -> tuple[float, int, int, int]:
    """(best seconds, nodes, depth, column) of ``level`` choosing after ``moves``."""
    state = Connect4().from_notation(moves)
    best = float("inf")
    for _ in range(repeat):
        player = make_player(level, state.game, random.Random(0), think=think)
        started = time.perf_counter()
        column = player.choose(state)
        best = min(best, time.perf_counter() - started)
    last = player.last
    return best, (last.nodes if last else 0), (last.depth if last else 0), column


def main() -> None:
    """Print one line per position and level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="medium", choices=("easy", "medium"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"NODE_RATE {NODE_RATE:,}; {args.level}, best of {args.repeat}")
    total_nodes = total_seconds = 0.0
    for moves in POSITIONS:
        seconds, nodes, depth, column = run(args.level, moves, 1e6, args.repeat)
        total_nodes += nodes
        total_seconds += seconds
        budget = run(args.level, moves, DEFAULT_THINK, 1)
        print(
            f"{moves or '(start)':>10}: full depth {depth}: {nodes:7,} nodes in {seconds:5.2f} s "
            f"({nodes / seconds:7,.0f}/s), plays {column + 1}; --think {DEFAULT_THINK:g}: depth {budget[2]} "
            f"in {budget[0]:.2f} s, plays {budget[3] + 1}"
        )
    print(f"overall {total_nodes / total_seconds:,.0f} positions/s")


if __name__ == "__main__":
    main()
