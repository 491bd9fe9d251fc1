"""The multi-word tiling kernel: any board, the occupancy in an array of 64-bit words.

Each option's mask is stored over the range of words it touches (``first_word`` to
``last_word``). The candidates of a column are positions in ``candidates`` (option
indices): for first-blank search the options anchored at the cell (``candidates`` is the
identity, ``anchor_start`` the ranges), for MRV the options covering a cell or piece
(``column_start``). It visits the same nodes as the one-word kernel, about 7x slower.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.search.tiling.kernel_common import (
    BASE,
    CAP,
    DEPTH,
    DONE,
    ENTER,
    FREE,
    ITER,
    MRV,
    NODES,
    ONE,
    PHASE,
    PRIMARY,
    SOLUTIONS,
    STORE,
    TARGET,
    ZERO,
    ORBITS,
    ctz,
    canonical_weight,
    record,
    subset_sums,
)


@njit(cache=True)
def _fits(masks, first_word, last_word, o, occ):
    """True when option o's mask misses the occupancy."""
    for w in range(first_word[o], last_word[o] + 1):
        if masks[o, w] & occ[w] != ZERO:
            return False
    return True


@njit(cache=True)
def _toggle(masks, first_word, last_word, o, occ):
    """Flip option o's cells in the occupancy (place or remove)."""
    for w in range(first_word[o], last_word[o] + 1):
        occ[w] ^= masks[o, w]


@njit(cache=True)
def _is_free(occ, c):
    """True when cell c is empty."""
    return (occ[c >> 6] >> np.uint64(c & 63)) & ONE == ZERO


@njit(cache=True)
def _first_free(occ):
    """Index of the first empty cell (the board is not full)."""
    for w in range(occ.shape[0]):
        x = ~occ[w]
        if x:
            return w * 64 + ctz(x)
    return -1


@njit(cache=True)
def _mrv_column(occ, rem, primary, masks, w0, w1, opt_piece, lst, grp, starts):
    """The column (cell, or piece with one copy left) with the fewest fitting options, and that number."""
    n = starts.shape[0] - rem.shape[0] - 1
    best = 1 << 62  # an int64 to numba, as every count here
    col = -1
    for w in range(occ.shape[0]):
        free = ~occ[w]
        while free:
            c = w * 64 + ctz(free)
            free &= free - ONE
            cnt = 0
            i = starts[c]
            e = starts[c + 1]
            while i < e:
                o = lst[i]
                if rem[opt_piece[o]] == 0:
                    i = grp[i]
                    continue
                if _fits(masks, w0, w1, o, occ):
                    cnt += 1
                    if cnt >= best:
                        break
                i += 1
            if cnt < best:
                best = cnt
                col = c
                if cnt <= 1:
                    return col, best
    if primary:
        for p in range(rem.shape[0]):
            if rem[p] != 1:
                continue
            cnt = 0
            for i in range(starts[n + p], starts[n + p + 1]):
                if _fits(masks, w0, w1, lst[i], occ):
                    cnt += 1
                    if cnt >= best:
                        break
            if cnt < best:
                best = cnt
                col = n + p
                if cnt <= 1:
                    break
    return col, best


@njit(cache=True)
def _dead(occ, o, cap, rem, sizes, opt_cells, nbr_list, mark, stamp, stack):
    """True when an empty region next to option o, of at most ``cap`` cells, cannot be filled."""
    reach = ZERO
    first = stamp[0] + 1  # marks >= first were set by this call
    for j in range(opt_cells.shape[1]):
        c0 = opt_cells[o, j]
        if c0 < 0:
            break
        for k in range(nbr_list.shape[1]):
            seed = nbr_list[c0, k]
            if seed < 0 or mark[seed] >= first or not _is_free(occ, seed):
                continue
            stamp[0] += 1
            mark[seed] = stamp[0]
            stack[0] = seed
            top = 1
            cnt = 0
            closed = True
            while top > 0:
                top -= 1
                c = stack[top]
                cnt += 1
                if cnt > cap:
                    closed = False
                    break
                for k2 in range(nbr_list.shape[1]):
                    nb = nbr_list[c, k2]
                    if nb >= 0 and mark[nb] != stamp[0] and _is_free(occ, nb):
                        mark[nb] = stamp[0]
                        stack[top] = nb
                        top += 1
            if closed:
                if reach == ZERO:
                    reach = subset_sums(rem, sizes)
                if (reach >> np.uint64(cnt)) & ONE == ZERO:
                    return True
    return False


