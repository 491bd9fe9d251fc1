"""Save files of any turn-based game: the game's notation, its options, the seats, think time and seed.

A save file is a small JSON object (the game record that ``gridgames GAME show`` replays)::

    {"format": "gridgames-moves", "version": 2, "game": "mnk",
     "options": {"m": 3, "n": 3, "k": 3}, "moves": "b2 a1 c3",
     "seats": ["human", "ai"], "think": 1.0, "seed": 7}

An optional ``"nodes": N`` keeps the computer players' node budget (``--nodes``).

``moves`` is the game's own notation (`State.notation`, read back with
`Game.from_notation`); ``seats`` holds one player kind per player in turn order
(``human``, a computer kind of `gridgames.game.AI_KINDS`, or one of the
game's own `Game.computer_levels`). Version 1 files
(autosaves from before seats were kept) have no ``seats``, ``think`` or ``seed`` and
still load. Loading validates everything before anything is built -- the format and
version, the game's name, each option against the game's declared options, the seats,
and the moves against the rules -- and every problem is one `SaveFileError` line.

A game that once wrote save files of its own format declares how to read them
(`GameSpec.save_upgrades`: format name -> a function turning such a file's JSON object
into this format's); `load_play` and `from_json` given the game's spec convert them on
read, so old files keep loading while every game writes this one format.

>>> saved = SavedPlay("mnk", {"m": 3}, "b2 a1", ("human", "ai"), think=0.5, seed=1)
>>> from_json(to_json(saved)) == saved
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from gridgames.errors import GridGamesError, SaveFileError
from gridgames.files import MAX_SAVE_FILE_BYTES, read_user_text, write_user_text
from gridgames.game import AI_KINDS, Game, GameKind, GameSpec, State
from gridgames.parsing import check_seconds

__all__ = [
    "FORMAT",
    "SEAT_KINDS",
    "VERSION",
    "SavedPlay",
    "check_save_version",
    "from_json",
    "load_play",
    "parse_save_object",
    "restore",
    "save_play",
    "to_json",
]

FORMAT = "gridgames-moves"
VERSION = 2
SEAT_KINDS: tuple[str, ...] = ("human", *AI_KINDS)
"""Who may sit in a seat of any game: a human or a generic computer player (a game may add its own levels)."""
MAX_MOVES_CHARS = 100_000


def _options(value: Any) -> dict[str, Any]:
    return dict(value)


def _kinds(value: Iterable[str]) -> tuple[str, ...]:
    # a function, not the builtin: attrs reads a builtin's signature with inspect (slow start-up)
    return tuple(value)


@attrs.frozen
class SavedPlay:
    """A saved game: its name and options, the moves so far, and (from version 2) who sat where, think time, seed."""

    game: str
    options: dict[str, Any] = attrs.field(converter=_options, factory=dict)
    moves: str = ""
    seats: tuple[str, ...] = attrs.field(converter=_kinds, default=())
    think: float | None = None
    seed: int | None = None
    nodes: int | None = None
    """The computer players' node budget (``--nodes``), when they played a fixed amount of work per move."""


def to_json(saved: SavedPlay) -> str:
    """The save-file text of a game (version 2)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": saved.game,
        "options": saved.options,
        "moves": saved.moves,
    }
    if saved.seats:
        data["seats"] = list(saved.seats)
    if saved.think is not None:
        data["think"] = saved.think
    if saved.seed is not None:
        data["seed"] = saved.seed
    if saved.nodes is not None:
        data["nodes"] = saved.nodes
    return json.dumps(data, indent=2) + "\n"


def save_play(path: str | os.PathLike[str], saved: SavedPlay) -> Path:
    """Write a save file atomically (a failed write leaves an old file intact); the path written."""
    return write_user_text(path, to_json(saved), what="save file", error=SaveFileError)


def load_play(path: str | os.PathLike[str], spec: GameSpec | None = None) -> SavedPlay:
    """Read and check a save file's structure (``spec``: also the game's older formats, converted); `SaveFileError`
    naming the file when it is missing or nonsense."""
    text = read_user_text(path, what="save file", max_bytes=MAX_SAVE_FILE_BYTES, error=SaveFileError)
    return from_json(text, source=str(path), spec=spec)


def parse_save_object(text: str, *, source: str) -> tuple[dict[str, Any], str]:
    """A save file's JSON object and the name to give it in errors; one `SaveFileError` when the text is not one."""
    where = repr(source) if source != "the save file" else source
    if not text.strip():
        raise SaveFileError(f"{where} is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveFileError(
            f"{where} is not valid JSON (truncated or edited?): {error.msg} at line {error.lineno}, "
            f"column {error.colno}"
        ) from None
    except RecursionError:
        raise SaveFileError(f"{where} is nested too deeply to be a save file") from None
    # an integer of more digits than Python converts (sys.get_int_max_str_digits)
    except ValueError:
        raise SaveFileError(f"{where} holds a number too long to be a save file's") from None
    if not isinstance(data, dict):
        raise SaveFileError(f"{where} does not hold a saved game (expected a JSON object, found {type(data).__name__})")
    return data, where


