"""Numba kernels of the tiling engine: a resumable, iterative exact-cover search on bit masks.

Private module; `gridgames.search.tiling` compiles problems into the arrays used here
and drives the kernels. Two kernels share one design:

* `run_one_word`: boards of at most 64 cells, the occupancy in one uint64 (bit i = cell i,
  the unused high bits preset to 1 so a full board is all ones);
* `run_multi_word`: any board, the occupancy in an array of words; each option stores
  the range of words its mask touches.

The search state lives in numpy arrays owned by the caller, so a call can stop after a
node budget, or when the output buffer is full, and the next call continues exactly
where it stopped. The stack: for each depth ``d``, the candidates of the column being
covered (the first blank cell, or with MRV the most constrained cell or piece) are
positions ``beg[d]:lim[d]`` of a candidate list, ``pos[d]`` is the next position to try
and ``chosen[d]`` the option placed. Scalars live in ``st`` (see the slot names).

Phases: ENTER (the starting state, not yet examined: it may be a solution, a part to
record, or need its first column), ITER (searching: resume at depth ``d``), DONE (the
subtree under the starting state is exhausted). In split mode (``st[TARGET] >= 0``) the
kernel records the prefixes of length TARGET (and shorter solutions) with their weights
instead of descending further.

The hot paths are hand-inlined: a numba call with many array arguments costs more than
the work of a node.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

# slots of the int64 state array ``st``
DEPTH, BASE, PHASE, NODES, SOLUTIONS, STORE, TARGET, CAP, MRV, FREE, PRIMARY = range(11)
STATE_SIZE = 11
# phases
ENTER, ITER, BACK, DONE = 0, 1, 2, 3

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
ZERO = np.uint64(0)
ONE = np.uint64(1)


@njit(cache=True)
def _ctz(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return np.int64(trailing_zeros(x))


@njit(cache=True)
def subset_sums(rem, sizes):
    """Bit set (uint64) of the region sizes 0..63 that some multiset of the remaining pieces fills exactly."""
    reach = ONE
    for p in range(rem.shape[0]):
        s = sizes[p]
        if s > 63:
            continue
        for _ in range(rem[p]):
            grown = reach | (reach << np.uint64(s))
            if grown == reach:
                break
            reach = grown
    return reach


@njit(cache=True)
def is_canonical(chosen, d, opt_cells, opt_piece, perms, key, image):
    """True when the solution (options chosen[:d]) is the least of its images under the permutations."""
    n = key.shape[0]
    for i in range(d):
        o = chosen[i]
        code = opt_piece[o] * n + opt_cells[o, 0]
        for j in range(opt_cells.shape[1]):
            c = opt_cells[o, j]
            if c < 0:
                break
            key[c] = code
    for g in range(1, perms.shape[0]):
        for i in range(d):
            o = chosen[i]
            low = n
            for j in range(opt_cells.shape[1]):
                c = opt_cells[o, j]
                if c < 0:
                    break
                if perms[g, c] < low:
                    low = perms[g, c]
            code = opt_piece[o] * n + low
            for j in range(opt_cells.shape[1]):
                c = opt_cells[o, j]
                if c < 0:
                    break
                image[perms[g, c]] = code
        for c in range(n):
            if image[c] != key[c]:
                if image[c] < key[c]:
                    return False
                break
    return True


# ----------------------------------------------------------------------------- one word
#
# Candidates are "entries": e_mask (uint64 mask), e_piece (uint8 piece index), e_grp (end of the
# entry's run of one piece, to skip a used-up piece at once) and e_opt (the option index). A piece
# whose copies are all placed has its bit set in ``used`` (at most 64 pieces on this path).


@njit(cache=True)
def _mrv_cell_one(occ, used, rem, e_mask, e_piece, e_grp, starts, primary):
    """The column with the fewest fitting options, and that number (Knuth's MRV; first column on ties).

    Columns ``0..n-1`` are the free cells; when ``primary`` (every copy must be used),
    column ``n + p`` is piece p while it has exactly one copy left.
    """
    n = starts.shape[0] - rem.shape[0] - 1
    free = ~occ
    best = np.int64(1) << 62
    col = -1
    while free:
        c = _ctz(free)
        free &= free - ONE
        cnt = 0
        i = starts[c]
        e = starts[c + 1]
        while i < e:
            if (used >> e_piece[i]) & ONE:
                i = e_grp[i]
                continue
            if e_mask[i] & occ == ZERO:
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
                if e_mask[i] & occ == ZERO:
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
def _count_fitting_one(occ, used, e_mask, e_piece, b, e):
    """Number of entries b:e that fit the occupancy with copies left."""
    total = 0
    for q in range(b, e):
        if not (used >> e_piece[q]) & ONE and e_mask[q] & occ == ZERO:
            total += 1
    return total


@njit(cache=True)
def _enter_one(occ, used, rem, primary, d, mrv, probe, e_mask, e_piece, e_grp, starts, late, beg, pos, lim):
    """Set up depth d's candidate range for the next cell; False when the node is dead."""
    if mrv:
        c, cnt = _mrv_cell_one(occ, used, rem, e_mask, e_piece, e_grp, starts, primary)
        if cnt == 0:
            return False
        beg[d] = starts[c]
        lim[d] = starts[c + 1]
    else:
        c = _ctz(~occ)
        if late[c] & ~used:
            return False
        key = (c << probe) + np.int64(((occ >> np.uint64(c)) >> ONE) & ((ONE << np.uint64(probe)) - ONE))
        beg[d] = starts[key]
        lim[d] = starts[key + 1]
    pos[d] = beg[d]
    return True


@njit(cache=True)
def _record(out, out_len, out_w, nout, chosen, d, w):
    """Write chosen[:d] (and weight w) as output row nout."""
    out[nout, :d] = chosen[:d]
    out_len[nout] = d
    out_w[nout] = w


@njit(cache=True)
def run_one_word(
    e_mask, e_piece, e_grp, e_opt, starts, probe, late, masks, opt_piece, border, nbr, sizes, reach0, opt_cells, perms,
    st, occs, rem, beg, pos, lim, chosen, wt, out, out_len, out_w, node_limit,
):  # fmt: skip
    """Advance the search until DONE, ``node_limit`` nodes, or a full output buffer; return rows written.

    Candidate lists are entry ranges ``starts[k]:starts[k + 1]``: for first-blank search
    ``k = cell << probe | occupancy of the probe cells after it`` (the probe table),
    for ``mrv`` ``k = cell`` (all options covering the cell). ``late[c]`` holds the
    pieces none of whose options is anchored at or after cell c (zeros unless every
    copy must be used).
    """
    d = st[DEPTH]
    base = st[BASE]
    nodes = st[NODES]
    sols = st[SOLUTIONS]
    store = st[STORE] != 0
    target = st[TARGET]
    cap = st[CAP]
    mrv = st[MRV] != 0
    primary = st[PRIMARY] != 0
    occ = occs[0]
    pmask = (ONE << np.uint64(probe)) - ONE
    used = ZERO
    for p in range(rem.shape[0]):
        if rem[p] == 0:
            used |= ONE << np.uint64(p)
    n = nbr.shape[0]
    key = np.empty(n, np.int64)
    image = np.empty(n, np.int64)
    canon = perms.shape[0] > 1
    nout = 0
    room = out.shape[0]
    if st[PHASE] == ENTER:  # the starting state: a solution already, a part to record, or a first cell
        st[PHASE] = DONE
        if occ == ALL or d == target:
            if target >= 0:
                _record(out, out_len, out_w, 0, chosen, d, wt[d])
                nout = 1
            elif not canon or is_canonical(chosen, d, opt_cells, opt_piece, perms, key, image):
                st[SOLUTIONS] += 1
                if store:
                    _record(out, out_len, out_w, 0, chosen, d, 1.0)
                    nout = 1
            return nout
        if not _enter_one(occ, used, rem, primary, d, mrv, probe, e_mask, e_piece, e_grp, starts, late, beg, pos, lim):
            return 0
        if target >= 0:
            wt[d + 1] = wt[d] / max(_count_fitting_one(occ, used, e_mask, e_piece, beg[d], lim[d]), 1)
        st[PHASE] = ITER
    elif st[PHASE] == DONE:
        return 0
    while True:
        i = pos[d]
        e = lim[d]
        found = -1
        while i < e:
            if (used >> e_piece[i]) & ONE:
                i = e_grp[i]
                continue
            if e_mask[i] & occ == ZERO:
                found = i
                break
            i += 1
        if found < 0:  # depth d exhausted: undo the placement below it
            pos[d] = i
            if d == base:
                st[PHASE] = DONE
                break
            d -= 1
            o = chosen[d]
            occ ^= masks[o]
            p = opt_piece[o]
            if rem[p] == 0:
                used ^= ONE << np.uint64(p)
            rem[p] += 1
            continue
        pos[d] = found + 1
        m = e_mask[found]
        o = e_opt[found]
        p = opt_piece[o]
        occ |= m
        rem[p] -= 1
        if rem[p] == 0:
            used |= ONE << np.uint64(p)
        nodes += 1
        chosen[d] = o
        if occ == ALL or d + 1 == target:
            if target >= 0:
                _record(out, out_len, out_w, nout, chosen, d + 1, wt[d + 1])
                nout += 1
            elif not canon or is_canonical(chosen, d + 1, opt_cells, opt_piece, perms, key, image):
                sols += 1
                if store:
                    _record(out, out_len, out_w, nout, chosen, d + 1, 1.0)
                    nout += 1
            dead = True
        else:
            # Hand-inlined (numba calls with many array arguments are costly here):
            # 1. prune: flood-fill each empty region next to the placement, up to ``cap`` cells;
            #    a closed region whose size no multiset of the remaining pieces fills is dead.
            dead = False
            if cap > 0:
                free = ~occ
                todo = border[o] & free
                reach = reach0
                while todo:
                    seed = todo & (~todo + ONE)
                    region = seed
                    frontier = seed
                    cnt = 0
                    closed = True
                    while frontier:
                        c = _ctz(frontier)
                        frontier &= frontier - ONE
                        cnt += 1
                        if cnt > cap:
                            closed = False
                            break
                        new = nbr[c] & free & ~region
                        region |= new
                        frontier |= new
                    todo &= ~region
                    if closed:
                        if reach == ZERO:
                            reach = subset_sums(rem, sizes)
                        if (reach >> np.uint64(cnt)) & ONE == ZERO:
                            dead = True
                            break
            # 2. the next cell's candidates: the probe-table entry of the first blank cell
            #    (dead when a piece that must still be placed has no anchor left), or MRV.
            if dead:
                pass
            elif mrv:
                dead = not _enter_one(occ, used, rem, primary, d + 1, mrv, probe, e_mask, e_piece, e_grp, starts, late, beg, pos, lim)
            else:
                c = _ctz(~occ)
                if late[c] & ~used:
                    dead = True
                else:
                    k = (c << probe) + np.int64(((occ >> np.uint64(c)) >> ONE) & pmask)
                    beg[d + 1] = pos[d + 1] = starts[k]
                    lim[d + 1] = starts[k + 1]
        if dead:
            occ ^= m
            if rem[p] == 0:
                used ^= ONE << np.uint64(p)
            rem[p] += 1
            if nout > 0 and nout == room:
                break
            continue
        d += 1
        if target >= 0:
            wt[d + 1] = wt[d] / max(_count_fitting_one(occ, used, e_mask, e_piece, beg[d], lim[d]), 1)
        if nodes >= node_limit:
            break
    st[DEPTH] = d
    st[NODES] = nodes
    st[SOLUTIONS] = sols
    occs[0] = occ
    return nout


@njit(cache=True)
def fraction_one_word(e_mask, e_piece, opt_piece, masks, st, occ0, rem0, chosen, beg, pos, lim):
    """Knuth's estimate of the share of the tree already explored, from the stack."""
    d = st[DEPTH]
    base = st[BASE]
    phase = st[PHASE]
    if phase == DONE:
        return 1.0
    if phase == ENTER:
        return 0.0
    occ = occ0
    rem = rem0.copy()
    frac = 0.0
    scale = 1.0
    for i in range(base, d + 1):
        used = ZERO
        for p in range(rem.shape[0]):
            if rem[p] == 0:
                used |= ONE << np.uint64(p)
        total = 0
        before = 0
        for q in range(beg[i], lim[i]):
            if not (used >> e_piece[q]) & ONE and e_mask[q] & occ == ZERO:
                total += 1
                if q < pos[i]:
                    before += 1
        if i < d:
            before -= 1
        if total > 0:
            frac += scale * max(before, 0) / total
            scale /= total
        if i < d:
            o = chosen[i]
            occ |= masks[o]
            rem[opt_piece[o]] -= 1
    return min(frac, 1.0)


# ----------------------------------------------------------------------------- many words


@njit(cache=True)
def _fits(masks, w0, w1, o, occ):
    """True when option o's mask misses the occupancy."""
    for w in range(w0[o], w1[o] + 1):
        if masks[o, w] & occ[w] != ZERO:
            return False
    return True


@njit(cache=True)
def _toggle(masks, w0, w1, o, occ):
    """Flip option o's cells in the occupancy (place or remove)."""
    for w in range(w0[o], w1[o] + 1):
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
            return w * 64 + _ctz(x)
    return -1


@njit(cache=True)
def _mrv_cell_multi(occ, masks, w0, w1, opt_piece, lst, grp, starts, rem, primary):
    """Multi-word twin of `_mrv_cell_one` (candidates ``lst[starts[k]:starts[k + 1]]``)."""
    n = starts.shape[0] - rem.shape[0] - 1
    best = np.int64(1) << 62
    col = -1
    for w in range(occ.shape[0]):
        free = ~occ[w]
        while free:
            c = w * 64 + _ctz(free)
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
def _dead_multi(occ, o, opt_cells, nbr_list, cap, rem, sizes, mark, stamp, stack):
    """True when an empty region next to option o, of at most ``cap`` cells, cannot be filled."""
    reach = ZERO
    first = stamp[0] + 1  # marks >= first were set by this call
    for j in range(opt_cells.shape[1]):
        c0 = opt_cells[o, j]
        if c0 < 0:
            break
        for k in range(nbr_list.shape[1]):
            s = nbr_list[c0, k]
            if s < 0 or mark[s] >= first or not _is_free(occ, s):
                continue
            stamp[0] += 1
            mark[s] = stamp[0]
            stack[0] = s
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
                    t = nbr_list[c, k2]
                    if t >= 0 and mark[t] != stamp[0] and _is_free(occ, t):
                        mark[t] = stamp[0]
                        stack[top] = t
                        top += 1
            if closed:
                if reach == ZERO:
                    reach = subset_sums(rem, sizes)
                if (reach >> np.uint64(cnt)) & ONE == ZERO:
                    return True
    return False


@njit(cache=True)
def _count_fitting_multi(occ, masks, w0, w1, opt_piece, lst, rem, b, e):
    """Number of candidates lst[b:e] that fit the occupancy with copies left."""
    total = 0
    for q in range(b, e):
        o = lst[q]
        if rem[opt_piece[o]] > 0 and _fits(masks, w0, w1, o, occ):
            total += 1
    return total


@njit(cache=True)
def _past_deadline(c, rem, dl_piece, dl_anchor):
    """True when a piece with copies left has no option anchored at or after cell c (first-blank search)."""
    for k in range(dl_piece.shape[0]):
        if rem[dl_piece[k]] > 0:
            return dl_anchor[k] < c
    return False


@njit(cache=True)
def _enter_multi(occ, d, mrv, primary, masks, w0, w1, opt_piece, anchor_start, lst, grp, starts, rem, dl_piece, dl_anchor, beg, pos, lim):
    """Set up depth d's candidate range for the next cell (or piece); False when the node is dead."""
    if mrv:
        c, cnt = _mrv_cell_multi(occ, masks, w0, w1, opt_piece, lst, grp, starts, rem, primary)
        if cnt == 0:
            return False
        beg[d] = starts[c]
        lim[d] = starts[c + 1]
    else:
        c = _first_free(occ)
        if _past_deadline(c, rem, dl_piece, dl_anchor):
            return False
        beg[d] = anchor_start[c]
        lim[d] = anchor_start[c + 1]
    pos[d] = beg[d]
    return True


@njit(cache=True)
def run_multi_word(
    masks, w0, w1, opt_piece, lst, grp, anchor_start, starts, dl_piece, dl_anchor,
    nbr_list, sizes, opt_cells, perms,
    st, occ, rem, beg, pos, lim, chosen, wt, out, out_len, out_w, node_limit,
):  # fmt: skip
    """Multi-word twin of `run_one_word` (``lst`` = identity for first-blank search); ``occ`` is updated in place."""
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
    n = nbr_list.shape[0]
    key = np.empty(n, np.int64)
    image = np.empty(n, np.int64)
    mark = np.zeros(n, np.int64)
    stamp = np.zeros(1, np.int64)
    stack = np.empty(n, np.int64)
    canon = perms.shape[0] > 1
    nout = 0
    room = out.shape[0]
    if st[PHASE] == ENTER:
        st[PHASE] = DONE
        if nfree == 0 or d == target:
            if target >= 0:
                out[0, :d] = chosen[:d]
                out_len[0] = d
                out_w[0] = wt[d]
                nout = 1
            elif not canon or is_canonical(chosen, d, opt_cells, opt_piece, perms, key, image):
                st[SOLUTIONS] += 1
                if store:
                    out[0, :d] = chosen[:d]
                    out_len[0] = d
                    nout = 1
            return nout
        if not _enter_multi(occ, d, mrv, primary, masks, w0, w1, opt_piece, anchor_start, lst, grp, starts, rem, dl_piece, dl_anchor, beg, pos, lim):
            return 0
        if target >= 0:
            wt[d + 1] = wt[d] / max(_count_fitting_multi(occ, masks, w0, w1, opt_piece, lst, rem, beg[d], lim[d]), 1)
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
                out[nout, : d + 1] = chosen[: d + 1]
                out_len[nout] = d + 1
                out_w[nout] = wt[d + 1]
                nout += 1
            elif not canon or is_canonical(chosen, d + 1, opt_cells, opt_piece, perms, key, image):
                sols += 1
                if store:
                    out[nout, : d + 1] = chosen[: d + 1]
                    out_len[nout] = d + 1
                    nout += 1
            _toggle(masks, w0, w1, found, occ)
            rem[p] += 1
            nfree += sizes[p]
            if nout > 0 and nout == room:
                break
            continue
        if (cap > 0 and _dead_multi(occ, found, opt_cells, nbr_list, cap, rem, sizes, mark, stamp, stack)) or not _enter_multi(
            occ, d + 1, mrv, primary, masks, w0, w1, opt_piece, anchor_start, lst, grp, starts, rem, dl_piece, dl_anchor, beg, pos, lim
        ):
            _toggle(masks, w0, w1, found, occ)
            rem[p] += 1
            nfree += sizes[p]
            continue
        d += 1
        if target >= 0:
            wt[d + 1] = wt[d] / max(_count_fitting_multi(occ, masks, w0, w1, opt_piece, lst, rem, beg[d], lim[d]), 1)
        if nodes >= node_limit:
            break
    st[DEPTH] = d
    st[NODES] = nodes
    st[SOLUTIONS] = sols
    st[FREE] = nfree
    return nout


@njit(cache=True)
def fraction_multi_word(masks, w0, w1, opt_piece, lst, st, occ0, rem0, chosen, beg, pos, lim):
    """Knuth's estimate of the share of the tree already explored, from the stack."""
    d = st[DEPTH]
    base = st[BASE]
    phase = st[PHASE]
    if phase == DONE:
        return 1.0
    if phase == ENTER:
        return 0.0
    occ = occ0.copy()
    rem = rem0.copy()
    frac = 0.0
    scale = 1.0
    for i in range(base, d + 1):
        total = 0
        before = 0
        for q in range(beg[i], lim[i]):
            o = lst[q]
            if rem[opt_piece[o]] > 0 and _fits(masks, w0, w1, o, occ):
                total += 1
                if q < pos[i]:
                    before += 1
        if i < d:
            before -= 1
        if total > 0:
            frac += scale * max(before, 0) / total
            scale /= total
        if i < d:
            o = chosen[i]
            _toggle(masks, w0, w1, o, occ)
            rem[opt_piece[o]] -= 1
    return min(frac, 1.0)
