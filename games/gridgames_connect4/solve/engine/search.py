"""The exact search of the Connect Four solver: a resumable null-window negamax on an explicit stack (numba).

Beyond Pascal Pons' search: a position and its mirror image share a table entry; the table keeps both bounds and
the best move; a node with a single non-losing move plays it without the table; static bounds end a search when
a side can no longer line up, and Allis' claimeven when it settles the position (the defender answers a move
right above it, and one on the lowest cell of a column with an odd number of empty cells with the lowest cell of
another such column; with an odd number of those columns the side to move plays any column first and then defends
the same way; the win it finds then is bounded by how late the pairing lets it complete its line: the opponent
leaves the column of the cell it needs last for last); Allis' zugzwang when it settles the position (with an odd
number of such columns the side not to move keeps one of them for a threat of its own on a cell at odd height over
its lowest, pairing the rest: the side to move loses once it runs out of other moves, unless it lines up in what it
is left; the side to move can do the same after one move); while the moves are ordered (by
the useful threats they create, more for those the opponent must answer soon, a move under one's own threat last,
the table's best move first) a move that wins with the side to move's next disc ends the search, and without one
the upper bound drops by one (Steininger's window tightening); near the root the children's table entries are
probed for a cutoff before any is searched (enhanced transposition cutoff). The search fails soft: a node whose
moves all fail low returns (and stores) the best bound its children returned rather than alpha, so the table and
the root's bisection get tighter bounds. The stack lives in arrays owned by the caller, so a search paused after a
budget of positions resumes where it stopped.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames_connect4.solve.engine.bits import (
    badd,
    band,
    bdec,
    beq,
    bit_index,
    blt,
    bor,
    bxor,
    is_zero,
    ld1,
    ld2,
    low64,
    popcount64,
    prefetch,
    shl,
    shr,
    st2,
)
from gridgames_connect4.solve.engine.layout import (  # noqa: F401 (the state layout, re-exported)
    FRAME_INTS,
    S_D,
    S_HI,
    S_LO,
    S_MED,
    S_NODES,
    S_PHASE,
    S_R,
    S_SCORE,
    S_STEP,
    STATE_SIZE,
    Batch,
    BookArrays,
    BoardConstants,
    SearchStep,
    Stack,
    Table,
)
from gridgames_connect4.solve.engine.board import can_win_next, column_of, mirror, mirror_cell, replay, winning_cells
from gridgames_connect4.solve.engine.static_rules import (
    NO_VALUE,
    rate_move,
    safe_moves,
    settle,
)
from gridgames_connect4.solve.engine.table import (
    NO_LOWER,
    NO_MOVE,
    NO_UPPER,
    bit_length,
    bucket_of,
    lower_of,
    move_of,
    next_generation,
    tt_find,
    tt_store,
    upper_of,
)

# Frame fields. FU (boards): stones to move, all stones, their mirrors, symmetric key. FI (int64): alpha, beta,
# moves left, flags (1: forced, 2: key mirrored), nodes at entry, best column, bucket base (-1: not computed), the
# best score a child has returned so far (NO_VALUE: none yet).
U_P, U_M, U_PM, U_MM, U_KEY = 0, 1, 2, 3, 4
I_A, I_B, I_CNT, I_FLAGS, I_NODES, I_BEST, I_BASE, I_V = 0, 1, 2, 3, 4, 5, 6, 7
F_FORCED, F_MIRRORED = 1, 2
NOT_IN_BOOK = 1000
# break ties by the cells' values (else the centre first) at nodes with this many
CELL_VALUE_MIN_EMPTY = 24
# probe the children's entries for a cutoff at nodes with at least this many empty cells
ETC_MIN_EMPTY = 16
# with searchers in parallel: nodes this close to the root are marked busy while searched
BUSY_PLIES = 20


@njit(cache=True)
def book_score(keys, scores, key):
    """The score stored for key in the sorted book keys (binary search), NOT_IN_BOOK if absent."""
    lo = 0
    hi = keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < keys.shape[0] and keys[lo] == key:
        return np.int64(scores[lo])
    return NOT_IN_BOOK


@njit(cache=True)
def busy_slot(key, nbusy):
    """The slot of key in busy marks of nbusy (a power of 2) slots: a multiplicative hash of its low word."""
    return np.int64((low64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - popcount64(np.uint64(nbusy - 1))))


@njit(cache=True)
def unmark(busy, key):
    """Clear key's busy mark (if another position has not taken its slot since)."""
    slot = busy_slot(key, busy.shape[0])
    if busy[slot] == low64(key):
        busy[slot] = 0


