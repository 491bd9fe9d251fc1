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
def has_line(x, h, k):
    """Whether the cells x contain k in a row in some direction."""
    for s in (ONE, np.uint64(h), np.uint64(h + 1), np.uint64(h + 2)):
        if k == 4:
            m = x & (x >> s)
            if (m & (m >> (s + s))) != ZERO:
                return True
        else:
            y = x
            for i in range(1, k):
                y &= x >> (s * np.uint64(i))
            if y != ZERO:
                return True
    return False


@njit(cache=True)
def mirror(x, w, h):
    """The bitboard x reflected left to right."""
    col = (ONE << np.uint64(h + 1)) - ONE
    r = ZERO
    for c in range(w):
        r |= ((x >> np.uint64(c * (h + 1))) & col) << np.uint64((w - 1 - c) * (h + 1))
    return r


@njit(cache=True)
def column_of(cell, h):
    """Column index of a single-bit cell."""
    return np.int64(popcount(cell - ONE)) // (h + 1)


# Table entries: one uint64 (8 per 64-byte bucket) holding the key's low 32 bits above 32 data bits, or two uint64
# (4 per bucket: the whole key, then the data) when the key is too long for the low 32 bits plus the bucket index to
# determine it. Data: lower bound + 64 (bits 0-6), upper bound + 64 (7-13), best column (14-17, 15: none),
# generation (18-26; 0 never matches), log2 of the subtree's size (27-31, capped at 31).
NO_LOWER = -60
NO_UPPER = 60
GENERATIONS = 511
NO_MOVE = 15
BUCKET_WORDS = int(__import__('os').environ.get('C4_BW', '8'))
LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True)
def tt_find(table, base, wide, skey, gen):
    """Data of the current-generation entry for skey in the bucket at base (0 if none)."""
    g = np.uint64(gen)
    if wide:
        for i in range(0, BUCKET_WORDS, 2):
            data = table[base + i + 1] & LOW32
            if table[base + i] == skey and (data >> np.uint64(18)) & np.uint64(511) == g:
                return data
    else:
        check = skey & LOW32
        for i in range(BUCKET_WORDS):
            e = table[base + i]
            if (e >> np.uint64(32)) == check and (e >> np.uint64(18)) & np.uint64(511) == g:
                return e & LOW32
    return ZERO


@njit(cache=True)
def tt_store(table, base, wide, skey, gen, lower, upper, move, work):
    """Record bounds and best column for skey: merged into its entry, else in the bucket's least valuable slot.

    Entries of older generations count as empty (the first is taken), so a table after reset() behaves exactly
    like a fresh one.
    """
    step = 2 if wide else 1
    check = skey & LOW32
    slot = -1
    worst = 1 << 30
    for i in range(0, BUCKET_WORDS, step):
        if wide:
            same = table[base + i] == skey
            data = table[base + i + 1] & LOW32
        else:
            e = table[base + i]
            same = (e >> np.uint64(32)) == check
            data = e & LOW32
        if np.int64((data >> np.uint64(18)) & np.uint64(511)) != gen:
            if worst >= 0:
                worst = -1
                slot = i
            continue
        if same:  # keep what the entry knew
            slot = i
            lower = max(lower, np.int64(data & np.uint64(127)) - 64)
            upper = min(upper, np.int64((data >> np.uint64(7)) & np.uint64(127)) - 64)
            if move == NO_MOVE:
                move = np.int64((data >> np.uint64(14)) & np.uint64(15))
            work = max(work, np.int64(data >> np.uint64(27)))
            break
        value = np.int64(data >> np.uint64(27))
        if value < worst:
            worst = value
            slot = i
    data = (np.uint64(lower + 64) | (np.uint64(upper + 64) << np.uint64(7)) | (np.uint64(move) << np.uint64(14))
            | (np.uint64(gen) << np.uint64(18)) | (np.uint64(min(work, 31)) << np.uint64(27)))
    if wide:
        table[base + slot] = skey
        table[base + slot + 1] = data
    else:
        table[base + slot] = (check << np.uint64(32)) | data


@njit(cache=True)
def bit_length(x):
    """Number of bits of a non-negative int64."""
    n = 0
    while x > 0:
        x >>= 1
        n += 1
    return n


