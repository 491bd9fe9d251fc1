"""The generic computer players on the m,n,k-game: on 3x3 the AI never loses, and it plays big boards to the end."""

from __future__ import annotations

import pytest

import random

from gridgames.search.players import RandomPlayer, make_ai
from gridgames.search.negamax import NegamaxPlayer

from gridgames_mnk import MNKGame


def _never_loses_against_every_reply(ai: NegamaxPlayer, seat: int) -> dict[int | None, int]:
    """Play the AI in ``seat`` against every sequence of opponent moves; the results of all games."""
    memo: dict[tuple[frozenset[int], frozenset[int]], int] = {}
    results: dict[int | None, int] = {}

    def explore(state) -> None:  # type: ignore[no-untyped-def]
        if state.is_over:
            results[state.outcome.winner] = results.get(state.outcome.winner, 0) + 1
            return
        if state.current_player == seat:
            key = (frozenset(state.history[0::2]), frozenset(state.history[1::2]))
            if key not in memo:
                memo[key] = ai.choose(state)
            moves = [memo[key]]
        else:
            moves = list(state.legal_moves())
        for move in moves:
            state.play(move)
            explore(state)
            state.undo()

    explore(MNKGame().new_state())
    return results


@pytest.mark.slow
def test_the_ai_never_loses_tic_tac_toe_whatever_the_opponent_plays() -> None:
    ai = NegamaxPlayer(seconds=None, max_depth=4)
    as_x = _never_loses_against_every_reply(ai, 0)
    as_o = _never_loses_against_every_reply(ai, 1)
    assert 1 not in as_x and sum(as_x.values()) > 70
    assert 0 not in as_o and sum(as_o.values()) > 400


def test_the_default_ai_is_negamax_and_draws_against_itself() -> None:
    game = MNKGame()
    players = [make_ai(game, "ai", seconds=0.1, rng=random.Random(seed)) for seed in (1, 2)]
    from gridgames.search.crules.players import CompiledNegamaxPlayer

    assert all(isinstance(p, CompiledNegamaxPlayer) for p in players)
    state = game.new_state()
    while not state.is_over:
        state.play(players[state.current_player].choose(state))
    assert state.outcome is not None and state.outcome.is_draw


def test_the_ai_never_loses_against_a_random_player() -> None:
    rng = random.Random(5)
    for game_number in range(12):
        ai_seat = game_number % 2
        players = {ai_seat: NegamaxPlayer(seconds=None, max_depth=4, rng=rng), 1 - ai_seat: RandomPlayer(rng=rng)}
        state = MNKGame().new_state()
        while not state.is_over:
            state.play(players[state.current_player].choose(state))
        assert state.outcome is not None and state.outcome.winner in (None, ai_seat)


def test_the_ai_plays_a_bigger_board_to_the_end() -> None:
    rng = random.Random(3)
    game = MNKGame(6, 6, 4)
    players = [make_ai(game, "ai", seconds=0.02, rng=rng), RandomPlayer(rng=rng)]
    state = game.new_state()
    while not state.is_over:
        state.play(players[state.current_player].choose(state))
    # the random player does not block
    assert state.outcome is not None and state.outcome.winner == 0
    assert players[0].note.startswith("depth ")
