"""The one-word tiling kernel: boards of at most 64 cells, the occupancy in one uint64.

Bit i is cell i (in scan order); the unused high bits are preset to 1, so a full board
is all ones. Candidates are *entries* (`OneWordTables`): an option's mask, piece, index,
and the end of its run of one piece, so that a piece whose copies are all placed (its
bit set in ``used``) is skipped at once. First-blank search reads the *probe table*: the
entries anchored at the first blank cell that miss the occupancy of the ``probe_bits``
cells after it. The hot loop is hand-inlined: a numba call with many arguments costs
more than the work of a node.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.search.tiling.kernel_common import (
    ALL,
    BASE,
    CAP,
    DEPTH,
    DONE,
    ENTER,
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
def _mrv_column(occ, used, copies_left, primary, starts, e_mask, e_piece, e_run_end):
    """The column with the fewest fitting entries, and that number (Knuth's MRV; first column on ties).

    Columns ``0..n-1`` are the free cells; when ``primary`` (every copy must be used),
    column ``n + p`` is piece p while it has exactly one copy left.
    """
    n = starts.shape[0] - copies_left.shape[0] - 1
    free = ~occ
    best = 1 << 62  # an int64 to numba, as every count here
    col = -1
    while free:
        c = ctz(free)
        free &= free - ONE
        cnt = 0
        i = starts[c]
        e = starts[c + 1]
        while i < e:
            if (used >> e_piece[i]) & ONE:
                i = e_run_end[i]
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
        for p in range(copies_left.shape[0]):
            if copies_left[p] != 1:
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
def _count_fitting(occ, used, e_mask, e_piece, b, e):
    """Number of entries b:e that fit the occupancy with copies left."""
    total = 0
    for q in range(b, e):
        if not (used >> e_piece[q]) & ONE and e_mask[q] & occ == ZERO:
            total += 1
    return total


@njit(cache=True)
def _enter(occ, used, rem, primary, d, mrv, probe, starts, e_mask, e_piece, e_run_end, late, beg, pos, lim):
    """Set up depth d's candidate range for the next column; False when the node is dead.

    (Helpers take the arrays they use: a named tuple passed to a helper costs more than a node.)
    """
    if mrv:
        c, cnt = _mrv_column(occ, used, rem, primary, starts, e_mask, e_piece, e_run_end)
        if cnt == 0:
            return False
        beg[d] = starts[c]
        lim[d] = starts[c + 1]
    else:
        c = ctz(~occ)
        if late[c] & ~used:
            return False
        key = (c << probe) + np.int64(((occ >> np.uint64(c)) >> ONE) & ((ONE << np.uint64(probe)) - ONE))
        beg[d] = starts[key]
        lim[d] = starts[key + 1]
    pos[d] = beg[d]
    return True


@njit(cache=True, nogil=True)
def run(t, s, node_limit):
    """Advance the search until DONE, ``node_limit`` nodes, or a full output buffer; return the rows written.

    Candidate lists are entry ranges ``entry_start[k]:entry_start[k + 1]``: for first-blank
    search ``k = cell << probe_bits | occupancy of the probe cells after it``, for MRV
    ``k`` = the column. ``late[c]`` holds the pieces none of whose options is anchored at
    or after cell c (zeros unless every copy must be used).
    """
    starts, e_mask, e_piece, e_run_end, e_opt = (
        t.entry_start,
        t.entry_mask,
        t.entry_piece,
        t.entry_run_end,
        t.entry_option,
    )
    late, masks, opt_piece, border, nbr, sizes = (
        t.late,
        t.option_mask,
        t.option_piece,
        t.option_border,
        t.neighbours,
        t.piece_size,
    )
    st, rem, beg, pos, lim, chosen, wt = s.scalars, s.copies_left, s.beg, s.pos, s.lim, s.chosen, s.weight
    out, out_len, out_w = s.out, s.out_len, s.out_weight
    probe = t.probe_bits
    reach0 = t.region_sizes
    d = st[DEPTH]
    base = st[BASE]
    nodes = st[NODES]
    sols = st[SOLUTIONS]
    store = st[STORE] != 0
    target = st[TARGET]
    cap = st[CAP]
    mrv = st[MRV] != 0
    primary = st[PRIMARY] != 0
    occ = s.occupancy[0]
    pmask = (ONE << np.uint64(probe)) - ONE
    used = ZERO
    for p in range(rem.shape[0]):
        if rem[p] == 0:
            used |= ONE << np.uint64(p)
    n = nbr.shape[0]
    key = np.empty(n, np.int64)
    image = np.empty(n, np.int64)
    canon = t.symmetries.shape[0] > 1
    orbits = st[ORBITS] != 0
    nout = 0
    room = out.shape[0]
    # the starting state: a solution already, a part to record, or a first cell
    if st[PHASE] == ENTER:
        st[PHASE] = DONE
        if occ == ALL or d == target:
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
        if not _enter(occ, used, rem, primary, d, mrv, probe, starts, e_mask, e_piece, e_run_end, late, beg, pos, lim):
            return 0
        if target >= 0:
            wt[d + 1] = wt[d] / max(_count_fitting(occ, used, e_mask, e_piece, beg[d], lim[d]), 1)
        st[PHASE] = ITER
    elif st[PHASE] == DONE:
        return 0
    while True:
        i = pos[d]
        e = lim[d]
        found = -1
        while i < e:
            if (used >> e_piece[i]) & ONE:
                i = e_run_end[i]
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
            dead = True
        else:
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
                        c = ctz(frontier)
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
            # 2. the next column's candidates: the probe-table list of the first blank cell
            #    (dead when a piece that must still be placed has no anchor left), or MRV.
            if dead:
                pass
            elif mrv:
                dead = not _enter(
                    occ, used, rem, primary, d + 1, mrv, probe, starts, e_mask, e_piece, e_run_end, late, beg, pos, lim
                )
            else:
                c = ctz(~occ)
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
            wt[d + 1] = wt[d] / max(_count_fitting(occ, used, e_mask, e_piece, beg[d], lim[d]), 1)
        if nodes >= node_limit:
            break
    st[DEPTH] = d
    st[NODES] = nodes
    st[SOLUTIONS] = sols
    s.occupancy[0] = occ
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
    occ = start_occupancy
    rem = start_copies.copy()
    frac = 0.0
    scale = 1.0
    for i in range(base, d + 1):
        used = ZERO
        for p in range(rem.shape[0]):
            if rem[p] == 0:
                used |= ONE << np.uint64(p)
        total = 0
        before = 0
        for q in range(s.beg[i], s.lim[i]):
            if not (used >> t.entry_piece[q]) & ONE and t.entry_mask[q] & occ == ZERO:
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
            occ |= t.option_mask[o]
            rem[t.option_piece[o]] -= 1
    return min(frac, 1.0)


@njit(cache=True)
def _closed_misfit(o, occ, rem, cap, reach0, border, nbr, sizes):
    """The pruning test of `run` after placing option o (occupancy ``occ`` includes it): True when an empty region
    next to it, closed within ``cap`` cells, has a size no multiset of the remaining pieces fills."""
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
            c = ctz(frontier)
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
                return True
    return False


@njit(cache=True, nogil=True)
def estimate(t, occupancy, copies, roots, cap, paths, seed):  # pragma: no cover - compiled
    """Knuth's estimate of the nodes first-blank search (`run`, pruning with ``cap``) visits below each of the
    ``roots`` options placed first, summed: the mean over about ``paths`` random descents, the same number from
    each root (``paths`` is rounded up to a multiple of the roots); and the standard error of that mean.

    At each node every fitting candidate is a node of the tree; the descent goes on through a random one of
    those that survive the pruning and deadline tests, and the weights multiply by their number. No roots (no
    option covers the first cell) is an empty tree: (0.0, 0.0), without any descent.
    """
    if roots.shape[0] == 0:
        return 0.0, 0.0
    np.random.seed(seed)
    starts, e_mask, e_piece, e_opt = t.entry_start, t.entry_mask, t.entry_piece, t.entry_option
    late, masks, opt_piece, border, nbr, sizes = (
        t.late,
        t.option_mask,
        t.option_piece,
        t.option_border,
        t.neighbours,
        t.piece_size,
    )
    probe = t.probe_bits
    pmask = (ONE << np.uint64(probe)) - ONE
    reach0 = t.region_sizes
    alive = np.empty(starts.shape[0], dtype=np.int64)
    total = 0.0
    squares = 0.0
    each = max(1, -(-paths // roots.shape[0]))
    paths = each * roots.shape[0]
    for j in range(paths):
        rem = copies.copy()
        occ = occupancy
        root = roots[j // each]
        occ |= masks[root]
        rem[opt_piece[root]] -= 1
        used = ZERO
        for p in range(rem.shape[0]):
            if rem[p] == 0:
                used |= ONE << np.uint64(p)
        weight = float(roots.shape[0])
        nodes = 0.0
        while occ != ALL:
            c = ctz(~occ)
            if late[c] & ~used:
                break
            k = (c << probe) + np.int64(((occ >> np.uint64(c)) >> ONE) & pmask)
            fitting = 0
            survivors = 0
            for i in range(starts[k], starts[k + 1]):
                if (used >> e_piece[i]) & ONE or e_mask[i] & occ != ZERO:
                    continue
                fitting += 1
                o = e_opt[i]
                p = opt_piece[o]
                rem[p] -= 1
                if cap == 0 or not _closed_misfit(o, occ | e_mask[i], rem, cap, reach0, border, nbr, sizes):
                    alive[survivors] = i
                    survivors += 1
                rem[p] += 1
            nodes += weight * fitting
            if survivors == 0:
                break
            weight *= survivors
            i = alive[np.random.randint(survivors)]
            o = e_opt[i]
            p = opt_piece[o]
            occ |= e_mask[i]
            rem[p] -= 1
            if rem[p] == 0:
                used |= ONE << np.uint64(p)
        total += nodes
        squares += nodes * nodes
    mean = total / paths
    return mean, np.sqrt(max(squares / paths - mean * mean, 0.0) / paths)


@njit(cache=True, nogil=True)
def run_roots(t, s, roots, cursor, occupancy, copies, node_limit):  # pragma: no cover - compiled
    """`run` below each of the ``roots`` options in turn (from the occupancy and copies left given), adding up nodes
    and solutions in ``s``: when the search under one root is DONE, ``roots[cursor[0]]`` is placed next (depth 1)
    and ``cursor[0]`` advances. Returns after ``node_limit`` nodes (resume by calling again) or after the last root."""
    st = s.scalars
    while True:
        if st[PHASE] == DONE:
            k = cursor[0]
            if k >= roots.shape[0]:
                return
            o = roots[k]
            cursor[0] = k + 1
            s.copies_left[:] = copies
            s.copies_left[t.option_piece[o]] -= 1
            s.occupancy[0] = occupancy | t.option_mask[o]
            s.chosen[0] = o
            st[DEPTH] = 1
            st[BASE] = 1
            st[PHASE] = ENTER
        run(t, s, node_limit)
        if st[NODES] >= node_limit:
            return
