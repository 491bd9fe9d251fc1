"""Bitboards and the heuristic evaluation of Connect Four of any size (pure Python).

A position is two Python ints (so every board size fits): ``cur``, the discs of the
side to move, and ``mask``, every disc. Column ``c`` owns bits ``c * (height + 1)``
upwards, bottom cell first, with one always-empty guard bit on top, so that shifting
a board never wraps a line from one column into the next (Pons' layout).

The evaluation counts the lines still open to each side, weighting a line by its
discs, and counts threats (empty cells that would complete a line) most of all.
`Connect4State` keeps its position in this layout (updated move by move) and its
`evaluate` is `value`; the computer players search with the generic
`gridgames.search.negamax` on it (the perfect player uses `gridgames_connect4.solver`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import attrs

THREAT_WEIGHT = 16
EVALUATION_SCALE = 60.0


@attrs.frozen
class Geometry:
    """The bit layout of one board size and line length, with its precomputed masks."""

    width: int
    height: int
    connect: int
    bottom: tuple[int, ...]
    top: tuple[int, ...]
    columns: tuple[int, ...]
    windows: tuple[int, ...]
    order: tuple[int, ...]
    shifts: tuple[int, ...]
    odd_rows: int
    bottom_row: int
    """The bottom cell of every column."""
    board: int
    """Every cell of the board (no guard bits)."""

    @classmethod
    def of(cls, width: int, height: int, connect: int) -> Geometry:
        """The geometry of a width x height board with lines of ``connect`` (cached)."""
        return _geometry(width, height, connect)

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.width * self.height

    def bit(self, row: int, col: int) -> int:
        """The bit of a cell, ``row`` counted from the bottom (0-based)."""
        return 1 << (col * (self.height + 1) + row)

    def can_play(self, mask: int, col: int) -> bool:
        """True when column ``col`` is not full."""
        return not mask & self.top[col]

    def drop(self, mask: int, col: int) -> int:
        """The bit of the cell where a disc dropped in ``col`` lands (the column must not be full)."""
        return (mask + self.bottom[col]) & self.columns[col]

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

    def playable(self, mask: int) -> int:
        """The cell where a disc would land in each column that is not full."""
        return (mask + self.bottom_row) & self.board

    def winning_cells(self, discs: int, mask: int) -> int:
        """Empty cells that would complete a line of ``discs`` (playable now or not)."""
        k1 = self.connect - 1
        found = 0
        for s in self.shifts:
            after, before = [-1], [-1]  # after[m]: cells followed by m discs along s; before[m]: preceded by m
            for m in range(1, k1 + 1):
                after.append(after[-1] & (discs >> (m * s)))
                before.append(before[-1] & (discs << (m * s)))
            for j in range(k1 + 1):  # the cell is the (j+1)-th of the line
                found |= before[j] & after[k1 - j]
        return found & self.board & ~mask

    def position(self, moves: Sequence[int]) -> tuple[int, int]:
        """(discs of the side to move, all discs) after 0-based ``moves`` (assumed legal)."""
        cur = mask = 0
        for col in moves:
            cur ^= mask  # the discs of the player who moves next (the new disc is not in mask yet)
            mask |= self.drop(mask, col)
        return cur, mask

    def threats(self, discs: int, mask: int) -> int:
        """Empty cells that would complete a line of ``discs`` (as `winning_cells`)."""
        return self.winning_cells(discs, mask)


@lru_cache(maxsize=32)
def _geometry(width: int, height: int, connect: int) -> Geometry:
    stride = height + 1
    bottom = tuple(1 << (c * stride) for c in range(width))
    top = tuple(1 << (c * stride + height - 1) for c in range(width))
    columns = tuple(((1 << height) - 1) << (c * stride) for c in range(width))
    windows = []
    for c in range(width):
        for r in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(connect)]
                if all(0 <= rr < height and 0 <= cc < width for rr, cc in cells):
                    windows.append(sum(1 << (cc * stride + rr) for rr, cc in cells))
    order = tuple(sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c)))
    odd_rows = sum(1 << (c * stride + r) for c in range(width) for r in range(0, height, 2))
    return Geometry(width, height, connect, bottom, top, columns, tuple(windows), order,
                    (1, stride, stride - 1, stride + 1), odd_rows, sum(bottom), sum(columns))


def evaluate(geom: Geometry, cur: int, mask: int) -> int:
    """Heuristic score for the side to move: open lines weighted by their discs, threats weighted most."""
    opp = cur ^ mask
    k1 = geom.connect - 1
    score = 0
    mine_threats = theirs_threats = 0
    for window in geom.windows:
        a = cur & window
        b = opp & window
        if a and not b:
            n = a.bit_count()
            if n == k1:
                mine_threats |= window & ~a
            else:
                score += n * n
        elif b and not a:
            n = b.bit_count()
            if n == k1:
                theirs_threats |= window & ~b
            else:
                score -= n * n
    mine_threats &= ~mask
    theirs_threats &= ~mask
    # the first player profits from threats on odd rows (1, 3, ...), the second from even ones
    first_to_move = (mask.bit_count() % 2) == 0
    mine_good = geom.odd_rows if first_to_move else ~geom.odd_rows
    score += THREAT_WEIGHT * (mine_threats.bit_count() + (mine_threats & mine_good).bit_count())
    score -= THREAT_WEIGHT * (theirs_threats.bit_count() + (theirs_threats & ~mine_good).bit_count())
    return score


def value(geom: Geometry, cur: int, mask: int) -> float:
    """The heuristic value in [-1, 1] for the side to move of a position that is not over.

    1 when the side to move can win at once, -1 when the opponent threatens to win in
    two columns (only one can be blocked), else the squashed `evaluate` score.
    """
    playable = geom.playable(mask)
    if geom.winning_cells(cur, mask) & playable:
        return 1.0
    theirs = geom.winning_cells(cur ^ mask, mask) & playable
    if theirs & (theirs - 1):  # two cells, so two columns
        return -1.0
    return math.tanh(evaluate(geom, cur, mask) / EVALUATION_SCALE)


def immediate_wins(geom: Geometry, cur: int, mask: int) -> list[int]:
    """Columns where the side to move wins at once, centre first."""
    wins = geom.winning_cells(cur, mask) & geom.playable(mask)
    return [c for c in geom.order if wins & geom.columns[c]] if wins else []