# Frame fields. FU (uint64): stones to move, all stones, their mirrors, symmetric key. FI (int64): alpha, beta,
# moves left, flags (1: forced, 2: key mirrored), nodes at entry, best column, bucket base (-1: not computed).
U_P, U_M, U_PM, U_MM, U_KEY = 0, 1, 2, 3, 4
I_A, I_B, I_CNT, I_FLAGS, I_NODES, I_BEST, I_BASE = 0, 1, 2, 3, 4, 5, 6
F_FORCED, F_MIRRORED = 1, 2
# Search state (int64 array): phase (0: pick a window, 1: searching, 2: done), lo, hi, window, depth, value,
# step (0: enter, 1: return, 2: next move), nodes, score.
S_PHASE, S_LO, S_HI, S_MED, S_D, S_R, S_STEP, S_NODES, S_SCORE = 0, 1, 2, 3, 4, 5, 6, 7, 8
STATE_SIZE = 12
CLAIMEVEN = int(__import__('os').environ.get('C4_CE', '1'))
ORDER = int(__import__('os').environ.get('C4_ORD', '1'))
ETC_MIN_EMPTY = int(__import__('os').environ.get('C4_ETC', '16'))  # probe the children's entries for a cutoff at nodes with at least this many empty cells


@njit(cache=True)
def bucket_of(skey, nbuckets):
    """First word of the bucket of skey."""
    return np.int64(skey % np.uint64(nbuckets)) * BUCKET_WORDS


@njit(cache=True)
def start_search(st, FU, FI, p, mask, w, h, lo, hi):
    """Set up a search of the position (p, mask) for its exact score within [lo, hi] (null-window bisection)."""
    st[:] = 0
    st[S_LO] = lo
    st[S_HI] = hi
    FU[0, U_P] = p
    FU[0, U_M] = mask
    FU[0, U_PM] = mirror(p, w, h)
    FU[0, U_MM] = mirror(mask, w, h)
    FI[0, I_BASE] = -1


