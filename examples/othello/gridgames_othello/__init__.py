"""Othello: outflank the opponent's discs to turn them your colour; most discs at the end wins.

Rules
    The board has ``size`` x ``size`` cells (8 x 8 by default; any even size from 4 to 16:
    ``gridgames play othello --size 6``). It starts with four discs in the centre, two
    of each colour on a diagonal (White on d4 and e5 of 8 x 8, Black on d5 and e4).
    Black moves first. A move puts a disc of the mover's colour on an empty cell so that
    it outflanks at least one straight line (across, down or diagonal) of the opponent's
    discs, ending in a disc of the mover's; every outflanked disc turns over. A player
    who has no such move must pass; when neither can move (often the board is full),
    the game ends and the player with more discs wins. Equal counts are a draw.

Actions
    Move ``row * size + column`` (row 0 at the top) puts a disc on that cell; the last
    action, ``size * size``, is the pass (`Game.pass_move`). The pass is legal only when it
    is the one legal move.

Notation
    A cell is its column letter and row number counted from the top, as Othello books
    write it: ``a1`` is the top-left corner; the four openings of Black on 8 x 8 are
    ``d3 c4 f5 e6``. A pass is ``pass``. A game is its moves separated by spaces.

Outcome
    The outcome carries both disc counts as its scores (Black's, White's): the result
    line reads ``Black wins 40-24 (...)``, and the generic AIs prefer bigger wins.
    During the game `State.scores` gives the disc counts (the page shows them, and
    ``reward="score"`` in `gridgames.rl` pays their changes).

Computer player
    The game provides an evaluation (mobility, corners and disc difference), so ``ai``
    plays it with the generic negamax search.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import attrs
import numpy as np

from gridgames.compiled_rules import CompiledRules
from gridgames.errors import IllegalMoveError, NotationError, OptionError
from gridgames.game import PASS_TEXT, Game, GameInfo, GameKind, GameSpec, Move, Option, Outcome, State, Termination
from gridgames.grid import Grid

__all__ = ["OthelloGame", "OthelloState", "SPEC"]

PLAYER_NAMES = ("Black", "White")
DISCS = "XO"  # the picture characters of Black and White
MIN_SIZE, MAX_SIZE = 4, 16
_CELL = re.compile(r"^\s*([a-zA-Z])\s*(\d+)\s*$")
Shift = Callable[[int], int]


def _shifts(size: int) -> tuple[Shift, ...]:
    """The eight one-step moves of a bitboard (bit ``row * size + col``), dropping what leaves the board."""
    full = (1 << size * size) - 1
    col = sum(1 << (r * size) for r in range(size))
    not_first, not_last = full & ~col, full & ~(col << (size - 1))
    n = size
    return (
        lambda b: (b << 1) & not_first,  # east
        lambda b: (b >> 1) & not_last,  # west
        lambda b: (b << n) & full,  # south
        lambda b: b >> n,  # north
        lambda b: (b << (n + 1)) & not_first & full,  # south-east
        lambda b: (b << (n - 1)) & not_last & full,  # south-west
        lambda b: (b >> (n - 1)) & not_first,  # north-east
        lambda b: (b >> (n + 1)) & not_last,  # north-west
    )


def _bits(board: int) -> list[int]:
    """The indices of the set bits, lowest first."""
    found = []
    while board:
        low = board & -board
        found.append(low.bit_length() - 1)
        board ^= low
    return found


@attrs.frozen
class OthelloGame(Game):
    """The rules of Othello on a size x size board (even, 4 to 16)."""

    size: int = 8
    _shifts: tuple[Shift, ...] = attrs.field(init=False, repr=False, eq=False)
    _order: tuple[int, ...] = attrs.field(init=False, repr=False, eq=False)
    _corners: int = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if (
            not isinstance(self.size, int)
            or isinstance(self.size, bool)
            or not MIN_SIZE <= self.size <= MAX_SIZE
            or self.size % 2
        ):
            raise OptionError(f"size must be an even integer from {MIN_SIZE} to {MAX_SIZE}, got {self.size!r}")
        n = self.size
        object.__setattr__(self, "_shifts", _shifts(n))
        object.__setattr__(self, "_corners", (1 << 0) | (1 << (n - 1)) | (1 << (n * (n - 1))) | (1 << (n * n - 1)))
        object.__setattr__(
            self, "_order", tuple(sorted(range(n * n), key=lambda m: (-_static_weight(n, *divmod(m, n)), m)))
        )

    @classmethod
    def create(cls, size: int = 8) -> OthelloGame:
        """Othello on a size x size board (8 x 8 by default)."""
        return cls(size)

    @property
    def info(self) -> GameInfo:
        """Two players, one action per cell and the pass."""
        cells = self.size * self.size
        return GameInfo(num_players=2, num_actions=cells + 1, player_names=PLAYER_NAMES, max_game_length=2 * cells)

    @property
    def pass_move(self) -> Move:
        """The last action, ``size * size``."""
        return self.size * self.size

    def new_state(self) -> OthelloState:
        """The four centre discs, Black to move."""
        return OthelloState(self)

    def parse_move(self, text: str) -> Move:
        """The move of a cell name such as ``d3`` (column letter, row number from the top), or ``pass``."""
        if text.strip().lower() == PASS_TEXT:
            return self.pass_move
        match = _CELL.match(text)
        if match is None:
            raise NotationError(f"a move is a column letter and a row number, such as 'd3', or 'pass', not {text!r}")
        column = ord(match.group(1).lower()) - ord("a")
        row = int(match.group(2)) - 1
        if not 0 <= column < self.size or not 0 <= row < self.size:
            last = chr(ord("a") + self.size - 1)
            raise NotationError(f"{text.strip()!r} is off the board (columns a-{last}, rows 1-{self.size})")
        return row * self.size + column

    def format_move(self, move: Move) -> str:
        """The cell name of a move, such as ``d3``, or ``pass``."""
        if move == self.pass_move:
            return PASS_TEXT
        if not 0 <= move < self.size * self.size:
            raise NotationError(f"move {move} is outside 0..{self.size * self.size}")
        row, column = divmod(move, self.size)
        return f"{chr(ord('a') + column)}{row + 1}"

    def compiled_rules(self) -> CompiledRules | None:
        """The rules compiled for the framework's compiled engines, up to 8 x 8 (`gridgames_othello.compiled`)."""
        from gridgames_othello.compiled import compiled_rules

        return compiled_rules(self)

    def moves_of(self, mine: int, theirs: int) -> int:
        """The bitboard of the cells where the owner of ``mine`` may put a disc."""
        empty = ~(mine | theirs) & ((1 << self.size * self.size) - 1)
        found = 0
        for shift in self._shifts:
            line = shift(mine) & theirs
            for _ in range(self.size - 3):
                line |= shift(line) & theirs
            found |= shift(line) & empty
        return found

    def flips(self, mine: int, theirs: int, move: Move) -> int:
        """The bitboard of the opponent's discs that a disc on ``move`` turns over (0: the move is illegal)."""
        turned = 0
        for shift in self._shifts:
            line, step = 0, shift(1 << move)
            while step & theirs:
                line |= step
                step = shift(step)
            if step & mine:
                turned |= line
        return turned


