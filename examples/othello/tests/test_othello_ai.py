"""The generic computer players on Othello: negamax against a plain minimax on 4x4 (passes included), MCTS, and the AI
against random."""

from __future__ import annotations

import random
from functools import cache

import pytest

from gridgames.search.mcts import mcts
from gridgames.search.negamax import WIN, NegamaxPlayer, is_forced, search
from gridgames.search.players import RandomPlayer, make_ai

from gridgames_othello import OthelloGame, OthelloState

GAME = OthelloGame(4)
PASS_4X4 = "c4 d2 a1 a2 a3 d4 c1 b4 d3 b1 d1"  # White to move must pass


def minimax(state: OthelloState) -> float:
    """The exact `value_for` the player to move gets with best play on both sides (a plain minimax, memoised)."""

    @cache
    def value(moves: tuple[int, ...]) -> float:
        position = GAME.from_moves(moves)
        if position.outcome is not None:
            return position.outcome.value_for(position.current_player)
        best = -2.0
        mover = position.current_player
        for move in list(position.legal_moves()):
            position.play(move)
            # for the player to move next: the mover again, or the other
            after = value(moves + (move,))
            best = max(best, after if position.current_player == mover else -after)
            position.undo()
        return best

    return value(state.history)


def _random_opening(plies: int, seed: int) -> OthelloState:
    rng = random.Random(seed)
    state = GAME.new_state()
    for _ in range(plies):
        state.play(rng.choice(list(state.legal_moves())))
    return state


@pytest.mark.slow
@pytest.mark.parametrize(("plies", "seed"), [(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)])
def test_negamax_finds_the_exact_minimax_value_on_4x4(plies: int, seed: int) -> None:
    state = _random_opening(plies, seed)
    exact = minimax(state)
    result = search(state, seconds=None)
    assert result.exact and (is_forced(result.score) or exact == 0.0)
    plies = len(result.pv)
    assert result.score == pytest.approx(exact * (WIN - plies), abs=1e-6)
    after = state.copy()
    after.play(result.move)
    # its move keeps the best value (the opponent moves next)
    assert -minimax(after) == pytest.approx(exact)


def test_negamax_and_mcts_pass_when_they_must() -> None:
    state = GAME.from_notation(PASS_4X4)
    assert search(state, seconds=None).move == GAME.pass_move
    assert mcts(state, iterations=20, rng=random.Random(1)).move == GAME.pass_move
    state.play(GAME.pass_move)
    assert GAME.format_move(search(state, seconds=None).move) == "a4"


@pytest.mark.slow
def test_mcts_plays_passing_games_to_the_end_on_6x6() -> None:
    game = OthelloGame(6)
    rng = random.Random(3)
    passes = 0
    for seed in range(6):
        state = game.new_state()
        players = [make_ai(game, "mcts", seconds=1.0, rng=random.Random(seed)), RandomPlayer(rng=rng)]
        players[0].iterations, players[0].seconds = 40, None  # type: ignore[attr-defined]
        while not state.is_over:
            state.play(players[state.current_player].choose(state))
        passes += state.history.count(game.pass_move)
        assert state.outcome is not None and state.outcome.scores is not None
        assert sum(state.outcome.scores) <= 36
    assert passes >= 1  # these seeds' games include passes


def test_negamax_prefers_the_bigger_win() -> None:
    state = GAME.from_notation("d3 b4 a2 d2 c4 d4 pass")  # every Black move wins, a1 by the most
    result = search(state, seconds=None, all_scores=True)
    margins = {}
    for move in result.scores:
        after = state.copy()
        after.play(move)
        margins[move] = -minimax(after)
    assert result.move == max(margins, key=lambda m: margins[m])
    # all win, by different margins
    assert len(set(margins.values())) > 1 and min(margins.values()) > 0
    assert GAME.format_move(result.move) == "a1"


def test_the_ai_beats_random_on_6x6() -> None:
    game = OthelloGame(6)
    wins = 0
    for seed in range(4):
        ai_seat = seed % 2
        players = {
            ai_seat: NegamaxPlayer(seconds=None, max_depth=2, rng=random.Random(seed)),
            1 - ai_seat: RandomPlayer(rng=random.Random(seed)),
        }
        state = game.new_state()
        while not state.is_over:
            state.play(players[state.current_player].choose(state))
        wins += state.outcome is not None and state.outcome.winner == ai_seat
    assert wins >= 3
