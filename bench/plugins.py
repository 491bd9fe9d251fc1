"""Plugins on both engines (issue 14): the N-queens example and a domino puzzle written in the guide's style.

    python bench/plugins.py                 # N-queens n = 1..12, dominoes 6x6 and 8x8 (also with 2 processes)
    python bench/plugins.py --quick         # N-queens to 10, dominoes 6x6 only (and no AI games)
    python bench/plugins.py --ai-only       # only the table of the generic AI against random

The last table (issue 37): each turn-based example plugin's generic AI (``make_ai(game, "ai")``
at the terminal's default think time, 1 s) against ``random`` in 20 seeded games, seats
alternating; the bar is at least 19 wins.

Each line: the puzzle, the engine (the bitmask tiling kernel or dancing links), the count
(checked against the known one), and the best wall time of ``--repeat`` runs of the
search (after a warm-up run that compiles the kernels; the problem, its bitmask tables
and its proved symmetry group are built once per puzzle, the dominoes' build timed on a
line of its own). N-queens has secondary items (the diagonals), so it runs on the bitmask kernel as a general exact cover (each secondary item gets a
slack option) when its 2n + 2(2n - 1) items fit one 64-bit word (n <= 11), and on
dancing links above (the kernel's multi-word form is timed too); the dominoes are a
tiling and run on both.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable, Hashable, Iterable, Sequence

from gridgames.game import Placement
from gridgames.grid import Grid
from gridgames.search.puzzle import CellMap, ExactCoverPuzzle, grid_symmetries

QUEENS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200}
QUEENS_UNIQUE = {8: 12, 10: 92, 12: 1787}
DOMINOES = {(6, 6): (6728, 930), (8, 8): (12988816, None)}


class Dominoes(ExactCoverPuzzle):
    """Tile a height x width board with dominoes (placements named H and V)."""

    def __init__(self, height: int, width: int) -> None:
        self._board = Grid.empty(height, width)

    @property
    def board(self) -> Grid:
        """The empty board."""
        return self._board

    def candidates(self) -> Iterable[tuple[Placement, Iterable[Hashable]]]:
        """Every domino, flat (H) or upright (V)."""
        for r, c in self._board.board_cells():
            for name, cells in (("H", ((r, c), (r, c + 1))), ("V", ((r, c), (r + 1, c)))):
                if all(self._board.on_board(cell) for cell in cells):
                    yield Placement(name, cells), cells

    def symmetries(self) -> Sequence[CellMap]:
        """The board's rotations and reflections."""
        return grid_symmetries(self._board)


def best(fn: Callable[[], object], repeat: int) -> tuple[object, float]:
    """The result and the best wall time of ``repeat`` runs."""
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return result, min(times)


def ai_against_random(games: int = 20, seconds: float = 1.0) -> None:
    """Print each example game's row: the generic AI's wins against random in ``games`` seeded games."""
    import random

    from gridgames.search.players import RandomPlayer, make_ai
    from gridgames_golomb import GolombGame

    print(f"{'game':<24} {'ai':<15} {'wins':>12} {'games':>12} {'seconds':>9}")
    for label, game in (("golomb 8x8", GolombGame()),):
        wins, started = 0, time.perf_counter()
        for seed in range(games):
            rng, ai_seat = random.Random(seed), seed % 2
            players = {ai_seat: make_ai(game, "ai", seconds=seconds, rng=rng), 1 - ai_seat: RandomPlayer(rng=rng)}
            state = game.new_state()
            while not state.is_over:
                state.play(players[state.current_player].choose(state))
            wins += state.outcome is not None and state.outcome.winner == ai_seat
        kind = type(players[ai_seat]).__name__.replace("Player", "").lower()
        print(f"{label:<24} {f'{kind} {seconds:g} s':<15} {wins:>12} {games:>12} {time.perf_counter() - started:>9.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ai-only", action="store_true")
    args = parser.parse_args()
    if args.ai_only:
        print(f"cores: {os.cpu_count()}, load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        ai_against_random()
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return
    from gridgames_nqueens import NQueens

    print(f"python {platform.python_version()}, {platform.machine()}, cores: {os.cpu_count()}, load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    NQueens(6).count()  # compile the kernels
    Dominoes(4, 4).count()
    Dominoes(4, 4).count(engine="dancing links")
    print(f"{'puzzle':<24} {'engine':<15} {'count':>12} {'known':>12} {'seconds':>9}")
    for n in range(1, 11 if args.quick else 13):
        queens = NQueens(n)
        queens.kernel_problem(any_size=True)  # built once; the time is the search's
        for engine in ("kernel", "dancing links"):
            result, seconds = best(lambda q=queens, e=engine: q.count(engine=e), args.repeat)
            label = engine if engine != "kernel" else ("bitmask" if n <= 11 else "bitmask (multi)")
            print(f"{f'{n}-queens':<24} {label:<15} {result.count:>12,} {QUEENS[n]:>12,} {seconds:>9.3f}")  # type: ignore[attr-defined]
            assert result.count == QUEENS[n]  # type: ignore[attr-defined]
        print(f"{'':<24} {'(auto: ' + queens.engine + ')':<15}")
    for n, known in QUEENS_UNIQUE.items():
        if args.quick and n > 10:
            continue
        queens = NQueens(n)
        queens.placement_group()  # the group, proved once; the time is the search's
        for engine in ("kernel", "dancing links"):
            result, seconds = best(lambda q=queens, e=engine: q.count(unique=True, engine=e), args.repeat)
            label = engine if engine != "kernel" else ("bitmask" if n <= 11 else "bitmask (multi)")
            print(f"{f'{n}-queens unique':<24} {label:<15} {result.count:>12,} {known:>12,} {seconds:>9.3f}")  # type: ignore[attr-defined]
            assert result.count == known  # type: ignore[attr-defined]
    for (h, w), (known, unique_known) in DOMINOES.items():
        if args.quick and h > 6:
            continue
        runs = [("tiling", False), ("dancing links", False)]
        if unique_known is not None:
            runs += [("tiling", True), ("dancing links", True)]
        puzzle = Dominoes(h, w)
        started = time.perf_counter()
        puzzle.kernel_problem()  # the bitmask problem and the symmetry group, built once per puzzle
        print(f"{f'dominoes {h}x{w} compile':<24} {'tiling':<15} {'':>12} {'':>12} {time.perf_counter() - started:>9.3f}")
        for engine, unique in runs:
            repeat = 1 if h > 6 else args.repeat
            result, seconds = best(lambda e=engine, u=unique: puzzle.count(unique=u, engine=e), repeat)
            want = unique_known if unique else known
            label = f"dominoes {h}x{w}" + (" unique" if unique else "")
            print(f"{label:<24} {engine:<15} {result.count:>12,} {want:>12,} {seconds:>9.3f}")  # type: ignore[attr-defined]
            assert result.count == want  # type: ignore[attr-defined]
        result, seconds = best(lambda: puzzle.count_parallel(jobs=2), 1 if h > 6 else args.repeat)
        print(f"{f'dominoes {h}x{w} --jobs 2':<24} {'tiling':<15} {result.count:>12,} {known:>12,} {seconds:>9.3f}")  # type: ignore[attr-defined]
        assert result.count == known  # type: ignore[attr-defined]
    if not args.quick:
        ai_against_random()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
