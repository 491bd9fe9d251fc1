"""The RL picture (`gridgames.rl.core.rgb`) of hexagonal and triangular boards."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install '.[rl]'")

import numpy as np

from gridgames.grid import Grid
from gridgames.rl.core import BOARD_RGB, PLAYER_RGB, rgb


def test_a_hex_picture_is_a_rhombus_of_hexagons_not_the_square_picture() -> None:
    square = rgb(Grid.from_text("1..\n.2.\n...", lattice="square"), cell=20)
    hexes = rgb(Grid.from_text("1..\n.2.\n...", lattice="hexagonal"), cell=20)
    assert square.shape == (60, 60, 3)
    # three hexagons 20 px across and two half-cell shifts (80 px), a frame of 1 px left and 2 px right
    assert hexes.shape[1] == 83 and hexes.shape[2] == 3 and hexes.dtype == np.uint8
    assert hexes.shape != square.shape
    # the last row starts half a cell right per row: its left edge is dark in the top row's place
    row_shift = 10
    bottom = hexes[-5, :]
    # left of the last row: background
    assert (bottom[: row_shift * 2 - 2] != BOARD_RGB).any(axis=1).all()
    red = np.all(hexes == PLAYER_RGB[0], axis=-1)
    yellow = np.all(hexes == PLAYER_RGB[1], axis=-1)
    assert red.any() and yellow.any()
    red_x = np.argwhere(red)[:, 1].mean()
    yellow_x = np.argwhere(yellow)[:, 1].mean()
    # (1, 1) is one and a half cells right of (0, 0)
    assert yellow_x - red_x == pytest.approx(30, abs=1)


def test_triangle_pictures_and_holes() -> None:
    picture = rgb(Grid.from_text("1.\n.#", lattice="triangular"), cell=20)
    assert picture.ndim == 3 and picture.shape[2] == 3
    assert np.all(picture == PLAYER_RGB[0], axis=-1).any()
    blue = np.all(picture == BOARD_RGB, axis=-1).sum()
    full = np.all(rgb(Grid.from_text("1.\n..", lattice="triangular"), cell=20) == BOARD_RGB, axis=-1).sum()
    assert blue < full  # the hole's triangle is not drawn
