"""The board sizes, line lengths and player names of Connect Four: plain constants that the rules and the light
modules of a fresh process's quick answer (`gridgames_connect4.instant`) share, without importing the rules."""

from __future__ import annotations

__all__ = ["MAX_CONNECT", "MAX_SIZE", "MIN_CONNECT", "MIN_SIZE", "PLAYER_NAMES"]

PLAYER_NAMES = ("red", "yellow")
"""Player 0 (moves first) and player 1."""
MIN_SIZE, MAX_SIZE = 4, 10
"""The fewest and most columns (and rows) of a board."""
MIN_CONNECT, MAX_CONNECT = 3, 6
"""The shortest and longest winning line."""