@njit(cache=True)
def _count_fitting(occ, rem, masks, w0, w1, opt_piece, lst, b, e):
    """Number of candidates b:e that fit the occupancy with copies left."""
    total = 0
    for q in range(b, e):
        o = lst[q]
        if rem[opt_piece[o]] > 0 and _fits(masks, w0, w1, o, occ):
            total += 1
    return total


@njit(cache=True)
def _past_deadline(c, rem, deadline_piece, deadline_anchor):
    """True when a piece with copies left has no option anchored at or after cell c (first-blank search)."""
    for k in range(deadline_piece.shape[0]):
        if rem[deadline_piece[k]] > 0:
            return deadline_anchor[k] < c
    return False


@njit(cache=True)
def _enter_first_blank(occ, d, rem, anchor_start, deadline_piece, deadline_anchor, beg, pos, lim):
    """Set up depth d's candidates: the options anchored at the first blank cell; False when past a deadline."""
    c = _first_free(occ)
    if _past_deadline(c, rem, deadline_piece, deadline_anchor):
        return False
    beg[d] = anchor_start[c]
    lim[d] = anchor_start[c + 1]
    pos[d] = beg[d]
    return True


@njit(cache=True)
def _enter_mrv(occ, d, primary, rem, masks, w0, w1, opt_piece, lst, grp, starts, beg, pos, lim):
    """Set up depth d's candidates: the column with the fewest fitting options; False when it has none."""
    c, cnt = _mrv_column(occ, rem, primary, masks, w0, w1, opt_piece, lst, grp, starts)
    if cnt == 0:
        return False
    beg[d] = starts[c]
    lim[d] = starts[c + 1]
    pos[d] = beg[d]
    return True


