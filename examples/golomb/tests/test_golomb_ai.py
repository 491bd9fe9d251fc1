"""The generic computer players on Golomb's game: MCTS (the default AI) finds the win, and beats a random player."""

from __future__ import annotations

import random

from gridgames.search.mcts import MCTSPlayer
from gridgames.search.players import RandomPlayer, make_ai

from gridgames_golomb import GolombGame


def test_the_default_ai_is_mcts_on_the_compiled_rules() -> None:
    from gridgames.search.crules.players import CompiledMCTSPlayer

    assert isinstance(make_ai(GolombGame(), "ai", seconds=0.1), CompiledMCTSPlayer)
    assert isinstance(make_ai(GolombGame(), "ai", seconds=0.1, compiled=False), MCTSPlayer)


def test_mcts_lays_the_i_along_a_side_of_2x5() -> None:
    game = GolombGame(5, 2)
    move = MCTSPlayer(seconds=None, iterations=400, rng=random.Random(1)).choose(game.new_state())
    state = game.new_state()
    state.play(move)
    assert state.outcome is not None and state.outcome.winner == 0, game.format_move(move)


def test_mcts_beats_a_random_player_on_5x5_from_both_seats() -> None:
    rng = random.Random(7)
    game = GolombGame(5, 5)
    for number in range(6):
        ai_seat = number % 2
        players = {ai_seat: MCTSPlayer(seconds=None, iterations=500, rng=rng), 1 - ai_seat: RandomPlayer(rng=rng)}
        state = game.new_state()
        while not state.is_over:
            state.play(players[state.current_player].choose(state))
        assert state.outcome is not None and state.outcome.winner == ai_seat, state.notation()
