"""Tests for gridgames.search.mcts: UCT finds Nim's winning moves; random player; make_ai's choice."""

from __future__ import annotations

import random

import pytest

from gridgames.errors import GameOverError, IllegalMoveError, NotationError, OptionError
from gridgames.game import Player
from gridgames.search.mcts import MCTSPlayer, mcts
from gridgames.search.players import RandomPlayer, has_evaluation, make_ai
from gridgames.search.negamax import NegamaxPlayer

from gridgames_test_support.engine_toys import PileNim, nim_xor


def _after(state, move):  # type: ignore[no-untyped-def]
    child = state.copy()
    child.play(move)
    return child


@pytest.mark.slow
@pytest.mark.parametrize("piles", [(1, 2), (3,), (1, 1, 3), (2, 3, 4)])
def test_mcts_finds_the_winning_nim_move(piles: tuple[int, ...]) -> None:
    state = PileNim(piles).new_state()
    result = mcts(state, seconds=None, iterations=5000, rng=random.Random(7))
    assert nim_xor(_after(state, result.move).piles) == 0
    assert result.iterations == 5000
    assert result.value > 0  # the mover's mean result: it expects to win


def test_mcts_wins_a_winning_nim_position_against_a_random_player() -> None:
    for seed in range(3):
        rng = random.Random(seed)
        players = [MCTSPlayer(seconds=None, iterations=1500, rng=rng), RandomPlayer(rng=rng)]
        state = PileNim((2, 3, 4)).new_state()
        while not state.is_over:
            state.play(players[state.current_player].choose(state))
        assert state.outcome is not None and state.outcome.winner == 0


def test_mcts_leaves_the_callers_state_untouched_and_plays_a_forced_move_at_once() -> None:
    state = PileNim((1, 2)).new_state()
    state.play(0)  # (0, 2): two moves left, both legal
    before = (state.history, list(state.piles))
    mcts(state, seconds=None, iterations=200, rng=random.Random(0))
    assert (state.history, list(state.piles)) == before
    forced = PileNim((1,)).new_state()
    only = mcts(forced, seconds=None, iterations=10_000)
    assert only.iterations == 0 and only.describe() == "the only legal move"


def test_mcts_needs_a_budget_and_a_game_that_goes_on() -> None:
    with pytest.raises(OptionError):
        mcts(PileNim((2,)).new_state(), seconds=None, iterations=None)
    over = PileNim((1,)).new_state()
    over.play(0)
    with pytest.raises(GameOverError):
        mcts(over, iterations=10)


def test_players_follow_the_player_protocol_and_describe_their_move() -> None:
    state = PileNim((2, 3)).new_state()
    mcts_player = MCTSPlayer(seconds=None, iterations=300, rng=random.Random(3))
    random_player = RandomPlayer(rng=random.Random(3))
    for player in (mcts_player, random_player):
        assert isinstance(player, Player)
        assert player.choose(state) in set(state.legal_moves())
    assert mcts_player.note.startswith("mcts 300 playouts")


def test_random_player_is_reproducible_with_a_seed() -> None:
    state = PileNim((5, 6, 7)).new_state()
    first = [RandomPlayer(rng=random.Random(11)).choose(state) for _ in range(3)]
    again = [RandomPlayer(rng=random.Random(11)).choose(state) for _ in range(3)]
    assert first == again


def test_make_ai_prefers_negamax_when_the_game_has_an_evaluation() -> None:
    assert has_evaluation(PileNim((2, 3), evaluation=True))
    assert not has_evaluation(PileNim((2, 3)))
    assert isinstance(make_ai(PileNim((2, 3), evaluation=True), "ai"), NegamaxPlayer)
    assert isinstance(make_ai(PileNim((2, 3)).new_state(), "ai"), MCTSPlayer)
    assert isinstance(make_ai(PileNim((2, 3)), "negamax", seconds=0.1), NegamaxPlayer)
    assert isinstance(make_ai(PileNim((2, 3)), "mcts"), MCTSPlayer)
    assert isinstance(make_ai(PileNim((2, 3)), "random", rng=random.Random(0)), RandomPlayer)


def test_make_ai_rejects_an_unknown_kind() -> None:
    with pytest.raises(OptionError, match="unknown computer player 'genius'"):
        make_ai(PileNim((2, 3)), "genius")


def test_the_random_player_refuses_a_finished_game() -> None:
    state = PileNim((1,)).new_state()
    state.play(0)
    with pytest.raises(GameOverError):
        RandomPlayer(rng=random.Random(0)).choose(state)


def test_from_notation_names_the_move_of_a_parse_error_or_an_illegal_move() -> None:
    game = PileNim((2, 3))
    assert game.from_notation("1:1 2:3").piles == [1, 0]
    with pytest.raises(NotationError, match=r"move 2 \('x'\): a Nim move is PILE:COUNT"):
        game.from_notation("1:1 x")
    with pytest.raises(IllegalMoveError, match=r"move 2 \('1:2'\)"):
        game.from_notation("1:1 1:2")
