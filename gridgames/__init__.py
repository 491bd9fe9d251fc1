"""gridgames: a framework for grid puzzles and placement games.

The public API, in layers (each imports only those before it):

* the board: `Grid`, `Direction`, `Cell` (`gridgames.grid`); shapes in `gridgames.shapes`;
* the game protocol: `Game`, `State`, `Outcome`, `Termination`, `GameInfo`, `Player`,
  `Puzzle`, `Placement`, `CountResult`, `Cancelled`, `GameSpec`, `Option`, `GameKind` (`gridgames.game`);
* the errors, all `GridGamesError` (and most `ValueError`): `gridgames.errors`;
* generic search engines (`gridgames.search`: negamax, MCTS, exact cover, tiling, the
  parallel executor) and the AI factory `gridgames.search.players.make_ai`;
* the registry of installed games (`gridgames.registry`), the conformance checks for
  plugins (`gridgames.testing`), helpers for a game's own commands (`gridgames.cli_support`)
  and the command line (`gridgames.cli`, also ``python -m gridgames``); beside the registry,
  PettingZoo and Gymnasium environments for every turn-based game (`gridgames.rl`, with the
  ``rl`` extra: ``pip install "gridgames[rl]"``).

>>> import gridgames
>>> gridgames.Grid.empty(2, 3).next_blank_cell()
(0, 0)
>>> issubclass(gridgames.IllegalMoveError, (gridgames.GridGamesError, ValueError))
True
"""

from __future__ import annotations

from gridgames.errors import (
    GameOverError,
    GridError,
    GridGamesError,
    IllegalMoveError,
    InvalidMoveError,
    NotationError,
    OptionError,
    PluginError,
    PuzzleError,
    SaveFileError,
    ShapeError,
    SolverError,
    UnknownGameError,
)

TYPE_CHECKING = False  # (no typing at import: see `_LAZY`)

_LAZY = {
    **dict.fromkeys(
        (
            "Cancelled",
            "CountResult",
            "Game",
            "GameInfo",
            "GameKind",
            "GameSpec",
            "Move",
            "Option",
            "Outcome",
            "Placement",
            "Player",
            "Puzzle",
            "State",
            "Termination",
        ),
        "gridgames.game",
    ),
    **dict.fromkeys(("Cell", "Direction", "Grid"), "gridgames.grid"),
}
"""The protocol's and the board's names, imported when first asked for: they need attrs (about 28 ms of a fresh
process), which a quick answer from a game's own light modules does without (docs/startup.md)."""

if TYPE_CHECKING:
    from typing import Any

    from gridgames.game import (
        Cancelled,
        CountResult,
        Game,
        GameInfo,
        GameKind,
        GameSpec,
        Move,
        Option,
        Outcome,
        Placement,
        Player,
        Puzzle,
        State,
        Termination,
    )
    from gridgames.grid import Cell, Direction, Grid


def __getattr__(name: str) -> Any:
    """The protocol's names (`_LAZY`) and ``__version__``, looked up when first asked for: importlib.metadata (with
    the email package it loads) and the lookup cost every process that imports gridgames about 60 ms otherwise
    (bench/README.md)."""
    module = _LAZY.get(name)
    if module is not None:
        from importlib import import_module

        value = getattr(import_module(module), name)
        globals()[name] = value
        return value
    if name != "__version__":
        raise AttributeError(f"module 'gridgames' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("gridgames")
    except PackageNotFoundError:  # running from a source tree that is not installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Cancelled",
    "Cell",
    "CountResult",
    "Direction",
    "Game",
    "GameInfo",
    "GameKind",
    "GameOverError",
    "GameSpec",
    "Grid",
    "GridError",
    "GridGamesError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "NotationError",
    "Option",
    "OptionError",
    "Outcome",
    "Placement",
    "Player",
    "PluginError",
    "Puzzle",
    "PuzzleError",
    "SaveFileError",
    "ShapeError",
    "SolverError",
    "State",
    "Termination",
    "UnknownGameError",
    "__version__",
]