@njit(cache=True, nogil=True)
def run(t, s, node_limit):
    """Multi-word twin of the one-word kernel's `run`; the occupancy is updated in place."""
    masks, w0, w1, opt_piece = t.option_masks, t.first_word, t.last_word, t.option_piece
    lst, grp, sizes = t.candidates, t.run_end, t.piece_size
    st, occ, rem, pos, lim, chosen, wt = s.scalars, s.occupancy, s.copies_left, s.pos, s.lim, s.chosen, s.weight
    beg, anchor_start, deadline_piece, deadline_anchor = s.beg, t.anchor_start, t.deadline_piece, t.deadline_anchor
    starts, opt_cells, nbr_list = t.column_start, t.option_cells, t.neighbour_list
    out, out_len, out_w = s.out, s.out_len, s.out_weight
    d = st[DEPTH]
    base = st[BASE]
    nodes = st[NODES]
    sols = st[SOLUTIONS]
    store = st[STORE] != 0
    target = st[TARGET]
    cap = st[CAP]
    mrv = st[MRV] != 0
    primary = st[PRIMARY] != 0
    nfree = st[FREE]
    n = t.neighbour_list.shape[0]
    key = np.empty(n, np.int64)
    image = np.empty(n, np.int64)
    mark = np.zeros(n, np.int64)
    stamp = np.zeros(1, np.int64)
    stack = np.empty(n, np.int64)
    canon = t.symmetries.shape[0] > 1
    orbits = st[ORBITS] != 0
    nout = 0
    room = out.shape[0]
    if st[PHASE] == ENTER:
        st[PHASE] = DONE
        if nfree == 0 or d == target:
            if target >= 0:
                record(out, out_len, out_w, 0, chosen, d, wt[d])
                nout = 1
            else:
                w = (
                    canonical_weight(chosen, d, t.option_cells, opt_piece, t.symmetries, key, image, orbits)
                    if canon
                    else 1
                )
                st[SOLUTIONS] += w
                if store and w:
                    record(out, out_len, out_w, 0, chosen, d, 1.0)
                    nout = 1
            return nout
        if mrv:
            alive = _enter_mrv(occ, d, primary, rem, masks, w0, w1, opt_piece, lst, grp, starts, beg, pos, lim)
        else:
            alive = _enter_first_blank(occ, d, rem, anchor_start, deadline_piece, deadline_anchor, beg, pos, lim)
        if not alive:
            return 0
        if target >= 0:
            wt[d + 1] = wt[d] / max(_count_fitting(occ, rem, masks, w0, w1, opt_piece, lst, beg[d], lim[d]), 1)
        st[PHASE] = ITER
    elif st[PHASE] == DONE:
        return 0
    while True:
        i = pos[d]
        e = lim[d]
        found = -1
        while i < e:
            o = lst[i]
            if rem[opt_piece[o]] == 0:
                i = grp[i]
                continue
            i += 1
            if _fits(masks, w0, w1, o, occ):
                found = o
                break
        pos[d] = i
        if found < 0:
            if d == base:
                st[PHASE] = DONE
                break
            d -= 1
            o = chosen[d]
            _toggle(masks, w0, w1, o, occ)
            rem[opt_piece[o]] += 1
            nfree += sizes[opt_piece[o]]
            continue
        p = opt_piece[found]
        _toggle(masks, w0, w1, found, occ)
        rem[p] -= 1
        nfree -= sizes[p]
        nodes += 1
        chosen[d] = found
        if nfree == 0 or d + 1 == target:
            if target >= 0:
                record(out, out_len, out_w, nout, chosen, d + 1, wt[d + 1])
                nout += 1
            else:
                w = (
                    canonical_weight(chosen, d + 1, t.option_cells, opt_piece, t.symmetries, key, image, orbits)
                    if canon
                    else 1
                )
                sols += w
                if store and w:
                    record(out, out_len, out_w, nout, chosen, d + 1, 1.0)
                    nout += 1
            _toggle(masks, w0, w1, found, occ)
            rem[p] += 1
            nfree += sizes[p]
            if nout > 0 and nout == room:
                break
            continue
        if cap > 0 and _dead(occ, found, cap, rem, sizes, opt_cells, nbr_list, mark, stamp, stack):
            dead = True
        elif mrv:
            dead = not _enter_mrv(occ, d + 1, primary, rem, masks, w0, w1, opt_piece, lst, grp, starts, beg, pos, lim)
        else:
            dead = not _enter_first_blank(occ, d + 1, rem, anchor_start, deadline_piece, deadline_anchor, beg, pos, lim)
        if dead:
            _toggle(masks, w0, w1, found, occ)
            rem[p] += 1
            nfree += sizes[p]
            continue
        d += 1
        if target >= 0:
            wt[d + 1] = wt[d] / max(_count_fitting(occ, rem, masks, w0, w1, opt_piece, lst, beg[d], lim[d]), 1)
        if nodes >= node_limit:
            break
    st[DEPTH] = d
    st[NODES] = nodes
    st[SOLUTIONS] = sols
    st[FREE] = nfree
    return nout


@njit(cache=True)
def fraction(t, s, start_occupancy, start_copies):
    """Knuth's estimate of the share of the tree already explored, from the stack."""
    st = s.scalars
    d = st[DEPTH]
    base = st[BASE]
    phase = st[PHASE]
    if phase == DONE:
        return 1.0
    if phase == ENTER:
        return 0.0
    occ = start_occupancy.copy()
    rem = start_copies.copy()
    frac = 0.0
    scale = 1.0
    for i in range(base, d + 1):
        total = 0
        before = 0
        for q in range(s.beg[i], s.lim[i]):
            o = t.candidates[q]
            if rem[t.option_piece[o]] > 0 and _fits(t.option_masks, t.first_word, t.last_word, o, occ):
                total += 1
                if q < s.pos[i]:
                    before += 1
        if i < d:
            before -= 1
        if total > 0:
            frac += scale * max(before, 0) / total
            scale /= total
        if i < d:
            o = s.chosen[i]
            _toggle(t.option_masks, t.first_word, t.last_word, o, occ)
            rem[t.option_piece[o]] -= 1
    return min(frac, 1.0)
