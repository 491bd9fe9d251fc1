"""Tests for gridgames.search.negamax: exact results on Nim, checked against plain minimax and Bouton's rule."""

from __future__ import annotations

import itertools
import random

import pytest

from gridgames.errors import GameOverError, IllegalMoveError
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
    # the move found keeps the opponent on a lost position, and wins as fast as possible
    if value > 0:
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


# --- budgets, root restriction, every root move's score, noise ---------------------------------
def _exact_move_score(state, move) -> float:  # type: ignore[no-untyped-def]
    """The exact negamax score of ``move`` for the player making it, from plain minimax (`nim_distance`)."""
    value, plies = nim_distance(tuple(sorted(_after(state, move).piles)))
    return -value * (WIN - plies - 1)


@pytest.mark.slow
@pytest.mark.parametrize("piles", [p for p in SMALL_POSITIONS if sum(p) > 1])
def test_all_scores_gives_every_root_moves_exact_score(piles: tuple[int, ...]) -> None:
    state = PileNim(piles).new_state()
    result = search(state, seconds=None, all_scores=True)
    assert result.scores == {m: _exact_move_score(state, m) for m in state.legal_moves()}
    assert result.score == max(result.scores.values()) == result.scores[result.move]


def test_without_all_scores_the_other_moves_scores_are_upper_bounds() -> None:
    state = PileNim((3, 2, 1)).new_state()  # lost: every move scores below the best's exact score
    result = search(state, seconds=None)
    assert set(result.scores) == set(state.legal_moves())
    assert all(result.scores[m] >= _exact_move_score(state, m) for m in result.scores)
    assert result.scores[result.move] == _exact_move_score(state, result.move)


def test_moves_restricts_the_root() -> None:
    state = PileNim((1, 3)).new_state()  # winning only by taking 2 from the second pile (move 4)
    losing = [0, 3, 5]
    result = search(state, seconds=None, moves=losing, all_scores=True)
    assert result.move in losing and set(result.scores) == set(losing)
    assert result.score < 0 and result.score == max(_exact_move_score(state, m) for m in losing)
    assert search(state, seconds=None, moves=[4, 0]).move == 4


def test_moves_must_be_legal_and_not_empty() -> None:
    state = PileNim((1, 3)).new_state()
    with pytest.raises(IllegalMoveError, match="'1:2' is not legal"):
        search(state, seconds=None, moves=[1])
    with pytest.raises(IllegalMoveError, match="empty"):
        search(state, seconds=None, moves=[])


@pytest.mark.slow
def test_a_node_budget_stops_deepening_and_replays_the_same() -> None:
    state = PileNim((5, 6, 7, 9), evaluation=True).new_state()
    first = search(state, seconds=None, max_nodes=300, rng=random.Random(4))
    again = search(state, seconds=None, max_nodes=300, rng=random.Random(4))
    assert first.stopped and first.depth >= 1 and first.move in set(state.legal_moves())
    assert (first.move, first.depth, first.nodes, first.scores) == (again.move, again.depth, again.nodes, again.scores)
    # depth 1 always completes; deeper ones stop at the budget
    assert first.nodes <= 301 or first.depth == 1
    deeper = search(state, seconds=None, max_nodes=30_000, rng=random.Random(4))
    assert deeper.depth > first.depth


def test_a_budget_large_enough_does_not_stop_the_search() -> None:
    result = search(PileNim((2, 2)).new_state(), seconds=None, max_nodes=100_000)
    assert not result.stopped and result.exact and result.score == -(WIN - 4)


def test_noise_varies_heuristic_choices_but_never_forced_results() -> None:
    state = PileNim((2, 3, 4), evaluation=True).new_state()
    chosen = {search(state, seconds=None, max_depth=1, noise=5.0, rng=random.Random(s)).move for s in range(30)}
    assert len(chosen) > 2  # without noise, depth 1 always picks a move leaving xor 0
    assert all(m in set(state.legal_moves()) for m in chosen)
    win_now = PileNim((3,), evaluation=True).new_state()  # taking all three wins at once
    for seed in range(10):
        result = search(win_now, seconds=None, max_depth=1, noise=5.0, rng=random.Random(seed))
        assert result.move == 2 and result.score == WIN - 1
    with pytest.raises(ValueError, match="noise"):
        search(win_now, seconds=None, noise=-1.0)
