"""Numba kernels of the Connect Four solver: bitboard helpers, the replay of a move list and a depth-limited search.

Bitboards in Pascal Pons' layout (`gridgames_connect4.position.geometry`). A position is (pos, mask): pos holds the
stones of the side to move, mask all stones. The key pos + mask identifies a position uniquely. A board is one
uint64 when it fits one word, else a pair of them (see bits); the same source compiles for both.

Every board parameter is a runtime argument, so one compiled kernel serves every board size; `cache=True`
keeps the machine code on disk between processes. The exact search is in search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames_connect4.solve.engine.bits import (
    badd,
    band,
    bandnot,
    bdec,
    bit_index,
    bor,
    bxor,
    is_zero,
    ld1,
    ld2,
    one_like,
    popcount,
    shl,
    shr,
    st2,
    zero_like,
)
from gridgames_connect4.solve.engine.layout import INF, WIN_BASE


@njit(cache=True)
def winning_cells(p, mask, board, h, k):
    """Empty cells where the stones p would complete k in a row (generic in k, fast path for 4)."""
    if k == 4:
        r = band(band(shl(p, 1), shl(p, 2)), shl(p, 3))
        for s in (h, h + 1, h + 2):
            q = band(shl(p, s), shl(p, 2 * s))
            r = bor(r, band(q, shl(p, 3 * s)))
            r = bor(r, band(q, shr(p, s)))
            q = band(shr(p, s), shr(p, 2 * s))
            r = bor(r, band(q, shl(p, s)))
            r = bor(r, band(q, shr(p, 3 * s)))
        return band(r, bxor(board, mask))
    # vertical: the k-1 cells below
    r = shl(p, 1)
    for i in range(2, k):
        r = band(r, shl(p, i))
    for s in (h, h + 1, h + 2):
        # a stones on the "<<" side and k-1-a on the ">>" side of the empty cell
        left = board
        for a in range(k):
            if a > 0:
                left = band(left, shl(p, s * a))
            right = board
            for b in range(1, k - a):
                right = band(right, shr(p, s * b))
            r = bor(r, band(left, right))
    return band(r, bxor(board, mask))


@njit(cache=True)
def has_line(x, h, k):
    """Whether the cells x contain k in a row in some direction."""
    for s in (1, h, h + 1, h + 2):
        if k == 4:
            m = band(x, shr(x, s))
            if not is_zero(band(m, shr(m, 2 * s))):
                return True
        else:
            y = x
            for i in range(1, k):
                y = band(y, shr(x, s * i))
            if not is_zero(y):
                return True
    return False


@njit(cache=True)
def mirror(x, w, h):
    """The bitboard x reflected left to right."""
    col = bdec(shl(one_like(x), h + 1))
    r = zero_like(x)
    for c in range(w):
        r = bor(r, shl(band(shr(x, c * (h + 1)), col), (w - 1 - c) * (h + 1)))
    return r


@njit(cache=True)
def mirror_cell(mv, col, w, h):
    """The cell mv of column col reflected left to right."""
    shift = (w - 1 - 2 * col) * (h + 1)
    return shl(mv, shift) if shift >= 0 else shr(mv, -shift)


@njit(cache=True)
def column_of(cell, h):
    """Column index of a single-bit cell."""
    return np.int64(bit_index(cell)) // (h + 1)


@njit(cache=True)
def non_losing_moves(p, mask, bottom, board, h, k):
    """Playable cells that do not let the opponent win next move (0 if every move loses)."""
    possible = band(badd(mask, bottom), board)
    opp_win = winning_cells(bxor(p, mask), mask, board, h, k)
    forced = band(possible, opp_win)
    if not is_zero(forced):
        if not is_zero(band(forced, bdec(forced))):
            return zero_like(p)
        possible = forced
    return bandnot(possible, shr(opp_win, 1))


@njit(cache=True)
def can_win_next(p, mask, bottom, board, h, k):
    """Whether the side to move has an immediately winning move."""
    return not is_zero(band(band(winning_cells(p, mask, board, h, k), badd(mask, bottom)), board))


@njit(cache=True)
def evaluate(p, mask, h, k, board):
    """Heuristic value for the side to move: its open winning cells minus the opponent's."""
    return popcount(winning_cells(p, mask, board, h, k)) - popcount(winning_cells(bxor(p, mask), mask, board, h, k))


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private, not in numba's stubs): no allocation, as the AOT build
def _sort_moves(p, mask, possible, board, h, k, order, colmask, out, scores, row):
    """Fill row `row` of out with the moves of possible, sorted by increasing move score (best last), their scores in
    that row of scores; return their count."""
    count = 0
    for i in range(order.shape[0] - 1, -1, -1):
        mv = band(possible, ld1(colmask, order[i]))
        if not is_zero(mv):
            s = popcount(winning_cells(bor(p, mv), mask, board, h, k))
            j = count
            count += 1
            while j > 0 and scores[row, j - 1] > s:
                st2(out, row, j, ld2(out, row, j - 1))
                scores[row, j] = scores[row, j - 1]
                j -= 1
            st2(out, row, j, mv)
            scores[row, j] = s
    return count


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private, not in numba's stubs): no allocation, as the AOT build
def limited_search(
    p, mask, n, depth, alpha, beta, h, k, cells, bottom, board, order, colmask, stats, budget, moves_at, scores_at
):
    """Depth-limited negamax with alpha-beta; proven results score +-(WIN_BASE + Pons score).

    moves_at, scores_at: scratch rows by ply (each shaped like colmask and order): nothing is allocated (the
    kernels built ahead of time run without numba's memory management).
    """
    stats[0] += 1
    if stats[0] > budget:
        stats[1] = 1
        return 0
    possible_all = band(badd(mask, bottom), board)
    if not is_zero(band(winning_cells(p, mask, board, h, k), possible_all)):
        return WIN_BASE + (cells + 1 - n) // 2
    possible = non_losing_moves(p, mask, bottom, board, h, k)
    if is_zero(possible):
        if is_zero(possible_all):
            return 0
        return -(WIN_BASE + (cells - n) // 2)
    if n >= cells - 2:
        return 0
    if depth <= 0:
        return evaluate(p, mask, h, k, board)
    count = _sort_moves(p, mask, possible, board, h, k, order, colmask, moves_at, scores_at, n)
    best = -INF
    for i in range(count - 1, -1, -1):
        v = -limited_search(
            bxor(p, mask),
            bor(mask, ld2(moves_at, n, i)),
            n + 1,
            depth - 1,
            -beta,
            -alpha,
            h,
            k,
            cells,
            bottom,
            board,
            order,
            colmask,
            stats,
            budget,
            moves_at,
            scores_at,
        )
        if stats[1] != 0:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt (private, not in numba's stubs): no allocation, as the AOT build
def replay(columns, start, stop, width, h, k, bottom, board):
    """Play the 0-based columns[start:stop] from the empty board: (pos, mask, status, move index from start).

    status 0: fine; 1: column out of range; 2: column full; 3: move after a win; 4: the last move won.
    The move index (0-based) names the offending move, or the winning one for status 4.
    """
    one = one_like(board)
    p = zero_like(board)
    mask = zero_like(board)
    won_at = -1
    for i in range(stop - start):
        c = columns[start + i]
        if c < 0 or c >= width:
            return p, mask, 1, i
        if won_at >= 0:
            return p, mask, 3, i
        column = shl(bdec(shl(one, h)), c * (h + 1))
        if not is_zero(band(mask, shl(one, h - 1 + c * (h + 1)))):
            return p, mask, 2, i
        cell = band(badd(mask, band(bottom, column)), column)
        if not is_zero(band(winning_cells(p, mask, board, h, k), cell)):
            won_at = i
        p = bxor(p, mask)
        mask = bor(mask, cell)
    if won_at >= 0:
        return p, mask, 4, won_at
    return p, mask, 0, stop - start
