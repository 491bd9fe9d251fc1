"""Moves that place a whole piece: (piece, orientation, anchor) as integer actions, text and bitmasks.

`PieceMoves.build(board, pieces)` enumerates every placement of every piece, in every
fixed orientation (`gridgames.shapes.Shape.orientations`), whose cells are all on the
board (holes excluded), and numbers them 0..N-1: piece by piece in the order given,
then orientation by orientation, then anchor by anchor in row scan order.

Notation: the piece's name, the orientation's number (1-based, the order of
`Shape.orientations`; a ``-`` between them when the name ends in a digit, as in
`gridgames.shapes`' fixed names) and, after ``@``, the **anchor**: the top-left corner
of the oriented piece's bounding box (the ``at`` of `Grid.can_place`), named like a
chess square, column letter and row number counted from the bottom-left (``a1``).
``"L1@a4"`` is the L pentomino as drawn, its bounding box's top-left corner at a4.

Bitmasks: cell (row, col) is bit ``row * width + col``; an action's mask has the bits of
its cells; ``occupied`` is the mask of the filled cells; ``available`` has bit i set
when piece i (in the order given) may still be used.

>>> from gridgames.shapes import PENTOMINOES
>>> moves = PieceMoves.build(Grid.empty(5, 5), {"L": PENTOMINOES["L"], "X": PENTOMINOES["X"]})
>>> len(moves), moves.format(0), moves.cells(0)
(73, 'L1@a5', ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)))
>>> action = moves.parse("X1@b4")
>>> moves.piece_of(action), moves.orientation_of(action), moves.anchor_of(action), moves.format(action)
('X', 0, (1, 1), 'X1@b4')
>>> apart, overlapping = moves.mask(moves.parse("L1@a5")), moves.mask(moves.parse("L1@b5"))
>>> moves.can_place(action, occupied=apart), moves.can_place(action, overlapping)
(True, False)
>>> moves.parse("X1@b4", occupied=moves.mask(moves.parse("L1@b5")))
Traceback (most recent call last):
...
gridgames.errors.IllegalMoveError: X1@b4 overlaps the filled cells b3, c2
>>> moves.parse("X1@d4")
Traceback (most recent call last):
...
gridgames.errors.NotationError: X1@d4 is off the board: 1 of its cells outside the 5x5 board
>>> [moves.format(a) for a in moves.legal(occupied=0, available=0b10)][:3]
['X1@a5', 'X1@b5', 'X1@c5']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

import attrs
import numpy as np

from gridgames.errors import IllegalMoveError, NotationError, ShapeError
from gridgames.grid import Cell, Grid
from gridgames.shapes import Cells, Shape

__all__ = ["PieceMoves", "cell_name", "parse_cell"]

_MOVE = re.compile(r"^\s*(?P<head>[^@\s]+)\s*@\s*(?P<cell>\S+)\s*$")
_CELL = re.compile(r"^([a-zA-Z])(\d+)$")
_DASHED = re.compile(r"^(?P<name>.*\d)-(?P<number>\d+)$")
_PLAIN = re.compile(r"^(?P<name>.*\D)(?P<number>\d+)$")
WORD = 64
"""Bits per numpy word of `PieceMoves.words`."""


def cell_name(cell: Cell, height: int) -> str:
    """A cell's name: its column letter and row number from the bottom, ``(0, 0)`` of a 5-row board is ``a5``."""
    row, col = cell
    return f"{chr(ord('a') + col)}{height - row}"


def parse_cell(text: str, height: int, width: int) -> Cell:
    """The (row, col) of a cell name such as ``d4``; `NotationError` when malformed or outside the board's rectangle."""
    match = _CELL.match(text.strip())
    if match is None:
        raise NotationError(f"a cell is a column letter and a row number, such as 'd4', not {text!r}")
    col = ord(match.group(1).lower()) - ord("a")
    row = height - int(match.group(2))
    if not (0 <= col < width and 0 <= row < height):
        raise NotationError(f"{text!r} is outside the board (columns a-{chr(ord('a') + width - 1)}, rows 1-{height})")
    return row, col


