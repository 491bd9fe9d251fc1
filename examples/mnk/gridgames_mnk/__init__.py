"""m,n,k-game: two players take turns putting a stone on an empty cell; k in a row wins.

Rules
    The board has ``width`` columns and ``height`` rows (3 x 3 by default). X moves
    first, then O, each putting one stone on any empty cell. The first to have ``k``
    stones in an unbroken line -- across, down or along either diagonal -- wins.
    A full board without such a line is a draw. Tic-tac-toe is the 3,3,3-game
    (the default); gomoku (free-style) is the 15,15,5-game:
    ``gridgames play mnk --width 15 --height 15 --k 5``.

Actions
    Move ``row * width + column`` (row 0 at the top) puts the player's stone on
    that cell.

Notation
    A cell is its column letter and row number, counted from the bottom left as on
    a chess board: ``a1`` is the bottom-left corner, ``b2`` the centre of 3 x 3.
    A game is its moves separated by spaces: ``b2 a1 c3``.

Computer player
    The game provides an evaluation (open lines of k cells, weighted by how many
    stones they hold), so ``--o ai`` plays it with the generic negamax search.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

import attrs
import numpy as np

from gridgames.compiled_rules import CompiledRules
from gridgames.errors import IllegalMoveError, NotationError, OptionError
from gridgames.game import GameInfo, GameKind, GameSpec, Game, Move, Option, Outcome, State, Termination
from gridgames.grid import EMPTY, Direction, Grid
from gridgames.parsing import parse_whole

__all__ = ["MNKGame", "MNKState", "SPEC"]

PLAYER_NAMES = ("X", "O")
STONES = "XO"  # the picture characters of values 1 and 2
MAX_SIDE = 26  # one column letter per column
_CELL = re.compile(r"^\s*([a-zA-Z])\s*(\d+)\s*$")


@attrs.frozen
class MNKGame(Game):
    """The rules of the m,n,k-game: a width x height board, k in a row wins."""

    width: int = 3
    height: int = 3
    k: int = 3
    _windows: np.ndarray = attrs.field(init=False, repr=False, eq=False)
    _order: tuple[int, ...] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        for name, value in (("width", self.width), ("height", self.height)):
            if not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
                raise OptionError(f"{name} must be an integer from 1 to {MAX_SIDE}, got {value!r}")
        if not isinstance(self.k, int) or not 1 <= self.k <= max(self.width, self.height):
            raise OptionError(f"k must be from 1 to the longer side ({max(self.width, self.height)}), got {self.k!r}")
        object.__setattr__(self, "_windows", _windows(self.height, self.width, self.k))
        centre_r, centre_c = (self.height - 1) / 2, (self.width - 1) / 2
        cells = sorted(
            range(self.width * self.height),
            key=lambda m: (abs(m // self.width - centre_r) + abs(m % self.width - centre_c), m),
        )
        object.__setattr__(self, "_order", tuple(cells))

    @classmethod
    def create(cls, width: int = 3, height: int = 3, k: int = 3) -> MNKGame:
        """The m,n,k-game on a width x height board (tic-tac-toe by default)."""
        return cls(width, height, k)

    @property
    def info(self) -> GameInfo:
        """Two players, one action per cell."""
        cells = self.width * self.height
        return GameInfo(num_players=2, num_actions=cells, player_names=PLAYER_NAMES, max_game_length=cells)

    def new_state(self) -> MNKState:
        """An empty board, X to move."""
        return MNKState(self)

    def parse_move(self, text: str) -> Move:
        """The move of a cell name such as ``b2`` (column letter, row number from the bottom)."""
        match = _CELL.match(text)
        if match is None:
            raise NotationError(f"a move is a column letter and a row number, such as 'b2', not {text!r}")
        column = ord(match.group(1).lower()) - ord("a")
        row_from_bottom = parse_whole(match.group(2), what="a row number")
        if not 0 <= column < self.width or not 1 <= row_from_bottom <= self.height:
            last = chr(ord("a") + self.width - 1)
            raise NotationError(f"{text.strip()!r} is off the board (columns a-{last}, rows 1-{self.height})")
        return (self.height - row_from_bottom) * self.width + column

    def format_move(self, move: Move) -> str:
        """The cell name of a move, such as ``b2``."""
        if not 0 <= move < self.width * self.height:
            raise NotationError(f"move {move} is outside 0..{self.width * self.height - 1}")
        row, column = divmod(move, self.width)
        return f"{chr(ord('a') + column)}{self.height - row}"

    def compiled_rules(self) -> CompiledRules:
        """The rules compiled for the framework's compiled engines (`gridgames_mnk.compiled`)."""
        from gridgames_mnk.compiled import compiled_rules

        return compiled_rules(self)


def _windows(height: int, width: int, k: int) -> np.ndarray:
    """The flat cell indices of every line of k cells on the board (one row per line)."""
    lines = []
    for direction in Direction:
        dr, dc = direction.step
        for r in range(height):
            for c in range(width):
                end_r, end_c = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= end_r < height and 0 <= end_c < width:
                    lines.append([(r + i * dr) * width + c + i * dc for i in range(k)])
    return np.array(lines, dtype=np.int64).reshape(-1, k)


