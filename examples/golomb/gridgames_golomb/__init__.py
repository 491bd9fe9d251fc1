"""Golomb's pentomino game: two players take turns placing pentominoes from one shared set; who cannot place loses.

Rules
    The board has ``width`` columns and ``height`` rows (8 x 8 by default). The two
    players, First and Second, share one set of pieces: the 12 pentominoes (F I L N P
    T U V W X Y Z) by default, each used at most once. In turn each places any
    still-unused piece, turned and flipped as they like, on empty cells. The player
    who cannot place a piece loses (a game on 8 x 8 lasts at most 12 moves). Solomon
    Golomb described the game in *Polyominoes* (1965); on 8 x 8 the first player
    wins with perfect play (Orman, 1996).

Options
    ``--width``, ``--height`` (1-26) and ``--pieces``: a piece-set name of
    `gridgames.shapes.piece_set` (``pentominoes``, ``tetrominoes``, ``6-ominoes``...),
    optionally followed by ``:`` and the names to keep, e.g. ``pentominoes:I,L,P,X``.

Actions and notation
    A move is a whole piece: its name, its orientation's number (1-based, in the order
    of `gridgames.shapes.Shape.orientations`) and ``@`` the top-left corner of the
    oriented piece's bounding box, named like a chess square from the bottom left:
    ``I1@a8`` lays the I along the top row of 8 x 8. The actions are those of
    `gridgames.placement_moves.PieceMoves` (2,308 on 8 x 8), so the web page offers
    a piece picker with a preview under the pointer. A refused move says why: the
    piece is used, the cells it overlaps, or where it leaves the board.

Computer player
    The position is two integers (filled cells, unused pieces) and the legal moves one
    numpy AND over the placements' bitmasks, so the generic Monte Carlo tree search
    plays it (``--second ai``) at thousands of playouts a second (bench/golomb.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import numpy as np

from gridgames.drawing import Mark, piece_colour
from gridgames.compiled_rules import CompiledRules
from gridgames.errors import GameOverError, IllegalMoveError, OptionError, ShapeError
from gridgames.game import Game, GameInfo, GameKind, GameSpec, Move, Option, Outcome, State, Termination
from gridgames.grid import HOLE, Grid
from gridgames.placement_moves import PieceMoves, cell_name
from gridgames.shapes import Shape, piece_set

__all__ = ["GolombGame", "GolombState", "SPEC", "pieces_named"]

PLAYER_NAMES = ("First", "Second")
MAX_SIDE = 26


def pieces_named(spec: str) -> dict[str, Shape]:
    """The pieces of a ``--pieces`` value: a set name, optionally ``:`` and the names to keep ("pentominoes:I,L,X")."""
    set_name, _, keep = spec.partition(":")
    try:
        pieces = piece_set(set_name.strip())
    except ShapeError as error:
        raise OptionError(f"--pieces: {error}") from None
    if not keep.strip():
        return pieces
    wanted = [name.strip() for name in keep.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in pieces]
    if unknown:
        raise OptionError(f"--pieces: {set_name.strip()} has no piece {unknown[0]!r} (pieces: {', '.join(pieces)})")
    return {name: pieces[name] for name in dict.fromkeys(wanted)}


@attrs.frozen
class GolombGame(Game):
    """The rules of Golomb's game: a board, one shared set of pieces; the player who cannot place one loses."""

    width: int = 8
    height: int = 8
    pieces: str = "pentominoes"
    board: Grid | None = attrs.field(default=None, eq=False, repr=False)
    """A board of any shape (holes are not part of it); None: the empty height x width rectangle."""
    _moves: PieceMoves = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        for name, value in (("width", self.width), ("height", self.height)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
                raise OptionError(f"{name} must be an integer from 1 to {MAX_SIDE}, got {value!r}")
        board = self.board if self.board is not None else Grid.empty(self.height, self.width)
        if (board.height, board.width) != (self.height, self.width):
            raise OptionError(f"the board is {board.height}x{board.width}, not {self.height}x{self.width}")
        object.__setattr__(self, "_moves", PieceMoves.build(board, pieces_named(self.pieces)))
        if len(self._moves) == 0:
            raise OptionError(f"no piece of {self.pieces} fits on a {self.width}x{self.height} board")

    @classmethod
    def create(cls, width: int = 8, height: int = 8, pieces: str = "pentominoes") -> GolombGame:
        """Golomb's game on a width x height board with a piece set (the 12 pentominoes on 8 x 8 by default)."""
        return cls(width, height, pieces)

    @property
    def piece_moves(self) -> PieceMoves:
        """The placements of every piece: the game's actions."""
        return self._moves

    @property
    def info(self) -> GameInfo:
        """Two players, one action per placement; at most one move per piece."""
        moves = self._moves
        smallest = min(len(cells[0]) for cells in moves.orientations)
        length = min(len(moves.names), len(moves.on_board) // smallest)
        return GameInfo(num_players=2, num_actions=len(moves), player_names=PLAYER_NAMES, max_game_length=length)

    def compiled_rules(self) -> CompiledRules | None:
        """The rules compiled for the framework's compiled engines (`gridgames_golomb.compiled`)."""
        from gridgames_golomb.compiled import compiled_rules

        return compiled_rules(self)

    def new_state(self) -> GolombState:
        """An empty board, every piece unused, First to move."""
        return GolombState(self)

    def parse_move(self, text: str) -> Move:
        """The action of a move such as ``L3@d4``; errors name an unknown piece or orientation, or the cells off the
        board."""
        return self._moves.parse(text)

    def format_move(self, move: Move) -> str:
        """The text of an action, such as ``L3@d4``."""
        return self._moves.format(move)


class GolombState(State):
    """A position: the filled cells and the unused pieces as bitmasks, and the moves so far."""

    def __init__(self, game: GolombGame) -> None:
        self.game: GolombGame = game
        self.occupied = 0
        self.available = game.piece_moves.all_pieces
        self._history: list[Move] = []
        self._legal: list[Move] | None = None
        # the same actions, from which the next position's are filtered
        self._legal_array: np.ndarray | None = None

    @property
    def current_player(self) -> int:
        """0 (First) or 1 (Second): they alternate, First first."""
        return len(self._history) % 2

    def _legal_list(self) -> list[Move]:
        if self._legal is None:
            if self._legal_array is None:
                self._legal_array = self.game.piece_moves.legal(self.occupied, self.available)
            self._legal = self._legal_array.tolist()
        return self._legal

    def legal_moves(self) -> Iterator[Move]:
        """Every placement of an unused piece on empty cells, in action order."""
        return iter(self._legal_list())

    def is_legal(self, move: Move) -> bool:
        """True when the move's piece is unused and its cells are empty (so the game is not over)."""
        moves = self.game.piece_moves
        return (
            0 <= move < len(moves)
            and bool((self.available >> moves.piece_index(move)) & 1)
            and moves.can_place(move, self.occupied)
        )

    def legal_mask(self) -> np.ndarray:
        """An int8 array with one entry per placement: 1 where it may be played now."""
        mask = np.zeros(self.game.info.num_actions, dtype=np.int8)
        mask[self._legal_list()] = 1
        return mask

    def check_playable(self, move: Move) -> None:
        """Raise `GameOverError`, or `IllegalMoveError` saying why (the piece is used, the filled cells it overlaps)."""
        if self.is_over:
            raise GameOverError("the game is over: the player to move cannot place a piece")
        moves = self.game.piece_moves
        if not isinstance(move, int) or not 0 <= move < len(moves):
            raise IllegalMoveError(f"move {move!r} is outside 0..{len(moves) - 1}")
        moves.check(move, occupied=self.occupied, available=self.available)

    def play(self, move: Move) -> None:
        """Place the move's piece; the next player loses if no unused piece then fits."""
        self.check_playable(move)
        moves = self.game.piece_moves
        self.occupied |= moves.mask(move)
        self.available &= ~(1 << moves.piece_index(move))
        self._history.append(move)
        if self._legal_array is not None:
            self._legal_array = moves.legal_after(self._legal_array, move)
        self._legal = None

    def undo(self) -> Move:
        """Take the last piece back."""
        if not self._history:
            raise IllegalMoveError("there is no move to undo")
        move = self._history.pop()
        moves = self.game.piece_moves
        self.occupied ^= moves.mask(move)
        self.available |= 1 << moves.piece_index(move)
        self._legal, self._legal_array = None, None
        return move

    @property
    def outcome(self) -> Outcome | None:
        """The player to move loses when no unused piece fits; None while one does."""
        if self._legal_list():
            return None
        loser = self.current_player
        reason = f"{PLAYER_NAMES[loser]} cannot place a piece"
        return Outcome(1 - loser, reason, termination=Termination.NO_MOVES)

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves so far."""
        return tuple(self._history)

    def copy(self) -> GolombState:
        """An independent copy."""
        other = GolombState.__new__(GolombState)
        other.game, other.occupied, other.available = self.game, self.occupied, self.available
        other._history = list(self._history)
        # never changed in place: shared
        other._legal, other._legal_array = self._legal, self._legal_array
        return other

    def board(self) -> Grid:
        """The board: each placed piece's cells hold its player + 1 (1 First, 2 Second), holes -1."""
        grid = Grid(np.where(self.game.piece_moves.board_mask(), 0, HOLE))
        for i, move in enumerate(self._history):
            for cell in self.game.piece_moves.cells(move):
                grid.cells[cell] = i % 2 + 1
        return grid

    def marks(self) -> dict[tuple[int, int], Mark]:
        """Each placed piece told apart: its cells in the piece's own colour, its name written on them, its player's
        mark (`gridgames.drawing.Mark`)."""
        moves = self.game.piece_moves
        return {
            cell: Mark(i % 2, "tile", label=moves.piece_of(move), colour=piece_colour(moves.piece_of(move)))
            for i, move in enumerate(self._history)
            for cell in moves.cells(move)
        }

    def planes(self) -> np.ndarray:
        """Each player's cells (planes 0 and 1), then one plane per piece of the shared set: all ones while it is
        unused."""
        grid = self.board()
        own = np.stack([grid.cells == p + 1 for p in range(2)], axis=-1).astype(np.int8)
        return np.concatenate([own, self.game.piece_moves.remaining_planes([self.available])], axis=-1)

    def to_text(self) -> str:
        """The board with each placed piece's name (its first character), row numbers and column letters; then the
        unused pieces."""
        moves = self.game.piece_moves
        rows = [
            ["." if (r, c) in moves.on_board else "#" for c in range(self.game.width)] for r in range(self.game.height)
        ]
        for move in self._history:
            for r, c in moves.cells(move):
                rows[r][c] = moves.piece_of(move)[0]
        digits = len(str(self.game.height))
        lines = [f"{self.game.height - r:>{digits}} {' '.join(row)}" for r, row in enumerate(rows)]
        lines.append(f"{'':>{digits}} {' '.join(cell_name((0, c), 1)[0] for c in range(self.game.width))}")
        unused = [name for i, name in enumerate(moves.names) if (self.available >> i) & 1]
        lines.append(f"unused: {' '.join(unused) or '(none)'}")
        return "\n".join(lines)


SPEC = GameSpec(
    name="golomb",
    summary="Golomb's pentomino game: place pieces from one shared set; who cannot place loses",
    kind=GameKind.TURN_BASED,
    create=GolombGame.create,
    options=(
        Option("width", int, 8, "number of columns (1-26)"),
        Option("height", int, 8, "number of rows (1-26)"),
        Option(
            "pieces",
            str,
            "pentominoes",
            "the shared pieces: a set name, optionally ':' and names to keep (pentominoes:I,L,X)",
        ),
    ),
    doc=__doc__ or "",
)
