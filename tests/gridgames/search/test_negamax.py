"""Tests for gridgames.search.negamax: exact results on Nim, checked against plain minimax and Bouton's rule."""

from __future__ import annotations

import itertools
import random

import pytest

from gridgames.errors import GameOverError
from gridgames.game import Player
from gridgames.search.negamax import WIN, NegamaxPlayer, search

from gridgames_test_support.engine_toys import PileNim, nim_distance, nim_value, nim_xor

SMALL_POSITIONS = [p for p in itertools.product(range(4), repeat=3) if any(p)]


def _after(state, move):  # type: ignore[no-untyped-def]
    child = state.copy()
    child.play(move)
    return child


@pytest.mark.parametrize("piles", SMALL_POSITIONS)
def test_unlimited_search_scores_nim_exactly_with_the_length_of_best_play(piles: tuple[int, ...]) -> None:
    state = PileNim(piles).new_state()
    result = search(state, seconds=None)
    value, plies = nim_distance(tuple(sorted(piles)))
    assert result.score == value * (WIN - plies)
    if value > 0:  # the move found keeps the opponent on a lost position, and wins as fast as possible
        assert nim_xor(_after(state, result.move).piles) == 0
        assert nim_distance(tuple(sorted(_after(state, result.move).piles)))[1] == plies - 1


def test_a_lost_position_is_played_out_as_slowly_as_possible() -> None:
    # (2, 2) is lost; taking a whole pile loses in 2 plies, taking one object in 4.
    result = search(PileNim((2, 2)).new_state(), seconds=None)
    assert result.score == -(WIN - 4)
    assert result.move in (0, 2)  # take one object from either pile
    assert "loses in 4 plies" in result.describe()


def test_the_games_evaluation_guides_a_depth_one_search() -> None:
    for piles in [(3, 5, 7), (1, 4, 7), (2, 3, 7)]:  # winning: their xor is not 0
        state = PileNim(piles, evaluation=True).new_state()
        result = search(state, seconds=None, max_depth=1)
        assert result.depth == 1
        assert nim_xor(_after(state, result.move).piles) == 0


def test_without_an_evaluation_the_horizon_scores_zero() -> None:
    result = search(PileNim((3, 5, 6)).new_state(), seconds=None, max_depth=1)
    assert result.score == 0.0 and not result.exact


def test_max_depth_bounds_the_iterations() -> None:
    result = search(PileNim((4, 5, 6, 7)).new_state(), seconds=None, max_depth=3)
    assert result.depth == 3 and len(result.pv) <= 3


def test_a_tiny_time_budget_still_returns_a_legal_move_of_a_completed_depth() -> None:
    state = PileNim((5, 6, 7, 9)).new_state()
    result = search(state, seconds=1e-6)
    assert result.depth >= 1
    assert result.move in set(state.legal_moves())


def test_search_leaves_the_callers_state_untouched() -> None:
    state = PileNim((2, 3, 4)).new_state()
    state.play(0)
    before = (state.history, list(state.piles))
    search(state, seconds=None)
    assert (state.history, list(state.piles)) == before


def test_searching_a_finished_game_is_an_error() -> None:
    state = PileNim((1,)).new_state()
    state.play(0)
    with pytest.raises(GameOverError):
        search(state, seconds=None)


def test_negamax_player_is_a_player_and_describes_its_search() -> None:
    player = NegamaxPlayer(seconds=None, rng=random.Random(1))
    assert isinstance(player, Player)
    state = PileNim((1, 2)).new_state()
    move = player.choose(state)
    assert nim_xor(_after(state, move).piles) == 0
    assert player.note.startswith("depth ") and "wins in 3 plies" in player.note


def test_negamax_player_wins_every_winning_nim_position_against_any_reply() -> None:
    player = NegamaxPlayer(seconds=None)

    def explore(state) -> None:  # type: ignore[no-untyped-def]
        if state.is_over:
            assert state.outcome.winner == 0
            return
        if state.current_player == 0:
            state.play(player.choose(state))
            explore(state)
            state.undo()
        else:
            for move in list(state.legal_moves()):
                state.play(move)
                explore(state)
                state.undo()

    explore(PileNim((1, 2, 4)).new_state())


@pytest.mark.parametrize("piles", [p for p in itertools.product(range(4), repeat=3) if sum(p) > 1])
def test_a_player_moving_twice_in_a_row_is_searched_from_their_own_view(piles: tuple[int, ...]) -> None:
    game = PileNim(piles, extra_turn=True)  # emptying a pile earns another move
    result = search(game.new_state(), seconds=None)
    assert (result.score > 0) == (nim_value(tuple(sorted(piles)), True) > 0)
