"""The protocol's optional methods: their defaults, and the built-in games' own versions agree with them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gridgames_test_support.strategies import connect4_playouts
from gridgames_test_support.toy_games import Nim
from hypothesis import given, settings

from gridgames.errors import NotationError, OptionError
from gridgames.game import Game, State
from gridgames.registry import load_game


def test_a_game_without_a_board_has_a_mask_but_no_planes() -> None:
    state = Nim(2).new_state()
    assert state.legal_mask().tolist() == [1, 1, 0]
    assert state.board() is None and state.planes() is None
    assert Nim().computer_levels() == ()
    with pytest.raises(OptionError, match="no computer player"):
        Nim().computer_player("medium")


@settings(max_examples=50, deadline=None)
@given(connect4_playouts())
def test_connect_fours_mask_and_planes_agree_with_the_defaults(playout: tuple) -> None:
    game, moves = playout
    state = game.from_moves(moves)
    assert state.legal_mask().tolist() == State.legal_mask(state).tolist()
    assert state.board() == state.grid
    planes = state.planes()
    assert planes.shape == (game.height, game.width, 2) and planes.dtype == np.int8
    assert planes.sum() == len(moves)
    assert (planes[..., 0].sum(), planes[..., 1].sum()) == ((len(moves) + 1) // 2, len(moves) // 2)


def test_the_mnk_games_mask_agrees_with_its_legal_moves() -> None:
    game = load_game("mnk").make(width=5, height=4, k=3)
    state = game.from_notation("c2 b2 c3")
    assert state.legal_mask().tolist() == State.legal_mask(state).tolist()
    assert state.planes()[..., 0].sum() == 2 and state.planes()[..., 1].sum() == 1


def test_connect_four_offers_its_computer_levels() -> None:
    game = load_game("connect4").make(width=5, height=4)
    assert isinstance(game, Game)
    assert game.computer_levels()[:3] == ("random", "easy", "medium")
    state = game.from_notation("112233")
    for level in game.computer_levels()[1:]:
        player = game.computer_player(level, random.Random(0))
        # every level above random takes the win at once (column 4)
        assert player.choose(state) == 3
    with pytest.raises(OptionError):
        game.computer_player("grandmaster")


def test_planes_for_turns_the_players_planes_to_the_observer() -> None:
    game = load_game("mnk").make(width=5, height=4, k=3)
    state = game.from_notation("c2 b2 c3")
    planes = state.planes()
    assert (state.planes_for(0) == planes).all()
    turned = state.planes_for(1)
    assert (turned[..., 0] == planes[..., 1]).all() and (turned[..., 1] == planes[..., 0]).all()
    assert Nim(2).new_state().planes_for(1) is None


def test_the_learning_environments_observe_a_games_own_planes_for() -> None:
    pytest.importorskip("gymnasium")
    from gridgames.rl.core import Observer

    class CapturesState(type(load_game("mnk").make(width=3, height=3, k=3).new_state())):  # type: ignore[misc]
        def planes(self) -> np.ndarray:
            base = super().planes()
            # two per-player planes of its own
            return np.concatenate([base, np.zeros_like(base)], axis=-1)

        def planes_for(self, observer: int) -> np.ndarray:
            planes = self.planes()
            # its own planes turned too
            order = [observer, 1 - observer, 2 + observer, 3 - observer]
            marked = planes[..., order].copy()
            marked[0, 0, 2] = 1  # where the observer's own plane lands, for the test
            return marked

    game = load_game("mnk").make(width=3, height=3, k=3)
    state = CapturesState(game)
    observer = Observer.of(game, "mnk")
    # the game's states: the default planes
    assert observer.observe(state, 1)["observation"].shape == (3, 3, 2)
    own = Observer.of(type("G", (), {"new_state": lambda self: CapturesState(game), "info": game.info})(), "x")
    seen = own.observe(state, 1)["observation"]
    # planes_for was used, not the table's reordering
    assert seen.shape == (3, 3, 4) and seen[0, 0, 2] == 1


def test_by_default_a_state_parses_as_its_game_and_gives_no_paths_or_colours() -> None:
    state = Nim(3).new_state()
    assert state.parse_move("2") == state.game.parse_move("2")
    assert all(state.move_path(move) is None for move in state.legal_moves())
    assert Nim().player_colours() is None and not Nim().pass_always_legal


def test_from_notation_reads_moves_in_the_position() -> None:
    from gridgames_test_support.toy_games import NimState

    class AgainState(NimState):  # "again" repeats the last move: only the position can say which
        def parse_move(self, text: str) -> int:
            return self.history[-1] if text == "again" else super().parse_move(text)

    class AgainNim(Nim):
        def new_state(self) -> AgainState:
            return AgainState(self)

    state = AgainNim(3).from_notation("1 again")
    assert state.history == (0, 0) and state.left == 1
    with pytest.raises(NotationError):
        Nim(3).from_notation("1 again")
