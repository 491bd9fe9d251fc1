"""Numba kernels of the Connect Four solver: bitboard helpers, exact negamax and a depth-limited search.

Bitboard layout (Pascal Pons'): column c uses bits c*(H+1) .. c*(H+1)+H-1 from bottom to top, plus one
always-empty guard bit on top. A position is (pos, mask): pos holds the stones of the side to move, mask all
stones. The key pos + mask identifies a position uniquely.

Every board parameter is a runtime argument, so one compiled kernel serves every board size; `cache=True`
keeps the machine code on disk between processes.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

ONE = np.uint64(1)
ZERO = np.uint64(0)

# Values of the depth-limited search: proven results are offset by WIN_BASE, evaluations stay far below it.
WIN_BASE = 10_000
INF = 1_000_000


@intrinsic
def popcount(typingctx, x):  # noqa: ARG001 - numba intrinsic signature
    """Number of set bits of a 64-bit word (LLVM ctpop)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], signature.args[0], types.uint64)
        count = builder.ctpop(value)
        return builder.bitcast(count, ir.IntType(64))

    return types.int64(x), codegen


@intrinsic
def prefetch(typingctx, array, index):  # noqa: ARG001 - numba intrinsic signature
    """Hint the CPU to load the cache line of array[index] (LLVM prefetch for reading)."""

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, value=args[0])
        where = context.cast(builder, args[1], signature.args[1], types.intp)
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        ptr = builder.bitcast(builder.gep(ary.data, [where]), byte_ptr)
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(array, index), codegen


@njit(cache=True)
def winning_cells(p, mask, board, h, k):
    """Empty cells where the stones p would complete k in a row (generic in k, fast path for 4)."""
    h0 = np.uint64(h)
    h1 = np.uint64(h + 1)
    h2 = np.uint64(h + 2)
    if k == 4:
        r = (p << ONE) & (p << np.uint64(2)) & (p << np.uint64(3))
        for s in (h0, h1, h2):
            q = (p << s) & (p << (s + s))
            r |= q & (p << (s + s + s))
            r |= q & (p >> s)
            q = (p >> s) & (p >> (s + s))
            r |= q & (p << s)
            r |= q & (p >> (s + s + s))
        return r & (board ^ mask)
    # vertical: the k-1 cells below
    r = p << ONE
    for i in range(2, k):
        r &= p << np.uint64(i)
    for s in (h0, h1, h2):
        # a stones on the "<<" side and k-1-a on the ">>" side of the empty cell
        left = ~ZERO
        for a in range(k):
            if a > 0:
                left &= p << (s * np.uint64(a))
            right = ~ZERO
            for b in range(1, k - a):
                right &= p >> (s * np.uint64(b))
            r |= left & right
    return r & (board ^ mask)


@njit(cache=True)
def non_losing_moves(p, mask, bottom, board, h, k):
    """Playable cells that do not let the opponent win next move (0 if every move loses)."""
    possible = (mask + bottom) & board
    opp_win = winning_cells(p ^ mask, mask, board, h, k)
    forced = possible & opp_win
    if forced != ZERO:
        if (forced & (forced - ONE)) != ZERO:
            return ZERO
        possible = forced
    return possible & ~(opp_win >> ONE)


@njit(cache=True)
def can_win_next(p, mask, bottom, board, h, k):
    """Whether the side to move has an immediately winning move."""
    return (winning_cells(p, mask, board, h, k) & (mask + bottom) & board) != ZERO


@njit(cache=True)
def _sort_moves(p, mask, possible, board, h, k, order, colmask, out, scores):
    """Fill out[] with the moves of possible, sorted by increasing move score (best last); return their count."""
    count = 0
    for i in range(order.shape[0] - 1, -1, -1):
        mv = possible & colmask[order[i]]
        if mv != ZERO:
            s = popcount(winning_cells(p | mv, mask, board, h, k))
            j = count
            count += 1
            while j > 0 and scores[j - 1] > s:
                out[j] = out[j - 1]
                scores[j] = scores[j - 1]
                j -= 1
            out[j] = mv
            scores[j] = s
    return count


@njit(cache=True)
def table_slots(index, kmask):
    """Where table entry `index` lives: (slot in the key view, byte in the value view).

    Each 64-byte cache line holds 12 entries with 32-bit partial keys (48 bytes of keys, then 12 value bytes)
    or 7 entries with 64-bit keys (56 + 7 bytes), so a probe touches one line.
    """
    if kmask == np.uint64(0xFFFFFFFF):
        line = index // np.uint64(12)
        offset = index - line * np.uint64(12)
        return line * np.uint64(16) + offset, line * np.uint64(64) + np.uint64(48) + offset
    line = index // np.uint64(7)
    offset = index - line * np.uint64(7)
    return line * np.uint64(8) + offset, line * np.uint64(64) + np.uint64(56) + offset


