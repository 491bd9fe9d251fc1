"""The generic computer player on Hex: negamax on the shortest-connection evaluation beats random."""

from __future__ import annotations

import random

from gridgames.search.players import RandomPlayer, make_ai
from gridgames.search.negamax import NegamaxPlayer

from gridgames_hex import HexGame


def test_the_ai_is_negamax_and_beats_random_from_either_seat() -> None:
    game = HexGame.create(5)
    from gridgames.search.crules.players import CompiledNegamaxPlayer

    assert isinstance(make_ai(game, "ai", seconds=0.05), CompiledNegamaxPlayer)
    assert isinstance(make_ai(game, "ai", seconds=0.05, compiled=False), NegamaxPlayer)
    wins = 0
    for seed in range(4):
        ai_seat = seed % 2
        players = [RandomPlayer(rng=random.Random(seed)), RandomPlayer(rng=random.Random(seed))]
        players[ai_seat] = make_ai(game, "ai", seconds=0.05, rng=random.Random(seed))  # type: ignore[call-overload]
        state = game.new_state()
        while not state.is_over:
            state.play(players[state.current_player].choose(state))
        wins += state.outcome is not None and state.outcome.winner == ai_seat
    assert wins == 4


def test_the_ai_takes_a_winning_cell() -> None:
    game = HexGame(5)
    state = game.new_state()
    for text in "c1 a1 c2 a2 c3 a3 c4 a4".split():  # Red's c5 wins, Blue's a5 would too
        state.play(game.parse_move(text))
    move = NegamaxPlayer(seconds=None, max_depth=2).choose(state)
    state.play(move)
    assert state.outcome is not None and state.outcome.winner == 0
