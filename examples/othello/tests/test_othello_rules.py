"""Othello's rules: the opening, perft counts, passes, the end of the game with scores, notation, options, undo, the
CLI."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gridgames.registry
from gridgames.cli import app
from gridgames.errors import IllegalMoveError, NotationError, OptionError
from gridgames.game import PASS_TEXT, Termination
from gridgames.registry import GROUP, Registry
from gridgames.testing import check_game, check_spec

from gridgames_othello import SPEC, OthelloGame, OthelloState

# positions after 1-6 plies from the start (published perft of Othello)
PERFT = (4, 12, 56, 244, 1396, 8200)
# the shortest game: Black wipes White out in nine moves, 13-0
WIPEOUT = "e6 f4 e3 f6 g5 d6 e7 f5 c5"
PASS_4X4 = "c4 d2 a1 a2 a3 d4 c1 b4 d3 b1 d1"  # 4x4: White to move then has no move and must pass


def perft(state: OthelloState, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in list(state.legal_moves()):
        state.play(move)
        total += perft(state, depth - 1)
        state.undo()
    return total


@pytest.mark.slow
def test_the_spec_conforms_to_the_protocol() -> None:
    check_spec(SPEC)


@pytest.mark.slow
@pytest.mark.parametrize("size", [4, 6, 10])
def test_other_sizes_conform(size: int) -> None:
    check_game(OthelloGame(size), playouts=4)


def test_the_standard_opening_gives_black_four_moves() -> None:
    game = OthelloGame()
    state = game.new_state()
    assert state.current_player == 0 and state.discs() == (2, 2)
    assert sorted(game.format_move(m) for m in state.legal_moves()) == ["c4", "d3", "e6", "f5"]
    assert state.to_text().splitlines()[3:5] == ["4 . . . O X . . .", "5 . . . X O . . ."]


@pytest.mark.slow
def test_perft_counts_from_the_start_position() -> None:
    state = OthelloGame().new_state()
    assert tuple(perft(state, depth) for depth in range(1, 7)) == PERFT
    assert state.history == () and state.discs() == (2, 2)  # undo restored everything


def test_a_move_turns_the_outflanked_discs() -> None:
    game = OthelloGame()
    state = game.from_notation("d3")
    assert state.discs() == (4, 1)
    assert state.to_text().splitlines()[2:5] == ["3 . . . X . . . .", "4 . . . X X . . .", "5 . . . X O . . ."]
    assert state.current_player == 1


def test_a_player_without_a_move_must_pass_and_only_pass() -> None:
    game = OthelloGame(4)
    state = game.from_notation(PASS_4X4)
    assert state.current_player == 1 and not state.is_over
    assert list(state.legal_moves()) == [game.pass_move] and state.is_legal(game.pass_move)
    assert game.format_move(game.pass_move) == PASS_TEXT and game.parse_move("PASS") == game.pass_move
    with pytest.raises(IllegalMoveError):
        state.play(game.parse_move("a4"))
    state.play(game.pass_move)
    assert state.current_player == 0 and not game.new_state().is_legal(game.pass_move)


def test_undo_across_a_pass_restores_the_position() -> None:
    game = OthelloGame(4)
    state = game.from_notation(PASS_4X4)
    before = (state.to_text(), state.current_player, list(state.legal_moves()))
    state.play(game.pass_move)
    state.play(game.parse_move("a4"))
    assert state.is_over
    assert state.undo() == game.parse_move("a4") and state.undo() == game.pass_move
    assert (state.to_text(), state.current_player, list(state.legal_moves())) == before
    assert (
        game.from_notation(PASS_4X4 + " pass a4").outcome == game.from_notation(state.notation() + " pass a4").outcome
    )


def test_a_full_board_ends_the_game_with_the_disc_counts() -> None:
    state = OthelloGame(4).from_notation(PASS_4X4 + " pass a4")
    outcome = state.outcome
    assert outcome is not None and outcome.winner == 0 and outcome.scores == (11, 5)
    assert outcome.termination is Termination.BOARD_FULL and outcome.margin_for(0) == 6
    assert 0.5 < outcome.value_for(0) < 1 and list(state.legal_moves()) == []


def test_the_game_ends_when_neither_player_can_move() -> None:
    state = OthelloGame().from_notation(WIPEOUT)
    outcome = state.outcome
    assert outcome is not None and outcome.winner == 0 and outcome.scores == (13, 0)
    assert outcome.termination is Termination.NO_MOVES and outcome.reason == "neither player can move"
    state.undo()
    assert state.outcome is None and state.discs() == (7, 5)


def test_notation_errors_and_options() -> None:
    game = OthelloGame(6)
    assert game.format_move(game.parse_move("f6")) == "f6" and game.parse_move("a1") == 0
    for text, message in (("g1", "off the board"), ("a7", "off the board"), ("zz", "such as 'd3'")):
        with pytest.raises(NotationError, match=message):
            game.parse_move(text)
    for size in (3, 5, 18, 2):
        with pytest.raises(OptionError, match="even integer from 4 to 16"):
            OthelloGame(size)


def test_the_evaluation_is_bounded_and_likes_mobility_and_corners() -> None:
    game = OthelloGame(4)
    assert game.new_state().evaluate() == 0.0  # a symmetric start
    # Black: corners 2 to 1, one move to none, 9 discs to 6
    state = game.from_notation(PASS_4X4 + " pass")
    assert state.evaluate() == pytest.approx(0.5 * (1 - 0) / 2 + 0.3 * 1 / 4 + 0.2 * 3 / 15)
    assert state.copy().evaluate() == state.evaluate()
    state.undo()  # White to move (and pass): the same position from the other side
    assert state.evaluate() == pytest.approx(0.5 * (0 - 1) / 2 - 0.3 * 1 / 4 - 0.2 * 3 / 15)


runner = CliRunner()


@pytest.fixture
def othello_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    registry = Registry.from_list([EntryPoint("othello", "gridgames_othello:SPEC", GROUP)])
    monkeypatch.setattr(gridgames.registry, "_default", registry)
    return registry


def test_the_terminal_offers_the_pass_and_prints_the_score(othello_registry: Registry) -> None:
    moves = "\n".join(PASS_4X4.split()) + "\np\na4\n"
    result = runner.invoke(app, ["play", "othello", "--size", "4", "--black", "human", "--white", "human"], input=moves)
    assert result.exit_code == 0, result.output
    assert "White has no move and must pass (type p or pass" in result.output
    assert result.output.strip().splitlines()[-1] == "Black wins 11-5 (the board is full)"
    shown = runner.invoke(app, ["othello", "show", "--size", "4", PASS_4X4 + " pass a4", "--final"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.strip().splitlines()[-1] == "Black wins 11-5 (the board is full)"


def test_a_saved_game_with_a_pass_loads(othello_registry: Registry, tmp_path: Path) -> None:
    file = tmp_path / "othello.json"
    moves = "\n".join(PASS_4X4.split()) + f"\npass\ns {file}\nq\n"
    saved = runner.invoke(app, ["play", "othello", "--size", "4", "--black", "human", "--white", "human"], input=moves)
    assert saved.exit_code == 0 and file.exists(), saved.output
    # --size 4 again: today --load compares every default option (it should compare only the options given)
    loaded = runner.invoke(app, ["play", "othello", "--size", "4", "--load", str(file)], input="a4\n")
    assert loaded.exit_code == 0, loaded.output
    assert loaded.output.strip().splitlines()[-1] == "Black wins 11-5 (the board is full)"
    assert "moves: " + PASS_4X4 + " pass a4" in loaded.output


def test_the_tally_counts_each_players_discs_as_the_game_goes() -> None:
    game = OthelloGame()
    state = game.new_state()
    assert state.tally() == {"discs": (2, 2)}
    state.play(game.parse_move("d3"))  # d4 turns black
    assert state.tally() == {"discs": (4, 1)}
    state.undo()
    assert state.tally() == {"discs": (2, 2)}
