"""What both environments share: a turn-based game loaded by name, its observations and its pictures.

Observation layout (as PettingZoo's classic board games, e.g. ``connect_four_v3``): a dict
of ``"observation"``, an int8 array of shape (height, width, planes) holding 0 and 1, and
``"action_mask"``, an int8 array of ``num_actions`` entries (1: legal now). The planes are
seen from the observing player: plane 0 holds that player's own pieces, plane 1 the pieces
of the player after them, and so on round the table; then come the planes the game adds
of its own (`State.planes`), unchanged. The mask is all zeros for a player whose turn it
is not, and once the game is over.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import numpy as np
from gymnasium import spaces

from gridgames.errors import GridGamesError, OptionError, PluginError
from gridgames.game import Game, GameKind, Outcome, State, mover_name, play_chance
from gridgames.grid import HOLE, Grid
from gridgames.registry import load_game

RENDER_MODES = ("ansi", "rgb_array")
CELL_PIXELS = 32
BOARD_RGB = (20, 70, 170)
EMPTY_RGB = (235, 235, 235)
PLAYER_RGB = ((220, 40, 40), (245, 200, 30), (40, 160, 80), (130, 60, 200), (20, 20, 20), (240, 130, 20))
"""Piece colours by player: red and yellow (as on a Connect Four board), then four more."""


class EnvironmentSetupError(GridGamesError, ValueError):
    """A game or an option that cannot make a learning environment (a puzzle, no board, a bad render mode)."""


class ActionError(GridGamesError, ValueError):
    """An action that is not one of the environment's: not an integer (3.5, "3", True), or outside 0..n-1."""


def check_action(action: Any, num_actions: int) -> int:
    """``action`` as an int when it is an integer from 0 to ``num_actions - 1`` (a Python or numpy integer, or a
    0-d integer array), else `ActionError`: a float is never truncated to a column (``step(3.5)`` was column 3)."""
    value = (
        action.item() if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu" else action
    )
    if isinstance(value, np.integer):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        shown = repr(action) if len(repr(action)) <= 40 else repr(action)[:37] + "..."
        raise ActionError(f"an action is an integer from 0 to {num_actions - 1}, not {shown} ({type(action).__name__})")
    if not 0 <= value < num_actions:
        raise ActionError(f"action {value} is outside the action space: 0 to {num_actions - 1}")
    return value


def load_turn_based(game_name: str, options: dict[str, Any]) -> Game:
    """The turn-based game installed under ``game_name``, built with its ``options``."""
    spec = load_game(game_name)
    if spec.kind is not GameKind.TURN_BASED:
        raise EnvironmentSetupError(
            f"{game_name} is a {spec.kind.value} game; learning environments need a turn-based one"
        )
    game = spec.make(**options)
    if not isinstance(game, Game):
        raise PluginError(f"{game_name} is declared turn-based but creates a {type(game).__name__}, not a Game")
    return game


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` itself when it is None or one of `RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise EnvironmentSetupError(
            f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}"
        )
    return render_mode


def start_state(game: Game, options: dict[str, Any] | None, rng: random.Random | None = None) -> State:
    """A new game, after the opening ``options["moves"]`` (integer actions) when given; other keys are ignored.

    Chance points met on the way (after the moves given) are drawn from ``rng`` (`gridgames.game.play_chance`).
    """
    state = game.new_state()
    rng = rng or random.Random()
    play_chance(state, rng)
    for move in (options or {}).get("moves", ()):
        state.play(int(move))
        play_chance(state, rng)
    if state.is_over:
        raise EnvironmentSetupError("the opening moves end the game: there is nothing left to play")
    return state


