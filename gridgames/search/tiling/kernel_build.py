"""The compiled build of one-word tiling problems (at most 64 cells and 64 pieces): placements, option layout, tables.

`TilingProblem` builds its arrays here when the board fits one word: numpy's per-call costs (tens of calls,
a few microseconds each, and the temporaries of a broadcast layout) were most of a small board's build (3x20:
4.3 ms, of which placements 1.3, sorting and grouping 1.2, probe table and one-word arrays 1.3). Each function
gives exactly the arrays of the numpy construction (`problem._compile`, kept for larger problems), which the
build test compares with the one-placement-at-a-time reference.

* `place`: every translation of every orientation onto the board (a form's first cell onto each board cell).
* `layout`: the options sorted by (first cell, piece, cells), repeats dropped, with their masks, runs, anchors and
  the MRV columns (counting sorts: buckets of (anchor, piece) and of (column, piece); a bucket is at most
  `MAX_BUCKET` options, else the caller uses numpy).
* `probe_entries`: the probe table, each option written only into the windows it misses (the submasks of its
  free window bits), so the work is the table's size.
* `option_images`: each option's image under each board symmetry (the option of the same piece with the image mask).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gridgames.search.tiling.kernel_common import ONE, ZERO
from gridgames.search.tiling.kernel_types import SQUARE_MAPS  # noqa: F401 (the maps `square_symmetries` is given)

MAX_BUCKET = 256
"""Most options with one (first cell, piece) that `layout` sorts (by insertion); more: the numpy construction."""


@njit(cache=True)
def place(coords, low, extent, dense, forms, sizes, owners):  # pragma: no cover - compiled
    """Every placement of the forms (``forms[f, :sizes[f]]``: 2D cells, the first one the anchor) with the first
    cell on a board cell (``coords``, bit order) whose cells are all on the board (``dense``: the bounding box's
    cell indices, row-major, -1 off the board): the piece (``owners[f]``) and cell-index row (-1 padded) of each."""
    n = coords.shape[0]
    n_forms, width = forms.shape[0], forms.shape[1]
    height, across = extent[0], extent[1]
    rows = np.full((n_forms * n, width), -1, np.int64)
    piece = np.empty(n_forms * n, np.int64)
    k = 0
    for f in range(n_forms):
        for a in range(n):
            dr = coords[a, 0] - forms[f, 0, 0] - low[0]
            dc = coords[a, 1] - forms[f, 0, 1] - low[1]
            ok = True
            for j in range(sizes[f]):
                r = forms[f, j, 0] + dr
                c = forms[f, j, 1] + dc
                if r < 0 or r >= height or c < 0 or c >= across:
                    ok = False
                    break
                i = dense[r * across + c]
                if i < 0:
                    ok = False
                    break
                rows[k, j] = i
            if ok:
                piece[k] = owners[f]
                k += 1
            else:
                for j in range(width):
                    rows[k, j] = -1
    return piece[:k], rows[:k]


@njit(cache=True)
def _row_less(rows, a, b):  # pragma: no cover - compiled
    """Row a before row b as tuples (ascending cells, -1 padding first)."""
    for j in range(rows.shape[1]):
        if rows[a, j] != rows[b, j]:
            return rows[a, j] < rows[b, j]
    return False


@njit(cache=True)
def layout(piece_of, rows, n, n_pieces):  # pragma: no cover - compiled
    """The options (piece indices, cell rows -1 padded, any order, repeats allowed) laid out as `TilingProblem` holds
    them; ``ok`` False (and empty arrays) when a (first cell, piece) has over `MAX_BUCKET` options.

    Returns ok, option_piece, option_cell_rows, masks, run_end, anchor_start, column_start, column_options,
    column_run_end, last anchor of each piece (-1: none)."""
    m, width = rows.shape
    srt = np.empty((m, width), np.int64)
    size = 0
    for i in range(m):  # each row ascending, padding (-1) last
        k = 0
        for j in range(width):
            c = rows[i, j]
            if c >= 0:
                q = k
                while q > 0 and srt[i, q - 1] > c:
                    srt[i, q] = srt[i, q - 1]
                    q -= 1
                srt[i, q] = c
                k += 1
        for j in range(k, width):
            srt[i, j] = -1
        size = max(size, k)
    # counting sort by (first cell, piece), then insertion sort of each bucket by the cells
    buckets = n * n_pieces
    start = np.zeros(buckets + 1, np.int64)
    for i in range(m):
        start[srt[i, 0] * n_pieces + piece_of[i] + 1] += 1
    biggest = 0
    for b in range(buckets):
        biggest = max(biggest, start[b + 1])
        start[b + 1] += start[b]
    empty32 = np.zeros(0, np.int32)
    if biggest > MAX_BUCKET:
        return (
            False,
            empty32,
            np.zeros((0, 0), np.int32),
            np.zeros((0, 1), np.uint64),
            empty32,
            empty32,
            empty32,
            empty32,
            empty32,
            np.zeros(0, np.int64),
        )
    cursor = start[:-1].copy()
    order = np.empty(m, np.int64)
    for i in range(m):
        b = srt[i, 0] * n_pieces + piece_of[i]
        order[cursor[b]] = i
        cursor[b] += 1
    kept = np.empty(m, np.int64)
    n_opt = 0
    for b in range(buckets):
        lo, hi = start[b], start[b + 1]
        for i in range(lo + 1, hi):
            x = order[i]
            q = i
            while q > lo and _row_less(srt, x, order[q - 1]):
                order[q] = order[q - 1]
                q -= 1
            order[q] = x
        for i in range(lo, hi):  # repeats dropped (equal rows of one bucket are neighbours now)
            if i > lo:
                same = True
                for j in range(width):
                    if srt[order[i], j] != srt[order[i - 1], j]:
                        same = False
                        break
                if same:
                    continue
            kept[n_opt] = order[i]
            n_opt += 1
    option_piece = np.empty(n_opt, np.int32)
    cell_rows = np.empty((n_opt, size), np.int32)
    masks = np.zeros((n_opt, 1), np.uint64)
    run_end = np.empty(n_opt, np.int32)
    anchor_start = np.zeros(n + 1, np.int32)
    last = np.full(n_pieces, -1, np.int64)
    covering = np.zeros((n + n_pieces) * n_pieces + 1, np.int64)  # MRV buckets: (column, piece)
    for o in range(n_opt):
        i = kept[o]
        p = piece_of[i]
        option_piece[o] = p
        mask = ZERO
        for j in range(size):
            c = srt[i, j]
            cell_rows[o, j] = c
            if c >= 0:
                mask |= ONE << np.uint64(c)
                covering[c * n_pieces + p + 1] += 1
        covering[(n + p) * n_pieces + p + 1] += 1
        masks[o, 0] = mask
        a = srt[i, 0]
        anchor_start[a + 1] += 1
        last[p] = max(last[p], a)
    for c in range(n):
        anchor_start[c + 1] += anchor_start[c]
    end = n_opt
    for o in range(n_opt - 1, -1, -1):  # end of each (first cell, piece) run
        if o < n_opt - 1 and (cell_rows[o, 0] != cell_rows[o + 1, 0] or option_piece[o] != option_piece[o + 1]):
            end = o + 1
        run_end[o] = end
    for b in range(covering.shape[0] - 1):
        covering[b + 1] += covering[b]
    total = covering[-1]
    column_options = np.empty(total, np.int32)
    column_run_end = np.empty(total, np.int32)
    cursor = covering[:-1].copy()
    for o in range(n_opt):  # options in order within each (column, piece) bucket
        p = option_piece[o]
        for j in range(size):
            c = cell_rows[o, j]
            if c < 0:
                break
            b = c * n_pieces + p
            column_options[cursor[b]] = o
            column_run_end[cursor[b]] = covering[b + 1]
            cursor[b] += 1
        b = (n + p) * n_pieces + p
        column_options[cursor[b]] = o
        column_run_end[cursor[b]] = covering[b + 1]
        cursor[b] += 1
    column_start = np.empty(n + n_pieces + 1, np.int32)
    for k in range(n + n_pieces + 1):
        column_start[k] = covering[k * n_pieces]
    return (
        True,
        option_piece,
        cell_rows,
        masks,
        run_end,
        anchor_start,
        column_start,
        column_options,
        column_run_end,
        last,
    )


@njit(cache=True)
def _bounds(coords):  # pragma: no cover - compiled
    """The cells' bounding box: least row, least column, greatest row, greatest column."""
    r0, c0 = coords[0, 0], coords[0, 1]
    r1, c1 = r0, c0
    for i in range(coords.shape[0]):
        r0, r1 = min(r0, coords[i, 0]), max(r1, coords[i, 0])
        c0, c1 = min(c0, coords[i, 1]), max(c1, coords[i, 1])
    return r0, c0, r1, c1