def _orientation_label(name: str, number: int) -> str:
    """The piece-and-orientation part of a move's text: "L3", "H07-2"."""
    return f"{name}{'-' if name[-1:].isdigit() else ''}{number}"


@attrs.frozen(eq=False, repr=False)
class PieceMoves:
    """Every placement of a set of pieces on a board, numbered as actions; notation, cells and bitmasks of each."""

    height: int
    width: int
    names: tuple[str, ...]
    """The pieces' names, in the order of the actions (bit i of ``available`` is piece i)."""
    orientations: tuple[tuple[Cells, ...], ...]
    """Each piece's fixed orientations (normalised cells), in `Shape.orientations` order."""
    on_board: frozenset[Cell]
    _pieces: np.ndarray = attrs.field(repr=False)  # piece index of each action
    _orients: np.ndarray = attrs.field(repr=False)  # orientation index of each action
    _anchors: np.ndarray = attrs.field(repr=False)  # (row, col) of each action's anchor
    _masks: tuple[int, ...] = attrs.field(repr=False)
    words: np.ndarray = attrs.field(repr=False)
    """The masks as numpy uint64 words: shape (actions, words), word k holding bits 64k..64k+63."""
    _index: dict[tuple[int, int, int, int], int] = attrs.field(repr=False)
    _piece_bits: np.ndarray = attrs.field(init=False, repr=False)  # uint64 1 << piece of each action (<= 64 pieces)

    def __attrs_post_init__(self) -> None:
        bits = np.left_shift(np.uint64(1), (self._pieces % WORD).astype(np.uint64))
        object.__setattr__(self, "_piece_bits", bits)

    @classmethod
    def build(cls, board: Grid, pieces: Mapping[str, Shape], *, one_sided: bool = False) -> PieceMoves:
        """Every (piece, orientation, anchor) whose cells are all on ``board`` (rotations only when ``one_sided``)."""
        if not pieces:
            raise ShapeError("whole-piece moves need at least one piece")
        if board.width > 26:
            raise ShapeError(f"whole-piece moves name columns a-z: a board of {board.width} columns is too wide")
        on = frozenset(board.board_cells("row"))
        names = tuple(pieces)
        orientations = tuple(tuple(o.cells for o in pieces[n].orientations(one_sided)) for n in names)
        rows: list[tuple[int, int, int, int]] = []
        masks: list[int] = []
        for p, shapes in enumerate(orientations):
            for o, cells in enumerate(shapes):
                for r in range(board.height):
                    for c in range(board.width):
                        placed = [(r + dr, c + dc) for dr, dc in cells]
                        if all(cell in on for cell in placed):
                            rows.append((p, o, r, c))
                            masks.append(sum(1 << (rr * board.width + cc) for rr, cc in placed))
        table = np.array(rows, dtype=np.int64).reshape(-1, 4)
        return cls(
            board.height, board.width, names, orientations, on, table[:, 0].copy(), table[:, 1].copy(),
            table[:, 2:].copy(), tuple(masks), _words(masks, board.height * board.width),
            {row: i for i, row in enumerate(rows)}
        )

    def __repr__(self) -> str:
        return f"<PieceMoves {self.height}x{self.width}, pieces {' '.join(self.names)}, {len(self)} actions>"

    # --- actions ---------------------------------------------------------------------------
    def __len__(self) -> int:
        """The number of actions."""
        return len(self._masks)

    def piece_of(self, action: int) -> str:
        """The name of the piece an action places."""
        return self.names[int(self._pieces[self._check(action)])]

    def piece_index(self, action: int) -> int:
        """The index (in `names`) of the piece an action places."""
        return int(self._pieces[self._check(action)])

    def orientation_of(self, action: int) -> int:
        """The index (0-based, in `Shape.orientations` order) of the action's orientation."""
        return int(self._orients[self._check(action)])

    def anchor_of(self, action: int) -> Cell:
        """The top-left corner of the action's bounding box on the board."""
        r, c = self._anchors[self._check(action)]
        return int(r), int(c)

    def cells(self, action: int) -> Cells:
        """The board cells an action covers, sorted."""
        p, o, (r, c) = self.piece_index(action), self.orientation_of(action), self.anchor_of(action)
        return tuple((r + dr, c + dc) for dr, dc in self.orientations[p][o])

    def mask(self, action: int) -> int:
        """The bitmask of the cells an action covers (bit ``row * width + col``)."""
        return self._masks[self._check(action)]

    def action(self, piece: str, orientation: int, anchor: Cell) -> int | None:
        """The action placing ``piece`` in ``orientation`` (0-based) with its bounding box's corner at ``anchor``, or
        None."""
        if piece not in self.names:
            return None
        return self._index.get((self.names.index(piece), orientation, int(anchor[0]), int(anchor[1])))

    def _check(self, action: int) -> int:
        if not 0 <= action < len(self._masks):
            raise NotationError(f"action {action} is outside 0..{len(self._masks) - 1}")
        return action

    # --- bitmasks ----------------------------------------------------------------------------
    @property
    def all_pieces(self) -> int:
        """The ``available`` mask with every piece."""
        return (1 << len(self.names)) - 1

    def pieces_mask(self, names: Iterable[str]) -> int:
        """The ``available`` mask of the named pieces."""
        mask = 0
        for name in names:
            if name not in self.names:
                raise NotationError(f"unknown piece {name!r} (pieces: {', '.join(self.names)})")
            mask |= 1 << self.names.index(name)
        return mask

    def cells_mask(self, cells: Iterable[Cell]) -> int:
        """The bitmask of some board cells."""
        return sum(1 << (r * self.width + c) for r, c in {(int(r), int(c)) for r, c in cells})

    def can_place(self, action: int, occupied: int) -> bool:
        """True when none of the action's cells is in ``occupied``."""
        return not self._masks[action] & occupied

    def legal(self, occupied: int, available: int | None = None) -> np.ndarray:
        """The actions (ascending, int64) whose piece is in ``available`` (default: all) and whose cells are all
        free."""
        free = np.ones(len(self._masks), dtype=bool)
        for k in range(self.words.shape[1]):
            word = np.uint64((occupied >> (WORD * k)) & (2**WORD - 1))
            if word:
                free &= (self.words[:, k] & word) == 0
        if available is not None and available != self.all_pieces:
            if len(self.names) <= WORD:  # one AND over the actions' piece bits
                free &= (self._piece_bits & np.uint64(available & (2**WORD - 1))) != 0
            else:
                allowed = np.array([(available >> i) & 1 for i in range(len(self.names))], dtype=bool)
                free &= allowed[self._pieces]
        return np.flatnonzero(free)

    def legal_after(self, legal: np.ndarray, action: int) -> np.ndarray:
        """The actions of ``legal`` still legal once ``action`` is placed and its piece used (a subset: cheaper than
        `legal`)."""
        legal = legal[self._pieces[legal] != self._pieces[action]]
        mask = self._masks[action]
        for k in range(self.words.shape[1]):
            word = np.uint64((mask >> (WORD * k)) & (2**WORD - 1))
            if word:
                legal = legal[(self.words[legal, k] & word) == 0]
        return legal

    def board_mask(self) -> np.ndarray:
        """A (height, width) bool array: True on the board's cells (False on holes)."""
        mask = np.zeros((self.height, self.width), dtype=bool)
        for cell in self.on_board:
            mask[cell] = True
        return mask

    def remaining_planes(self, available: Sequence[int]) -> np.ndarray:
        """Observation planes of pieces still to place: for each mask of ``available`` (one per player, or one shared
        pool), one all-ones or all-zeros (height, width) plane per piece; int8, shape (height, width, len(available) *
        pieces).
        """
        bits = [(mask >> i) & 1 for mask in available for i in range(len(self.names))]
        return np.broadcast_to(np.array(bits, dtype=np.int8), (self.height, self.width, len(bits))).copy()

    # --- text ----------------------------------------------------------------------------------
    def format(self, action: int) -> str:
        """The action's text, such as ``L3@d4``."""
        label = _orientation_label(self.piece_of(action), self.orientation_of(action) + 1)
        return f"{label}@{cell_name(self.anchor_of(action), self.height)}"

    def parse(self, text: str, *, occupied: int | None = None, available: int | None = None) -> int:
        """The action of a move's text; errors say why it is refused (unknown piece or orientation, off the board,
        and, given ``occupied`` / ``available``, the filled cells it overlaps or that the piece is used)."""
        piece, orientation, anchor = self._split(text)
        action = self._index.get((piece, orientation, *anchor))
        label = f"{_orientation_label(self.names[piece], orientation + 1)}@{cell_name(anchor, self.height)}"
        if action is None:
            r, c = anchor
            off = [
                (r + dr, c + dc)
                for dr, dc in self.orientations[piece][orientation]
                if (r + dr, c + dc) not in self.on_board
            ]
            holes = [(rr, cc) for rr, cc in off if 0 <= rr < self.height and 0 <= cc < self.width]
            parts = (
                [f"{len(off) - len(holes)} of its cells outside the {self.width}x{self.height} board"]
                if len(off) > len(holes)
                else []
            )
            parts += [f"covers the hole{'s' if len(holes) > 1 else ''} {self._names(holes)}"] if holes else []
            raise NotationError(f"{label} is off the board: {', '.join(parts)}")
        self.check(action, occupied=occupied, available=available)
        return action

    def refusal(self, action: int, *, occupied: int | None = None, available: int | None = None) -> str | None:
        """Why an action cannot be played (its piece is used, or the filled cells it overlaps), or None when it can."""
        label = self.format(action)
        if available is not None and not (available >> self.piece_index(action)) & 1:
            return f"{label}: piece {self.piece_of(action)} is already used"
        if occupied is not None and self._masks[action] & occupied:
            taken = [cell for cell in self.cells(action) if (occupied >> (cell[0] * self.width + cell[1])) & 1]
            return f"{label} overlaps the filled cell{'s' if len(taken) > 1 else ''} {self._names(taken)}"
        return None

    def check(self, action: int, *, occupied: int | None = None, available: int | None = None) -> None:
        """Raise `IllegalMoveError` saying why, unless the action can be played with ``occupied`` and ``available``."""
        reason = self.refusal(action, occupied=occupied, available=available)
        if reason is not None:
            raise IllegalMoveError(reason)

    def _split(self, text: str) -> tuple[int, int, Cell]:
        """The piece index, orientation index and anchor of a move's text (the anchor within the board's rectangle)."""
        match = _MOVE.match(text) if isinstance(text, str) else None
        if match is None:
            raise NotationError(
                f"a piece move is a piece, its orientation number, '@' and a cell, such as 'L3@d4', not {text!r}"
            )
        head = match.group("head")
        found = _DASHED.match(head) or _PLAIN.match(head)
        name, number = (found.group("name"), int(found.group("number"))) if found else (head, 0)
        if name not in self.names:
            raise NotationError(f"unknown piece {name!r} in {text.strip()!r} (pieces: {', '.join(self.names)})")
        piece = self.names.index(name)
        count = len(self.orientations[piece])
        if not 1 <= number <= count:
            raise NotationError(
                f"piece {name} has no orientation {number} in {text.strip()!r} (orientations 1-{count})"
            )
        return piece, number - 1, parse_cell(match.group("cell"), self.height, self.width)

    def _names(self, cells: Iterable[Cell]) -> str:
        return ", ".join(f"{chr(ord('a') + c)}{self.height - r}" for r, c in cells)


def _words(masks: Sequence[int], cells: int) -> np.ndarray:
    """The masks as an (actions, words) uint64 array, 64 bits a word."""
    count = max(1, -(-cells // WORD))
    out = np.zeros((len(masks), count), dtype=np.uint64)
    for k in range(count):
        out[:, k] = [(m >> (WORD * k)) & (2**WORD - 1) for m in masks]
    return out
