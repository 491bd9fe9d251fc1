"""Bitboards and a depth-limited heuristic search for Connect Four of any size (pure Python).

A position is two Python ints (so every board size fits): ``cur``, the discs of the
side to move, and ``mask``, every disc. Column ``c`` owns bits ``c * (height + 1)``
upwards, bottom cell first, with one always-empty guard bit on top, so that shifting
a board never wraps a line from one column into the next (Pons' layout).

The evaluation counts the lines still open to each side, weighting a line by its
discs, and counts threats (empty cells that would complete a line) most of all.
The search is negamax with alpha-beta pruning, centre-first move ordering, and a
time limit. This is the engine of the ``easy`` and ``medium`` players and of
`Connect4State.evaluate`; the perfect player uses `gridgames_connect4.solver`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from functools import lru_cache

import attrs

NODE_RATE = 25_000
"""Conservative positions per second of the search (measured 20-60 k/s on one core); node budgets use it."""
WIN = 1_000_000
"""Score of a win on the next ply; a win k plies later scores k less."""
THREAT_WEIGHT = 16
EVALUATION_SCALE = 60.0


class OutOfTime(Exception):
    """Raised inside the search when its node budget or deadline runs out."""


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
            run = discs
            for i in range(1, k):
                run &= discs >> (i * s)
                if not run:
                    break
            if run:
                return True
        return False

    def position(self, moves: Sequence[int]) -> tuple[int, int]:
        """(discs of the side to move, all discs) after 0-based ``moves`` (assumed legal)."""
        cur = mask = 0
        for col in moves:
            cur ^= mask  # the discs of the player who moves next (the new disc is not in mask yet)
            mask |= self.drop(mask, col)
        return cur, mask

    def threats(self, discs: int, mask: int) -> int:
        """Empty cells that would complete a line of ``discs``."""
        found = 0
        k1 = self.connect - 1
        for window in self.windows:
            own = discs & window
            if own.bit_count() == k1:
                found |= window & ~own
        return found & ~mask


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
                    (1, stride, stride - 1, stride + 1), odd_rows)


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


def evaluate_moves(width: int, height: int, connect: int, moves: Sequence[int]) -> float:
    """The heuristic value in (-1, 1) of the position after ``moves``, for the side to move."""
    geom = Geometry.of(width, height, connect)
    cur, mask = geom.position(moves)
    return math.tanh(evaluate(geom, cur, mask) / EVALUATION_SCALE)


@attrs.define
class Search:
    """A depth-limited negamax search with alpha-beta pruning, an optional node budget and deadline."""

    geom: Geometry
    deadline: float | None = None
    max_nodes: int | None = None
    nodes: int = 0

    def negamax(self, cur: int, mask: int, depth: int, alpha: int, beta: int) -> int:
        """Score of the position for the side to move, searching ``depth`` plies."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfTime
        if self.deadline is not None and not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise OutOfTime
        geom = self.geom
        n = mask.bit_count()
        playable = [c for c in geom.order if not mask & geom.top[c]]
        if not playable:
            return 0
        for c in playable:
            if geom.has_line(cur | geom.drop(mask, c)):
                return WIN - n
        if n + 1 == geom.cells:
            return 0
        if depth <= 0:
            return evaluate(geom, cur, mask)
        opp = cur ^ mask
        forced = [c for c in playable if geom.has_line(opp | geom.drop(mask, c))]
        if len(forced) > 1:
            return -(WIN - n - 1)
        best = -WIN - 1
        for c in forced or playable:
            value = -self.negamax(opp, mask | geom.drop(mask, c), depth - 1, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def root_scores(self, cur: int, mask: int, depth: int, columns: Sequence[int] | None = None) -> dict[int, int]:
        """The score of every playable column (of ``columns`` when given), each searched ``depth`` plies."""
        geom = self.geom
        scores: dict[int, int] = {}
        opp = cur ^ mask
        for c in geom.order:
            if not geom.can_play(mask, c) or (columns is not None and c not in columns):
                continue
            bit = geom.drop(mask, c)
            if geom.has_line(cur | bit):
                scores[c] = WIN - mask.bit_count()
            else:
                scores[c] = -self.negamax(opp, mask | bit, depth - 1, -WIN - 1, WIN + 1)
        return scores


@attrs.frozen
class Choice:
    """A searched move: the column, every column's score, and the deepest completed depth."""

    column: int
    scores: dict[int, int]
    depth: int
    complete: bool


def immediate_wins(geom: Geometry, cur: int, mask: int) -> list[int]:
    """Columns where the side to move wins at once, centre first."""
    return [c for c in geom.order if geom.can_play(mask, c) and geom.has_line(cur | geom.drop(mask, c))]


def choose(
    geom: Geometry,
    moves: Sequence[int],
    depth: int,
    *,
    rng: random.Random,
    noise: float = 0.0,
    seconds: float | None = None,
    columns: Sequence[int] | None = None,
) -> Choice:
    """The best column after ``moves`` by iterative deepening up to ``depth`` (within ``seconds`` when given).

    The time limit is mainly a node budget (``seconds * NODE_RATE`` positions), so that a
    seeded game replays the same on any machine; a deadline after ``seconds`` backs it up.
    An immediate win is always taken and an immediate loss always blocked; among equal
    scores (after adding uniform ``noise`` to heuristic scores) the choice is random.
    ``columns`` limits the choice (after wins and blocks) to those columns, when any is playable.
    """
    cur, mask = geom.position(moves)
    playable = [c for c in geom.order if geom.can_play(mask, c)]
    if not playable:
        raise ValueError("no legal move: the board is full or the game is over")
    wins = immediate_wins(geom, cur, mask)
    if wins:
        return Choice(rng.choice(wins), {c: WIN for c in wins}, 0, True)
    losses = immediate_wins(geom, cur ^ mask, mask)
    if losses:
        return Choice(rng.choice(losses), {c: 0 for c in losses}, 0, True)
    if columns is not None and any(c in columns for c in playable):
        playable = [c for c in playable if c in columns]
    if len(playable) == 1:
        return Choice(playable[0], {playable[0]: 0}, 0, True)
    deadline = None if seconds is None else time.perf_counter() + seconds
    search = Search(geom, deadline, None if seconds is None else max(1, int(seconds * NODE_RATE)))
    scores: dict[int, int] = {c: 0 for c in playable}
    reached = 0
    complete = True
    for d in range(1, max(depth, 1) + 1):
        try:
            scores = search.root_scores(cur, mask, d, playable)
        except OutOfTime:
            complete = False
            break
        reached = d
        if max(scores.values()) >= WIN - geom.cells or all(v <= -(WIN - geom.cells) for v in scores.values()):
            break  # the result is proven: deeper search changes nothing
    noisy = {
        c: v + (rng.uniform(-noise, noise) if noise and abs(v) < WIN - geom.cells else 0.0) for c, v in scores.items()
    }
    top = max(noisy.values())
    ties = [c for c in playable if noisy[c] == top]
    return Choice(rng.choice(ties), scores, reached, complete)