def _static_weight(n: int, r: int, c: int) -> int:
    """How good a cell usually is (the search tries good cells first): corners best, their neighbours worst."""
    edge_r, edge_c = min(r, n - 1 - r), min(c, n - 1 - c)
    if edge_r == 0 and edge_c == 0:
        return 100
    if edge_r <= 1 and edge_c <= 1:
        return -50  # next to a corner
    if edge_r == 0 or edge_c == 0:
        return 10
    return -edge_r - edge_c if edge_r == 1 or edge_c == 1 else 0


class OthelloState(State):
    """A position of Othello: two bitboards (Black's and White's discs) and the side to move."""

    def __init__(self, game: OthelloGame) -> None:
        self.game: OthelloGame = game
        n = game.size
        half = n // 2
        white = (1 << ((half - 1) * n + half - 1)) | (1 << (half * n + half))
        black = (1 << ((half - 1) * n + half)) | (1 << (half * n + half - 1))
        self._discs = [black, white]
        self._to_move = 0
        self._undo: list[tuple[Move, int]] = []  # (move, discs turned over)
        self._outcome: Outcome | None = None
        self._moves = game.moves_of(black, white)

    @property
    def current_player(self) -> int:
        """0 (Black) or 1 (White)."""
        return self._to_move

    def discs(self) -> tuple[int, int]:
        """The number of Black's and of White's discs."""
        return self._discs[0].bit_count(), self._discs[1].bit_count()

    def legal_moves(self) -> Iterator[Move]:
        """The cells that outflank (corners first, the cells next to them last), or only the pass."""
        if self._outcome is not None:
            return iter(())
        if not self._moves:
            return iter((self.game.pass_move,))
        moves = self._moves
        return (m for m in self.game._order if moves >> m & 1)

    def is_legal(self, move: Move) -> bool:
        """True for an outflanking cell, or the pass when there is none, while the game goes on."""
        if self._outcome is not None or not isinstance(move, (int, np.integer)):
            return False
        if move == self.game.pass_move:
            return not self._moves
        return 0 <= move < self.game.pass_move and bool(self._moves >> move & 1)

    def play(self, move: Move) -> None:
        """Put a disc and turn the outflanked ones over (or pass); the game ends when neither side can move."""
        self.check_playable(move)
        me = self._to_move
        turned = 0
        if move != self.game.pass_move:
            turned = self.game.flips(self._discs[me], self._discs[1 - me], move)
            self._discs[me] |= turned | (1 << move)
            self._discs[1 - me] &= ~turned
        self._undo.append((move, turned))
        self._to_move = 1 - me
        self._settle()

    def _settle(self) -> None:
        """Compute the side to move's moves, and the outcome when neither side has one."""
        me = self._to_move
        self._moves = self.game.moves_of(self._discs[me], self._discs[1 - me])
        self._outcome = None
        if not self._moves and not self.game.moves_of(self._discs[1 - me], self._discs[me]):
            self._outcome = self._final()

    def _final(self) -> Outcome:
        black, white = self.discs()
        full = black + white == self.game.size * self.game.size
        reason = "the board is full" if full else "neither player can move"
        termination = Termination.BOARD_FULL if full else Termination.NO_MOVES
        winner = None if black == white else (0 if black > white else 1)
        return Outcome(winner, reason, termination=termination, scores=(black, white))

    def undo(self) -> Move:
        """Take back the last move (or pass)."""
        if not self._undo:
            raise IllegalMoveError("there is no move to undo")
        move, turned = self._undo.pop()
        me = 1 - self._to_move
        if move != self.game.pass_move:
            self._discs[me] &= ~(turned | (1 << move))
            self._discs[1 - me] |= turned
        self._to_move = me
        self._settle()
        return move

    @property
    def outcome(self) -> Outcome | None:
        """The disc counts once neither side can move, else None."""
        return self._outcome

    def scores(self) -> tuple[float, ...]:
        """The disc counts now, Black's then White's (the outcome's scores at the end)."""
        return tuple(float(count) for count in self.discs())

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves so far (passes included)."""
        return tuple(move for move, _ in self._undo)

    def copy(self) -> OthelloState:
        """An independent copy."""
        other = OthelloState.__new__(OthelloState)
        other.game = self.game
        other._discs = list(self._discs)
        other._to_move = self._to_move
        other._undo = list(self._undo)
        other._outcome = self._outcome
        other._moves = self._moves
        return other

    def tally(self) -> dict[str, tuple[int, int]]:
        """Each player's disc count as the game goes (the web page shows it beside the board)."""
        return {"discs": (self._discs[0].bit_count(), self._discs[1].bit_count())}

    def board(self) -> Grid:
        """The board as a `Grid`: 1 for Black's discs, 2 for White's, 0 empty."""
        n = self.game.size
        cells = np.zeros(n * n, dtype=np.int32)
        for player in (0, 1):
            cells[_bits(self._discs[player])] = player + 1
        return Grid(cells.reshape(n, n))

    def to_text(self) -> str:
        """The board with row numbers on the left and column letters below (X Black, O White)."""
        rows = self.board().to_text(DISCS).splitlines()
        digits = len(str(self.game.size))
        lines = [f"{r + 1:>{digits}} {' '.join(row)}" for r, row in enumerate(rows)]
        lines.append(f"{'':>{digits}} {' '.join(chr(ord('a') + c) for c in range(self.game.size))}")
        return "\n".join(lines)

    def evaluate(self) -> float:
        """For the player to move, in [-1, 1]: mobility (0.5), corners (0.3) and disc difference (0.2), each a ratio."""
        me = self._to_move
        mine, theirs = self._discs[me], self._discs[1 - me]
        my_moves = self._moves.bit_count()
        their_moves = self.game.moves_of(theirs, mine).bit_count()
        corners = self.game._corners
        my_corners, their_corners = (mine & corners).bit_count(), (theirs & corners).bit_count()
        my_discs, their_discs = mine.bit_count(), theirs.bit_count()
        mobility = (my_moves - their_moves) / (my_moves + their_moves + 1)
        corner = (my_corners - their_corners) / 4
        disc = (my_discs - their_discs) / (my_discs + their_discs)
        return 0.5 * mobility + 0.3 * corner + 0.2 * disc


SPEC = GameSpec(
    name="othello",
    summary="Othello (Reversi): outflank and turn discs; passes; most discs wins (even boards 4x4 to 16x16)",
    kind=GameKind.TURN_BASED,
    create=OthelloGame.create,
    options=(Option("size", int, 8, "cells per side (even, 4-16)"),),
    doc=__doc__ or "",
)
