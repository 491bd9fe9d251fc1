"""The generic AIs' budgets (issue 37): a time budget is honoured to within a move, even when moves are slow.

The clock is a fake one that each move advances (issue 53): the machine's load cannot fail these tests.
"""

from __future__ import annotations

import random

import attrs
import pytest

from gridgames.errors import OptionError
from gridgames.search.mcts import mcts
from gridgames.search.negamax import search
from gridgames.search.players import make_ai

from gridgames_test_support.engine_toys import PileNim
from gridgames_test_support.fake_clock import FakeClock
from gridgames_test_support.toy_games import Nim, NimState

# each move costs this much fake time: a playout of a 60-stone pile is about 30 moves, 60 ms
MOVE_SECONDS = 0.002


@attrs.frozen
class SlowNim(Nim):
    """Nim whose moves are slow and stamped with the time they started (in a list shared by every copy)."""

    stones: int = 60
    stamps: list[float] = attrs.field(factory=list, eq=False, hash=False)
    clock: FakeClock = attrs.field(factory=FakeClock, eq=False, hash=False)

    def new_state(self) -> SlowNimState:
        return SlowNimState(self)


@attrs.define
class SlowNimState(NimState):
    """A Nim position whose moves take `MOVE_SECONDS` each."""

    def play(self, move: int) -> None:
        assert isinstance(self.game, SlowNim)
        self.game.stamps.append(self.game.clock.now)
        self.game.clock.spend(MOVE_SECONDS)
        super().play(move)

    def copy(self) -> SlowNimState:
        return SlowNimState(self.game, list(self.moves))


def _moves_after(stamps: list[float], deadline: float) -> int:
    return sum(stamp > deadline for stamp in stamps)


def test_mcts_plays_no_move_past_its_deadline_with_slow_playouts() -> None:
    game = SlowNim()
    budget = 0.25
    deadline = game.clock.now + budget
    result = mcts(game.new_state(), seconds=budget, rng=random.Random(1), clock=game.clock)
    late = _moves_after(game.stamps, deadline)
    # Before: the clock was read every 16 playouts, so up to 15 playouts (hundreds of moves) ran past the deadline.
    assert late <= 1, f"{late} moves played after the deadline"
    assert result.iterations >= 1 and result.visits >= 1


def test_mcts_counts_only_whole_playouts_and_keeps_the_first_one() -> None:
    game = SlowNim(stones=60)
    result = mcts(game.new_state(), seconds=1e-6, rng=random.Random(2), clock=game.clock)
    # the deadline passes during the first playout: it is cut there (issue 53), and kept
    assert result.iterations == 1 and result.visits == 1
    assert _moves_after(game.stamps, 1e-6) <= 1


def test_negamax_searches_no_position_past_its_deadline_with_slow_moves() -> None:
    game = SlowNim(stones=60)
    budget = 0.25
    state = game.new_state()
    deadline = game.clock.now + budget
    result = search(state, seconds=budget, clock=game.clock)
    late = _moves_after(game.stamps, deadline)
    # Before: the clock was read every 256 positions, about 0.5 s of moves here.
    assert late <= 2, f"{late} moves played after the deadline"
    assert result.stopped and result.depth >= 2


# --- a node budget: the same seed gives the same replies ------------------------------------------
def _self_play(kind_a: str, kind_b: str, seed: int, nodes: int) -> list[int]:
    game = PileNim((3, 4, 5))
    rng = random.Random(seed)
    players = [make_ai(game, kind_a, rng=rng, nodes=nodes), make_ai(game, kind_b, rng=rng, nodes=nodes)]
    state = game.new_state()
    while not state.is_over:
        state.play(players[state.current_player].choose(state))
    return list(state.history)


def test_a_node_budget_makes_seeded_mcts_replies_the_same_on_every_run() -> None:
    runs = [_self_play("mcts", "mcts", seed=11, nodes=200) for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    player = make_ai(SlowNim(stones=5), "mcts", nodes=7)
    assert player.seconds is None and player.iterations == 7  # no clock in the budget at all


def test_a_node_budget_bounds_negamax_by_positions_not_seconds() -> None:
    player = make_ai(Nim(stones=30), "negamax", nodes=500, rng=random.Random(3))
    state = Nim(stones=30).new_state()
    player.choose(state)
    assert player.last is not None and player.last.nodes <= 501 and player.seconds is None


def test_a_node_budget_must_be_a_positive_whole_number() -> None:
    for bad in (0, -3, True):
        with pytest.raises(OptionError, match="node budget must be a whole number of at least 1"):
            make_ai(SlowNim(stones=5), "mcts", nodes=bad)