@njit(cache=True)
def square_neighbours(coords):  # pragma: no cover - compiled
    """(cells, 4) int32: each square cell's neighbours up, down, left, right that are on the board, -1 padded."""
    n = coords.shape[0]
    r0, c0, r1, c1 = _bounds(coords)
    height, across = r1 - r0 + 3, c1 - c0 + 3  # a margin of one off the board all round
    dense = np.full(height * across, -1, np.int64)
    for i in range(n):
        dense[(coords[i, 0] - r0 + 1) * across + coords[i, 1] - c0 + 1] = i
    out = np.full((n, 4), -1, np.int32)
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    for i in range(n):
        k = 0
        for dr, dc in steps:
            j = dense[(coords[i, 0] - r0 + 1 + dr) * across + coords[i, 1] - c0 + 1 + dc]
            if j >= 0:
                out[i, k] = j
                k += 1
    return out


@njit(cache=True)
def one_word_tables(masks, cell_rows, neighbour_list, deadline_piece, deadline_anchor):  # pragma: no cover - compiled
    """Each cell's neighbour mask, each option's border (cells next to it, off it) and the deadlines ``late``."""
    n = neighbour_list.shape[0]
    neighbours = np.zeros(n, np.uint64)
    for c in range(n):
        for j in range(neighbour_list.shape[1]):
            x = neighbour_list[c, j]
            if x >= 0:
                neighbours[c] |= ONE << np.uint64(x)
    n_opt = masks.shape[0]
    border = np.empty(n_opt, np.uint64)
    for o in range(n_opt):
        around = ZERO
        for j in range(cell_rows.shape[1]):
            c = cell_rows[o, j]
            if c >= 0:
                around |= neighbours[c]
        border[o] = around & ~masks[o]
    late = np.zeros(n, np.uint64)
    for k in range(deadline_piece.shape[0]):
        for c in range(deadline_anchor[k] + 1, n):
            late[c] |= ONE << np.uint64(deadline_piece[k])
    return neighbours, border, late


