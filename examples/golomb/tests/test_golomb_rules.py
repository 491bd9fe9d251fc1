"""Golomb's pentomino game: conformance, small boards solved against a naive reference, notation, refusals, options."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from gridgames.errors import GameOverError, IllegalMoveError, NotationError, OptionError
from gridgames.game import Termination
from gridgames.grid import Grid
from gridgames.search.negamax import WIN, search
from gridgames.shapes import PENTOMINOES
from gridgames.testing import check_game, check_spec

from gridgames_golomb import SPEC, GolombGame, pieces_named


def test_the_spec_conforms_to_the_protocol() -> None:
    # 8x8: gridgames.testing's per-move checks are quadratic in the 2,308 actions
    check_spec(SPEC, playouts=2)


@pytest.mark.parametrize(
    ("width", "height", "pieces"), [(5, 5, "pentominoes"), (6, 3, "tetrominoes"), (4, 4, "pentominoes:I,L,P")]
)
def test_other_boards_and_piece_sets_conform(width: int, height: int, pieces: str) -> None:
    check_game(GolombGame(width, height, pieces), playouts=5)


def _naive_first_player_wins(width: int, height: int, names: tuple[str, ...]) -> bool:
    """Whether the player to move wins, by plain minimax over Grid.can_place and every orientation (no bitmask)."""
    shapes = {name: PENTOMINOES[name].orientations() for name in names}

    @functools.cache
    def wins(picture: str, unused: frozenset[str]) -> bool:
        grid = Grid.from_text(picture)
        for name in unused:
            for shape in shapes[name]:
                for r in range(height):
                    for c in range(width):
                        if grid.can_place(shape, at=(r, c)):
                            after = grid.copy()
                            after.place(shape, at=(r, c), value=1)
                            if not wins(after.to_text(), unused - {name}):
                                return True
        return False

    return wins(Grid.empty(height, width).to_text(), frozenset(names))


@pytest.mark.parametrize(
    ("width", "height", "names"),
    [
        (5, 1, ("I", "L")),
        (5, 2, ("I", "L", "P", "U")),
        (4, 4, ("L", "P", "T", "X")),
        (5, 3, ("I", "L", "P", "V", "X")),
        (4, 5, ("F", "N", "W", "Y")),
    ],
)
def test_exact_search_agrees_with_a_naive_minimax_on_small_boards(
    width: int, height: int, names: tuple[str, ...]
) -> None:
    game = GolombGame(width, height, "pentominoes:" + ",".join(names))
    result = search(game.new_state(), seconds=None)
    assert abs(result.score) >= WIN / 2  # a proved win or loss
    assert (result.score > 0) == _naive_first_player_wins(width, height, names)


def test_a_1x5_board_is_won_by_the_first_i() -> None:
    game = GolombGame(5, 1)
    # the I as drawn lies flat
    assert [game.format_move(m) for m in game.new_state().legal_moves()] == ["I1@a1"]
    state = game.from_notation("I1@a1")
    assert state.outcome is not None and state.outcome.winner == 0 and state.outcome.termination is Termination.NO_MOVES
    assert state.outcome.reason == "Second cannot place a piece"


def test_on_2x5_the_first_player_wins_by_laying_the_i_along_a_side() -> None:
    game = GolombGame(5, 2)
    result = search(game.new_state(), seconds=None, all_scores=True)
    winning = {game.format_move(m) for m, s in result.scores.items() if s > 0}
    assert {"I1@a2", "I1@a1"} <= winning  # the other half is an I too, and the I is used
    assert game.from_notation("I1@a2").outcome.winner == 0  # type: ignore[union-attr]


def test_the_default_game_is_golombs() -> None:
    game = SPEC.make()
    assert isinstance(game, GolombGame) and (game.width, game.height) == (8, 8)
    assert game.piece_moves.names == tuple("FILNPTUVWXYZ") and game.info.num_actions == 2308
    assert game.info.max_game_length == 12 and game.info.player_names == ("First", "Second")


def test_moves_round_trip_and_the_picture_names_the_pieces() -> None:
    game = GolombGame(6, 6)
    state = game.from_notation("I1@a6 X1@c5")
    assert state.notation() == "I1@a6 X1@c5"
    assert state.to_text().splitlines() == [
        "6 I I I I I .",
        "5 . . . X . .",
        "4 . . X X X .",
        "3 . . . X . .",
        "2 . . . . . .",
        "1 . . . . . .",
        "  a b c d e f",
        "unused: F L N P T U V W Y Z",
    ]
    assert state.board().cells[0].tolist() == [1, 1, 1, 1, 1, 0] and state.board().cells[2, 3] == 2


def test_a_refused_move_says_why() -> None:
    game = GolombGame(6, 6)
    state = game.from_notation("I1@a6")
    with pytest.raises(IllegalMoveError, match=r"^I1@b6: piece I is already used$"):
        state.play(game.parse_move("I1@b6"))
    with pytest.raises(IllegalMoveError, match=r"^L1@a6 overlaps the filled cell a6$"):
        state.play(game.parse_move("L1@a6"))
    with pytest.raises(NotationError, match="off the board: 2 of its cells outside the 6x6 board"):
        game.parse_move("L1@a3")
    with pytest.raises(NotationError, match="unknown piece 'Q'"):
        game.parse_move("Q1@a3")
    with pytest.raises(NotationError, match="piece X has no orientation 2"):
        game.from_notation("I1@a6 X2@c5")
    assert state.history == (game.parse_move("I1@a6"),)


def test_no_move_follows_the_end() -> None:
    state = GolombGame(5, 1).from_notation("I1@a1")
    assert list(state.legal_moves()) == [] and not state.legal_mask().any()
    with pytest.raises(GameOverError):
        state.play(0)


def test_undo_and_copies_keep_the_legal_moves_right() -> None:
    game = GolombGame(7, 7)
    rng = random.Random(4)
    state = game.new_state()
    for _ in range(4):
        before = list(state.legal_moves())
        move = rng.choice(before)
        copy = state.copy()
        state.play(move)
        assert list(copy.legal_moves()) == before
        expected = game.piece_moves.legal(state.occupied, state.available).tolist()
        assert list(state.legal_moves()) == expected and list(state.copy().legal_moves()) == expected
    played = state.history
    while state.history:
        state.undo()
    assert state.occupied == 0 and list(state.legal_moves()) == list(range(game.info.num_actions))
    assert game.from_moves(played).to_text() == game.from_notation(game.join_notation(played)).to_text()


def test_the_planes_show_both_players_cells_and_the_unused_pieces() -> None:
    game = GolombGame(6, 6)
    planes = game.from_notation("I1@a6 X1@c5").planes()
    assert planes.shape == (6, 6, 2 + 12) and planes.dtype == np.int8
    assert planes[:, :, 0].sum() == 5 and planes[:, :, 1].sum() == 5
    unused = planes[0, 0, 2:].tolist()
    assert unused == [0 if name in "IX" else 1 for name in "FILNPTUVWXYZ"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"width": 0}, "width"),
        ({"height": 27}, "height"),
        ({"pieces": "heptagons"}, "unknown piece set"),
        ({"pieces": "pentominoes:I,Q"}, "no piece 'Q'"),
        ({"width": 2, "height": 2}, "no piece of pentominoes fits"),
    ],
)
def test_impossible_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        SPEC.make(**options)


def test_a_piece_subset_keeps_the_order_given() -> None:
    assert list(pieces_named("pentominoes:X, I")) == ["X", "I"]
    assert len(pieces_named("tetrominoes")) == 5


def test_each_placed_piece_is_marked_with_its_name_colour_and_player() -> None:
    game = GolombGame()
    state = game.new_state()
    assert state.marks() == {}
    for text in ("I1@a8", "L1@a7"):
        state.play(game.parse_move(text))
    marks = state.marks()
    cells = {name: {cell for cell, mark in marks.items() if mark.label == name} for name in ("I", "L")}
    assert cells["I"] == {(0, c) for c in range(5)} and len(cells["L"]) == 5 and not cells["I"] & cells["L"]
    assert {marks[c].player for c in cells["I"]} == {0} and {marks[c].player for c in cells["L"]} == {1}
    assert marks[(0, 0)].colour != marks[next(iter(cells["L"]))].colour
    assert state.svg().count('data-kind="tile"') == 10  # the default picture draws them
