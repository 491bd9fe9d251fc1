"""Hex's rules: known small results by minimax, the Hex theorem on random full boards, the swap rule, notation."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from gridgames.errors import IllegalMoveError, NotationError, OptionError
from gridgames.grid import Grid
from gridgames.registry import load_game
from gridgames.testing import check_spec

from gridgames_hex import SPEC, HexGame, HexState, winning_chain


def _winner_with_best_play(game: HexGame, *, swap: bool) -> int:
    """The player who wins with perfect play (a plain minimax over every position, memoised on the board)."""

    @functools.cache
    def wins(key: tuple[bytes, int, bool]) -> bool:  # does the player to move win?
        return any(not outcome(move) for move in moves())

    state = game.new_state()

    def moves() -> list[int]:
        return [m for m in state.legal_moves() if swap or m != game.swap]

    def outcome(move: int) -> bool:  # after `move`, does the player to move win?
        state.play(move)
        try:
            if state.outcome is not None:
                return False  # the mover just won
            return wins((state.grid.cells.tobytes(), state.current_player, len(state.history) == 1))
        finally:
            state.undo()

    return 0 if wins((state.grid.cells.tobytes(), 0, False)) else 1


@pytest.mark.parametrize("size", [2, 3])
def test_the_first_player_wins_small_boards_and_the_swap_rule_turns_it_round(size: int) -> None:
    assert _winner_with_best_play(HexGame(size), swap=False) == 0
    # with the swap rule Blue swaps every winning opening and answers every losing one
    assert _winner_with_best_play(HexGame(size), swap=True) == 1


def test_random_full_boards_have_exactly_one_winner() -> None:
    rng = np.random.default_rng(0)
    for n in (1, 2, 3, 5, 7, 11):
        for _ in range(60):
            cells = rng.integers(1, 3, size=(n, n))
            grid = Grid(cells, lattice="hexagonal")
            chains = [winning_chain(grid, p) for p in (0, 1)]
            assert sum(bool(c) for c in chains) == 1, grid.picture()


def test_a_chain_is_found_through_hexagonal_neighbours_only() -> None:
    # Red's stones down the anti-diagonal touch as hexagons; down the main diagonal they would not
    touching = Grid.from_text("..1\n.1.\n1..", lattice="hexagonal")
    assert winning_chain(touching, 0) == ((0, 2), (1, 1), (2, 0))
    assert winning_chain(Grid.from_text("1..\n.1.\n..1", lattice="hexagonal"), 0) == ()
    assert winning_chain(Grid.from_text("2..\n.2.\n..2", lattice="hexagonal"), 1) == ()
    assert winning_chain(Grid.from_text("...\n222\n...", lattice="hexagonal"), 1) == ((1, 0), (1, 1), (1, 2))


def test_play_to_a_win_with_the_winning_chain_as_the_outcome_cells() -> None:
    state = HexState(HexGame(3))
    for text in "b1 a1 b2 a2 a3".split():
        state.play(state.game.parse_move(text))
    assert state.outcome is not None and state.outcome.winner == 0
    assert set(state.outcome.cells) == {(0, 1), (1, 1), (2, 0)}
    assert list(state.legal_moves()) == []
    state.undo()
    assert state.outcome is None and state.current_player == 0


def test_swap_round_trip_and_undo() -> None:
    game = HexGame(5)
    state = game.new_state()
    state.play(game.parse_move("c2"))  # row 2, column c: (1, 2)
    assert game.swap in state.legal_moves() and state.legal_mask()[-1] == 1
    before = state.grid.copy()
    state.play(game.parse_move("swap"))
    assert state.grid[(2, 1)] == 2 and state.grid[(1, 2)] == 0  # Blue's stone on b3, mirrored
    assert state.current_player == 0  # Red moves next
    assert state.notation() == "c2 swap"
    assert not state.is_legal(game.swap) and state.legal_mask()[-1] == 0
    assert state.undo() == game.swap
    assert state.grid == before
    state.play(game.parse_move("d4"))  # Blue declines the swap: no swap later
    assert game.swap not in state.legal_moves()
    with pytest.raises(IllegalMoveError):
        state.play(game.swap)
    assert game.new_state().is_legal(game.swap) is False  # nothing to swap before Red's first stone


def test_notation_round_trip_and_errors() -> None:
    game = HexGame.create(11)
    assert game.format_move(0) == "a1" and game.format_move(120) == "k11" and game.parse_move("K11") == 120
    assert all(game.parse_move(game.format_move(m)) == m for m in range(game.info.num_actions))
    with pytest.raises(NotationError, match="off the board"):
        game.parse_move("l1")
    with pytest.raises(NotationError, match="swap"):
        game.parse_move("pass")
    for bad in (4, 12, "7"):
        with pytest.raises(OptionError, match="5 to 11"):
            HexGame.create(bad)  # type: ignore[arg-type]


def test_the_text_picture_shifts_each_row() -> None:
    state = HexGame(3).new_state()
    state.play(0)
    assert state.to_text() == "  a b c\n1 R . .\n2  . . .\n3   . . ."


def test_evaluation_prefers_the_shorter_connection() -> None:
    state = HexGame(5).new_state()
    assert state.distance(0) == 5 and state.distance(1) == 5 and state.evaluate() == 0.0
    state.play(state.game.parse_move("c3"))
    assert state.distance(0) == 4 and state.evaluate() < 0  # Blue to move, Red is a cell closer


@pytest.mark.slow
def test_conformance_and_the_registry() -> None:
    check_spec(SPEC)
    assert load_game("hex").make(size=5).size == 5
    rng = random.Random(1)
    state = HexGame(7).new_state()
    while not state.is_over:
        state.play(rng.choice(list(state.legal_moves())))
    assert state.outcome is not None and state.outcome.winner in (0, 1)


def test_the_picture_draws_each_players_edges_in_their_colour() -> None:
    game = HexGame(3)
    # the sides each player must join
    assert game.edges == {"top": 0, "bottom": 0, "left": 1, "right": 1}
    svg = game.new_state().svg()
    for side, colour in (("top", "#d62728"), ("bottom", "#d62728"), ("left", "#1f77b4"), ("right", "#1f77b4")):
        assert (
            f'stroke="{colour}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round" '
            f'pointer-events="none" data-edge="{side}"' in svg
        )
