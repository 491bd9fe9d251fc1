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

Contact rules (Blokus): `Adjacency` says how a new piece must lie against the mover's
own pieces (``own``, the mask of their cells): touching one of them at a corner, sharing
no edge with any; while ``own`` is empty, a piece must cover one of the ``start`` cells.
Each player keeps a pool of pieces (an ``available`` mask each, `pools`):

>>> blokus = Adjacency(touch_corner=True, avoid_edges=True)
>>> mine = moves.mask(moves.parse("L1@a5"))  # a5 down to a2, and b2
>>> [moves.format(a) for a in moves.legal(mine, moves.all_pieces, own=mine, rule=blokus).tolist()]
['L5@c4', 'X1@c4']
>>> moves.refusal(moves.parse("L1@c5"), occupied=mine, own=mine, rule=blokus)
'L1@c5 shares an edge with your pieces at b2'
>>> moves.refusal(moves.parse("L1@d5"), occupied=mine, own=mine, rule=blokus)
'L1@d5 touches none of your pieces at a corner'
>>> moves.refusal(moves.parse("L1@d5"), occupied=0, own=0, rule=blokus, start=moves.cells_mask([(2, 2)]))
'L1@d5 covers no start cell (c3)'
>>> moves.pools(2), moves.pools([["L"], ["X", "L"]])
((3, 3), (1, 3))
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence

import attrs
import numpy as np

from gridgames.errors import IllegalMoveError, NotationError, ShapeError
from gridgames.grid import Cell, Grid
from gridgames.shapes import Cells, Shape

__all__ = ["Adjacency", "PieceMoves", "cell_name", "parse_cell"]

_MOVE = re.compile(r"^\s*(?P<head>[^@\s]+)\s*@\s*(?P<cell>\S+)\s*$")
_CELL = re.compile(r"^([a-zA-Z])(\d+)$")
_DASHED = re.compile(r"^(?P<name>.*\d)-(?P<number>\d+)$")
_PLAIN = re.compile(r"^(?P<name>.*\D)(?P<number>\d+)$")
WORD = 64
"""Bits per numpy word of `PieceMoves.words`."""
EDGE_SHIFTS = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONAL_SHIFTS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


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


@attrs.frozen
class Adjacency:
    """How a new piece must lie against the mover's own pieces (Blokus: both True); checked once they have one."""

    touch_corner: bool = False
    """The piece must touch at least one of the mover's pieces corner to corner (diagonally adjacent cells)."""
    avoid_edges: bool = False
    """No cell of the piece may share an edge with a cell of the mover's pieces."""


