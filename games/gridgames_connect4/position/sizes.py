"""The board sizes, line lengths and names of Connect Four: plain constants that the rules and the light modules
of a fresh process's quick answer (`gridgames_connect4.surfaces.quick`) share, without importing the rules."""

from __future__ import annotations

__all__ = ["MAX_CONNECT", "MAX_SIZE", "MIN_CONNECT", "MIN_SIZE", "NUMBER_WORDS", "PLAYER_NAMES", "line_words"]

PLAYER_NAMES = ("red", "yellow")
"""Player 0 (moves first) and player 1."""
MIN_SIZE, MAX_SIZE = 4, 10
"""The fewest and most columns (and rows) of a board."""
MIN_CONNECT, MAX_CONNECT = 3, 6
"""The shortest and longest winning line."""
NUMBER_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}


def line_words(connect: int) -> str:
    """The name of a winning line: 'four in a row' for connect 4."""
    return f"{NUMBER_WORDS.get(connect, str(connect))} in a row"
