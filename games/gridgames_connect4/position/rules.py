"""Connect Four rules on the shared `Grid`: gravity, alternating players, lines, undo and redo.

`Connect4` is the immutable game (board size and line length); `Connect4State` is a
mutable position. Player 0 is red and moves first, player 1 is yellow. A move is a
0-based column; `Connect4.parse_move` / `format_move` speak 1-based column numbers.
A disc lands where the shared `Grid` says (`Grid.drop_row`). Beside the grid a state
keeps the position as a bitboard (`geometry.Geometry`'s layout, updated move by move):
it finds wins (the line's cells are then read off the grid, `Grid.line_cells`), lists
the open columns and feeds the evaluation. A move that completes a line ends the game.

>>> state = Connect4().from_notation("4455667")
>>> state.outcome.termination.value, state.outcome.winner
('line', 0)
>>> Connect4().describe(state.outcome)
'Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1)'
>>> state.undo()
6
>>> state.is_over, state.current_player
(False, 0)
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

import attrs

from gridgames_connect4 import heuristic
from gridgames_connect4.position import notation
from gridgames_connect4.position.geometry import Geometry, fits_one_word
from gridgames_connect4.position.sizes import MAX_CONNECT, MAX_SIZE, MIN_CONNECT, MIN_SIZE, PLAYER_NAMES, line_words
from gridgames_connect4.position.notation import ColumnOutOfRangeError, column_range_error
from gridgames.errors import GameOverError, IllegalMoveError, InvalidMoveError, NotationError, OptionError, SolverError
from gridgames.game import Game, GameInfo, Move, Outcome, Player, State, Termination
from gridgames.grid import Cell, Direction, Grid

if TYPE_CHECKING:
    import numpy as np

    from gridgames_connect4.solve.solver import Solver

RED, YELLOW = 0, 1
DRAW_REASON = "the board is full"

__all__ = [
    "RED",
    "YELLOW",
    "PLAYER_NAMES",
    "ColumnFullError",
    "ColumnOutOfRangeError",
    "Connect4",
    "Connect4State",
]


class ColumnFullError(IllegalMoveError):
    """A disc dropped into a column that is already full."""


def _in_range(name: str, low: int, high: int) -> Callable[[object, attrs.Attribute[int], int], None]:
    def check(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise OptionError(f"--{name} must be a whole number from {low} to {high}, not {value!r}")

    return check


def _one_of_the_colours(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in PLAYER_NAMES:
        raise OptionError(f"--first must be red or yellow, not {value!r}")


def _silent(_text: str) -> None:
    """Say nothing (a library call has no terminal to tell)."""


@attrs.frozen
class Connect4(Game):
    """The rules of Connect Four on a width x height board, winning with lines of ``connect`` discs."""

    width: int = attrs.field(default=7, validator=_in_range("width", MIN_SIZE, MAX_SIZE))
    height: int = attrs.field(default=6, validator=_in_range("height", MIN_SIZE, MAX_SIZE))
    connect: int = attrs.field(default=4, validator=_in_range("connect", MIN_CONNECT, MAX_CONNECT))
    first: str = attrs.field(default="red", validator=_one_of_the_colours, kw_only=True)
    """The colour shown for the player who moves first (player 0, X in pictures): only what is drawn changes."""

    @property
    def colours(self) -> tuple[str, str]:
        """The colour of player 0 (who moves first) and of player 1."""
        return ("red", "yellow") if self.first == "red" else ("yellow", "red")

    @property
    def info(self) -> GameInfo:
        """Two players (red moves first unless told otherwise), one action per column, at most width x height moves."""
        return GameInfo(
            num_players=2,
            num_actions=self.width,
            player_names=self.colours,
            max_game_length=self.width * self.height,
        )

    def player_styles(self) -> tuple[int, ...]:
        """Each player's drawing style in turn order: red 0, yellow 1, whoever moves first."""
        return tuple(PLAYER_NAMES.index(colour) for colour in self.colours)

    @property
    def size(self) -> str:
        """The board size as text, e.g. '7x6' (width x height)."""
        return f"{self.width}x{self.height}"

    def new_state(self) -> Connect4State:
        """The empty board, red to move."""
        return Connect4State.start(self)

    def parse_move(self, text: str) -> Move:
        """The 0-based column of a 1-based column number ('4' -> 3)."""
        return notation.parse_column(text, self.width)

    def format_move(self, move: Move) -> str:
        """The 1-based column number of a 0-based column (3 -> '4')."""
        return notation.format_column(move, self.width)

    def split_notation(self, text: str) -> list[str]:
        """The move texts of a move string: '4453', '4,4,5,3' or '4 4 5 3'."""
        return notation.split_moves(text, self.width)

    def join_notation(self, moves: Sequence[Move]) -> str:
        """Digits ('4453') on boards up to 9 wide, else the comma form ('4,4,10,1')."""
        return notation.join_moves(moves, self.width)

    @classmethod
    def from_picture(cls, text: str, connect: int = 4) -> Connect4State:
        """The position of a board picture (its size read from the picture), reached by one legal move order."""
        grid = notation.parse_picture(text)
        for name, value in (("wide", grid.width), ("high", grid.height)):
            if not MIN_SIZE <= value <= MAX_SIZE:
                raise NotationError(f"the picture is {value} cells {name}; boards are {MIN_SIZE} to {MAX_SIZE}")
        return cls(grid.width, grid.height, connect).parse_picture(text)

    def parse_picture(self, text: str) -> Connect4State:
        """The position of a board picture of this game's size (see `from_picture`)."""
        grid = notation.parse_picture(text)
        if (grid.width, grid.height) != (self.width, self.height):
            raise NotationError(f"the picture is {grid.width}x{grid.height} but the board is {self.size}")
        return cast(Connect4State, self.from_moves(notation.move_order(grid, self.connect)))

    def computer_levels(self) -> tuple[str, ...]:
        """The computer players, weakest first: random, easy, medium, hard, perfect (the last two need the solver)."""
        from gridgames_connect4.levels import KINDS

        return KINDS

    def computer_player(self, level: str, rng: random.Random | None = None) -> Player:
        """A computer player of one of `computer_levels`, thinking at most 2 s a move (a node budget: seeded play
        replays)."""
        from gridgames_connect4.levels import make_player
        from gridgames_connect4.solve.book import default_book

        book = default_book(self.width, self.height, self.connect) if level in ("hard", "perfect") else None
        return make_player(level, self, rng, book=book)  # type: ignore[no-any-return]

    def vector_backend(self, num_envs: int, opponent: str, seat: int) -> Any:
        """The compiled batch of ``num_envs`` games behind ``gridgames.rl.vector_env``
        (`gridgames_connect4.learn.vector`)."""
        from gridgames_connect4.learn.vector import Connect4VectorBackend

        return Connect4VectorBackend(self, num_envs, opponent, seat)

    def exact_solver(self, table_bits: int | None = None) -> Solver:
        """The perfect solver for this board (`gridgames_connect4.solve.solver.Solver`; its kernels compiled with the
        package where they verify, else numba's JIT ones), probing the opening book shipped for the board when there is
        one (7x6: the empty board is then solved at once)."""
        from gridgames_connect4.solve.book import default_book
        from gridgames_connect4.solve.oracle import solver_for
        from gridgames_connect4.solve.solver import prepare_kernels

        prepare_kernels(_silent, ahead=fits_one_word(self.width, self.height))
        try:
            return solver_for(
                self.width,
                self.height,
                self.connect,
                default_book(self.width, self.height, self.connect),
                table_bits=table_bits,
            )
        except SolverError as error:
            raise SolverError(f"Connect Four {self.size}, connect {self.connect}: {error}") from None

    def cell_name(self, cell: Cell) -> str:
        """A grid cell's name: column letter and row from the bottom ('d1' is the bottom of column 4)."""
        return notation.cell_name(cell, self.height)

    def describe(self, outcome: Outcome, names: Sequence[str] = PLAYER_NAMES) -> str:
        """One line for the end of a game, in the column numbers players type and the cells' names.

        'Red wins: four in a row in columns 4 5 6 7 (d1 e1 f1 g1)', 'Red wins: four in a
        row in column 4 (d1 d2 d3 d4)' or 'Draw: the board is full'. A longer line is named by its length ('five in
        a row'), two lines at once as such ('four in a row twice').
        """
        if outcome.winner is None:
            return f"Draw: {outcome.reason}"
        cells = sorted(outcome.cells, key=lambda rc: (rc[1], -rc[0]))
        reason = outcome.reason
        if len(cells) > self.connect and reason == line_words(self.connect):
            (r0, c0), (r1, c1) = cells[0], cells[-1]
            straight = all((r - r0) * (c1 - c0) == (c - c0) * (r1 - r0) for r, c in cells)
            reason = line_words(len(cells)) if straight else f"{reason} twice"
        columns = list(dict.fromkeys(self.format_move(c) for _, c in cells))
        where = f"column{'s' if len(columns) > 1 else ''} {' '.join(columns)}"
        names_of_cells = " ".join(self.cell_name(c) for c in cells)
        return f"{names[outcome.winner].capitalize()} wins: {reason} in {where} ({names_of_cells})"