@attrs.define
class Observer:
    """Turns a state into the observation of one seat (see the module's docstring for the layout)."""

    num_players: int
    num_actions: int
    shape: tuple[int, int, int]
    _orders: list[np.ndarray] = attrs.field(repr=False)
    _no_moves: np.ndarray = attrs.field(repr=False)
    _lookup: list[np.ndarray] | None = attrs.field(default=None, repr=False)
    """For a game whose planes are the default ones (from its board): each seat's planes of every cell value + 1."""
    _observed: bool = attrs.field(default=False, repr=False)
    """True when the game overrides `State.planes_for` (then its planes are used as it turns them)."""

    @classmethod
    def of(cls, game: Game, name: str) -> Observer:
        """The observer of a game; raises `EnvironmentSetupError` when its states have no planes."""
        planes = game.new_state().planes()
        info = game.info
        if planes is None or planes.ndim != 3 or planes.shape[2] < info.num_players:
            raise EnvironmentSetupError(
                f"{name} exposes no board: its State needs board() (a Grid) or planes() (height x width x planes)"
            )
        n = info.num_players
        extra = list(range(n, planes.shape[2]))
        orders = [np.array([(seat + i) % n for i in range(n)] + extra) for seat in range(n)]
        shape = (int(planes.shape[0]), int(planes.shape[1]), int(planes.shape[2]))
        lookup = None
        state = game.new_state()
        # the default planes: one fancy index of the board per observation
        if type(state).planes is State.planes:
            lookup = []
            for order in orders:
                # rows: -1 (hole), 0 (empty), 1..n (players), any other
                table = np.zeros((n + 3, n), dtype=np.int8)
                for plane, player in enumerate(order):
                    table[player + 2, plane] = 1  # value player + 1, shifted by one for the holes
                lookup.append(table)
        observed = type(state).planes_for is not State.planes_for
        return cls(n, info.num_actions, shape, orders, np.zeros(info.num_actions, dtype=np.int8), lookup, observed)

    def space(self) -> spaces.Dict:
        """The observation space of every seat."""
        return spaces.Dict(
            {
                "observation": spaces.Box(low=0, high=1, shape=self.shape, dtype=np.int8),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=np.int8),
            }
        )

    def observe(self, state: State, seat: int) -> dict[str, np.ndarray]:
        """The observation of ``seat``: planes from its view, the legal actions if it is to move."""
        if self._lookup is not None:
            grid = state.board()
            assert grid is not None
            # row value + 1 of the seat's table; mode="clip" sends values past the players to the last (empty) row
            observation = np.take(self._lookup[seat], grid.cells + 1, axis=0, mode="clip")
        else:
            planes = state.planes_for(seat) if self._observed else state.planes()
            assert planes is not None
            observation = planes if self._observed else planes[..., self._orders[seat]]
        to_move = state.outcome is None and state.current_player == seat
        mask = state.legal_mask() if to_move else self._no_moves.copy()
        return {"observation": observation, "action_mask": mask}


def _disc(cell: int) -> np.ndarray:
    centre = (cell - 1) / 2
    yy, xx = np.mgrid[0:cell, 0:cell]
    inside: np.ndarray = (yy - centre) ** 2 + (xx - centre) ** 2 <= (0.42 * cell) ** 2
    return inside


def rgb(grid: Grid, cell: int = CELL_PIXELS) -> np.ndarray:
    """A picture of a board as a (height x cell, width x cell, 3) uint8 array: a disc per cell on a blue board.

    A hexagonal or triangular grid (`Grid.lattice`) is drawn as its hexagons or triangles
    (`gridgames.drawing.cell_polygons`, ``cell`` pixels across a hexagon or along a
    triangle's side), each a blue tile with its disc, on a dark background; the picture's
    size is then the board's drawing's, not height x cell by width x cell.
    """
    if cell < 2:
        raise OptionError(f"a cell must be at least 2 pixels wide, not {cell}")
    if grid.lattice != "square":
        return _lattice_rgb(grid, cell)
    values = grid.cells
    palette = np.array([EMPTY_RGB, *PLAYER_RGB], dtype=np.uint8)
    # (height, width, 3); a value past the palette wraps
    colours = palette[np.clip(values, 0, None) % len(palette)]
    colours[values == HOLE] = BOARD_RGB
    disc = _disc(cell)[None, :, None, :, None]  # (1, cell, 1, cell, 1)
    tiles = np.where(disc, colours[:, None, :, None, :], np.array(BOARD_RGB, dtype=np.uint8))
    height, width = values.shape
    return np.ascontiguousarray(tiles.reshape(height * cell, width * cell, 3), dtype=np.uint8)


