"""Hypothesis strategies shared by the test suite."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import strategies as st

from gridgames.shapes import Cell, Shape

if TYPE_CHECKING:
    from gridgames.grid import Grid

# --- shapes (polyominoes) -------------------------------------------------


@st.composite
def polyomino_cells(draw: st.DrawFn, min_size: int = 1, max_size: int = 9) -> tuple[Cell, ...]:
    """Cells of a random connected polyomino, grown one neighbouring cell at a time."""
    size = draw(st.integers(min_size, max_size))
    cells = [(0, 0)]
    occupied = {(0, 0)}
    while len(cells) < size:
        frontier = sorted(
            {nb for r, c in cells for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if nb not in occupied}
        )
        cell = draw(st.sampled_from(frontier))
        cells.append(cell)
        occupied.add(cell)
    return tuple(cells)


def polyomino_shapes(min_size: int = 1, max_size: int = 9) -> st.SearchStrategy[Shape]:
    """Random connected shapes (polyominoes) of min_size..max_size cells."""
    return polyomino_cells(min_size, max_size).map(Shape.from_cells)


def cell_sets(max_size: int = 9, span: int = 6) -> st.SearchStrategy[frozenset[Cell]]:
    """Random non-empty sets of cells, possibly disconnected, with coordinates in -span..span."""
    coord = st.integers(-span, span)
    return st.frozensets(st.tuples(coord, coord), min_size=1, max_size=max_size)


# --- end shapes -----------------------------------------------------------


# --- grids ----------------------------------------------------------------


@st.composite
def grids(draw: st.DrawFn, max_height: int = 7, max_width: int = 7, max_value: int = 4) -> Grid:
    """Random grids: each cell a hole, empty, or a value 1..max_value."""
    from gridgames.grid import Grid
    import numpy as np

    height = draw(st.integers(1, max_height))
    width = draw(st.integers(1, max_width))
    values = draw(st.lists(st.integers(-1, max_value), min_size=height * width, max_size=height * width))
    return Grid(np.array(values, dtype=np.int32).reshape(height, width))


# --- connect4 (Connect Four) -------------------------------------------------


@st.composite
def connect4_games(draw: st.DrawFn, max_width: int = 10, max_height: int = 10) -> object:
    """A `gridgames_connect4.Connect4` of random size (4..max) and line length (3..6)."""
    from gridgames_connect4 import Connect4

    return Connect4(draw(st.integers(4, max_width)), draw(st.integers(4, max_height)), draw(st.integers(3, 6)))


@st.composite
def connect4_playouts(draw: st.DrawFn, game: object = None, max_width: int = 10, max_height: int = 10) -> tuple:
    """A (game, moves) pair: a random legal game, played to its end or stopped early."""
    if game is None:
        game = draw(connect4_games(max_width, max_height))
    state = game.new_state()
    moves: list[int] = []
    length = draw(st.integers(0, game.width * game.height))
    while len(moves) < length and not state.is_over:
        move = draw(st.sampled_from(list(state.legal_moves())))
        state.play(move)
        moves.append(move)
    return game, moves


# --- end connect4 ------------------------------------------------------------


# --- exact cover (gridgames.search.exact_cover) ---------------------------


@st.composite
def exact_cover_problems(
    draw: st.DrawFn, max_items: int = 6, max_options: int = 10
) -> tuple[int, int, list[list[int]]]:
    """(primary, secondary, options): a small random exact-cover problem, each option a non-empty set of items."""
    primary = draw(st.integers(0, max_items))
    secondary = draw(st.integers(0, max_items - primary))
    items = primary + secondary
    if items == 0:
        return 0, 0, []
    option = st.sets(st.integers(0, items - 1), min_size=1, max_size=items).map(sorted)
    return primary, secondary, draw(st.lists(option, max_size=max_options))


# --- end exact cover ------------------------------------------------------


# --- learning environments (gridgames.rl) -------------------------------------


@st.composite
def mnk_playouts(draw: st.DrawFn, max_side: int = 5) -> tuple:
    """A (game options, moves) pair of the m,n,k-game: a random legal game, to its end or stopped early."""
    from gridgames_mnk import MNKGame

    width, height = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    options = {"width": width, "height": height, "k": draw(st.integers(1, max(width, height)))}
    state = MNKGame(**options).new_state()
    moves: list[int] = []
    length = draw(st.integers(0, width * height))
    while len(moves) < length and not state.is_over:
        move = draw(st.sampled_from(sorted(state.legal_moves())))
        state.play(move)
        moves.append(move)
    return options, moves


# --- end gridgames.rl ----------------------------------------------------------
