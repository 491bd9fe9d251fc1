"""Self-play: the perfect level never lets a won position slip, against a random opponent, on small boards."""

from __future__ import annotations

import random

import pytest

from gridgames_connect4 import Connect4
from gridgames_connect4.levels import make_player

pytest.importorskip("numba", reason="the perfect player needs the numba solver")
from gridgames_connect4.solve.solver import Solver


@pytest.mark.parametrize(("width", "height", "connect"), [(5, 4, 3), (6, 5, 4)])
def test_perfect_wins_every_won_position_against_random(width: int, height: int, connect: int) -> None:
    game = Connect4(width, height, connect)
    solver = Solver(width, height, connect, table_bits=16)
    rng = random.Random(width * 100 + height * 10 + connect)
    won_starts = 0
    for _ in range(16):
        state = game.new_state()
        for _ in range(rng.randrange(0, 5)):  # a random opening, so perfect meets many positions
            if state.is_over:
                break
            state.play(rng.choice(list(state.legal_moves())))
        if state.is_over or solver.solve(list(state.history)) <= 0:
            continue
        won_starts += 1
        hero = state.current_player
        perfect = make_player("perfect", game, random.Random(1), think=30.0)
        opponent = make_player("random", game, rng)
        while not state.is_over:
            player = perfect if state.current_player == hero else opponent
            state.play(player.choose(state))
            if state.current_player == hero and not state.is_over:
                assert solver.solve(list(state.history)) > 0, f"perfect let the win slip in {state.notation()}"
        assert state.outcome is not None and state.outcome.winner == hero, state.notation()
    assert won_starts >= 3  # the test really met won positions
