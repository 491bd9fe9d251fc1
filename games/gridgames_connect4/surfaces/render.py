"""Drawing Connect Four positions for the terminal with rich (the rules never draw).

Red's discs are ``X`` and yellow's ``O`` (as the web page draws a cross and a ring), so the
players differ by mark as well as by hue; in colour they are bold red and yellow, the last
disc is underlined and a finished line is shown in reverse; without colour (not a terminal,
or ``NO_COLOR`` set) the marks alone tell them apart. Column numbers are printed under the board and a
``^`` under the column of the last move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridgames_connect4.position.rules import Connect4State

if TYPE_CHECKING:
    # imported when a board is drawn: commands that only print JSON start faster
    from rich.text import Text

STYLES = {"red": "bold red", "yellow": "bold yellow"}
PLAIN_DISCS = {"red": "X", "yellow": "O"}


def colour_names(first: str = "red") -> tuple[str, str]:
    """The colour of player 0 (who moves first) and of player 1."""
    return ("red", "yellow") if first == "red" else ("yellow", "red")


def board(state: Connect4State, *, first: str = "red", plain: bool = False) -> Text:
    """The board with column numbers under it and the last move marked."""
    from rich.text import Text

    game = state.game
    colours = colour_names(first)
    grid = state.rows()  # (no Grid: numpy is not imported to draw a board)
    last = state.last_cell
    winning = set(state.outcome.cells) if state.outcome is not None else set()
    side, corner, floor, empty = ("|", "+", "-", ".") if plain else ("│", "└┘", "─", "·")
    text = Text()
    for r in range(game.height):
        text.append(side)
        for c in range(game.width):
            value = grid[r][c]
            text.append(" ")
            if not value:
                text.append(empty, style="" if plain else "dim")
                continue
            colour = colours[value - 1]
            if plain:
                text.append(PLAIN_DISCS[colour])
                continue
            style = STYLES[colour]
            if (r, c) in winning:
                style += " reverse"
            elif (r, c) == last:
                style += " underline"
            text.append(PLAIN_DISCS[colour], style=style)
        text.append(" " + side + "\n")
    left, right = (corner, corner) if plain else (corner[0], corner[1])
    text.append(left + floor * (2 * game.width + 1) + right + "\n")
    text.append(" " + "".join(f"{c + 1:>2}" for c in range(game.width)) + "\n")
    if last is not None:
        text.append((" " + "".join(" ^" if c == last[1] else "  " for c in range(game.width))).rstrip() + "\n")
    return text


def result(state: Connect4State, *, first: str = "red") -> str:
    """The last line of a game: 'Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1).' or 'Draw: the board is
    full.'"""
    outcome = state.outcome
    return "" if outcome is None else state.game.describe(outcome, colour_names(first)) + "."


def to_move(state: Connect4State, *, first: str = "red", plain: bool = False) -> str:
    """Who moves next, with their disc when there is no colour: 'Red (X) to move'."""
    colour = colour_names(first)[state.current_player]
    disc = f" ({PLAIN_DISCS[colour]})" if plain else ""
    return f"{colour.capitalize()}{disc} to move"


def shows_colour(console: object) -> bool:
    """True when a rich console draws colour: it has a colour system and ``NO_COLOR`` is not set."""
    return getattr(console, "color_system", None) is not None and not getattr(console, "no_color", False)


__all__ = ["board", "result", "to_move", "colour_names", "shows_colour"]
