"""Connect Four at the terminal in tests: a game of two humans, save files written and read as the game does."""

from __future__ import annotations

import os
import random
from pathlib import Path

from gridgames_connect4 import Connect4State, SPEC
from gridgames_connect4.solve.book import Book
from gridgames_connect4.surfaces.cli import Connect4Look, console

from gridgames.cli_play import TerminalPlay
from gridgames.saves import SavedPlay, load_play, restore, save_play


def two_humans(
    state: Connect4State, *, book: Book | None = None, rng: random.Random | None = None, interactive: bool | None = None
) -> TerminalPlay:
    """The terminal game of two humans from ``state`` (as ``gridgames play connect4 --red human --yellow human``)."""
    look = Connect4Look(console(), book, rng or random.Random(0))
    return TerminalPlay("connect4", {}, state, [None, None], ["human", "human"], look=look, interactive=interactive)


def load_game(path: str | os.PathLike[str]) -> Connect4State:
    """The position a save file holds (any format Connect Four ever wrote, converted on read)."""
    state = restore(SPEC, load_play(path, SPEC), source=str(path))[1]
    assert isinstance(state, Connect4State)
    return state


def save_game(
    state: Connect4State,
    path: str | os.PathLike[str],
    *,
    first: str | None = None,
    seats: tuple[str, ...] = (),
    think: float | None = None,
    seed: int | None = None,
) -> Path:
    """Save a position as ``s FILE`` does (``first``: the first mover's colour, by default the game's)."""
    game = state.game
    options = {"width": game.width, "height": game.height, "connect": game.connect, "first": first or game.first}
    return save_play(path, SavedPlay("connect4", options, state.notation(), seats, think, seed))
