"""Connect Four's save files from before it saved through `gridgames.saves`, converted on read.

Up to 0.1 the terminal game wrote its own format (1-based columns in ``moves``)::

    {"format": "gridgames-connect4", "version": 1, "width": 7, "height": 6,
     "connect": 4, "first": "red", "moves": "4453"}

Version 2 added ``"seats": {"red": "human", "yellow": "perfect"}``, ``"think"`` and
``"seed"``. `upgrade` checks such an object as 0.1 did (every problem one `SaveFileError`
naming the file) and returns the `gridgames.saves` object of the same game: the board and
the first mover's colour become the game's options, the seats are listed in turn order.
`gridgames_connect4.SPEC` declares it (`GameSpec.save_upgrades`), so every command that
loads a save file reads these too.
"""

from __future__ import annotations

from typing import Any

from gridgames_connect4.position.rules import MAX_CONNECT, MAX_SIZE, MIN_CONNECT, MIN_SIZE, PLAYER_NAMES
from gridgames.errors import SaveFileError
from gridgames.saves import FORMAT, VERSION, check_save_version

OLD_FORMAT = "gridgames-connect4"
OLD_VERSION = 2
DEFAULT_SEATS = {"red": "human", "yellow": "medium"}  # what 0.1 seated where a file named no one
__all__ = ["OLD_FORMAT", "OLD_VERSION", "upgrade"]


def upgrade(data: dict[str, Any], where: str) -> dict[str, Any]:
    """The `gridgames.saves` object of a checked 0.1 Connect Four save file's object."""
    from gridgames_connect4.levels import KINDS

    check_save_version(data, where, format=OLD_FORMAT, version=OLD_VERSION, kind="a Connect Four")
    options = {
        key: _integer(data, key, low, high, where)
        for key, low, high in (
            ("width", MIN_SIZE, MAX_SIZE),
            ("height", MIN_SIZE, MAX_SIZE),
            ("connect", MIN_CONNECT, MAX_CONNECT),
        )
    }
    first = data.get("first", "red")
    if first not in PLAYER_NAMES:
        raise SaveFileError(f'{where}: \'first\' must be "red" or "yellow", not {first!r}')
    moves = data.get("moves")
    if not isinstance(moves, str):
        raise SaveFileError(f"{where}: 'moves' must be a move string such as \"4453\", not {moves!r}")
    seats = data.get("seats", {})
    kinds = ("human", *KINDS)
    if (
        not isinstance(seats, dict)
        or not set(seats) <= set(PLAYER_NAMES)
        or not all(k in kinds for k in seats.values())
    ):
        raise SaveFileError(f"{where}: 'seats' must give red and yellow one of {', '.join(kinds)}, not {seats!r}")
    converted: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": "connect4",
        "options": {**options, "first": first},
        "moves": moves,
    }
    if seats:  # in turn order: the first mover's colour first
        order = (first, "yellow" if first == "red" else "red")
        converted["seats"] = [seats.get(colour, DEFAULT_SEATS[colour]) for colour in order]
    for key in ("think", "seed"):
        if data.get(key) is not None:
            converted[key] = data[key]
    return converted


def _integer(data: dict[str, Any], key: str, low: int, high: int, where: str) -> int:
    value = data.get(key)
    if key not in data:
        raise SaveFileError(f"{where} has no {key!r}")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SaveFileError(f"{where}: {key!r} must be a whole number from {low} to {high}, not {value!r}")
    return value
