"""The heuristic evaluation of Connect Four of any size (pure Python).

A position is two bitboards of `gridgames_connect4.position.geometry` (Python ints): ``cur``, the discs of the side
to move, and ``mask``, every disc.

The evaluation counts the lines still open to each side, weighting a line by its
discs, and counts threats (empty cells that would complete a line) most of all.
`Connect4State` keeps its position in this layout (updated move by move) and its
`evaluate` is `value`; the computer players search with the generic
`gridgames.search.negamax` on it (the perfect player uses `gridgames_connect4.solve.solver`).
"""

from __future__ import annotations

import math

from gridgames_connect4.position.geometry import Geometry

THREAT_WEIGHT = 16
EVALUATION_SCALE = 60.0


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