@njit(cache=True)
def probe_size(masks, anchor_start, probe):  # pragma: no cover - compiled
    """Entries of the probe table with a window of ``probe`` cells: each option is in 2^(its free window cells)
    lists."""
    n = anchor_start.shape[0] - 1
    low = np.uint64((1 << probe) - 1)
    total = 0
    for c in range(n):
        for o in range(anchor_start[c], anchor_start[c + 1]):
            free = ~(masks[o] >> np.uint64(c + 1)) & low
            k = 0
            while free:
                free &= free - ONE
                k += 1
            total += 1 << k
    return total


@njit(cache=True)
def probe_entries(masks, piece, anchor_start, probe):  # pragma: no cover - compiled
    """`kernel_common.probe_table` writing each option only into the lists of the windows it misses (the submasks of
    its free window cells), in option order: the lists' starts, and per entry option, run end, mask and piece."""
    n = anchor_start.shape[0] - 1
    windows = 1 << probe
    low = np.uint64(windows - 1)
    start = np.zeros(n * windows + 1, np.int32)
    for c in range(n):
        base = c * windows + 1
        for o in range(anchor_start[c], anchor_start[c + 1]):
            free = ~(masks[o] >> np.uint64(c + 1)) & low
            sub = free
            while True:
                start[base + np.int64(sub)] += 1
                if sub == ZERO:
                    break
                sub = (sub - ONE) & free
    for k in range(n * windows):
        start[k + 1] += start[k]
    total = start[-1]
    option = np.empty(total, np.int32)
    run_end = np.empty(total, np.int32)
    e_mask = np.empty(total, np.uint64)
    e_piece = np.empty(total, np.uint8)
    cursor = start[:-1].copy()
    for c in range(n):
        base = c * windows
        for o in range(anchor_start[c], anchor_start[c + 1]):
            free = ~(masks[o] >> np.uint64(c + 1)) & low
            sub = free
            while True:
                k = base + np.int64(sub)
                i = cursor[k]
                option[i] = o
                e_mask[i] = masks[o]
                e_piece[i] = piece[o]
                cursor[k] = i + 1
                if sub == ZERO:
                    break
                sub = (sub - ONE) & free
    for k in range(n * windows):  # runs of one piece within each list, from the back
        first, end = start[k], start[k + 1]
        stop = end
        for i in range(end - 1, first - 1, -1):
            if i < end - 1 and e_piece[i] != e_piece[i + 1]:
                stop = i + 1
            run_end[i] = stop
    return start, option, run_end, e_mask, e_piece


