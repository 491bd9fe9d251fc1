"""The bitboard geometry of Connect Four of any size: one layout for the rules, heuristic, solver and book.

A set of cells is a Python int (every board size fits). Column ``c`` owns bits ``c * (height + 1)`` upwards,
bottom cell first, with one always-empty guard bit on top, so that shifting a board never wraps a line from one
column into the next (Pascal Pons' layout). A position is two such sets: ``cur``, the discs of the side to move,
and ``mask``, every disc; its **key** ``cur + mask`` tells it apart from every other position (the guard bit
above a column's top disc marks its height). The compiled kernels (`gridgames_connect4.solve.engine`) take these
constants as `engine.layout.BoardConstants`, made from a `Geometry` by the solver.

Vocabulary: **bottom**, every column's lowest cell; **board**, every cell (no guard bit); **columns**, each
column's cells; **tops**, each column's highest cell; **playable**, the cell where a disc would land in each
column that is not full; **winning cells** of a stone set, the empty cells that would complete a line of
``connect`` of it (a threat when it is not playable yet); **order**, the columns centre first (Pons' order).
"""

from __future__ import annotations

# (no typing, attrs or functools at import: a fresh process's quick answer uses this module)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

__all__ = ["Geometry", "board_bits", "fits_one_word", "key_bytes"]


def board_bits(width: int, height: int) -> int:
    """Bits of a width x height bitboard, guard bits included: ``width`` columns of ``height`` cells and a guard bit.

    >>> board_bits(7, 6)
    49
    """
    return (height + 1) * width


def fits_one_word(width: int, height: int) -> bool:
    """Whether a width x height bitboard fits one 64-bit word: the books' keys, the kernels built ahead of time."""
    return board_bits(width, height) <= 64


def key_bytes(width: int, height: int) -> int:
    """The fewest whole bytes holding a width x height bitboard (a book's key width: 7 on 7x6)."""
    return (board_bits(width, height) + 7) // 8


_FIELDS = (
    "width",
    "height",
    "connect",
    "bottom",
    "board",
    "bottoms",
    "tops",
    "columns",
    "order",
    "shifts",
    "windows",
    "odd_rows",
    "lower_rows",
    "cell_values",
)


