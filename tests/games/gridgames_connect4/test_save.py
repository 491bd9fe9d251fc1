"""Connect Four save files: round trips, and a one-line SaveFileError for every kind of bad file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from gridgames_test_support.strategies import connect4_playouts

from gridgames_connect4 import Connect4
from gridgames_connect4.save import from_json, load_game, save_game, to_json
from gridgames.errors import SaveFileError

GOOD = {
    "format": "gridgames-connect4", "version": 1, "width": 7, "height": 6, "connect": 4, "first": "red",
    "moves": "4453"
}


def test_a_saved_game_loads_back_with_its_whole_history(tmp_path: Path) -> None:
    state = Connect4().from_notation("44536")
    path = save_game(state, tmp_path / "game.json")
    loaded = load_game(path)
    assert loaded.state == state
    assert loaded.first == "red"
    assert json.loads(path.read_text()) == {**GOOD, "version": 2, "moves": "44536"}


def test_version_2_keeps_the_seats_think_time_and_seed(tmp_path: Path) -> None:
    state = Connect4().from_notation("44")
    seats = {"red": "human", "yellow": "perfect"}
    loaded = load_game(save_game(state, tmp_path / "seats.json", seats=seats, think=0.5, seed=11))
    assert (loaded.seats, loaded.think, loaded.seed) == (seats, 0.5, 11)
    # as version 1 files: the command line decides
    assert (load_game(save_game(state, tmp_path / "none.json")).seats == {})


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"seats": {"red": "genius"}}, "'seats' must give"), ({"seats": {"green": "easy"}}, "'seats' must give"),
        ({"think": 0}, "'think' must be"), ({"seed": "7"}, "'seed' must be")
    ],
)
def test_bad_seats_think_or_seed_are_one_error(extra: dict[str, object], message: str) -> None:
    with pytest.raises(SaveFileError, match=message):
        from_json(json.dumps({**GOOD, "version": 2, **extra}))


def test_size_line_length_and_first_colour_are_kept(tmp_path: Path) -> None:
    state = Connect4(10, 5, 5).from_notation("10,1,10")
    loaded = load_game(save_game(state, tmp_path / "wide.json", first="yellow"))
    assert loaded.state.game == Connect4(10, 5, 5)
    assert loaded.state.history == (9, 0, 9)
    assert loaded.first == "yellow"


def test_a_finished_game_round_trips(tmp_path: Path) -> None:
    state = Connect4().from_notation("4455667")
    assert load_game(save_game(state, tmp_path / "won.json")).state.outcome == state.outcome


def test_saving_over_a_file_replaces_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_game(Connect4().from_notation("1"), path)
    save_game(Connect4().from_notation("12"), path)
    assert load_game(path).state.notation() == "12"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind


def test_saving_into_a_missing_folder_is_a_save_file_error(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="cannot write"):
        save_game(Connect4().new_state(), tmp_path / "no" / "such" / "game.json")


@settings(max_examples=30, deadline=None)
@given(connect4_playouts())
def test_every_game_round_trips_through_json(playout: tuple) -> None:
    game, moves = playout
    state = game.from_moves(moves)
    assert from_json(to_json(state)).state == state


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
        (_bad(format="chess"), "not a Connect Four save file"),
        (_bad(format=...), "not a Connect Four save file"),
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


def test_unknown_keys_are_ignored() -> None:
    assert from_json(json.dumps({**GOOD, "comment": "a nice game"})).state.notation() == "4453"