@attrs.define(eq=False)
class Connect4State(State):
    """A Connect Four position: the board, its bitboard, the moves played, the moves undone (for redo), the outcome."""

    game: Connect4
    # the board as a Grid, made when first asked for (numpy: `board`), then kept up to date
    _grid: Grid | None
    _moves: list[Move]
    _redo: list[Move] = attrs.field(factory=list)
    _outcome: Outcome | None = None
    _cur: int = 0  # bitboard: the discs of the player to move
    _mask: int = 0  # bitboard: every disc
    _geom: Geometry = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._geom = Geometry.of(self.game.width, self.game.height, self.game.connect)

    @classmethod
    def start(cls, game: Connect4) -> Connect4State:
        """The empty board of ``game``."""
        return cls(game, None, [])

    # --- the protocol -----------------------------------------------------
    @property
    def current_player(self) -> int:
        """0 (red) or 1 (yellow): whose turn it is."""
        return len(self._moves) % 2

    @property
    def outcome(self) -> Outcome | None:
        """The winner with the cells of the line(s), or a draw, or None while the game goes on."""
        return self._outcome

    @property
    def history(self) -> tuple[Move, ...]:
        """The 0-based columns played so far."""
        return tuple(self._moves)

    def legal_moves(self) -> Iterator[Move]:
        """The columns that are not full, left to right; none once the game is over."""
        if self._outcome is not None:
            return iter(())
        mask, top = self._mask, self._geom.tops
        return (c for c in range(self.game.width) if not mask & top[c])

    def search_order(self) -> list[Move]:
        """The open columns: immediate wins, then blocks of the opponent's, then the rest centre first."""
        if self._outcome is not None:
            return []
        geom, cur, mask = self._geom, self._cur, self._mask
        playable = geom.playable(mask)
        urgent = (geom.winning_cells(cur, mask) & playable, geom.winning_cells(cur ^ mask, mask) & playable)
        columns = [c for c in geom.order if not mask & geom.tops[c]]
        if not (urgent[0] or urgent[1]):
            return columns
        return sorted(
            columns, key=lambda c: 0 if urgent[0] & geom.columns[c] else 1 if urgent[1] & geom.columns[c] else 2
        )

    def is_legal(self, move: Move) -> bool:
        """True when a disc may be dropped in column ``move`` now."""
        return (
            self._outcome is None
            and isinstance(move, int)
            and 0 <= move < self.game.width
            and not self._mask & self._geom.tops[move]
        )

    def check_playable(self, move: Move) -> None:
        """Raise `GameOverError`, `ColumnOutOfRangeError` or `ColumnFullError` unless ``move`` is legal now."""
        if self._outcome is not None:
            raise GameOverError(f"the game is over ({self._ended()}); no move can follow")
        try:
            column = operator.index(move)
        except TypeError:
            raise InvalidMoveError(f"a move is a 0-based column number, not {move!r}") from None
        if not 0 <= column < self.game.width:
            raise column_range_error(column + 1, self.game.width)
        if self._mask & self._geom.tops[column]:
            raise ColumnFullError(f"column {column + 1} is full")

    def play(self, move: Move) -> None:
        """Drop a disc of the player to move in 0-based column ``move``; refused moves change nothing."""
        if not self.is_legal(move):
            self.check_playable(move)
        column = operator.index(move)
        if self._redo and self._redo[-1] == column:
            self._redo.pop()
        else:
            self._redo.clear()
        self._drop(column)

    def _drop(self, column: int) -> None:
        row = self.game.height - 1 - (self._mask & self._geom.columns[column]).bit_count()
        if self._grid is not None:
            self._grid.set((row, column), self.current_player + 1)
        mover = self._cur | self._geom.drop(self._mask, column)
        # the other side moves next
        self._cur, self._mask = self._cur ^ self._mask, self._mask | mover
        self._moves.append(column)
        self._outcome = self._judge((row, column), mover)

    def _judge(self, cell: Cell, mover: int) -> Outcome | None:
        """The outcome after a disc landed on ``cell`` (``mover``: its player's discs): a line, a full board, or
        nothing."""
        connect = self.game.connect
        if self._geom.has_line(mover):
            grid = self.board()
            lines = [grid.line_cells(cell, d) for d in Direction if grid.line_length(cell, d) >= connect]
            cells = tuple(dict.fromkeys(c for line in lines for c in line))
            return Outcome(len(self._moves) % 2 ^ 1, notation.line_words(connect), cells, Termination.LINE)
        if len(self._moves) == self.game.width * self.game.height:
            return Outcome(None, DRAW_REASON, termination=Termination.BOARD_FULL)
        return None

    def undo(self) -> Move:
        """Take back the last move (it can be replayed with `redo`) and return it."""
        if not self._moves:
            raise IllegalMoveError("nothing to undo: no move has been played")
        column = self._moves.pop()
        in_column = self._mask & self._geom.columns[column]
        self._mask ^= 1 << (in_column.bit_length() - 1)  # the column's top disc
        self._cur ^= self._mask
        if self._grid is not None:
            self._grid.set((self.game.height - in_column.bit_count(), column), 0)
        self._outcome = None  # only the last position of a game can be over
        self._redo.append(column)
        return column

    def redo(self) -> Move:
        """Replay the last move taken back with `undo` and return it."""
        if not self._redo:
            raise IllegalMoveError("nothing to redo")
        column = self._redo.pop()
        self._drop(column)
        return column

    @property
    def can_redo(self) -> bool:
        """True when `redo` has a move to replay."""
        return bool(self._redo)

    def copy(self) -> Connect4State:
        """An independent copy (redo stack included)."""
        return Connect4State(
            self.game,
            None if self._grid is None else self._grid.copy(),
            list(self._moves),
            list(self._redo),
            self._outcome,
            self._cur,
            self._mask,
        )

    def to_text(self) -> str:
        """The picture: one line per row, top first; X red, O yellow, . empty (parses back with
        `Connect4.from_picture`)."""
        return notation.picture_of_rows(self.rows())

    def rows(self) -> list[list[int]]:
        """The board as lists of cell values, top row first (0 empty, 1 red, 2 yellow), read off the moves (no
        numpy)."""
        if self._grid is not None:
            return self._grid.cells.tolist()
        height, width = self.game.height, self.game.width
        rows = [[0] * width for _ in range(height)]
        depth = [0] * width
        for i, column in enumerate(self._moves):
            depth[column] += 1
            rows[height - depth[column]][column] = i % 2 + 1
        return rows

    def legal_mask(self) -> np.ndarray:
        """An int8 array with one entry per column: 1 where a disc may be dropped now (read off the bitboard)."""
        import numpy as np  # imported when used: start-up (docs/startup.md)

        if self._outcome is not None:
            return np.zeros(self.game.width, dtype=np.int8)
        mask = self._mask
        return np.array([0 if mask & top else 1 for top in self._geom.tops], dtype=np.int8)

    def board(self) -> Grid:
        """The board itself (0 empty, 1 red, 2 yellow; row 0 at the top): read it, do not modify it."""
        # made at the first call, from the moves (a command that shows no board needs none)
        if self._grid is None:
            grid = Grid.empty(self.game.height, self.game.width)
            depth = [0] * self.game.width
            for i, column in enumerate(self._moves):
                depth[column] += 1
                grid.set((self.game.height - depth[column], column), i % 2 + 1)
            self._grid = grid
        return self._grid

    def svg(self) -> str:
        """The position as SVG: discs told apart by mark as well as colour (`gridgames_connect4.surfaces.svg`; Jupyter
        shows it)."""
        from gridgames_connect4.surfaces.svg import state_svg

        return state_svg(self, first=self.game.first)

    def evaluate(self) -> float:
        """A heuristic value in [-1, 1] for the player to move (exactly -1, 0 or 1 once the game is over)."""
        if self._outcome is not None:
            return self._outcome.value_for(self.current_player)
        return heuristic.value(self._geom, self._cur, self._mask)

    # --- more about the position -----------------------------------------
    @property
    def grid(self) -> Grid:
        """A copy of the board: 0 empty, 1 red, 2 yellow (row 0 at the top)."""
        return self.board().copy()

    @property
    def heights(self) -> tuple[int, ...]:
        """How many discs each column holds."""
        return tuple((self._mask & bits).bit_count() for bits in self._geom.columns)

    @property
    def bitboard(self) -> tuple[int, int]:
        """(discs of the player to move, every disc) in `geometry.Geometry`'s layout."""
        return self._cur, self._mask

    @property
    def last_cell(self) -> Cell | None:
        """The grid cell of the last disc dropped, or None on an empty board."""
        if not self._moves:
            return None
        column = self._moves[-1]
        return (self.game.height - (self._mask & self._geom.columns[column]).bit_count(), column)

    def _ended(self) -> str:
        outcome = self._outcome
        assert outcome is not None
        if outcome.winner is None:
            return f"a draw: {outcome.reason}"
        return f"{PLAYER_NAMES[outcome.winner]} won with {outcome.reason}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Connect4State):
            return NotImplemented
        return self.game == other.game and self._moves == other._moves

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"{self.game!r}.from_notation({self.notation()!r})"