@njit(cache=True)
def option_images(masks, piece, cell_rows, perms):  # pragma: no cover - compiled
    """For each permutation (of cells) and option, the option of the same piece covering the image cells, or -1
    (each image mask looked up in an open-addressing hash table of the options' masks)."""
    n_opt = masks.shape[0]
    bits = 1
    while (1 << bits) < 2 * n_opt:
        bits += 1
    shift = np.uint64(64 - bits)
    spread = np.uint64(0x9E3779B97F4A7C15)
    size_mask = (1 << bits) - 1
    table = np.full(1 << bits, -1, np.int64)
    for o in range(n_opt):
        h = np.int64((masks[o] * spread) >> shift)
        while table[h] >= 0:
            h = (h + 1) & size_mask
        table[h] = o
    images = np.empty((perms.shape[0], n_opt), np.int64)
    for g in range(perms.shape[0]):
        for o in range(n_opt):
            image = ZERO
            for j in range(cell_rows.shape[1]):
                c = cell_rows[o, j]
                if c >= 0:
                    image |= ONE << np.uint64(perms[g, c])
            found = -1
            h = np.int64((image * spread) >> shift)
            while table[h] >= 0:
                x = table[h]
                if masks[x] == image and piece[x] == piece[o]:
                    found = x
                    break
                h = (h + 1) & size_mask
            images[g, o] = found
    return images


@njit(cache=True)
def square_symmetries(coords, maps):  # pragma: no cover - compiled
    """`gridgames.search.symmetry.board_symmetries` compiled: the maps (``maps``: `SQUARE_MAPS`) that, followed by a
    translation of the bounding box, carry the cells (``coords``, bit order) onto themselves, as distinct (G, n)
    int32 cell permutations in the maps' order (identity first)."""
    n = coords.shape[0]
    r0, c0, r1, c1 = _bounds(coords)
    height, across = r1 - r0 + 1, c1 - c0 + 1
    dense = np.full(height * across, -1, np.int64)
    for i in range(n):
        dense[(coords[i, 0] - r0) * across + coords[i, 1] - c0] = i
    perms = np.empty((maps.shape[0], n), np.int32)
    found = 0
    image = np.empty((n, 2), np.int64)
    for g in range(maps.shape[0]):
        a, b, c, d = maps[g, 0], maps[g, 1], maps[g, 2], maps[g, 3]
        low_r, low_c = np.int64(1) << 62, np.int64(1) << 62
        for i in range(n):
            image[i, 0] = a * coords[i, 0] + b * coords[i, 1]
            image[i, 1] = c * coords[i, 0] + d * coords[i, 1]
            low_r, low_c = min(low_r, image[i, 0]), min(low_c, image[i, 1])
        ok = True
        for i in range(n):
            r, col = image[i, 0] - low_r, image[i, 1] - low_c
            if r >= height or col >= across or dense[r * across + col] < 0:
                ok = False
                break
            perms[found, i] = dense[r * across + col]
        if not ok:
            continue
        # a map giving a permutation already found (a symmetric board) adds nothing
        for h in range(found):
            same = True
            for i in range(n):
                if perms[h, i] != perms[found, i]:
                    same = False
                    break
            if same:
                ok = False
                break
        if ok:
            found += 1
    return perms[:found].copy()


@njit(cache=True)
def free_representatives(images, piece, counts):  # pragma: no cover - compiled
    """The options that head their orbit (the least option of it) among the pieces used once whose placements no
    symmetry but the identity fixes (``images``: (G, options), identity first, none -1), in option order."""
    n_pieces = counts.shape[0]
    free = np.zeros(n_pieces, np.bool_)
    for p in range(n_pieces):
        free[p] = counts[p] == 1
    seen = np.zeros(n_pieces, np.bool_)
    for o in range(images.shape[1]):
        p = piece[o]
        seen[p] = True
        for g in range(1, images.shape[0]):
            if images[g, o] == o:
                free[p] = False
    heads = np.empty(images.shape[1], np.int64)
    k = 0
    for o in range(images.shape[1]):
        if not free[piece[o]] or not seen[piece[o]]:
            continue
        least = True
        for g in range(1, images.shape[0]):
            if images[g, o] < o:
                least = False
                break
        if least:
            heads[k] = o
            k += 1
    return heads[:k].copy()
