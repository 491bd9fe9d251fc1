"""Save and load Connect Four games as small JSON files.

A save file looks like this (``moves`` is the game's move string, 1-based columns)::

    {"format": "gridgames-connect4", "version": 1, "width": 7, "height": 6,
     "connect": 4, "first": "red", "moves": "4453"}

``first`` is the colour shown for the player who moved first (see ``--first``).
Version 2 adds who sat where, the think time and the seed, so that ``--load`` resumes
against the same opponent (``"seats": {"red": "human", "yellow": "perfect"},
"think": 1.0, "seed": 7``); they are optional, and version 1 files still load (their
seats are then the command line's). Loading validates the whole file before building anything, and every problem is one
`SaveFileError` naming the file and what is wrong; keys it does not know are ignored.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs

from gridgames_connect4.rules import MAX_CONNECT, MAX_SIZE, MIN_CONNECT, MIN_SIZE, PLAYER_NAMES, Connect4, Connect4State
from gridgames.errors import GridGamesError, SaveFileError
from gridgames.files import MAX_SAVE_FILE_BYTES, read_user_text, write_user_text
from gridgames.saves import read_save_header
from gridgames.parsing import check_seconds

FORMAT = "gridgames-connect4"
VERSION = 2
SEAT_KINDS = ("human", "random", "easy", "medium", "hard", "perfect")
MAX_FILE_BYTES = MAX_SAVE_FILE_BYTES


@attrs.frozen
class SavedGame:
    """A loaded game: the position (with its full move history) and the colour of the first player."""

    state: Connect4State
    first: str = "red"
    seats: dict[str, str] = attrs.field(factory=dict)
    """Who played each colour ({"red": "human", "yellow": "perfect"}); empty in version 1 files."""
    think: float | None = None
    seed: int | None = None


def to_json(
    state: Connect4State, *, first: str = "red", seats: dict[str, str] | None = None, think: float | None = None, seed: int | None = None
) -> str:
    """The save-file text of a game (with the seats, think time and seed when given)."""
    if first not in PLAYER_NAMES:
        raise SaveFileError(f"first must be 'red' or 'yellow', not {first!r}")
    game = state.game
    data = {
        "format": FORMAT,
        "version": VERSION,
        "width": game.width,
        "height": game.height,
        "connect": game.connect,
        "first": first,
        "moves": state.notation(),
    }
    if seats:
        data["seats"] = dict(seats)
    if think is not None:
        data["think"] = think
    if seed is not None:
        data["seed"] = seed
    return json.dumps(data, indent=2) + "\n"


def save_game(
    state: Connect4State, path: str | os.PathLike[str], *, first: str = "red", seats: dict[str, str] | None = None,
    think: float | None = None, seed: int | None = None,
) -> Path:
    """Write a game to ``path`` (atomically and durably: a failed write leaves any old file intact) and return the path."""
    text = to_json(state, first=first, seats=seats, think=think, seed=seed)
    return write_user_text(path, text, what="save file", error=SaveFileError)


def load_game(path: str | os.PathLike[str]) -> SavedGame:
    """Read a save file; `SaveFileError` (one line, naming the file) when it is missing, truncated or nonsense."""
    text = read_user_text(path, what="save file", max_bytes=MAX_FILE_BYTES, error=SaveFileError)
    return from_json(text, source=str(path))


def from_json(text: str, *, source: str = "the save file") -> SavedGame:
    """The game held by a save file's text (``source`` names it in error messages)."""
    data, where, _ = read_save_header(text, source=source, format=FORMAT, version=VERSION, kind="a Connect Four")
    width = _integer(data, "width", MIN_SIZE, MAX_SIZE, where)
    height = _integer(data, "height", MIN_SIZE, MAX_SIZE, where)
    connect = _integer(data, "connect", MIN_CONNECT, MAX_CONNECT, where)
    first = data.get("first", "red")
    if first not in PLAYER_NAMES:
        raise SaveFileError(f"{where}: 'first' must be \"red\" or \"yellow\", not {first!r}")
    moves = data.get("moves")
    if not isinstance(moves, str):
        raise SaveFileError(f"{where}: 'moves' must be a move string such as \"4453\", not {moves!r}")
    try:
        state = Connect4(width, height, connect).from_notation(moves)
    except GridGamesError as error:
        raise SaveFileError(f"{where}: its moves are not a legal game: {error}") from None
    seats = data.get("seats", {})
    if not isinstance(seats, dict) or not set(seats) <= set(PLAYER_NAMES) or not all(k in SEAT_KINDS for k in seats.values()):
        raise SaveFileError(f"{where}: 'seats' must give red and yellow one of {', '.join(SEAT_KINDS)}, not {seats!r}")
    think = data.get("think")
    if think is not None:
        check_seconds(think, what=f"{where}: 'think'", error=SaveFileError)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise SaveFileError(f"{where}: 'seed' must be a whole number, not {seed!r}")
    return SavedGame(state, first, dict(seats), None if think is None else float(think), seed)


def _integer(data: dict[str, Any], key: str, low: int, high: int, where: str) -> int:
    value = data.get(key)
    if key not in data:
        raise SaveFileError(f"{where} has no {key!r}")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SaveFileError(f"{where}: {key!r} must be a whole number from {low} to {high}, not {value!r}")
    return value