def _inside(polygon: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Which points (xs, ys) lie inside a convex polygon (its corners in order, either way round)."""
    signs = []
    for (x0, y0), (x1, y1) in zip(polygon, np.roll(polygon, -1, axis=0)):
        signs.append((x1 - x0) * (ys - y0) - (y1 - y0) * (xs - x0))
    stacked = np.stack(signs)
    inside = np.asarray((stacked >= 0).all(axis=0) | (stacked <= 0).all(axis=0))
    return inside


def _lattice_rgb(grid: Grid, cell: int) -> np.ndarray:
    """`rgb` of a hexagonal or triangular grid: a blue polygon per on-board cell, a disc in its middle."""
    from gridgames.drawing import cell_polygons

    polygons = {c: np.array(poly) + 1.0 for c, poly in cell_polygons(grid, float(cell)).items()}
    width = int(np.ceil(max(p[:, 0].max() for p in polygons.values()))) + 2
    height = int(np.ceil(max(p[:, 1].max() for p in polygons.values()))) + 2
    image = np.zeros((height, width, 3), dtype=np.uint8)
    image[...] = np.array(BOARD_RGB, dtype=np.uint8) // 3
    palette = np.array([EMPTY_RGB, *PLAYER_RGB], dtype=np.uint8)
    radius = cell * (0.38 if grid.lattice == "hexagonal" else 0.2)
    for (r, c), polygon in polygons.items():
        value = int(grid.cells[r, c])
        if value == HOLE:
            continue
        x0, y0 = np.floor(polygon.min(axis=0)).astype(int)
        x1, y1 = np.ceil(polygon.max(axis=0)).astype(int)
        ys, xs = np.mgrid[y0:y1, x0:x1] + 0.5
        centre = polygon.mean(axis=0)
        shrunk = centre + (polygon - centre) * (1 - 1.5 / cell)  # a thin dark line between cells
        window = image[y0:y1, x0:x1]
        window[_inside(shrunk, xs, ys)] = BOARD_RGB
        window[(xs - centre[0]) ** 2 + (ys - centre[1]) ** 2 <= radius**2] = palette[value % len(palette)]
    return image


def render(state: State, render_mode: str | None, names: list[str]) -> str | np.ndarray | None:
    """The position as text (``ansi``: the game's picture and who is to move) or as RGB pixels (``rgb_array``)."""
    if render_mode == "ansi":
        outcome = state.outcome
        if outcome is None:
            status = f"{mover_name(names, state.current_player)} to move"
        else:
            status = f"{outcome.headline(names)}: {outcome.reason}"
        return f"{state.to_text()}\n{status}\n"
    if render_mode == "rgb_array":
        grid = state.board()
        if grid is not None:
            return rgb(grid)
        picture = state.svg()
        if picture is None:
            raise EnvironmentSetupError("this game exposes no board and no picture to draw: use render_mode='ansi'")
        return svg_pixels(picture)
    return None


def svg_pixels(svg: str) -> np.ndarray:
    """An SVG picture's pixels (height, width, 3) uint8 on white, drawn by resvg (the ``resvg-py`` package: a game
    with no `State.board` draws its own picture; `EnvironmentSetupError` without the package)."""
    try:
        import resvg_py
    except ImportError:
        raise EnvironmentSetupError(
            "this game draws only its own SVG picture: render_mode='rgb_array' needs resvg-py (pip install "
            "'gridgames[rl]')"
        ) from None
    return png_pixels(bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff")))[:, :, :3].copy()


def png_pixels(png: bytes) -> np.ndarray:
    """The pixels (height, width, 4) uint8 of an 8-bit RGBA or RGB, non-interlaced PNG (what resvg writes)."""
    import struct
    import zlib

    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise GridGamesError("not a PNG picture")
    at, data, header = 8, b"", None
    while at < len(png):
        size, kind = struct.unpack(">I4s", png[at : at + 8])
        body = png[at + 8 : at + 8 + size]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        at += 12 + size
    if header is None or header[2] != 8 or header[3] not in (2, 6) or header[6] != 0:
        raise GridGamesError("only 8-bit RGB or RGBA PNG pictures without interlacing are read")
    width, height, channels = header[0], header[1], 4 if header[3] == 6 else 3
    raw = np.frombuffer(zlib.decompress(data), dtype=np.uint8).reshape(height, 1 + width * channels)
    out = np.zeros((height, width * channels), dtype=np.int32)
    previous = np.zeros(width * channels, dtype=np.int32)
    for r in range(height):
        kind, line = raw[r, 0], raw[r, 1:].astype(np.int32)
        if kind == 1:  # Sub: each byte adds the one a pixel before: a running sum per channel
            line = np.cumsum(line.reshape(width, channels), axis=0).reshape(-1) % 256
        elif kind == 2:  # Up
            line = (line + previous) % 256
        elif kind in (3, 4):  # Average, Paeth: byte by byte
            line = _unfilter(line, previous, channels, paeth=kind == 4)
        out[r] = line
        previous = line
    return out.reshape(height, width, channels).astype(np.uint8)


def _unfilter(line: np.ndarray, up: np.ndarray, channels: int, *, paeth: bool) -> np.ndarray:
    """A PNG row under the Average or Paeth filter, decoded from its left neighbours and the row above."""
    done = [0] * len(line)
    above = up.tolist()
    for i, value in enumerate(line.tolist()):
        left = done[i - channels] if i >= channels else 0
        corner = above[i - channels] if i >= channels else 0
        if paeth:
            guess = left + above[i] - corner
            near_left, near_up, near_corner = abs(guess - left), abs(guess - above[i]), abs(guess - corner)
            if near_left <= near_up and near_left <= near_corner:
                add = left
            else:
                add = above[i] if near_up <= near_corner else corner
        else:
            add = (left + above[i]) // 2
        done[i] = (value + add) % 256
    return np.array(done, dtype=np.int32)


REWARDS = ("outcome", "margin", "score")
"""The kinds of reward: ``outcome`` (+1 / -1 / 0 at the end, as always), ``margin`` (the score margin at the end) or
``score`` (each step, the change of the player's own score: `State.scores` while the game goes on, the outcome's at
the end; together the final score minus the one at the start)."""


def check_reward(reward: str) -> str:
    """``reward`` if it is one of `REWARDS`, else an `OptionError`."""
    if reward not in REWARDS:
        raise OptionError(f"unknown reward {reward!r} (choose from {', '.join(REWARDS)})")
    return reward


def final_reward(outcome: Outcome, seat: int, reward: str) -> float:
    """The reward of ``seat`` at the end: +1 / -1 / 0 (``outcome``), or its `Outcome.margin_for` (``margin``; +1 / -1 /
    0 without scores)."""
    if reward == "margin" and outcome.scores is not None:
        return outcome.margin_for(seat)
    return 0.0 if outcome.winner is None else (1.0 if outcome.winner == seat else -1.0)


def seat_score(state: State, seat: int) -> float | None:
    """``seat``'s score now (`State.scores`), or None when the game keeps none at this point."""
    scores = state.scores()
    return None if scores is None else float(scores[seat])


@attrs.define
class ScoreRewards:
    """``reward="score"``: pays each seat the change of its score since it was last paid (see `REWARDS`)."""

    paid: list[float]

    @classmethod
    def start(cls, state: State) -> ScoreRewards:
        """The score of every seat at the start (0 where the game keeps none yet)."""
        return cls([seat_score(state, seat) or 0.0 for seat in range(state.game.info.num_players)])

    def pay(self, state: State, seat: int) -> float:
        """The change of ``seat``'s score since the last payment (0.0 when the game keeps no score now)."""
        now = seat_score(state, seat)
        if now is None:
            return 0.0
        change, self.paid[seat] = now - self.paid[seat], now
        return change
