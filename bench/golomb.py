"""Golomb's pentomino game (issue 37): today's Grid.can_place against the bitmask of gridgames.placement_moves.

    python bench/golomb.py            # 8x8, the 12 pentominoes; --rounds 5 alternations, --mcts-seconds 1

Lines: `can_place` per call (one random half-filled position, every action, the same answers
from both); random playouts per second of a Grid-based state (legal moves by Grid.can_place over
every piece, orientation and anchor, as a plugin written from the guide does) against the bitmask
state of examples/golomb; MCTS playouts per second (the generic AI). The two sides alternate run
by run; the figures are medians. Prints the machine's cores and load.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterator

from gridgames.grid import Grid
from gridgames.search.mcts import mcts
from gridgames.shapes import PENTOMINOES
from gridgames_golomb import GolombGame, GolombState


class GridGolombState(GolombState):
    """The same game with a Grid board and legal moves by Grid.can_place (the reference, as before issue 37)."""

    def __init__(self, game: GolombGame) -> None:
        super().__init__(game)
        self.grid = Grid.empty(game.height, game.width)
        moves = game.piece_moves
        self._shapes = [PENTOMINOES[name].orientations() for name in moves.names]

    def _legal_list(self) -> list[int]:
        if self._legal is None:
            moves = self.game.piece_moves
            self._legal = [
                a
                for a in range(len(moves))
                if (self.available >> moves.piece_index(a)) & 1
                and self.grid.can_place(
                    self._shapes[moves.piece_index(a)][moves.orientation_of(a)], at=moves.anchor_of(a)
                )
            ]
        return self._legal

    def play(self, move: int) -> None:
        super().play(move)
        self._legal_array = None
        self.grid.place(self.game.piece_moves.cells(move), at=(0, 0), value=len(self._history) % 2 + 1)

    def undo(self) -> int:
        move = super().undo()
        self.grid.remove(self.game.piece_moves.cells(move), at=(0, 0))
        return move

    def copy(self) -> GridGolombState:
        other = GridGolombState(self.game)
        for move in self._history:
            other.play(move)
        return other

    def legal_moves(self) -> Iterator[int]:
        return iter(self._legal_list())


def playouts(make: Callable[[], GolombState], count: int, seed: int) -> float:
    """Random playouts per second from the empty board."""
    rng = random.Random(seed)
    started = time.perf_counter()
    for _ in range(count):
        state = make()
        while not state.is_over:
            state.play(rng.choice(list(state.legal_moves())))
    return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--mcts-seconds", type=float, default=1.0)
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, {platform.machine()}, cores: {os.cpu_count()}, load average before: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    game = GolombGame()
    moves = game.piece_moves
    rng = random.Random(1)
    position = game.new_state()
    for _ in range(4):
        position.play(rng.choice(list(position.legal_moves())))
    grid = Grid.empty(8, 8)
    for i, move in enumerate(position.history):
        grid.place(moves.cells(move), at=(0, 0), value=i % 2 + 1)
    shapes = [PENTOMINOES[name].orientations() for name in moves.names]
    calls = [(shapes[moves.piece_index(a)][moves.orientation_of(a)], moves.anchor_of(a)) for a in range(len(moves))]
    occupied = position.occupied
    assert [grid.can_place(s, at=at) for s, at in calls] == [moves.can_place(a, occupied) for a in range(len(moves))]
    grid_ns, mask_ns, grid_rate, mask_rate = [], [], [], []
    for round_ in range(args.rounds):
        started = time.perf_counter()
        for shape, at in calls:
            grid.can_place(shape, at=at)
        grid_ns.append((time.perf_counter() - started) / len(calls) * 1e9)
        started = time.perf_counter()
        for a in range(len(moves)):
            moves.can_place(a, occupied)
        mask_ns.append((time.perf_counter() - started) / len(calls) * 1e9)
        grid_rate.append(playouts(lambda: GridGolombState(game), 3, round_))
        mask_rate.append(playouts(game.new_state, 300, round_))
    g, m = statistics.median(grid_ns), statistics.median(mask_ns)
    print(
        f"{'can_place per call (8x8, 4 pieces down)':<44} Grid {g:>9,.0f} ns   bitmask {m:>7,.0f} ns   ratio "
        f"{g / m:>6.1f}x"
    )
    g, m = statistics.median(grid_rate), statistics.median(mask_rate)
    print(f"{'random playouts per second (8x8)':<44} Grid {g:>9,.1f}      bitmask {m:>7,.0f}      ratio {m / g:>6.1f}x")
    print(f"{'  = ms per playout':<44} Grid {1000 / g:>9,.1f} ms   bitmask {1000 / m:>7,.2f} ms")
    for label, state in (
        ("MCTS from the empty board", game.new_state()),
        ("MCTS after 2 random moves", game.from_moves(position.history[:2])),
    ):
        result = mcts(state, seconds=args.mcts_seconds, rng=random.Random(0))
        print(
            f"{label:<44} {result.iterations / result.seconds:>9,.0f} playouts/s ({result.iterations:,} in "
            f"{result.seconds:.2f} s)"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