@njit(cache=True)
def run_search(st, FU, FI, MV, MC, CK, CB, SC, n0, h, k, cells, bottom, board, order, colmask,
               table, nbuckets, wide, gen, budget, fresh, p0, mask0, lo0, hi0, lower_rows):
    """Advance a search by at most `budget` positions (fresh: start one of p0, mask0 within [lo0, hi0]); 1 if paused.

    Scores follow Pons' convention. The position must not be won at once by the side to move. Each null-window
    step is a negamax with alpha-beta on an explicit stack, so a paused search resumes where it stopped.
    """
    w = order.shape[0]
    if fresh:
        start_search(st, FU, FI, p0, mask0, w, h, lo0, hi0)
    nodes = st[S_NODES]
    limit = nodes + budget
    d = st[S_D]
    r = st[S_R]
    step = st[S_STEP]
    while True:
        if st[S_PHASE] == 0:
            lo = st[S_LO]
            hi = st[S_HI]
            if lo >= hi:
                st[S_PHASE] = 2
                st[S_SCORE] = lo
                st[S_NODES] = nodes
                return 0
            med = lo + (hi - lo) // 2
            half_lo = lo // 2 if lo >= 0 else -((-lo) // 2)
            half_hi = hi // 2 if hi >= 0 else -((-hi) // 2)
            if med <= 0 and half_lo < med:
                med = half_lo
            elif med >= 0 and half_hi > med:
                med = half_hi
            st[S_MED] = med
            st[S_PHASE] = 1
            d = 0
            step = 0
            FI[0, I_A] = med
            FI[0, I_B] = med + 1
        if step == 0:  # enter the node at depth d
            if nodes >= limit:
                st[S_D] = d
                st[S_R] = r
                st[S_STEP] = step
                st[S_NODES] = nodes
                return 1
            nodes += 1
            p = FU[d, U_P]
            mask = FU[d, U_M]
            n = n0 + d
            opp = p ^ mask
            possible = (mask + bottom) & board
            opp_win = winning_cells(opp, mask, board, h, k)
            forced = possible & opp_win
            if forced != ZERO:
                if (forced & (forced - ONE)) != ZERO:
                    r = -((cells - n) // 2)  # two threats to block
                    step = 1
                    continue
                moves = forced & ~(opp_win >> ONE)
            else:
                moves = possible & ~(opp_win >> ONE)
            if moves == ZERO:
                r = -((cells - n) // 2)  # every move lets the opponent win
                step = 1
                continue
            if n >= cells - 2:
                r = 0
                step = 1
                continue
            alpha = FI[d, I_A]
            beta = FI[d, I_B]
            lo = -((cells - 2 - n) // 2)
            hi = (cells - 1 - n) // 2
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    r = alpha
                    step = 1
                    continue
            if beta > hi:
                beta = hi
                if alpha >= beta:
                    r = beta
                    step = 1
                    continue
            # static bounds, computed only when they could end the search here: a side that can no longer line up
            # k cells scores at most a draw
            empty = board & ~mask
            if alpha >= 0 and not has_line(p | empty, h, k):
                r = 0
                step = 1
                continue
            if beta <= 0 and not has_line(opp | empty, h, k):
                r = 0
                step = 1
                continue
            if alpha >= -1 and (possible & ~lower_rows) == ZERO:
                # every column has an even number of empty cells: by always answering in the same column the
                # opponent gets the upper cell of each pair (Allis' claimeven), so the side to move only ever
                # holds the lower ones; then it cannot win, and it loses if the opponent lines up in the upper ones
                if not has_line(p | (empty & lower_rows), h, k):
                    if alpha >= 0:
                        r = 0
                        step = 1
                        continue
                    if has_line(opp | (empty & ~lower_rows), h, k):
                        r = -1
                        step = 1
                        continue
            FI[d, I_NODES] = nodes
            if (moves & (moves - ONE)) == ZERO:  # a single move: play it without the table
                FI[d, I_FLAGS] = F_FORCED
                FI[d, I_A] = alpha
                FI[d, I_B] = beta
                FI[d, I_CNT] = 1
                FI[d, I_BEST] = NO_MOVE
                MV[d, 0] = moves
                MC[d, 0] = -1
                step = 2
                continue
            base = FI[d, I_BASE]
            if base < 0:
                key = p + mask
                mkey = FU[d, U_PM] + FU[d, U_MM]
                flags = 0
                if mkey < key:
                    key = mkey
                    flags = F_MIRRORED
                FU[d, U_KEY] = key
                FI[d, I_FLAGS] = flags
                base = bucket_of(key, nbuckets)
                FI[d, I_BASE] = base
            skey = FU[d, U_KEY]
            mirrored = FI[d, I_FLAGS] == F_MIRRORED
            data = tt_find(table, base, wide, skey, gen)
            tt_col = -1
            if data != ZERO:
                t_lo = np.int64(data & np.uint64(127)) - 64
                t_hi = np.int64((data >> np.uint64(7)) & np.uint64(127)) - 64
                if t_lo > alpha:
                    alpha = t_lo
                    if alpha >= beta:
                        r = alpha
                        step = 1
                        continue
                if t_hi < beta:
                    beta = t_hi
                    if alpha >= beta:
                        r = beta
                        step = 1
                        continue
                tt_col = np.int64((data >> np.uint64(14)) & np.uint64(15))
                if tt_col == NO_MOVE:
                    tt_col = -1
                elif mirrored:
                    tt_col = w - 1 - tt_col
            FI[d, I_A] = alpha
            FI[d, I_B] = beta
            FI[d, I_BEST] = NO_MOVE
            # order the moves: most new winning cells last (searched first), the table's move above all
            own_win = winning_cells(p, mask, board, h, k) if ORDER & 4 else ZERO
            even_rows = lower_rows if h % 2 == 0 else board & ~lower_rows  # rows 1, 3, 5... counted from 1
            good_rows = even_rows if n % 2 == 0 else board & ~even_rows  # the mover's parity (zugzwang)
            count = 0
            for i in range(w - 1, -1, -1):
                c = order[i]
                mv = moves & colmask[c]
                if mv != ZERO:
                    mine = winning_cells(p | mv, mask, board, h, k)
                    if ORDER & 1:
                        mine &= ~(opp_win << ONE)
                    s = popcount(mine)
                    if ORDER & 2:
                        s *= 2
                        if (mine & (possible ^ mv | (mv << ONE)) & board) != ZERO:
                            s += 1
                    if ORDER & 4:
                        if ((mv << ONE) & own_win) != ZERO:
                            s -= 2
                    if ORDER & 16:
                        s = 2 * s + popcount(mine & good_rows)
                    if ORDER & 8:
                        s = s * 8 + 3 - abs(2 * c - (w - 1)) // 2
                    if c == tt_col:
                        s = 1000
                    j = count
                    count += 1
                    while j > 0 and SC[j - 1] > s:
                        MV[d, j] = MV[d, j - 1]
                        MC[d, j] = MC[d, j - 1]
                        SC[j] = SC[j - 1]
                        j -= 1
                    MV[d, j] = mv
                    MC[d, j] = c
                    SC[j] = s
            FI[d, I_CNT] = count
            # the children's table buckets: start loading them now, and near the root look for a cutoff there
            cp = opp
            cpm = FU[d, U_PM] ^ FU[d, U_MM]
            etc = cells - n >= ETC_MIN_EMPTY
            cut = False
            for i in range(count):
                mv = MV[d, i]
                c = MC[d, i]
                shift = (w - 1 - 2 * c) * (h + 1)
                mmv = mv << np.uint64(shift) if shift >= 0 else mv >> np.uint64(-shift)
                ckey = cp + (mask | mv)
                cmkey = cpm + (FU[d, U_MM] | mmv)
                if cmkey < ckey:
                    ckey = cmkey
                cbase = bucket_of(ckey, nbuckets)
                prefetch(table, cbase)
                CK[d, i] = ckey
                CB[d, i] = cbase
                if etc and not cut:
                    cdata = tt_find(table, cbase, wide, ckey, gen)
                    if cdata != ZERO:
                        c_hi = np.int64((cdata >> np.uint64(7)) & np.uint64(127)) - 64
                        if -c_hi >= beta:
                            cut = True
                            r = -c_hi
                            FI[d, I_BEST] = c
            if cut:
                col = FI[d, I_BEST]
                if mirrored:
                    col = w - 1 - col
                tt_store(table, base, wide, skey, gen, r, NO_UPPER, col, 0)
                step = 1
                continue
            step = 2
        elif step == 1:  # return r from the node at depth d
            if d == 0:
                if r <= st[S_MED]:
                    st[S_HI] = r
                else:
                    st[S_LO] = r
                st[S_PHASE] = 0
                continue
            d -= 1
            score = -r
            flags = FI[d, I_FLAGS]
            if score >= FI[d, I_B]:
                if flags != F_FORCED:
                    col = MC[d, FI[d, I_CNT]]
                    if flags == F_MIRRORED:
                        col = w - 1 - col
                    tt_store(table, FI[d, I_BASE], wide, FU[d, U_KEY], gen, score, NO_UPPER, col,
                             bit_length(nodes - FI[d, I_NODES]))
                r = score
            else:
                if score > FI[d, I_A]:
                    FI[d, I_A] = score
                step = 2
        else:  # play the next move of the node at depth d
            c = FI[d, I_CNT]
            if c > 0:
                c -= 1
                FI[d, I_CNT] = c
                mv = MV[d, c]
                mask = FU[d, U_M]
                FU[d + 1, U_P] = FU[d, U_P] ^ mask
                FU[d + 1, U_M] = mask | mv
                col = MC[d, c]
                if col < 0:
                    col = column_of(mv, h)
                    FI[d + 1, I_BASE] = -1
                else:
                    skey = CK[d, c]
                    FU[d + 1, U_KEY] = skey
                    FI[d + 1, I_BASE] = CB[d, c]
                    pkey = FU[d + 1, U_P] + FU[d + 1, U_M]
                    FI[d + 1, I_FLAGS] = 0 if skey == pkey else F_MIRRORED
                shift = (w - 1 - 2 * col) * (h + 1)
                mmv = mv << np.uint64(shift) if shift >= 0 else mv >> np.uint64(-shift)
                FU[d + 1, U_PM] = FU[d, U_PM] ^ FU[d, U_MM]
                FU[d + 1, U_MM] = FU[d, U_MM] | mmv
                FI[d + 1, I_A] = -FI[d, I_B]
                FI[d + 1, I_B] = -FI[d, I_A]
                d += 1
                step = 0
            else:
                r = FI[d, I_A]
                if FI[d, I_FLAGS] != F_FORCED:
                    tt_store(table, FI[d, I_BASE], wide, FU[d, U_KEY], gen, NO_LOWER, r, NO_MOVE,
                             bit_length(nodes - FI[d, I_NODES]))
                step = 1


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
def new_generation(gen_box, table):
    """Forget the table in O(1): entries of older generations no longer match (a real clear every 511 calls)."""
    g = gen_box[0] + 1
    if g > GENERATIONS:
        table[:] = 0
        g = 1
    gen_box[0] = g


@njit(cache=True)
def solve_batch(ps, masks, ns, weak, reset, out, explored, st, FU, FI, MV, MC, CK, CB, SC, h, k, cells, bottom,
                board, order, colmask, table, nbuckets, wide, gen_box, lower_rows):
    """Score every position (ps[i], masks[i], ns[i]) into out[i] and its positions explored into explored[i]."""
    w = order.shape[0]
    for i in range(ps.shape[0]):
        if reset:
            new_generation(gen_box, table)
        p = ps[i]
        mask = masks[i]
        n = ns[i]
        if can_win_next(p, mask, bottom, board, h, k):
            out[i] = (cells + 1 - n) // 2
            explored[i] = 0
            continue
        lo = -((cells - n) // 2)
        hi = (cells + 1 - n) // 2
        if weak:
            lo = -1
            hi = 1
        run_search(st, FU, FI, MV, MC, CK, CB, SC, n, h, k, cells, bottom, board, order, colmask, table, nbuckets,
                   wide, gen_box[0], 1 << 62, True, p, mask, lo, hi, lower_rows)
        out[i] = st[S_SCORE]
        explored[i] = st[S_NODES]