def check_save_version(data: dict[str, Any], where: str, *, format: str, version: int, kind: str) -> int:
    """The version of a save file's object of format ``format`` (read up to ``version``; ``kind`` names it in
    errors)."""
    if data.get("format") != format:
        raise SaveFileError(
            f"{where} is not {kind} save file (its format is {data.get('format')!r}, expected {format!r})"
        )
    found = data.get("version")
    if isinstance(found, bool) or not isinstance(found, int):
        raise SaveFileError(f"{where} has no valid format version (found {found!r})")
    if found < 1:
        raise SaveFileError(f"{where} has an impossible format version {found}")
    if found > version:
        raise SaveFileError(
            f"{where} was saved by a newer gridgames (format version {found}; this one reads up to {version})"
        )
    return found


def from_json(text: str, *, source: str = "the save file", spec: GameSpec | None = None) -> SavedPlay:
    """The game held by a save file's text, its structure checked (``source`` names it in errors).

    With the game's ``spec``, a file of one of its older formats (`GameSpec.save_upgrades`) is converted first.
    """
    data, where = parse_save_object(text, source=source)
    found = data.get("format")
    upgrade = spec.save_upgrades.get(found) if spec is not None and isinstance(found, str) else None
    if upgrade is not None:
        data = upgrade(data, where)
    check_save_version(data, where, format=FORMAT, version=VERSION, kind="a gridgames")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise SaveFileError(f"{where}: 'game' must be a game's name, not {game!r}")
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, (int, float, str, bool)) for v in options.values()):
        raise SaveFileError(f"{where}: 'options' must be an object of numbers, text and true/false, not {options!r}")
    moves = data.get("moves")
    if not isinstance(moves, str) or len(moves) > MAX_MOVES_CHARS:
        raise SaveFileError(f"{where}: 'moves' must be the game's notation as a string, not {str(moves)[:40]!r}")
    seats = data.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) and s.isidentifier() and len(s) <= 40 for s in seats):
        raise SaveFileError(
            f"{where}: 'seats' must list one player kind per player (such as {', '.join(SEAT_KINDS)}), not {seats!r}"
        )
    think = data.get("think")
    if think is not None:
        check_seconds(think, what=f"{where}: 'think'", error=SaveFileError)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise SaveFileError(f"{where}: 'seed' must be a whole number, not {seed!r}")
    nodes = data.get("nodes")
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1):
        raise SaveFileError(f"{where}: 'nodes' must be a whole number of at least 1, not {nodes!r}")
    return SavedPlay(game, options, moves, tuple(seats), None if think is None else float(think), seed, nodes)


def restore(spec: GameSpec, saved: SavedPlay, *, source: str = "the save file") -> tuple[Game, State]:
    """The game (built with the saved options) and the position after the saved moves; one `SaveFileError` otherwise."""
    where = repr(source) if source != "the save file" else source
    if saved.game != spec.name:
        raise SaveFileError(f"{where} holds a game of {saved.game}, not {spec.name}")
    if spec.kind is not GameKind.TURN_BASED:
        raise SaveFileError(f"{spec.name} is a puzzle; there is no game to load")
    declared = {o.name: o for o in spec.options}
    for name, value in saved.options.items():
        option = declared.get(name)
        if option is None:
            raise SaveFileError(f"{where}: {spec.name} has no option {name!r}")
        if not (isinstance(value, option.type) and (option.type is bool or not isinstance(value, bool))):
            raise SaveFileError(f"{where}: option {name!r} must be a {option.type.__name__}, not {value!r}")
    try:
        game = spec.make(**saved.options)
    except GridGamesError as error:
        raise SaveFileError(f"{where}: its options are refused: {error}") from None
    if not isinstance(game, Game):
        raise SaveFileError(f"{spec.name} does not create a turn-based game")
    if saved.seats and len(saved.seats) != game.info.num_players:
        raise SaveFileError(
            f"{where}: 'seats' names {len(saved.seats)} players; {spec.name} has {game.info.num_players}"
        )
    kinds = (*SEAT_KINDS, *game.computer_levels())
    for kind in saved.seats:
        if kind not in kinds:
            raise SaveFileError(f"{where}: {kind!r} is not a player of {spec.name} (choose from {', '.join(kinds)})")
    try:
        state = game.from_notation(saved.moves)
    except GridGamesError as error:
        raise SaveFileError(f"{where}: its moves are not a legal game: {error}") from None
    return game, state