NO_RULE = Adjacency()


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
    # uint64 1 << piece of each action (<= 64 pieces)
    _piece_bits: np.ndarray = attrs.field(init=False, repr=False)
    # edge and corner neighbours, built on first use
    _contact: _Contact | None = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        bits = np.left_shift(np.uint64(1), (self._pieces % WORD).astype(np.uint64))
        object.__setattr__(self, "_piece_bits", bits)
        object.__setattr__(self, "_contact", None)

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
            board.height,
            board.width,
            names,
            orientations,
            on,
            table[:, 0].copy(),
            table[:, 1].copy(),
            table[:, 2:].copy(),
            tuple(masks),
            _words(masks, board.height * board.width),
            {row: i for i, row in enumerate(rows)},
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

    def legal(
        self,
        occupied: int,
        available: int | None = None,
        *,
        own: int = 0,
        rule: Adjacency = NO_RULE,
        start: int | None = None,
    ) -> np.ndarray:
        """The actions (ascending, int64) whose piece is in ``available`` (default: all), whose cells are all free and
        that meet ``rule`` against ``own`` (the mover's cells) or, while ``own`` is empty, cover a ``start`` cell."""
        free = np.ones(len(self._masks), dtype=bool)
        for k in range(self.words.shape[1]):
            word = _word(occupied, k)
            if word:
                free &= (self.words[:, k] & word) == 0
        if available is not None and available != self.all_pieces:
            if len(self.names) <= WORD:  # one AND over the actions' piece bits
                free &= (self._piece_bits & np.uint64(available & (2**WORD - 1))) != 0
            else:
                allowed = np.array([(available >> i) & 1 for i in range(len(self.names))], dtype=bool)
                free &= allowed[self._pieces]
        if own and (rule.touch_corner or rule.avoid_edges):
            contact = self._neighbours()
            if rule.avoid_edges:
                free &= ~_meets(contact.edge_words, own)
            if rule.touch_corner:
                free &= _meets(contact.corner_words, own)
        elif not own and start is not None:
            free &= _meets(self.words, start)
        return np.flatnonzero(free)

    def allows(
        self,
        action: int,
        occupied: int,
        available: int,
        *,
        own: int = 0,
        rule: Adjacency = NO_RULE,
        start: int | None = None,
    ) -> bool:
        """True when `legal` with these arguments holds ``action`` (one action, on Python integers: no array)."""
        mask, contact = self._masks[action], self._neighbours()
        if mask & occupied or not (available >> contact.pieces[action]) & 1:
            return False
        if own:
            if rule.avoid_edges and contact.edges[action] & own:
                return False
            return not rule.touch_corner or bool(contact.corners[action] & own)
        return start is None or bool(mask & start)

    def sample(
        self,
        rng: random.Random,
        occupied: int,
        available: int,
        *,
        own: int = 0,
        rule: Adjacency = NO_RULE,
        start: int | None = None,
        tries: int = 64,
    ) -> int | None:
        """A legal action (as `legal` defines it) found by ``tries`` random draws, or None when none was hit.

        Each draw picks a cell the action must cover (a start cell, a cell diagonal to ``own``
        with the corner rule, else any free cell), then a random action covering it; far
        cheaper than listing every legal action, but not uniform among them: a playout
        policy, not a fair die. None does not mean that no action is legal.
        """
        targets = self._targets(occupied, own, rule, start)
        if not targets:
            return None
        covering = self._neighbours().covering
        for _ in range(tries):
            actions = covering[rng.choice(targets)]
            if not actions:
                continue
            action = actions[rng.randrange(len(actions))]
            if self.allows(action, occupied, available, own=own, rule=rule, start=start):
                return action
        return None

    def _targets(self, occupied: int, own: int, rule: Adjacency, start: int | None) -> list[int]:
        """The cells (as bit numbers) one of which every action `legal` allows covers."""
        contact = self._neighbours()
        if own and rule.touch_corner:
            wanted = _spread(own, DIAGONAL_SHIFTS, self.width) & contact.board & ~occupied
            if rule.avoid_edges:
                wanted &= ~_spread(own, EDGE_SHIFTS, self.width)
        elif not own and start is not None:
            wanted = start & ~occupied
        else:
            wanted = contact.board & ~occupied
        return _bits(wanted)

    def _neighbours(self) -> _Contact:
        contact = self._contact
        if contact is None:
            contact = _Contact.of(self)
            object.__setattr__(self, "_contact", contact)
        return contact

    def pools(self, players: int | Sequence[Iterable[str]]) -> tuple[int, ...]:
        """Each player's ``available`` mask at the start: ``players`` full sets, or one mask per list of piece
        names."""
        if isinstance(players, int):
            return (self.all_pieces,) * players
        return tuple(self.pieces_mask(names) for names in players)

    def legal_after(self, legal: np.ndarray, action: int) -> np.ndarray:
        """The actions of ``legal`` still legal once ``action`` is placed and its piece used (a subset: cheaper than
        `legal`)."""
        legal = legal[self._pieces[legal] != self._pieces[action]]
        mask = self._masks[action]
        for k in range(self.words.shape[1]):
            word = _word(mask, k)
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

    def parse(
        self,
        text: str,
        *,
        occupied: int | None = None,
        available: int | None = None,
        own: int = 0,
        rule: Adjacency = NO_RULE,
        start: int | None = None,
    ) -> int:
        """The action of a move's text; errors say why it is refused (unknown piece or orientation, off the board,
        and, given ``occupied`` / ``available`` / ``own``, ``rule``, ``start``, why `refusal` refuses it)."""
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
        self.check(action, occupied=occupied, available=available, own=own, rule=rule, start=start)
        return action

    def refusal(
        self,
        action: int,
        *,
        occupied: int | None = None,
        available: int | None = None,
        own: int = 0,
        rule: Adjacency = NO_RULE,
        start: int | None = None,
    ) -> str | None:
        """Why an action cannot be played (its piece is used, the filled cells it overlaps, the edge it shares with or
        the corner it misses of ``own``, the start cell it misses), or None when it can."""
        label = self.format(action)
        if available is not None and not (available >> self.piece_index(action)) & 1:
            return f"{label}: piece {self.piece_of(action)} is already used"
        if occupied is not None and self._masks[action] & occupied:
            taken = [cell for cell in self.cells(action) if (occupied >> (cell[0] * self.width + cell[1])) & 1]
            return f"{label} overlaps the filled cell{'s' if len(taken) > 1 else ''} {self._names(taken)}"
        return self._contact_refusal(action, label, own, rule, start)

    def _contact_refusal(self, action: int, label: str, own: int, rule: Adjacency, start: int | None) -> str | None:
        """Why an action breaks the adjacency rule against ``own`` or misses every start cell, or None."""
        if own:
            contact = self._neighbours()
            shared = contact.edges[action] & own
            if rule.avoid_edges and shared:
                return f"{label} shares an edge with your pieces at {self._names(self._cells_of(shared))}"
            if rule.touch_corner and not contact.corners[action] & own:
                return f"{label} touches none of your pieces at a corner"
        elif start is not None and not self._masks[action] & start:
            return f"{label} covers no start cell ({self._names(self._cells_of(start))})"
        return None

    def check(
        self,
        action: int,
        *,
        occupied: int | None = None,
        available: int | None = None,
        own: int = 0,
        rule: Adjacency = NO_RULE,
        start: int | None = None,
    ) -> None:
        """Raise `IllegalMoveError` saying why, unless the action can be played (the arguments of `refusal`)."""
        reason = self.refusal(action, occupied=occupied, available=available, own=own, rule=rule, start=start)
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

    def _cells_of(self, mask: int) -> list[Cell]:
        return [divmod(bit, self.width) for bit in _bits(mask)]