@njit(cache=True)
def negamax(p0, mask0, n0, alpha0, beta0, h, k, cells, bottom, board, order, colmask,
            keys, vals, kmask, size, stats, budget):
    """Pons' negamax with alpha-beta and a bound-storing table, as an explicit-stack loop.

    Assumes the side to move cannot win at once. stats[0] counts nodes; if it exceeds budget the search stops,
    sets stats[1] = 1 and returns 0 (a meaningless value).
    """
    width = order.shape[0]
    depth_max = cells - n0 + 2
    P = np.empty(depth_max, np.uint64)
    M = np.empty(depth_max, np.uint64)
    KEY = np.empty(depth_max, np.uint64)
    KSLOT = np.empty(depth_max, np.uint64)
    VSLOT = np.empty(depth_max, np.uint64)
    A = np.empty(depth_max, np.int64)
    B = np.empty(depth_max, np.int64)
    CNT = np.empty(depth_max, np.int64)
    MV = np.empty((depth_max, width), np.uint64)
    CK = np.empty((depth_max, width), np.uint64)
    CKS = np.empty((depth_max, width), np.uint64)
    CVS = np.empty((depth_max, width), np.uint64)
    SC = np.empty(width, np.int64)
    min_score = -(cells // 2)
    max_score = (cells + 1) // 2
    lower_offset = max_score - 2 * min_score + 2
    upper_limit = max_score - min_score + 1
    nodes = stats[0]

    d = 0
    P[0] = p0
    M[0] = mask0
    KEY[0] = p0 + mask0
    KSLOT[0], VSLOT[0] = table_slots(KEY[0] % size, kmask)
    A[0] = alpha0
    B[0] = beta0
    r = 0
    state = 0  # 0: enter node d, 1: return r from node d, 2: play the next move of node d
    while True:
        if state == 0:
            nodes += 1
            if nodes > budget:
                stats[0] = nodes
                stats[1] = 1
                return 0
            p = P[d]
            mask = M[d]
            n = n0 + d
            possible = non_losing_moves(p, mask, bottom, board, h, k)
            if possible == ZERO:
                r = -((cells - n) // 2)
                state = 1
                continue
            if n >= cells - 2:
                r = 0
                state = 1
                continue
            alpha = A[d]
            beta = B[d]
            lo = -((cells - 2 - n) // 2)
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    r = alpha
                    state = 1
                    continue
            hi = (cells - 1 - n) // 2
            if beta > hi:
                beta = hi
                if alpha >= beta:
                    r = beta
                    state = 1
                    continue
            key = KEY[d]
            kslot = KSLOT[d]
            vslot = VSLOT[d]
            if np.uint64(keys[kslot]) == (key & kmask):
                val = np.int64(vals[vslot])
                if val != 0:
                    if val > upper_limit:
                        lo = val - lower_offset
                        if alpha < lo:
                            alpha = lo
                            if alpha >= beta:
                                r = alpha
                                state = 1
                                continue
                    else:
                        hi = val + min_score - 1
                        if beta > hi:
                            beta = hi
                            if alpha >= beta:
                                r = beta
                                state = 1
                                continue
            A[d] = alpha
            B[d] = beta
            count = _sort_moves(p, mask, possible, board, h, k, order, colmask, MV[d], SC)
            CNT[d] = count
            for i in range(count):  # start loading the children's table entries now
                key = (p ^ mask) + (mask | MV[d, i])
                kslot, vslot = table_slots(key % size, kmask)
                prefetch(keys, kslot)
                CK[d, i] = key
                CKS[d, i] = kslot
                CVS[d, i] = vslot
            state = 2
        elif state == 1:
            if d == 0:
                break
            d -= 1
            score = -r
            if score >= B[d]:
                keys[KSLOT[d]] = KEY[d] & kmask
                vals[VSLOT[d]] = score + lower_offset
                r = score
            else:
                if score > A[d]:
                    A[d] = score
                state = 2
        else:
            c = CNT[d]
            if c > 0:
                c -= 1
                CNT[d] = c
                mask = M[d]
                p = P[d] ^ mask
                mask = mask | MV[d, c]
                P[d + 1] = p
                M[d + 1] = mask
                KEY[d + 1] = CK[d, c]
                KSLOT[d + 1] = CKS[d, c]
                VSLOT[d + 1] = CVS[d, c]
                A[d + 1] = -B[d]
                B[d + 1] = -A[d]
                d += 1
                state = 0
            else:
                keys[KSLOT[d]] = KEY[d] & kmask
                vals[VSLOT[d]] = A[d] - min_score + 1
                r = A[d]
                state = 1
    stats[0] = nodes
    return r


@njit(cache=True)
def solve(p, mask, n, weak, h, k, cells, bottom, board, order, colmask, keys, vals, kmask, size, stats, budget):
    """Score of a position by iterative null-window search (Pons' solve); weak narrows to -1..1."""
    if can_win_next(p, mask, bottom, board, h, k):
        return (cells + 1 - n) // 2
    lo = -((cells - n) // 2)
    hi = (cells + 1 - n) // 2
    if weak:
        lo = -1
        hi = 1
    while lo < hi:
        med = lo + (hi - lo) // 2
        half_lo = lo // 2 if lo >= 0 else -((-lo) // 2)
        half_hi = hi // 2 if hi >= 0 else -((-hi) // 2)
        if med <= 0 and half_lo < med:
            med = half_lo
        elif med >= 0 and half_hi > med:
            med = half_hi
        r = negamax(p, mask, n, med, med + 1, h, k, cells, bottom, board, order, colmask,
                    keys, vals, kmask, size, stats, budget)
        if stats[1] != 0:
            return 0
        if r <= med:
            hi = r
        else:
            lo = r
    return lo


@njit(cache=True)
def evaluate(p, mask, h, k, board):
    """Heuristic value for the side to move: its open winning cells minus the opponent's."""
    return popcount(winning_cells(p, mask, board, h, k)) - popcount(winning_cells(p ^ mask, mask, board, h, k))


@njit(cache=True)
def limited_search(p, mask, n, depth, alpha, beta, h, k, cells, bottom, board, order, colmask, stats, budget):
    """Depth-limited negamax with alpha-beta; proven results score +-(WIN_BASE + Pons score)."""
    stats[0] += 1
    if stats[0] > budget:
        stats[1] = 1
        return 0
    possible_all = (mask + bottom) & board
    if (winning_cells(p, mask, board, h, k) & possible_all) != ZERO:
        return WIN_BASE + (cells + 1 - n) // 2
    possible = non_losing_moves(p, mask, bottom, board, h, k)
    if possible == ZERO:
        if possible_all == ZERO:
            return 0
        return -(WIN_BASE + (cells - n) // 2)
    if n >= cells - 2:
        return 0
    if depth <= 0:
        return evaluate(p, mask, h, k, board)
    width = order.shape[0]
    moves = np.empty(width, np.uint64)
    scores = np.empty(width, np.int64)
    count = _sort_moves(p, mask, possible, board, h, k, order, colmask, moves, scores)
    best = -INF
    for i in range(count - 1, -1, -1):
        v = -limited_search(p ^ mask, mask | moves[i], n + 1, depth - 1, -beta, -alpha,
                            h, k, cells, bottom, board, order, colmask, stats, budget)
        if stats[1] != 0:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def replay(columns, width, h, k, bottom, board):
    """Play 0-based columns from the empty board: (pos, mask, status, move index).

    status 0: fine; 1: column out of range; 2: column full; 3: move after a win; 4: the last move won.
    The move index (0-based) names the offending move, or the winning one for status 4.
    """
    p = ZERO
    mask = ZERO
    won_at = -1
    for i in range(columns.shape[0]):
        c = columns[i]
        if c < 0 or c >= width:
            return p, mask, 1, i
        if won_at >= 0:
            return p, mask, 3, i
        column = ((ONE << np.uint64(h)) - ONE) << np.uint64(c * (h + 1))
        if (mask & column & (column ^ (column >> ONE))) != ZERO:
            return p, mask, 2, i
        cell = (mask + (bottom & column)) & column
        if (winning_cells(p, mask, board, h, k) & cell) != ZERO:
            won_at = i
        p = p ^ mask
        mask = mask | cell
    if won_at >= 0:
        return p, mask, 4, won_at
    return p, mask, 0, columns.shape[0]


@njit(cache=True)
def score_at_least(p, mask, n, target, h, k, cells, bottom, board, order, colmask, keys, vals, kmask, size,
                   stats, budget):
    """Whether the position scores >= target, by one null-window search (-1 if the budget ran out)."""
    if can_win_next(p, mask, bottom, board, h, k):
        return 1 if (cells + 1 - n) // 2 >= target else 0
    r = negamax(p, mask, n, target - 1, target, h, k, cells, bottom, board, order, colmask,
                keys, vals, kmask, size, stats, budget)
    if stats[1] != 0:
        return -1
    return 1 if r >= target else 0
