"""Plugins on both engines (issue 14): the N-queens example and a domino puzzle written in the guide's style.

    python bench/plugins.py                 # N-queens n = 1..12, dominoes 6x6 and 8x8 (also with 2 processes)
    python bench/plugins.py --quick         # N-queens to 10, dominoes 6x6 only
    python bench/plugins.py --games-only    # only the game rows: Othello, Hex, Golomb's AI against random

Each line: the puzzle, the engine (the bitmask tiling kernel or dancing links), the count
(checked against the known one), and the best wall time of ``--repeat`` runs of the
search (after a warm-up run that compiles the kernels; the problem, its bitmask tables
and its proved symmetry group are built once per puzzle, the dominoes' build timed on a
line of its own). N-queens has secondary items (the diagonals), so it runs on the bitmask kernel as a general exact
cover (each secondary item gets a slack option) when its 2n + 2(2n - 1) items fit one 64-bit word (n <= 11), and on
dancing links above (the kernel's multi-word form is timed too); the dominoes are a tiling and run on both.

Then the game rows (issue 37): each two-player example plugin installed (Othello 8x8,
Hex 7x7, Golomb's pentomino game 8x8) plays its generic AI (``make_ai(game, "ai")``: negamax
with the game's evaluation, at ``--think`` seconds a move, the CLI's default 1.0) against
``random`` in ``--games`` seeded games (seed i; the AI moves first in the even games), and
prints the AI's wins, draws, losses, mean margin (discs for Othello) and seconds a move;
the bar is 19 wins in 20.
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


GAMES = (("othello 8x8", "othello"), ("hex 7x7", "hex"), ("golomb 8x8", "golomb"))


def ai_against_random(spec_name: str, games: int, think: float) -> tuple[int, int, int, float, int, float]:
    """Seeded games of the generic AI against random: wins, draws, losses, mean margin, AI moves, seconds a move."""
    import random

    from gridgames.registry import load_game
    from gridgames.search.players import RandomPlayer, make_ai

    game = load_game(spec_name).make()
    wins = draws = losses = ai_moves = 0
    ai_seconds, margins = 0.0, []
    for seed in range(games):
        ai_seat = seed % 2
        seats: list = [None, None]
        seats[ai_seat] = make_ai(game, "ai", seconds=think, rng=random.Random(seed))
        seats[1 - ai_seat] = RandomPlayer(rng=random.Random(1000 + seed))
        state = game.new_state()
        while not state.is_over:
            started = time.perf_counter()
            move = seats[state.current_player].choose(state)
            if state.current_player == ai_seat:
                ai_moves += 1
                ai_seconds += time.perf_counter() - started
            state.play(move)
        outcome = state.outcome
        wins += outcome.winner == ai_seat
        draws += outcome.winner is None
        losses += outcome.winner == 1 - ai_seat
        margins.append(outcome.margin_for(ai_seat))
    return wins, draws, losses, sum(margins) / len(margins), ai_moves, ai_seconds / max(1, ai_moves)


def games_table(games: int, think: float) -> None:
    """The game rows: each installed two-player example's AI against random."""
    from gridgames.errors import UnknownGameError

    print(
        f"{'game':<24} {'think s':>8} {'wins':>5} {'draws':>5} {'losses':>6} {'margin':>7} {'AI moves':>9} "
        f"{'s/move':>8}"
    )
    for label, name in GAMES:
        try:
            wins, draws, losses, margin, moves, per_move = ai_against_random(name, games, think)
        except UnknownGameError:
            print(f"{label:<24} (not installed: pip install ./examples/{name})")
            continue
        print(f"{label:<24} {think:>8g} {wins:>5} {draws:>5} {losses:>6} {margin:>7.1f} {moves:>9} {per_move:>8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games-only", action="store_true", help="only the two-player examples' rows")
    parser.add_argument("--games", type=int, default=20, help="seeded games per two-player example")
    parser.add_argument("--think", type=float, default=1.0, help="the AI's seconds per move")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, {platform.machine()}, cores: {os.cpu_count()}, load average before: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    if not args.games_only:
        puzzles(args)
    games_table(args.games, args.think)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def puzzles(args: argparse.Namespace) -> None:
    """The puzzles' rows (N-queens, dominoes)."""
    from gridgames_nqueens import NQueens

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
        print(
            f"{f'dominoes {h}x{w} compile':<24} {'tiling':<15} {'':>12} {'':>12} {time.perf_counter() - started:>9.3f}"
        )
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


if __name__ == "__main__":
    main()