@attrs.frozen
class _Contact:
    """Each action's edge and corner neighbours (masks and words), the actions covering each cell, the board's bits."""

    edges: tuple[int, ...]
    corners: tuple[int, ...]
    edge_words: np.ndarray
    corner_words: np.ndarray
    covering: tuple[tuple[int, ...], ...]  # by bit number: the actions covering that cell
    pieces: list[int]  # each action's piece index
    board: int  # the mask of the board's cells

    @classmethod
    def of(cls, moves: PieceMoves) -> _Contact:
        board = moves.cells_mask(moves.on_board)
        width, cells = moves.width, moves.height * moves.width
        edges, corners = [], []
        covering: list[list[int]] = [[] for _ in range(cells)]
        for action, mask in enumerate(moves._masks):
            edge = _spread(mask, EDGE_SHIFTS, width) & board & ~mask
            edges.append(edge)
            corners.append(_spread(mask, DIAGONAL_SHIFTS, width) & board & ~mask)
            for bit in _bits(mask):
                covering[bit].append(action)
        return cls(
            tuple(edges),
            tuple(corners),
            _words(edges, cells),
            _words(corners, cells),
            tuple(tuple(a) for a in covering),
            moves._pieces.tolist(),
            board,
        )


def _spread(mask: int, shifts: Iterable[tuple[int, int]], width: int) -> int:
    """The cells one step from ``mask``'s by each (row, col) shift, within the rectangle (off-board bits may remain
    beyond the last row: mask them)."""
    out = 0
    # column 0 of every row
    left_col = sum(1 << i for i in range(0, mask.bit_length() + width, width))
    right_col = left_col << (width - 1)
    for dr, dc in shifts:
        part = mask
        if dc == 1:
            part = (part & ~right_col) << 1
        elif dc == -1:
            part = (part & ~left_col) >> 1
        if dr == 1:
            part <<= width
        elif dr == -1:
            part >>= width
        out |= part
    return out


def _bits(mask: int) -> list[int]:
    """The numbers of the set bits of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _word(mask: int, k: int) -> np.uint64:
    return np.uint64((mask >> (WORD * k)) & (2**WORD - 1))


def _meets(words: np.ndarray, mask: int) -> np.ndarray:
    """For each row of ``words`` (an action's mask), True when it shares a bit with ``mask``."""
    hit = np.zeros(words.shape[0], dtype=bool)
    for k in range(words.shape[1]):
        word = _word(mask, k)
        if word:
            hit |= (words[:, k] & word) != 0
    return hit


def _words(masks: Sequence[int], cells: int) -> np.ndarray:
    """The masks as an (actions, words) uint64 array, 64 bits a word."""
    count = max(1, -(-cells // WORD))
    out = np.zeros((len(masks), count), dtype=np.uint64)
    for k in range(count):
        out[:, k] = [(m >> (WORD * k)) & (2**WORD - 1) for m in masks]
    return out
