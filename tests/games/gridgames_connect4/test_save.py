"""Connect Four save files: written as every game's (`gridgames.saves`), and 0.1's own format still read.

The files under ``data/`` were written in the format ``gridgames-connect4`` (versions 1 and 2)
that the terminal game used before it saved through the framework; they must keep loading,
to the same position, colours, seats, think time and seed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gridgames_connect4 import Connect4, SPEC
from gridgames_test_support.connect4_play import load_game, save_game
from gridgames_test_support.strategies import connect4_playouts
from hypothesis import given, settings
from typer.testing import CliRunner

from gridgames.cli import app
from gridgames.errors import SaveFileError
from gridgames.saves import SavedPlay, from_json, load_play, restore, to_json

DATA = Path(__file__).parent / "data"
GOOD = {
    "format": "gridgames-connect4",
    "version": 1,
    "width": 7,
    "height": 6,
    "connect": 4,
    "first": "red",
    "moves": "4453",
}


@pytest.mark.parametrize(
    ("name", "size", "moves", "first", "seats", "think", "seed"),
    [
        ("v1-red-first.json", (7, 6, 4), "4453", "red", (), None, None),
        ("v1-yellow-first-8x7-connect5.json", (8, 7, 5), "1823", "yellow", (), None, None),
        ("v2-seats-think-seed.json", (7, 6, 4), "44536", "red", ("human", "perfect"), 0.5, 11),
        ("v2-yellow-first-wide.json", (10, 5, 5), "10,1,10", "yellow", ("human", "hard"), 1.5, 7),
        ("v2-written-by-0.1-yellow-first.json", (6, 5, 4), "3443", "yellow", ("human", "perfect"), 1.5, 7),
        ("v2-finished.json", (7, 6, 4), "4455667", "red", ("human", "human"), None, None),
    ],
)
def test_every_earlier_save_file_loads_to_its_position_colours_seats_think_and_seed(
    name: str,
    size: tuple[int, int, int],
    moves: str,
    first: str,
    seats: tuple[str, ...],
    think: float | None,
    seed: int | None,
) -> None:
    saved = load_play(DATA / name, SPEC)
    game, state = restore(SPEC, saved)
    assert game == Connect4(*size, first=first) and state.notation() == moves
    assert saved.seats == seats and (saved.think, saved.seed) == (
        think,
        seed,
    )  # seats in turn order: the first mover's first
    assert from_json(to_json(saved), spec=SPEC) == saved  # and it saves again in the one format


def test_an_old_file_where_yellow_moved_first_resumes_in_its_colours_and_seats() -> None:
    result = CliRunner().invoke(
        app, ["play", "connect4", "--load", str(DATA / "v2-yellow-first-wide.json"), "--red", "human"], input="q\n"
    )
    assert result.exit_code == 0, result.output
    assert "Connect Four 10x5, five in a row wins. Yellow: human, Red: human." in result.stdout
    # yellow's discs O, as 0.1 drew them
    assert "| . . . . . . . . . O |\n| X . . . . . . . . O |" in result.stdout
    # three moves played: the second mover's turn
    assert "Red (X) to move [1-10, u, h, s FILE, q]: q" in result.stdout


def test_a_saved_game_is_a_gridgames_save_file_with_the_whole_history(tmp_path: Path) -> None:
    state = Connect4().from_notation("44536")
    path = save_game(state, tmp_path / "game.json", seats=("human", "perfect"), think=0.5, seed=11)
    assert load_game(path) == state
    assert json.loads(path.read_text()) == {
        "format": "gridgames-moves",
        "version": 2,
        "game": "connect4",
        "moves": "44536",
        "options": {"width": 7, "height": 6, "connect": 4, "first": "red"},
        "seats": ["human", "perfect"],
        "think": 0.5,
        "seed": 11,
    }


def test_size_line_length_and_first_colour_are_kept(tmp_path: Path) -> None:
    state = Connect4(10, 5, 5).from_notation("10,1,10")
    loaded = load_game(save_game(state, tmp_path / "wide.json", first="yellow"))
    assert loaded.game == Connect4(10, 5, 5, first="yellow")
    assert loaded.history == (9, 0, 9)


def test_a_finished_game_round_trips(tmp_path: Path) -> None:
    state = Connect4().from_notation("4455667")
    assert load_game(save_game(state, tmp_path / "won.json")).outcome == state.outcome


@settings(max_examples=30, deadline=None)
@given(connect4_playouts())
def test_every_game_round_trips_through_json(playout: tuple) -> None:
    game, moves = playout
    state = game.from_moves(moves)
    options = {"width": game.width, "height": game.height, "connect": game.connect}
    saved = from_json(to_json(SavedPlay("connect4", options, state.notation())), spec=SPEC)
    assert restore(SPEC, saved)[1] == state


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"seats": {"red": "genius"}}, "'seats' must give"),
        ({"seats": {"green": "easy"}}, "'seats' must give"),
        ({"seats": ["human", "easy"]}, "'seats' must give"),
        ({"think": 0}, "'think' must be"),
        ({"seed": "7"}, "'seed' must be"),
    ],
)
def test_bad_seats_think_or_seed_of_an_old_file_are_one_error(extra: dict[str, object], message: str) -> None:
    with pytest.raises(SaveFileError, match=message):
        from_json(json.dumps({**GOOD, "version": 2, **extra}), spec=SPEC)


def test_an_old_file_naming_one_seat_gets_the_old_default_for_the_other() -> None:
    saved = from_json(json.dumps({**GOOD, "version": 2, "first": "yellow", "seats": {"red": "easy"}}), spec=SPEC)
    assert saved.seats == (
        "medium",
        "easy",
    )  # yellow moved first; 0.1 seated medium as yellow where the file named none


def _bad(**changes: object) -> str:
    data = {**GOOD, **changes}
    return json.dumps({k: v for k, v in data.items() if v is not ...})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty"),
        ("   \n", "is empty"),
        (json.dumps(GOOD)[:40], "is not valid JSON \\(truncated or edited\\?\\)"),
        ("[1, 2]", "expected a JSON object, found list"),
        ('"4453"', "expected a JSON object, found str"),
        (_bad(format="chess"), "not a gridgames save file"),
        (_bad(format=...), "not a gridgames save file"),
        (_bad(version=...), "no valid format version"),
        (_bad(version="1"), "no valid format version"),
        (_bad(version=3), "newer gridgames"),
        (_bad(version=0), "impossible format version"),
        (_bad(width=...), "has no 'width'"),
        (_bad(width="seven"), "'width' must be a whole number from 4 to 10"),
        (_bad(width=11), "'width' must be a whole number from 4 to 10, not 11"),
        (_bad(height=3), "'height' must be"),
        (_bad(connect=7), "'connect' must be a whole number from 3 to 6"),
        (_bad(width=True), "'width' must be"),
        (_bad(first="green"), "'first' must be"),
        (_bad(moves=...), "'moves' must be a move string"),
        (_bad(moves=[4, 4, 5, 3]), "'moves' must be a move string"),
        (_bad(moves="44x3"), "not a legal game: move 3 \\('x'\\)"),
        (_bad(moves="4444444"), "not a legal game: move 7 \\('4'\\): column 4 is full"),
        (_bad(moves="44556675"), "not a legal game: move 8 \\('5'\\): the game is over"),
        (_bad(width=4, moves="7"), "not a legal game: move 1 \\('7'\\): there is no column 7"),
    ],
)
def test_nonsense_is_one_line_naming_the_problem(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(SaveFileError, match=message) as caught:
        load_game(path)
    assert "\n" not in str(caught.value)
    assert "bad.json" in str(caught.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="cannot read save file .*nothing.json.*: no such file"):
        load_game(tmp_path / "nothing.json")


def test_a_directory_is_not_a_save_file(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="is a directory"):
        load_game(tmp_path)


def test_a_binary_file_is_not_a_save_file(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(SaveFileError, match="not a text file"):
        load_game(path)


def test_unknown_keys_of_an_old_file_are_ignored() -> None:
    saved = from_json(json.dumps({**GOOD, "comment": "a nice game"}), spec=SPEC)
    assert saved.moves == "4453"


def test_without_the_games_spec_an_old_file_is_refused_by_name() -> None:
    with pytest.raises(SaveFileError, match="its format is 'gridgames-connect4', expected 'gridgames-moves'"):
        from_json(json.dumps(GOOD))