@njit(cache=True, inline="always")
def next_window(lo, hi):
    """The value v of the root's next null window [v, v + 1) while the score lies within [lo, hi] (bisection).

    Halfway, or nearer the draw: the value halfway to 0 from the farther end when that is nearer 0, and 0 first in a
    narrow window around the draw (the null windows next to the score cost the most; this saves one of them when the
    score is 0, +1 or +2).
    """
    med = lo + (hi - lo) // 2
    half_lo = lo // 2 if lo >= 0 else -((-lo) // 2)
    half_hi = hi // 2 if hi >= 0 else -((-hi) // 2)
    if lo < 0 < hi and hi - lo <= 5:
        med = 0
    elif med <= 0 and half_lo < med:
        med = half_lo
    elif med >= 0 and half_hi > med:
        med = half_hi
    return med


@njit(cache=True, inline="always")
def order_moves(
    sk, d, p, mask, moves, possible, opp_win, own_win, tt_col, skey, n, jitter, jmul, g, table, gens, nbuckets, minv
):
    """Rate the moves of the node at depth d and store them in search order in its frame; (count, wins_next).

    The frame's moves end up sorted by rating, the best last (searched first): the table's move above all, then by
    static_rules.rate_move (useful threats), the cells' values breaking ties near the root. Each child's symmetric key
    and bucket are stored too, and the bucket's load started (the probes that follow find it in the cache). Stops at a
    move that wins with the side to move's next disc (wins_next true; the frame is then incomplete).
    sk: a layout.Stack; g: a layout.BoardConstants; jitter, jmul: a parallel helper's tie-breaking (0: none).
    """
    MV, MC, CK, CB, SC = sk.moves, sk.move_columns, sk.child_keys, sk.child_buckets, sk.move_scores
    FU = sk.frames
    w, h, k, board, order, colmask = g.width, g.height, g.connect, g.full, g.order, g.column_masks
    opp = bxor(p, mask)
    useless = shl(opp_win, 1)
    own_under = shr(own_win, 1)  # cells under the side to move's threats
    cpm = bxor(ld2(FU, d, U_PM), ld2(FU, d, U_MM))  # the children's mirrored stones to move
    mm = ld2(FU, d, U_MM)
    count = 0
    for i in range(w - 1, -1, -1):
        c = order[i]
        mv = band(moves, ld1(colmask, c))
        if is_zero(mv):
            continue
        s, win2 = rate_move(p, mask, mv, possible, useless, own_under, board, h, k)
        if win2:
            return count, True
        if g.cells - n >= CELL_VALUE_MIN_EMPTY:
            s += g.cell_values[bit_index(mv)]
        # the child's key and bucket: start loading the bucket now (the probes that follow find it there)
        ckey = badd(opp, bor(mask, mv))
        cmkey = badd(cpm, bor(mm, mirror_cell(mv, c, w, h)))
        if blt(cmkey, ckey):
            ckey = cmkey
        cbase = bucket_of(ckey, nbuckets, minv)
        prefetch(table, cbase)
        prefetch(gens, cbase // 8)
        if c == tt_col:
            s = 1000000
        elif jitter != 0:  # a helper of a parallel search: break ties in its own pseudo-random way
            s = s * 8 + np.int64(
                ((low64(skey) + np.uint64(c + 1) * np.uint64(0x9E3779B97F4A7C15)) * jmul) >> np.uint64(61)
            )
        j = count  # insertion sort, ascending
        count += 1
        while j > 0 and SC[j - 1] > s:
            st2(MV, d, j, ld2(MV, d, j - 1))
            MC[d, j] = MC[d, j - 1]
            SC[j] = SC[j - 1]
            st2(CK, d, j, ld2(CK, d, j - 1))
            CB[d, j] = CB[d, j - 1]
            j -= 1
        st2(MV, d, j, mv)
        MC[d, j] = c
        SC[j] = s
        st2(CK, d, j, ckey)
        CB[d, j] = cbase
    return count, False


@njit(cache=True, inline="always")
def busy_last(sk, d, count, busy):
    """Move the node's children another searcher marked busy to the front of its frame (searched last), stably."""
    MV, MC, CK, CB = sk.moves, sk.move_columns, sk.child_keys, sk.child_buckets
    nbusy = busy.shape[0]
    front = 0
    for i in range(count):
        ck = ld2(CK, d, i)
        if busy[busy_slot(ck, nbusy)] == low64(ck):
            for j in range(i, front, -1):
                t = ld2(MV, d, j)
                st2(MV, d, j, ld2(MV, d, j - 1))
                st2(MV, d, j - 1, t)
                t = ld2(CK, d, j)
                st2(CK, d, j, ld2(CK, d, j - 1))
                st2(CK, d, j - 1, t)
                tc = MC[d, j]
                MC[d, j] = MC[d, j - 1]
                MC[d, j - 1] = tc
                tc = CB[d, j]
                CB[d, j] = CB[d, j - 1]
                CB[d, j - 1] = tc
            front += 1


# no allocation: also built ahead of time without numba's runtime
@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: private, not in numba's stubs
def start_search(st, FU, FI, p, mask, w, h, lo, hi):
    """Set up a search of the position (p, mask) for its exact score within [lo, hi] (null-window bisection)."""
    st[:] = 0
    st[S_LO] = lo
    st[S_HI] = hi
    st2(FU, 0, U_P, p)
    st2(FU, 0, U_M, mask)
    st2(FU, 0, U_PM, mirror(p, w, h))
    st2(FU, 0, U_MM, mirror(mask, w, h))
    FI[0, I_BASE] = -1


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: private, not in numba's stubs
def run_search(stack, geometry, tt, book, busy, job):
    """Advance a search by at most `job.budget` positions (a fresh job starts one); 1 if paused, else 0.

    stack, geometry, tt (the table), book, job: plain tuples laid out as layout's Stack, BoardConstants, Table,
    BookArrays and SearchStep.
    Scores follow Pons' convention. The position must not be won at once by the side to move. Each null-window
    step is a negamax with alpha-beta on an explicit stack, so a paused search resumes where it stopped.
    The cells' values (BoardConstants.cell_values) break ties between equally rated moves at nodes with at least
    CELL_VALUE_MIN_EMPTY empty cells (the centre column first below that).
    The book is probed at nodes within its depth (an empty one with depth -1 when there is none).
    busy: shared by searchers running in parallel (empty when alone; else a power of 2 of slots): a node within
    BUSY_PLIES of the root has its key in slot busy_slot(key) while its children are searched, and a child marked
    busy there is searched last, so parallel searchers take different subtrees first.
    """
    # one state machine, not one function per node kind: the explicit stack is what lets a search pause and resume,
    # and locals shared across its steps (the frame being searched) stay in registers; the rules it applies at a
    # node are the functions of `static_rules`
    sk = Stack(*stack)
    st, FU, FI, MV, MC = sk.state, sk.frames, sk.frame_ints, sk.moves, sk.move_columns
    CK, CB = sk.child_keys, sk.child_buckets
    g = BoardConstants(*geometry)
    w, h, k, cells, bottom, board = g.width, g.height, g.connect, g.cells, g.bottom, g.full
    colmask, lower_rows = g.column_masks, g.lower_rows
    tb = Table(*tt)
    table, gens, nbuckets, wide, gen = tb.entries, tb.generations, tb.buckets, tb.wide, tb.current[0]
    bk = BookArrays(*book)
    book_keys, book_scores, book_depth = bk.keys, bk.scores, bk.depth
    jb = SearchStep(*job)
    n0, budget, fresh, jitter = jb.plies, jb.budget, jb.fresh, jb.jitter
    nbusy = busy.shape[0]
    minv = np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64(nbuckets)
    jmul = (np.uint64(jitter) * np.uint64(0xBF58476D1CE4E5B9)) | np.uint64(1)
    if fresh:
        start_search(st, FU, FI, jb.stones, jb.mask, w, h, jb.lo, jb.hi)
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
            med = next_window(lo, hi)
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
            p = ld2(FU, d, U_P)
            mask = ld2(FU, d, U_M)
            n = n0 + d
            # the parent did not prefetch this node's bucket (a forced move): start it now
            if FI[d, I_BASE] < 0:
                key = badd(p, mask)
                mkey = badd(ld2(FU, d, U_PM), ld2(FU, d, U_MM))
                flags = 0
                if blt(mkey, key):
                    key = mkey
                    flags = F_MIRRORED
                st2(FU, d, U_KEY, key)
                FI[d, I_FLAGS] = flags
                base = bucket_of(key, nbuckets, minv)
                FI[d, I_BASE] = base
                prefetch(table, base)
                prefetch(gens, base // 8)
            opp = bxor(p, mask)
            possible = band(badd(mask, bottom), board)
            opp_win = winning_cells(opp, mask, board, h, k)
            moves = safe_moves(possible, opp_win)
            if is_zero(moves):
                r = -((cells - n) // 2)  # two threats to block, or every move lets the opponent win
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
            found, own_win, own_known = settle(
                p, opp, mask, possible, opp_win, alpha, beta, bottom, board, lower_rows, colmask, h, k
            )
            if found != NO_VALUE:
                r = found
                step = 1
                continue
            FI[d, I_NODES] = nodes
            if is_zero(band(moves, bdec(moves))):  # a single move: play it without the table
                FI[d, I_FLAGS] = F_FORCED
                FI[d, I_A] = alpha
                FI[d, I_B] = beta
                FI[d, I_V] = NO_VALUE
                FI[d, I_CNT] = 1
                FI[d, I_BEST] = NO_MOVE
                st2(MV, d, 0, moves)
                MC[d, 0] = -1
                step = 2
                continue
            base = FI[d, I_BASE]
            skey = ld2(FU, d, U_KEY)
            mirrored = FI[d, I_FLAGS] == F_MIRRORED
            # within the opening book's depth: its exact score, if it has the position
            if n <= book_depth:
                found = book_score(book_keys, book_scores, low64(skey))
                if found != NOT_IN_BOOK:
                    r = found
                    step = 1
                    continue
            data = tt_find(table, gens, base, wide, skey, gen)
            tt_col = -1
            if data != np.uint64(0):
                t_lo = lower_of(data)
                t_hi = upper_of(data)
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
                tt_col = move_of(data)
                if tt_col == NO_MOVE:
                    tt_col = -1
                elif mirrored:
                    tt_col = w - 1 - tt_col
            FI[d, I_A] = alpha
            FI[d, I_B] = beta
            FI[d, I_BEST] = NO_MOVE
            FI[d, I_V] = NO_VALUE
            if not own_known:
                own_win = winning_cells(p, mask, board, h, k)
            count, win2 = order_moves(
                sk,
                d,
                p,
                mask,
                moves,
                possible,
                opp_win,
                own_win,
                tt_col,
                skey,
                n,
                jitter,
                jmul,
                g,
                table,
                gens,
                nbuckets,
                minv,
            )
            if win2:  # mv wins with the side to move's next disc: the best score it can still have
                r = (cells - 1 - n) // 2
                step = 1
                continue
            FI[d, I_CNT] = count
            hi2 = (cells - 3 - n) // 2  # nobody wins before the side to move's disc after next
            if hi2 < beta:
                beta = hi2
                FI[d, I_B] = beta
                if alpha >= beta:
                    r = beta
                    step = 1
                    continue
            # near the root, look for a cutoff in the children's table entries (their buckets are on their way)
            etc = cells - n >= ETC_MIN_EMPTY
            cut = False
            if nbusy > 0 and d <= BUSY_PLIES:
                busy_last(sk, d, count, busy)
            if etc:  # probe once every child's bucket is on its way (the loads overlap)
                for i in range(count - 1, -1, -1):
                    cdata = tt_find(table, gens, CB[d, i], wide, ld2(CK, d, i), gen)
                    if cdata != np.uint64(0) and -upper_of(cdata) >= beta:
                        cut = True
                        r = -upper_of(cdata)
                        FI[d, I_BEST] = MC[d, i]
                        break
            if cut:
                col = FI[d, I_BEST]
                if mirrored:
                    col = w - 1 - col
                tt_store(table, gens, base, wide, skey, gen, r, NO_UPPER, col, 0)
                step = 1
                continue
            if nbusy > 0 and d <= BUSY_PLIES:
                busy[busy_slot(skey, nbusy)] = low64(skey)
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
                    tt_store(
                        table,
                        gens,
                        FI[d, I_BASE],
                        wide,
                        ld2(FU, d, U_KEY),
                        gen,
                        score,
                        NO_UPPER,
                        col,
                        bit_length(nodes - FI[d, I_NODES]),
                    )
                    if nbusy > 0 and d <= BUSY_PLIES:
                        unmark(busy, ld2(FU, d, U_KEY))
                r = score
            else:
                if score > FI[d, I_A]:
                    FI[d, I_A] = score
                if score > FI[d, I_V]:
                    FI[d, I_V] = score
                step = 2
        else:  # play the next move of the node at depth d
            c = FI[d, I_CNT]
            if c > 0:
                c -= 1
                FI[d, I_CNT] = c
                mv = ld2(MV, d, c)
                mask = ld2(FU, d, U_M)
                child_p = bxor(ld2(FU, d, U_P), mask)
                child_mask = bor(mask, mv)
                st2(FU, d + 1, U_P, child_p)
                st2(FU, d + 1, U_M, child_mask)
                col = MC[d, c]
                if col < 0:
                    col = column_of(mv, h)
                    FI[d + 1, I_BASE] = -1
                else:
                    skey = ld2(CK, d, c)
                    st2(FU, d + 1, U_KEY, skey)
                    FI[d + 1, I_BASE] = CB[d, c]
                    FI[d + 1, I_FLAGS] = 0 if beq(skey, badd(child_p, child_mask)) else F_MIRRORED
                mm = ld2(FU, d, U_MM)
                st2(FU, d + 1, U_PM, bxor(ld2(FU, d, U_PM), mm))
                st2(FU, d + 1, U_MM, bor(mm, mirror_cell(mv, col, w, h)))
                FI[d + 1, I_A] = -FI[d, I_B]
                FI[d + 1, I_B] = -FI[d, I_A]
                d += 1
                step = 0
            # every move failed low: the best of the children's bounds is the node's (fail-soft)
            else:
                r = FI[d, I_V]
                if FI[d, I_FLAGS] != F_FORCED:
                    tt_store(
                        table,
                        gens,
                        FI[d, I_BASE],
                        wide,
                        ld2(FU, d, U_KEY),
                        gen,
                        NO_LOWER,
                        r,
                        NO_MOVE,
                        bit_length(nodes - FI[d, I_NODES]),
                    )
                    if nbusy > 0 and d <= BUSY_PLIES:
                        unmark(busy, ld2(FU, d, U_KEY))
                step = 1


# no allocation: also built ahead of time without numba's runtime
@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: private, not in numba's stubs
def solve_moves(batch, stack, geometry, table, book, busy):
    """Replay and score every position i of the batch (layout.Batch; the rest as run_search takes them).

    Every position is replayed first: at the first bad one, its status gets the replay's status (see board.replay)
    and its out the index of the offending move, and nothing is searched. busy: no slots (one searcher).
    """
    b = Batch(*batch)
    cols, starts, out, explored, status = b.columns, b.starts, b.out, b.explored, b.status
    g = BoardConstants(*geometry)
    t = Table(*table)
    count = starts.shape[0] - 1
    for i in range(count):  # check every position before searching any
        p, mask, code, at = replay(cols, starts[i], starts[i + 1], g.width, g.height, g.connect, g.bottom, g.full)
        status[i] = code
        if code != 0:
            out[i] = at
            explored[i] = 0
            return
    st = Stack(*stack).state
    for i in range(count):
        p, mask, code, at = replay(cols, starts[i], starts[i + 1], g.width, g.height, g.connect, g.bottom, g.full)
        if b.reset:
            next_generation(t.current, t.generations)
        n = starts[i + 1] - starts[i]
        if can_win_next(p, mask, g.bottom, g.full, g.height, g.connect):
            out[i] = (g.cells + 1 - n) // 2
            explored[i] = 0
            continue
        lo = -((g.cells - n) // 2)
        hi = (g.cells + 1 - n) // 2
        if b.weak:
            lo = -1
            hi = 1
        run_search(stack, geometry, table, book, busy, (n, np.int64(1 << 62), True, p, mask, lo, hi, np.int64(0)))
        out[i] = st[S_SCORE]
        explored[i] = st[S_NODES]
