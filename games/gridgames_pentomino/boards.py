"""Boards: named presets, any ``HxW`` rectangle, and board files.

A board file is a text picture: ``.`` is a cell to fill; ``#``, a space, or the
end of a short line is not part of the board. The picture is cropped to its
cells, so a frame of ``#`` around it changes nothing::

    ...##...
    ........
    ..#..#..
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
from attrs import frozen

from gridgames.errors import PuzzleError
from gridgames.files import MAX_PUZZLE_FILE_BYTES, read_user_text
from gridgames.grid import Grid
from gridgames.parsing import parse_whole

DEFAULT_BOARD = "6x10"
MAX_SIDE = 1000

_RECT_RE = re.compile(r"^\s*(\d+)\s*[xX\u00d7]\s*(\d+)\s*$")


def _rectangle(height: int, width: int) -> np.ndarray:
    return np.ones((height, width), dtype=bool)


def _eight_centre() -> np.ndarray:
    mask = _rectangle(8, 8)
    mask[3:5, 3:5] = False
    return mask


def _eight_corners() -> np.ndarray:
    mask = _rectangle(8, 8)
    for r, c in ((0, 0), (0, 7), (7, 0), (7, 7)):
        mask[r, c] = False
    return mask


PRESETS: dict[str, tuple[str, Callable[[], np.ndarray]]] = {
    "6x10": ("6 x 10 rectangle: 9,356 tilings by the 12 pentominoes, 2,339 up to symmetry", lambda: _rectangle(6, 10)),
    "5x12": ("5 x 12 rectangle: 4,040 tilings, 1,010 up to symmetry", lambda: _rectangle(5, 12)),
    "4x15": ("4 x 15 rectangle: 1,472 tilings, 368 up to symmetry", lambda: _rectangle(4, 15)),
    "3x20": ("3 x 20 rectangle: 8 tilings, 2 up to symmetry", lambda: _rectangle(3, 20)),
    "8x8": (
        "8 x 8 square: Dana Scott's problem with the 2x2 square (--pieces pentominoes+O)",
        lambda: _rectangle(8, 8),
    ),
    "8x8-centre": ("8 x 8 without its central 2x2: 520 tilings, 65 up to symmetry", _eight_centre),
    "8x8-corners": ("8 x 8 without its four corner cells", _eight_corners),
}
"""Named boards: name -> (description, builder of the on-board mask)."""

ALIASES = {"8x8-center": "8x8-centre"}


@frozen(eq=False)
class Board:
    """A named board: a grid whose empty cells are the cells to fill (holes are not part of it)."""

    name: str
    grid: Grid

    @classmethod
    def parse(cls, spec: str = DEFAULT_BOARD) -> Board:
        """A preset (``6x10``, ``8x8-centre``...) or any ``HxW`` rectangle."""
        key = spec.strip().lower()
        key = ALIASES.get(key, key)
        if key in PRESETS:
            return cls.preset(key)
        match = _RECT_RE.match(key)
        if match:
            return cls.rectangle(
                parse_whole(match[1], what="a board's height", error=PuzzleError),
                parse_whole(match[2], what="a board's width", error=PuzzleError),
            )
        raise PuzzleError(f"unknown board {spec!r}: use a preset ({', '.join(PRESETS)}), HxW, or --board-file")

    @classmethod
    def preset(cls, name: str) -> Board:
        """A named preset board."""
        key = ALIASES.get(name, name)
        if key not in PRESETS:
            raise PuzzleError(f"no preset board {name!r} (presets: {', '.join(PRESETS)})")
        return cls(key, Grid.from_mask(PRESETS[key][1]()))

    @classmethod
    def rectangle(cls, height: int, width: int) -> Board:
        """A full height x width rectangle."""
        if not (1 <= height <= MAX_SIDE and 1 <= width <= MAX_SIDE):
            raise PuzzleError(f"a rectangle's sides must be 1..{MAX_SIDE}, got {height}x{width}")
        return cls(f"{height}x{width}", Grid.empty(height, width))

    @classmethod
    def from_text(cls, text: str, name: str = "board") -> Board:
        """Read a board picture: '.' a cell to fill, '#' or a space (or a short line's end) no cell."""
        lines = text.splitlines()
        for number, line in enumerate(lines, start=1):
            bad = next((ch for ch in line.rstrip("\r") if ch not in ".# "), None)
            if bad is not None:
                col = line.index(bad) + 1
                raise PuzzleError(
                    f"{name}, line {number}, column {col}: unexpected {bad!r} (use '.' for a cell, '#' or a space for "
                    "none)"
                )
        width = max((len(line) for line in lines), default=0)
        mask = np.array([[ch == "." for ch in line.ljust(width)] for line in lines], dtype=bool).reshape(
            len(lines), width
        )
        if not mask.any():
            raise PuzzleError(f"{name} has no cells: mark the cells to fill with '.'")
        rows = np.flatnonzero(mask.any(axis=1))
        cols = np.flatnonzero(mask.any(axis=0))
        mask = mask[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
        return cls(name, Grid.from_mask(mask))

    @classmethod
    def from_file(cls, path: str | Path) -> Board:
        """Read a board file (named after the file)."""
        path = Path(path)
        text = read_user_text(path, what="board file", max_bytes=MAX_PUZZLE_FILE_BYTES, error=PuzzleError)
        return cls.from_text(text, name=path.name)

    @property
    def area(self) -> int:
        """Number of cells to fill."""
        return int((self.grid.cells == 0).sum())

    @property
    def height(self) -> int:
        """Rows of the bounding rectangle."""
        return self.grid.height

    @property
    def width(self) -> int:
        """Columns of the bounding rectangle."""
        return self.grid.width

    def to_text(self) -> str:
        """The board's picture in the board-file format ('.' cells, '#' holes); reads back with `from_text`."""
        return "\n".join("".join("." if v == 0 else "#" for v in row) for row in self.grid.cells)
