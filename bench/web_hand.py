"""Tiling by hand on the puzzle page: what a layout, a check after each piece and a hint cost on the server.

    python bench/web_hand.py [--repeats 5]

In process (no HTTP): `gridgames.web.hand.build_layout` of the pentomino hooks' answer, then `analyse` (what the
``hand/check`` and ``hand/hint`` jobs run) with the first k pieces of the puzzle's first solution placed, each timed
``--repeats`` times (median). The empty board is checked two ways, alternating: the puzzle's own count (orbits under
the board's symmetries: what the page runs) and the engine's search from no placed piece (what it ran before),
with their ratio. Every count is checked against the known one (3x20: 8; 6x10: 9356; cube 2x3x10: 96).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from gridgames.web.hand import Layout, analyse, build_layout
from gridgames.web.jobs import Budget

KNOWN = {"3x20": 8, "6x10": 9356, "cube:2x3x10": 96}


def _puzzle(name: str) -> tuple[Any, Any]:
    from gridgames_pentomino.puzzle import TilingPuzzle
    from gridgames_pentomino.web import PentominoWeb

    hooks = PentominoWeb()
    return (hooks.preset_puzzle(name) if ":" in name else TilingPuzzle.create(name)), hooks


def _numbers(layout: Layout, solution: Any) -> list[int]:
    index = {c: i for i, c in enumerate(layout.cells)}
    lookup = {(layout.pieces[p]["name"], cells): n for n, (p, _, cells) in enumerate(layout.placements)}
    return [lookup[(p.piece, tuple(sorted(index[tuple(c)] for c in p.cells)))] for p in solution]


def _median(work: Any, repeats: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f} at the start")
    for name, known in KNOWN.items():
        puzzle, hooks = _puzzle(name)
        seconds, layout = _median(lambda: build_layout(hooks.hand_pieces(puzzle)), args.repeats)
        print(f"{name}: layout {len(layout.placements):,} placements in {seconds * 1000:.0f} ms")
        placed = _numbers(layout, next(iter(puzzle.solutions())))
        # compiled kernels, warm caches
        analyse(layout, puzzle, hooks, placed[:1], Budget(120), hint=False)
        full = analyse(layout, puzzle, hooks, [], Budget(120), hint=False)
        assert full["count"] == known and not full["partial"], (name, full)
        own, search = [], []
        # alternating: the page's way, then the search from no placed piece
        for _ in range(args.repeats):
            started = time.perf_counter()
            analyse(layout, puzzle, hooks, [], Budget(120), hint=False)
            own.append(time.perf_counter() - started)
            started = time.perf_counter()
            counted = hooks.hand_rest(puzzle, []).count()
            search.append(time.perf_counter() - started)
            assert counted.count == known
        print(
            f"  empty board: own count {statistics.median(own):.3f} s, search from start "
            f"{statistics.median(search):.3f} s (x{statistics.median(search) / statistics.median(own):.1f})"
        )
        for k in (1, 3, 6):
            first = placed[:k]
            check, result = _median(lambda: analyse(layout, puzzle, hooks, first, Budget(120), False), args.repeats)
            hint, _ = _median(lambda: analyse(layout, puzzle, hooks, first, Budget(120), True), args.repeats)
            print(
                f"  {k} placed: {result['count']:,} completions, check {check * 1000:.1f} ms, hint {hint * 1000:.1f} ms"
            )
    print(f"load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
