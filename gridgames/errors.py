"""Exception classes: every error gridgames raises on bad input is one of these."""

from __future__ import annotations


class GridGamesError(Exception):
    """Base class of every gridgames error."""


class GridError(GridGamesError, ValueError):
    """A grid operation is impossible: off the board, a hole, an overlap, a malformed picture."""


class ShapeError(GridGamesError, ValueError):
    """A malformed or impossible shape (polyomino) description."""


class InvalidMoveError(GridGamesError, ValueError):
    """A move that cannot be understood at all (malformed text, out of range)."""


class IllegalMoveError(GridGamesError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class GameOverError(IllegalMoveError):
    """A move played after the game has ended."""


class NotationError(InvalidMoveError):
    """A malformed notation string (a move list or a position picture)."""


class SaveFileError(GridGamesError, ValueError):
    """A save file that is missing, truncated or not a valid saved game."""


class PuzzleError(GridGamesError, ValueError):
    """An impossible or malformed puzzle: bad board or pieces file, mismatched area, a piece that fits nowhere."""


class SolverError(GridGamesError, ValueError):
    """A position or problem the solver cannot handle (for example a board too large for its bitboard)."""


class OptionError(GridGamesError, ValueError):
    """An unknown option of a game, or an option value out of its range."""


class PluginError(GridGamesError):
    """A game plugin that cannot be loaded or breaks the protocol."""


class UnknownGameError(GridGamesError, LookupError):
    """No game of that name is registered."""


class PartError(GridGamesError):
    """A part of a split search failed; names the subproblem."""


class MissingExtraError(GridGamesError, ImportError):
    """An optional part of gridgames whose extra dependencies are not installed (names the install command)."""