class MNKState(State):
    """A position of the m,n,k-game."""

    def __init__(self, game: MNKGame) -> None:
        self.game: MNKGame = game
        self.grid = Grid.empty(game.height, game.width)
        self._history: list[Move] = []
        self._outcome: Outcome | None = None

    @property
    def current_player(self) -> int:
        """0 (X) or 1 (O): they alternate, X first."""
        return len(self._history) % 2

    def _cell(self, move: Move) -> tuple[int, int]:
        return divmod(move, self.game.width)

    def legal_moves(self) -> Iterator[Move]:
        """The empty cells, those next to a stone first, then by distance from the centre."""
        if self._outcome is not None:
            return iter(())
        empty = self.grid.cells.ravel() == EMPTY
        order = self.game._order
        if len(self._history) == 0 or self.game.width * self.game.height <= 16:
            return (m for m in order if empty[m])
        stones = ~empty
        near = stones.reshape(self.game.height, self.game.width).copy()
        padded = np.pad(near, 1)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                near |= padded[1 + dr : 1 + dr + self.game.height, 1 + dc : 1 + dc + self.game.width]
        near = near.ravel() & empty
        return iter([m for m in order if near[m]] + [m for m in order if empty[m] and not near[m]])

    def is_legal(self, move: Move) -> bool:
        """True for an empty cell while the game goes on."""
        return self._outcome is None and 0 <= move < self.game.info.num_actions and self.grid.is_empty(self._cell(move))

    def legal_mask(self) -> np.ndarray:
        """An int8 array with one entry per cell (``row * width + column``): 1 where a stone may go now."""
        if self._outcome is not None:
            return np.zeros(self.game.info.num_actions, dtype=np.int8)
        return (self.grid.cells.ravel() == EMPTY).astype(np.int8)

    def play(self, move: Move) -> None:
        """Put the mover's stone on the cell; k in a row wins, a full board draws."""
        self.check_playable(move)
        cell = self._cell(move)
        player = self.current_player
        self.grid.set(cell, player + 1)
        self._history.append(move)
        if len(self._history) >= 2 * self.game.k - 1:  # else the mover has fewer than k stones
            for direction in Direction:
                if self.grid.line_length(cell, direction) >= self.game.k:
                    line = tuple(self.grid.line_cells(cell, direction))
                    self._outcome = Outcome(
                        player, f"{PLAYER_NAMES[player]} has {self.game.k} in a row", line, Termination.LINE
                    )
                    return
        if len(self._history) == self.game.info.max_game_length:
            self._outcome = Outcome(None, "the board is full", termination=Termination.BOARD_FULL)

    def undo(self) -> Move:
        """Take back the last stone."""
        if not self._history:
            raise IllegalMoveError("there is no move to undo")
        move = self._history.pop()
        self.grid.set(self._cell(move), EMPTY)
        self._outcome = None
        return move

    @property
    def outcome(self) -> Outcome | None:
        """The winner and their line, a draw on a full board, or None."""
        return self._outcome

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves so far."""
        return tuple(self._history)

    def copy(self) -> MNKState:
        """An independent copy."""
        other = MNKState(self.game)
        other.grid = self.grid.copy()
        other._history = list(self._history)
        other._outcome = self._outcome
        return other

    def to_text(self) -> str:
        """The board with row numbers on the left and column letters below (X and O stones)."""
        rows = self.grid.to_text(STONES).splitlines()
        digits = len(str(self.game.height))
        lines = [f"{self.game.height - r:>{digits}} {' '.join(row)}" for r, row in enumerate(rows)]
        letters = " ".join(chr(ord("a") + c) for c in range(self.game.width))
        lines.append(f"{'':>{digits}} {letters}")
        return "\n".join(lines)

    def evaluate(self) -> float:
        """Open lines of k cells for the player to move minus the opponent's, weighted by stones, in (-1, 1)."""
        me, them = self.current_player + 1, 2 - self.current_player
        lines = self.grid.cells.ravel()[self.game._windows]
        mine = (lines == me).sum(axis=1)
        theirs = (lines == them).sum(axis=1)
        k = self.game.k
        weights = 4.0 ** np.arange(k + 1)
        # lines holding stones of one player only; empty lines appear in both terms and cancel
        score = weights[mine[theirs == 0]].sum() - weights[theirs[mine == 0]].sum()
        return math.tanh(score / 4.0 ** (k - 1))


SPEC = GameSpec(
    name="mnk",
    summary="m,n,k-game: k in a row on a width x height board (tic-tac-toe, gomoku, ...)",
    kind=GameKind.TURN_BASED,
    create=MNKGame.create,
    options=(
        Option("width", int, 3, "number of columns (1-26)"),
        Option("height", int, 3, "number of rows (1-26)"),
        Option("k", int, 3, "stones in a row that win (at most the longer side)"),
    ),
    doc=__doc__ or "",
)
