"""--think bounds every computer move (issue 38): perfect on 9x7 connect-5 took 8 s CPU for --think 2.

No timed assertion: the players' clock is replaced by one that jumps, and the tests check that the solver stopped
at its deadline (positions explored: a slice or two, not the node budget) and a legal move came back.
"""

from __future__ import annotations

import contextlib
import itertools
import random

import pytest

pytest.importorskip("numba")

from gridgames_connect4 import levels
from gridgames_connect4.position.rules import Connect4
from gridgames_connect4.solve.solver import Solver, nodes_for_seconds


class JumpingClock:
    """time.monotonic for the players' module: each call ``step`` seconds later than the last."""

    def __init__(self, step: float) -> None:
        self.ticks = itertools.count()
        self.step = step

    def monotonic(self) -> float:
        return next(self.ticks) * self.step


@pytest.mark.slow
@pytest.mark.parametrize("level", ["perfect", "hard"])
def test_the_solver_stops_at_the_deadline_on_a_board_it_cannot_solve(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Connect4(9, 7, 5)
    state = game.from_notation("5")
    player = levels.make_player(level, game, random.Random(1), 2.0)
    solver = Solver(9, 7, 5)
    monkeypatch.setattr(levels, "_lend_solver", lambda *size: contextlib.nullcontext(solver))
    # past the solver's deadline at its second look
    monkeypatch.setattr(levels, "time", JumpingClock(1.0))
    column = player.choose(state)
    assert column in state.legal_moves()
    # stopped long before its node budget
    assert solver.explored < nodes_for_seconds(2.0) // 4, solver.explored
    assert solver.driver.watch is None  # the watch lasted the call only
    assert "no exact result within 2 s" in player.note or level == "hard"


def test_with_time_the_perfect_player_still_plays_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Connect4(5, 4, 4)
    state = game.from_notation("3")
    player = levels.make_player("perfect", game, random.Random(1), 2.0)
    # the clock stands still: only the node budget stops
    monkeypatch.setattr(levels, "time", JumpingClock(0.0))
    column = player.choose(state)
    assert column in state.legal_moves() and player.note == ""