class Geometry:
    """The bit layout of one board size and line length, with its precomputed masks (`Geometry.of` caches them).

    Immutable, equal when the board and line length are; a plain class (attrs' import is about 28 ms of a fresh
    process, which `gridgames_connect4.surfaces.quick` does without).
    """

    __slots__ = _FIELDS

    width: int
    height: int
    connect: int
    bottom: int
    """The bottom cell of every column."""
    board: int
    """Every cell of the board (no guard bits)."""
    bottoms: tuple[int, ...]
    """Each column's bottom cell."""
    tops: tuple[int, ...]
    """Each column's top cell."""
    columns: tuple[int, ...]
    """Each column's cells."""
    order: tuple[int, ...]
    """The columns centre first, e.g. 3, 2, 4, 1, 5, 0, 6 on 7 columns (Pons' order)."""
    shifts: tuple[int, ...]
    """The bit distance between neighbours along each direction: vertical, horizontal, the two diagonals."""
    windows: tuple[int, ...]
    """Every line of ``connect`` cells on the board."""
    odd_rows: int
    """The cells of rows 0, 2, 4...: the first player's good threats (rows 1, 3, 5... counted from 1)."""
    lower_rows: int
    """The rows with the top row's parity: the lower cell of each pair when every column has an even number empty."""
    cell_values: tuple[int, ...]
    """The number of lines through each cell, by the cell's bit index (guard bits: 0)."""

    def __init__(self, **fields: object) -> None:
        for name in _FIELDS:
            object.__setattr__(self, name, fields[name])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Geometry is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Geometry):
            return NotImplemented
        return (self.width, self.height, self.connect) == (other.width, other.height, other.connect)

    def __hash__(self) -> int:
        return hash((Geometry, self.width, self.height, self.connect))

    def __repr__(self) -> str:
        return f"Geometry.of({self.width}, {self.height}, {self.connect})"

    def __reduce__(self) -> tuple[object, tuple[int, int, int]]:
        return (_geometry, (self.width, self.height, self.connect))

    @classmethod
    def of(cls, width: int, height: int, connect: int) -> Geometry:
        """The geometry of a width x height board with lines of ``connect`` (cached)."""
        return _geometry(width, height, connect)

    @property
    def stride(self) -> int:
        """Bits per column (height + 1: the guard bit)."""
        return self.height + 1

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.width * self.height

    @property
    def bits(self) -> int:
        """Bits of a bitboard, guard bits included (`board_bits`)."""
        return board_bits(self.width, self.height)

    @property
    def fits_one_word(self) -> bool:
        """Whether a bitboard fits one 64-bit word (`fits_one_word`)."""
        return fits_one_word(self.width, self.height)

    def bit(self, row: int, col: int) -> int:
        """The bit of a cell, ``row`` counted from the bottom (0-based)."""
        return 1 << (col * self.stride + row)

    def can_play(self, mask: int, col: int) -> bool:
        """True when column ``col`` is not full."""
        return not mask & self.tops[col]

    def drop(self, mask: Any, col: int) -> Any:
        """The bit of the cell where a disc dropped in ``col`` lands (0 when the column is full).

        ``mask`` is an int, or a numpy uint64 array of masks (on boards of one word): the cells of each.
        """
        return (mask + self.bottoms[col]) & self.columns[col]

    def playable(self, mask: Any) -> Any:
        """The cell where a disc would land in each column that is not full (``mask``: as `drop`'s)."""
        return (mask + self.bottom) & self.board

    def column_of(self, cell: int) -> int:
        """The column of a cell given as its bit."""
        return (cell.bit_length() - 1) // self.stride

    def has_line(self, discs: int) -> bool:
        """True when ``discs`` hold a line of ``connect`` in any direction."""
        k = self.connect
        for s in self.shifts:
            run, length = discs, 1  # run: the first cells of runs of ``length`` discs
            while 2 * length <= k:
                run &= run >> (length * s)
                length *= 2
            if length < k:
                run &= run >> ((k - length) * s)
            if run:
                return True
        return False

    def winning_cells(self, discs: int, mask: int) -> int:
        """Empty cells that would complete a line of ``discs`` (playable now or not: the threats of ``discs``)."""
        p = discs
        if self.connect == 4:  # the usual game, unrolled (Pons' formula): several times faster
            found = (p << 1) & (p << 2) & (p << 3)
            for s in self.shifts[1:]:
                pair = (p << s) & (p << 2 * s)
                found |= pair & ((p << 3 * s) | (p >> s))
                pair = (p >> s) & (p >> 2 * s)
                found |= pair & ((p << s) | (p >> 3 * s))
            return found & (self.board ^ mask)
        k1 = self.connect - 1
        found = 0
        for s in self.shifts:
            # after[m]: cells followed by m discs along s; before[m]: preceded by m
            after, before = [-1], [-1]
            for m in range(1, k1 + 1):
                after.append(after[-1] & (p >> (m * s)))
                before.append(before[-1] & (p << (m * s)))
            for j in range(k1 + 1):  # the cell is the (j+1)-th of the line
                found |= before[j] & after[k1 - j]
        return found & (self.board ^ mask)

    def wins_at_once(self, discs: int, mask: int) -> int:
        """Playable cells that complete a line of ``discs`` (0: no win at once)."""
        return self.winning_cells(discs, mask) & self.playable(mask)

    def non_losing(self, discs: int, mask: int) -> int:
        """Playable cells that do not let the opponent of ``discs`` win next move (0 when every move loses).

        A move must block an opponent's win at once (two of them: every move loses), and no disc may go right
        below a cell where the opponent would complete a line (Pons' possibleNonLosingMoves).
        """
        possible = self.playable(mask)
        threats = self.winning_cells(discs ^ mask, mask)
        forced = possible & threats
        if forced & (forced - 1):
            return 0
        return (forced or possible) & ~(threats >> 1)

    def position(self, moves: Sequence[int]) -> tuple[int, int]:
        """(discs of the side to move, all discs) after 0-based ``moves`` (assumed legal)."""
        cur = mask = 0
        for col in moves:
            cur ^= mask  # the discs of the player who moves next (the new disc is not in mask yet)
            mask |= self.drop(mask, col)
        return cur, mask

    def mask_of_key(self, key: int) -> int:
        """All discs of a position from its key (discs to move + all discs): each column's bits below its top one."""
        stride, mask = self.stride, 0
        full = (1 << stride) - 1
        for c in range(self.width):
            # the column's discs to move + its discs (2**height - 1)
            bits = (key >> (c * stride)) & full
            mask |= ((1 << ((bits + 1).bit_length() - 1)) - 1) << (c * stride)
        return mask

    def mirror(self, board: int) -> int:
        """The key (or any set of cells) of the mirror image: column c becomes column width - 1 - c."""
        stride, out = self.stride, 0
        full = (1 << stride) - 1
        for c in range(self.width):
            out |= ((board >> (c * stride)) & full) << ((self.width - 1 - c) * stride)
        return out

    def canonical(self, key: int) -> int:
        """The smaller of a key and its mirror image's: one key for a position and its mirror."""
        return min(key, self.mirror(key))


_MADE: dict[tuple[int, int, int], Geometry] = {}


def _geometry(width: int, height: int, connect: int) -> Geometry:
    made = _MADE.get((width, height, connect))
    if made is None:
        made = _MADE[width, height, connect] = _make(width, height, connect)
    return made


def _make(width: int, height: int, connect: int) -> Geometry:
    stride = height + 1
    bottoms = tuple(1 << (c * stride) for c in range(width))
    columns = tuple(((1 << height) - 1) << (c * stride) for c in range(width))
    lines = [
        [(r + i * dr, c + i * dc) for i in range(connect)]
        for c in range(width)
        for r in range(height)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    ]
    windows = [cells for cells in lines if all(0 <= rr < height and 0 <= cc < width for rr, cc in cells)]
    values = [0] * (stride * width)
    for cells in windows:
        for rr, cc in cells:
            values[cc * stride + rr] += 1
    bottom = sum(bottoms)
    return Geometry(
        width=width,
        height=height,
        connect=connect,
        bottom=bottom,
        board=sum(columns),
        bottoms=bottoms,
        tops=tuple(b << (height - 1) for b in bottoms),
        columns=columns,
        order=tuple(width // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2 for i in range(width)),
        shifts=(1, stride, stride - 1, stride + 1),
        windows=tuple(sum(1 << (cc * stride + rr) for rr, cc in cells) for cells in windows),
        odd_rows=sum(bottom << r for r in range(0, height, 2)),
        lower_rows=sum(bottom << r for r in range(height) if (height - r) % 2 == 0),
        cell_values=tuple(values),
    )
